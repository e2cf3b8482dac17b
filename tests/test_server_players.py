"""Players and their ratings over real sockets (a Uvicorn server on a free port, httpx and
WebSockets), on SQLite and PostgreSQL: signing up with a name, the Bearer key (stored only as a
hash), moving the key by a one-time transfer code, profiles, rated games against the computer
and between two players, the leaderboard."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, text

from server_helpers import TIMEOUT, LiveServer
from warboard.server.tokens import hash_token


@pytest.fixture
def live(database_url: str) -> Iterator[LiveServer]:
    with LiveServer(database_url) as server:
        yield server


@pytest.fixture
def http(live: LiveServer) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=live.base, timeout=TIMEOUT) as client:
        yield client


def bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def sign_up(http: httpx.Client, name: str) -> dict[str, Any]:
    answer = http.post("/api/players", json={"name": name})
    assert answer.status_code == 201, answer.text
    return answer.json()


def rows(database_url: str, query: str, **params: Any) -> list[tuple[Any, ...]]:
    engine = create_engine(database_url)
    try:
        with engine.connect() as db:
            return [tuple(row) for row in db.execute(text(query), params)]
    finally:
        engine.dispose()


def test_a_player_signs_up_with_a_name_and_is_known_by_the_key(live: LiveServer,
                                                               http: httpx.Client) -> None:
    made = sign_up(http, "Ada_Lovelace")
    assert set(made) == {"id", "name", "key"} and made["name"] == "Ada_Lovelace"
    assert len(made["key"]) >= 32
    me = http.get("/api/players/me", headers=bearer(made["key"]))
    assert me.status_code == 200 and me.json() == {"id": made["id"], "name": "Ada_Lovelace"}
    # only the key's hash is stored, nowhere the key itself
    assert rows(live.database_url, "SELECT key_hash FROM player_keys") \
        == [(hash_token(made["key"]),)]
    for table in ("players", "player_keys"):
        dump = repr(rows(live.database_url, f"SELECT * FROM {table}"))
        assert made["key"] not in dump


def test_names_are_unique_whatever_their_capitals(http: httpx.Client) -> None:
    sign_up(http, "Grace Hopper")
    again = http.post("/api/players", json={"name": "grace HOPPER"})
    assert again.status_code == 409 and "taken" in again.json()["error"]


@pytest.mark.parametrize("name", ["ab", "x" * 25, "<img src=x onerror=alert(1)>", " Ada",
                                  "Ada ", "Ada  Byron", "Ada\u200bByron", "Adä", "a\nb", "",
                                  "--x", "ok&co"])
def test_bad_names_are_refused(http: httpx.Client, name: str) -> None:
    answer = http.post("/api/players", json={"name": name})
    assert answer.status_code == 422, answer.text
    assert "letters and digits" in answer.json()["error"]


def test_a_bad_or_absent_key_is_401(http: httpx.Client) -> None:
    assert http.get("/api/players/me").status_code == 401
    for header in ("Bearer not-a-key", "Basic abc", "Bearer", "Bearer " + "k" * 101):
        answer = http.get("/api/players/me", headers={"Authorization": header})
        assert answer.status_code == 401, header
        assert answer.headers["WWW-Authenticate"] == "Bearer"
        assert answer.json()["error"]
    # a bad key is refused where a key is optional too (it is never taken as anonymous)
    assert http.post("/api/games", json={"mode": "ai"},
                     headers=bearer("not-a-key")).status_code == 401


def test_a_signed_in_players_game_seat_is_theirs_and_anonymous_play_is_unchanged(
        live: LiveServer, http: httpx.Client) -> None:
    player = sign_up(http, "Seat_Holder")
    mine = http.post("/api/games", json={"mode": "friend", "seat": 1},
                     headers=bearer(player["key"]))
    anonymous = http.post("/api/games", json={"mode": "ai"})
    assert mine.status_code == anonymous.status_code == 201
    held = rows(live.database_url, "SELECT game_id, seat, player_id FROM seats "
                                   "WHERE player_id IS NOT NULL")
    assert held == [(mine.json()["id"], 1, player["id"])]
    assert http.get(f"/api/games/{anonymous.json()['id']}",
                    params={"token": anonymous.json()["token"]}).json()["rated"] is False
