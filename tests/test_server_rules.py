"""``GET /api/rules/{game}`` over real sockets: each game's public data, from its own tables."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator

import httpx
import pytest

from server_helpers import TIMEOUT, LiveServer
from warboard.core.registry import game_names
from warboard.hill218.ruleset import load_ruleset
from warboard.holdtheline.tables import TABLES


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with LiveServer(f"sqlite:///{tmp_path_factory.mktemp('db') / 'server.db'}") as server:
        yield server


@pytest.fixture(scope="module")
def http(live: LiveServer) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=live.base, timeout=TIMEOUT) as client:
        yield client


def test_every_game_answers_its_data(http: httpx.Client) -> None:
    for name in game_names():
        answer = http.get(f"/api/rules/{name}")
        assert answer.status_code == 200, answer.text
        assert answer.headers["content-type"] == "application/json"
        assert answer.json()["game"] == name
        assert http.get(f"/api/rules/{name}").content == answer.content


@pytest.mark.parametrize("name", ["hill218", "ogre218"])
def test_card_game_data_is_the_ruleset(http: httpx.Client, name: str) -> None:
    data = http.get(f"/api/rules/{name}").json()
    rules = load_ruleset(name)
    assert (data["title"], data["strike_name"], data["strikes"], data["base_name"],
            data["hill_name"], data["support_name"]) == (
        rules.title, rules.strike_name, rules.strikes, rules.base_name, rules.hill_name,
        rules.support_name)
    assert [u["name"] for u in data["units"]] == [u.name for u in rules.units]
    for got, unit in zip(data["units"], rules.units, strict=True):
        assert (got["abbrev"], got["count"], got["attacks"], got["counts_as"], got["plays"],
                got["drop"], got["hit_becomes"]) == (
            unit.abbrev, unit.count, unit.attacks, unit.counts_as, unit.plays, unit.drop,
            unit.hit_becomes)
        assert [tuple(c) for c in got["supply"]] == list(unit.supply)
        assert [tuple(c) for c in got["support"]] == list(unit.support)
        attack = [(tuple(c), False) for c in got["attack"]["combined"]] + [
            (tuple(c), True) for c in got["attack"]["individual"]]
        assert attack == list(unit.attack)
    titles = {u["name"]: u["title"] for u in data["units"]}
    if name == "ogre218":
        assert titles["light_gev"] == "Light GEV" and data["handicap"] == {
            "option": "damaged_ogres", "unit": "ogre", "becomes": "damaged_ogre"}
    else:
        assert titles["heavy_weapons"] == "Heavy Weapons" and data["handicap"] is None


def test_hold_the_line_data_is_the_tables(http: httpx.Client) -> None:
    data = http.get("/api/rules/holdtheline").json()
    assert list(data["terrain"]) == list(TABLES.terrain)
    for name, t in TABLES.terrain.items():
        assert data["terrain"][name] == {"combat": t.combat, "movement": t.movement,
                                         "blocks_los": t.blocks_los, "morale": t.morale}
    assert list(data["units"]) == list(TABLES.units)
    for kind, u in TABLES.units.items():
        got = data["units"][kind]
        assert (got["label"], tuple(got["fire"]), got["movement"], got["dice"], got["close"],
                got["infantry"], got["max_mp"]) == (
            u.label, u.fire, u.movement, u.dice, u.close, u.infantry, u.max_mp)
    assert data["ap"] == TABLES.ap
    assert data["leader"] == {"movement": TABLES.leader_movement,
                              "escape": TABLES.leader_escape}


@pytest.mark.parametrize("path, status", [
    ("/api/rules/chess", 404),
    ("/api/rules/HILL218", 404),
    ("/api/rules/hill218.toml", 404),
    ("/api/rules/..%2F..%2Fpyproject.toml", 404),
    ("/api/rules/%2E%2E", 404),
    ("/api/rules/" + "x" * 41, 422),
    ("/api/rules/" + "x" * 10_000, 422),
])
def test_names_that_are_no_game_are_refused(http: httpx.Client, path: str,
                                            status: int) -> None:
    start = time.monotonic()
    answer = http.get(path)
    assert answer.status_code == status, answer.text
    assert "error" in answer.json()
    assert time.monotonic() - start < 1.0


def test_a_raw_dot_dot_path_answers_404(live: LiveServer) -> None:
    # sent as written, not normalised by a client library
    with socket.create_connection(("127.0.0.1", live.port), timeout=TIMEOUT) as sock:
        sock.sendall(b"GET /api/rules/../../src/warboard/hill218/rulesets/hill218.toml "
                     b"HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        head = sock.recv(65536).split(b"\r\n", 1)[0]
    assert head.split()[1] == b"404", head


def test_game_ids_still_reach_their_games(http: httpx.Client) -> None:
    # the rules sit beside the games' routes, not over them
    created = http.post("/api/games", json={"game": "hill218", "mode": "hotseat"}).json()
    assert http.get(f"/api/games/{created['id']}").status_code == 200
