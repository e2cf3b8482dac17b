"""Scenarios of one's own through the server (docs/server-api.md, "Custom scenarios"): checked by
the scenario files' validator, stored and read back by id, refused when hostile, and played
against the computer in a real ``warboard serve`` process that is restarted mid-game."""

from __future__ import annotations

import dataclasses
import json
import sqlite3
import sys
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from custom_scenarios import SMALL_BATTLE
from server_helpers import TIMEOUT, UNLIMITED_ENV, LiveServer, ServerProcess, free_port
from warboard.core.i18n import english, say
from warboard.core.record import Record
from warboard.holdtheline.scenario_file import load_scenario, scenario_names
from warboard.holdtheline.setups import scenario_from_text


@pytest.fixture(scope="module")
def database(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("custom") / "server.db"


@pytest.fixture(scope="module")
def http(database: Path) -> Iterator[httpx.Client]:
    with LiveServer(f"sqlite:///{database}") as server, \
            httpx.Client(base_url=server.base, timeout=TIMEOUT) as client:
        yield client


def stored_count(database: Path) -> int:
    with closing(sqlite3.connect(database)) as db:
        count: int = db.execute("SELECT count(*) FROM custom_scenarios").fetchone()[0]
        return count


def check(http: httpx.Client, **body: Any) -> dict[str, Any]:
    answer = http.post("/api/scenarios/check", json={"game": "holdtheline", **body})
    assert answer.status_code == 200, answer.text
    out: dict[str, Any] = answer.json()
    return out


def test_check_answers_the_summary_and_the_canonical_text(http: httpx.Client) -> None:
    answer = check(http, toml=SMALL_BATTLE)
    assert answer["ok"] is True
    assert answer["summary"]["title"] == "A skirmish at the ford"
    assert [s["label"] for s in answer["summary"]["sides"]] == ["Blues", "Reds"]
    # the canonical text and the model are the same scenario as the text sent
    sent = scenario_from_text(SMALL_BATTLE)
    assert scenario_from_text(answer["toml"]) == sent
    again = check(http, model=answer["model"])
    assert again["ok"] is True and scenario_from_text(again["toml"]) == sent


@pytest.mark.parametrize("name", scenario_names())
def test_a_packaged_file_round_trips_through_the_editor(http: httpx.Client, name: str) -> None:
    text = (Path(__file__).parent.parent / "src/warboard/holdtheline/scenarios"
            / f"{name}.toml").read_text()
    uploaded = check(http, toml=text)  # upload: the editor gets the model
    downloaded = check(http, model=uploaded["model"])["toml"]  # download: the TOML
    assert dataclasses.replace(scenario_from_text(downloaded), name=name) == load_scenario(name)


@pytest.mark.parametrize(("change", "field", "at"), [
    (('at = "3,4"', 'at = "9,4"'), "sides.blue.units[1].at", [9, 4]),  # off the board
    (('at = "2,0"}]\n', 'at = "2,4"}]\n'), "sides.red.units[0]", [2, 4]),  # with the enemy
    (('"4,0"]\nunits', '"4,9"]\nunits'), "sides.red.reinforcements[0].entry[0]", [4, 9]),
    (('kind = "light"', 'kind = "hussar"'), "sides.red.units[0].kind", None),
    (("turn_limit = 4", "turn_limit = 0"), "turn_limit", None),
])
def test_check_names_the_field_and_the_hex(http: httpx.Client, change: tuple[str, str],
                                           field: str, at: list[int] | None) -> None:
    assert change[0] in SMALL_BATTLE
    answer = check(http, toml=SMALL_BATTLE.replace(*change, 1))
    assert answer["ok"] is False
    [error] = answer["errors"]
    assert error["field"] == field
    assert error["problem"]
    assert error["at"] == at


def test_a_model_error_names_the_field_and_the_hex(http: httpx.Client) -> None:
    model = check(http, toml=SMALL_BATTLE)["model"]
    model["sides"]["red"]["leaders"][0]["at"] = "3,4"  # with the enemy's gun
    [error] = check(http, model=model)["errors"]
    assert error == {"field": "sides.red.leaders[0]", "at": [3, 4],
                     "problem": "leader Reyes stands in hex 3,4 with enemy units",
                     "msg": {"key": "datafile.leaderWithEnemy",
                             "params": {"name": "Reyes", "hex": "3,4"}}}
    assert say(error["msg"], "ja") == "指揮官 Reyes が敵の部隊と同じヘクス 3,4 にいます"


def test_a_refused_scenario_says_its_problem_in_any_language(http: httpx.Client) -> None:
    toml = SMALL_BATTLE.replace("turn_limit = 4", "turn_limit = 0")
    [error] = check(http, toml=toml)["errors"]
    answer = http.post("/api/scenarios", json={"game": "holdtheline", "toml": toml})
    assert answer.status_code == 422
    body = answer.json()
    assert body["msg"] == {"key": "server.scenarioInvalid",
                           "params": {"field": "turn_limit", "problem": error["msg"]}}
    assert body["error"] == english(body["msg"]) == (
        "the scenario is not valid: turn_limit: must be at least 1, not 0")
    assert say(body["msg"], "ja") == (
        "シナリオが正しくありません: turn_limit: 1 以上にしてください(0 になっています)")


@pytest.mark.parametrize(("toml", "words"), [
    ("this is = = not toml", "(syntax)"),
    ("cols = " + "9" * 5000, "not readable TOML"),
    ("a = " + "[" * 3000, "not readable TOML"),
    (SMALL_BATTLE.replace('"2,2"', '"' + "9" * 5000 + ',2"'), 'must be a hex'),
    (SMALL_BATTLE.replace("cols = 6", "cols = 100000000000000000000"), "cols"),
    (SMALL_BATTLE.replace("sides.red", 'sides."../../etc/passwd"'), "side's name"),
    (SMALL_BATTLE.replace('id = "R1"', 'id = "/etc/passwd"'), "not a usable id"),
])
def test_hostile_text_is_refused_and_nothing_is_stored(http: httpx.Client, database: Path,
                                                       toml: str, words: str) -> None:
    answer = check(http, toml=toml)
    assert answer["ok"] is False
    assert words in json.dumps(answer["errors"])
    before = stored_count(database)
    stored = http.post("/api/scenarios", json={"game": "holdtheline", "toml": toml})
    assert stored.status_code == 422
    assert "not valid" in stored.json()["error"]
    assert stored_count(database) == before
    # nor is it played when given whole as a game option
    game = http.post("/api/games", json={"game": "holdtheline",
                                         "options": {"scenario_toml": toml}})
    assert game.status_code == 422 and "scenario_toml" in game.json()["error"]


def test_oversized_and_malformed_requests_are_refused(http: httpx.Client) -> None:
    huge = SMALL_BATTLE + "# " + "x" * 70_000 + "\n"
    for path in ("/api/scenarios/check", "/api/scenarios"):
        answer = http.post(path, json={"game": "holdtheline", "toml": huge})
        assert answer.status_code == 413, answer.text
    both = http.post("/api/scenarios/check", json={"toml": SMALL_BATTLE, "model": {}})
    assert both.status_code == 422 and "one of them" in both.json()["error"]
    no_game = http.post("/api/scenarios/check", json={"game": "chess", "toml": SMALL_BATTLE})
    assert no_game.status_code == 404
    # a path is not an id
    for bad in ("..%2F..%2Fetc%2Fpasswd", "ABC", "a" * 17):
        assert http.get(f"/api/scenarios/custom/{bad}").status_code in (404, 422)
    game = http.post("/api/games", json={"game": "holdtheline", "custom_scenario": "../etc"})
    assert game.status_code == 422
    missing = http.post("/api/games", json={"game": "holdtheline", "custom_scenario": "zzzz"})
    assert missing.status_code == 404


def test_store_and_get(http: httpx.Client) -> None:
    stored = http.post("/api/scenarios", json={"game": "holdtheline", "toml": SMALL_BATTLE})
    assert stored.status_code == 201, stored.text
    body = stored.json()
    assert body["url"] == f"/editor?scenario={body['id']}"
    got = http.get(f"/api/scenarios/custom/{body['id']}").json()
    assert got["ok"] is True and got["game"] == "holdtheline"
    assert scenario_from_text(got["toml"]) == scenario_from_text(SMALL_BATTLE)
    assert got["summary"] == body["summary"]
    assert http.get("/api/scenarios/custom/zzzzzzzzzz").status_code == 404


def test_storing_is_rate_limited(tmp_path: Path) -> None:
    from server_helpers import UNLIMITED

    limited = UNLIMITED.model_copy(update={"scenarios_per_hour": 1})
    with LiveServer(f"sqlite:///{tmp_path / 'q.db'}", settings=limited) as server:
        body = {"game": "holdtheline", "toml": SMALL_BATTLE}
        assert httpx.post(f"{server.base}/api/scenarios", json=body).status_code == 201
        again = httpx.post(f"{server.base}/api/scenarios", json=body)
        assert again.status_code == 429 and "Retry-After" in again.headers


def next_state(ws: Any, after: int = -1) -> dict[str, Any]:
    while True:
        msg = json.loads(ws.recv(timeout=TIMEOUT))
        assert msg.get("type") != "error", msg
        if msg.get("type") == "state" and msg["version"] > after:
            return msg


def play_moves(base: str, game_id: str, token: str, moves: int) -> int:
    """Play ``moves`` of the seat's own turns (its first legal action); the version after."""
    with connect(f"{base.replace('http', 'ws')}/ws/games/{game_id}?token={token}",
                 open_timeout=TIMEOUT) as ws:
        state = next_state(ws)
        for _ in range(moves):
            while not state["legal"]:
                state = next_state(ws, state["version"])
            ws.send(json.dumps({"type": "play", "action": state["legal"][0],
                                "version": state["version"], "request_id": f"r{state['version']}"}))
            state = next_state(ws, state["version"])
        version: int = state["version"]
        return version


def test_a_stored_scenario_is_played_against_the_computer_across_a_restart(
        tmp_path: Path) -> None:
    port = free_port()
    argv = [sys.executable, "-m", "warboard.cli", "serve", "--port", str(port),
            "--database-url", f"sqlite:///{tmp_path / 'games.db'}", "--ai-workers", "0"]
    with ServerProcess(argv, tmp_path, port, UNLIMITED_ENV) as server:
        stored = httpx.post(f"{server.base}/api/scenarios",
                            json={"game": "holdtheline", "toml": SMALL_BATTLE}).json()
        created = httpx.post(f"{server.base}/api/games", json={
            "game": "holdtheline", "mode": "ai", "ai_level": "easy",
            "custom_scenario": stored["id"]}, timeout=TIMEOUT)
        assert created.status_code == 201, created.text
        game_id, token = created.json()["id"], created.json()["token"]
        version = play_moves(server.base, game_id, token, 3)
        server.stop()
    with ServerProcess(argv, tmp_path, port, UNLIMITED_ENV) as server:
        state = httpx.get(f"{server.base}/api/games/{game_id}",
                          params={"token": token}).json()
        assert state["version"] >= version
        assert state["view"]["title"] == "A skirmish at the ford"
        assert state["view"]["cols"] == 6
        # the state names the scenario; its text stays in the stored game and the record
        assert state["options"] == {"scenario": "custom", "title": "A skirmish at the ford"}
        play_moves(server.base, game_id, token, 1)  # it goes on
        with connect(f"ws://127.0.0.1:{port}/ws/games/{game_id}?token={token}",
                     open_timeout=TIMEOUT) as ws:
            ws.send(json.dumps({"type": "resign"}))
            while next_state(ws)["status"] != "over":
                pass
        record = httpx.get(f"{server.base}/api/games/{game_id}/record",
                           params={"token": token}).json()
    # the record carries the scenario: it replays with no server and no file
    assert record["options"] == {"scenario_toml": stored_text(record)}
    game = Record.from_json(record).make_game()
    assert game.describe_seats() == ("Blues", "Reds")
    # each of the seat's frames is the view of the events replayed on that game
    state = game.new_initial_state()
    assert state.observation(0) == record["frames"][0]
    for event, frame in zip(record["events"], record["frames"][1:], strict=True):
        state.apply(game.action_from_json(event["action"], state))
        assert state.observation(0) == frame


def stored_text(record: dict[str, Any]) -> str:
    text: str = record["options"]["scenario_toml"]
    assert scenario_from_text(text) == scenario_from_text(SMALL_BATTLE)
    return text
