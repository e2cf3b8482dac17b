"""Players and their ratings over real sockets (a Uvicorn server on a free port, httpx and
WebSockets), on SQLite and PostgreSQL: signing up with a name, the Bearer key (stored only as a
hash), moving the key by a one-time transfer code, profiles, rated games against the computer
and between two players, the leaderboard."""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, text

from server_helpers import TIMEOUT, UNLIMITED, LiveServer
from test_server import Player
from warboard.ai.levels import LEVELS
from warboard.server import ratings
from warboard.server.ratings import Rating
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


# ----------------------------------------------------------------------------- moving the key

def test_a_transfer_code_gives_another_device_a_key_once(live: LiveServer,
                                                         http: httpx.Client) -> None:
    made = sign_up(http, "Two_Devices")
    assert http.post("/api/players/me/transfer").status_code == 401
    offer = http.post("/api/players/me/transfer", headers=bearer(made["key"]))
    assert offer.status_code == 201, offer.text
    code = offer.json()["code"]
    assert offer.json()["link"] == f"{live.base}/#transfer={code}"
    assert offer.json()["qr_svg"].startswith("<svg") and "</svg>" in offer.json()["qr_svg"]
    assert rows(live.database_url, "SELECT code_hash FROM player_transfers") \
        == [(hash_token(code),)]  # the code too is stored only as its hash

    redeemed = http.post("/api/players/transfer", json={"code": code})
    assert redeemed.status_code == 200, redeemed.text
    other_key = redeemed.json()["key"]
    assert redeemed.json()["id"] == made["id"] and other_key != made["key"]
    for key in (made["key"], other_key):  # both devices are the player now
        assert http.get("/api/players/me", headers=bearer(key)).json()["id"] == made["id"]
    again = http.post("/api/players/transfer", json={"code": code})
    assert again.status_code == 410 and "used already or expired" in again.json()["error"]
    assert http.post("/api/players/transfer", json={"code": "nosuchcode23"}).status_code == 410


def test_an_expired_transfer_code_is_refused(live: LiveServer, http: httpx.Client) -> None:
    made = sign_up(http, "Too_Late")
    code = http.post("/api/players/me/transfer", headers=bearer(made["key"])).json()["code"]
    engine = create_engine(live.database_url)
    with engine.begin() as db:  # the code's ten minutes are over
        db.execute(text("UPDATE player_transfers SET expires = :then"),
                   {"then": datetime.now(UTC) - timedelta(seconds=1)})
    engine.dispose()
    assert http.post("/api/players/transfer", json={"code": code}).status_code == 410
    assert rows(live.database_url, "SELECT count(*) FROM player_keys") == [(1,)]


# ----------------------------------------------------------------------------- ratings

def profile(http: httpx.Client, player_id: str) -> dict[str, Any]:
    answer = http.get(f"/api/players/{player_id}")
    assert answer.status_code == 200, answer.text
    return answer.json()


def rated_game(http: httpx.Client, key: str, **body: Any) -> dict[str, Any]:
    answer = http.post("/api/games", json={"game": GAME, "options": OPTIONS, "rated": True,
                                           **body}, headers=bearer(key))
    assert answer.status_code == 201, answer.text
    return answer.json()


def resign(live: LiveServer, game_id: str, token: str) -> dict[str, Any]:
    player = Player(live.ws_url(game_id, token), 0)
    player.next_state()
    player.send(type="resign")
    over = player.next_state()
    player.close()
    return over


GAME, OPTIONS = "ogre218", {"quick_start": True}


def test_a_rated_game_against_the_computer_played_out_rates_the_player_once(
        live: LiveServer, http: httpx.Client) -> None:
    made = sign_up(http, "Rated_Solo")
    assert profile(http, made["id"]) == {"id": made["id"], "name": "Rated_Solo",
                                         "ratings": {}, "games": []}
    created = rated_game(http, made["key"], mode="ai", ai_level="easy")
    player = Player(live.ws_url(created["id"], created["token"]), 5)
    final = player.play_out()
    player.close()
    assert final["rated"] is True
    score = ratings.scores(final["result"])
    assert score is not None
    expected = ratings.updated(Rating(), ratings.level_rating("easy"), score[0])
    shown = profile(http, made["id"])
    assert shown["ratings"] == {GAME: {"rating": round(expected.rating, 1),
                                       "deviation": round(expected.deviation, 1), "games": 1}}
    assert [(g["id"], g["rated"], g["status"]) for g in shown["games"]] \
        == [(created["id"], True, "over")]
    # the computer's level keeps its rating: it has no row to change
    assert rows(live.database_url, "SELECT player_id, games FROM ratings") == [(made["id"], 1)]
    assert ratings.LEVEL_RATINGS["easy"] == 1590.0
    # a later attempt to end it again changes nothing
    late = Player(live.ws_url(created["id"], created["token"]), 6)
    late.next_state()
    late.send(type="resign", request_id="late")
    assert late.receive()["message"] == "the game is over"
    late.close()
    assert profile(http, made["id"])["ratings"][GAME]["games"] == 1


def test_a_rated_game_lost_on_time_rates_the_player_as_a_loss(
        live: LiveServer, http: httpx.Client) -> None:
    """The flag falls in the server (nobody connected) and the loss counts, once."""
    made = sign_up(http, "Slow_Hand")
    created = rated_game(http, made["key"], mode="ai", ai_level="hard", seat=0,
                         clock={"initial": 1, "increment": 0})
    deadline = time.monotonic() + 30
    while not profile(http, made["id"])["ratings"]:
        assert time.monotonic() < deadline, "the flag did not fall"
        time.sleep(0.2)
    expected = ratings.updated(Rating(), ratings.level_rating("hard"), 0.0)
    assert profile(http, made["id"])["ratings"] == {
        GAME: {"rating": round(expected.rating, 1), "deviation": round(expected.deviation, 1),
               "games": 1}}
    state = http.get(f"/api/games/{created['id']}", params={"token": created["token"]}).json()
    assert state["result"]["summary"] == {"winner": 1, "reason": "time"}


def test_a_rated_game_between_two_players_rates_both_and_orders_the_leaderboard(
        live: LiveServer, http: httpx.Client) -> None:
    winner, loser = sign_up(http, "Winner_One"), sign_up(http, "Loser_Two")
    created = rated_game(http, winner["key"], mode="friend")
    invite = created["invite"].split("#token=")[1]
    # the friend signs in before taking the seat: anonymous, the invite is refused and kept
    anonymous = http.get(f"/api/games/{created['id']}", params={"token": invite})
    assert anonymous.status_code == 401 and "rated" in anonymous.json()["error"]
    own = http.get(f"/api/games/{created['id']}", params={"token": invite},
                   headers=bearer(winner["key"]))
    assert own.status_code == 409  # the creator cannot take the other seat too
    taken = http.get(f"/api/games/{created['id']}", params={"token": invite},
                     headers=bearer(loser["key"]))
    assert taken.status_code == 200 and taken.json()["rated"] is True
    over = resign(live, created["id"], taken.json()["seat_token"])
    assert over["result"] == {"abandoned": True, "by": 1, "how": "resigned"}

    after = {p["id"]: profile(http, p["id"])["ratings"][GAME] for p in (winner, loser)}
    won = ratings.updated(Rating(), Rating(), 1.0)
    assert after[winner["id"]] == {"rating": round(won.rating, 1),
                                   "deviation": round(won.deviation, 1), "games": 1}
    assert after[loser["id"]]["rating"] == round(3000 - won.rating, 1)  # symmetric
    board = http.get(f"/api/leaderboard/{GAME}")
    assert board.status_code == 200
    assert [(p["rank"], p["name"], p["games"]) for p in board.json()["players"]] \
        == [(1, "Winner_One", 1), (2, "Loser_Two", 1)]
    assert http.get("/api/leaderboard/nosuchgame").status_code == 404
    assert http.get(f"/api/leaderboard/{OTHER_GAME}").json()["players"] == []


OTHER_GAME = "hill218"


def test_an_unrated_game_changes_no_rating(live: LiveServer, http: httpx.Client) -> None:
    made = sign_up(http, "Just_Casual")
    created = http.post("/api/games", json={"game": GAME, "options": OPTIONS, "mode": "ai"},
                        headers=bearer(made["key"])).json()
    resign(live, created["id"], created["token"])
    shown = profile(http, made["id"])
    assert shown["ratings"] == {}
    assert [(g["id"], g["rated"]) for g in shown["games"]] == [(created["id"], False)]
    assert rows(live.database_url, "SELECT count(*) FROM ratings") == [(0,)]


def test_a_rated_game_needs_signed_in_players(http: httpx.Client) -> None:
    anonymous = http.post("/api/games", json={"mode": "ai", "rated": True})
    assert anonymous.status_code == 422 and "signed-in" in anonymous.json()["error"]
    made = sign_up(http, "Hot_Seat")
    hotseat = http.post("/api/games", json={"mode": "hotseat", "rated": True},
                        headers=bearer(made["key"]))
    assert hotseat.status_code == 422 and "hotseat" in hotseat.json()["error"]
    assert http.post("/api/games", json={"mode": "ai", "rated": "yes"},
                     headers=bearer(made["key"])).status_code == 422
    assert http.get("/api/players/nosuchplay").status_code == 404


def test_every_level_has_a_fixed_rating_and_results_score_as_expected() -> None:
    assert list(ratings.LEVEL_RATINGS) == list(LEVELS)
    # the levels grow with their strength, master (measured above expert) the strongest
    assert list(ratings.LEVEL_RATINGS.values()) == sorted(ratings.LEVEL_RATINGS.values())
    assert ratings.scores({"returns": [1, -1], "summary": None}) == (1.0, 0.0)
    assert ratings.scores({"returns": [0, 0], "summary": None}) == (0.5, 0.5)
    assert ratings.scores({"abandoned": True, "by": 0, "how": "resigned"}) == (0.0, 1.0)
    assert ratings.scores({"abandoned": True, "by": None, "how": "expired"}) is None


def test_creating_players_is_limited_per_client(tmp_path: Any) -> None:
    limited = UNLIMITED.model_copy(update={"players_per_hour": 1})
    with LiveServer(f"sqlite:///{tmp_path / 'quota.db'}", settings=limited) as server, \
            httpx.Client(base_url=server.base, timeout=TIMEOUT) as http:
        sign_up(http, "First_One")
        again = http.post("/api/players", json={"name": "Second_One"})
        assert again.status_code == 429 and again.headers["Retry-After"]
        assert "at most 1 an hour" in again.json()["error"]
        # a name refused by its rule does not use the quota up: it is checked first
        assert http.post("/api/players", json={"name": "<b>"}).status_code == 422
