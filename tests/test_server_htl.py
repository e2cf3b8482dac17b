"""``GET /api/games/{id}/replay`` over real sockets: a finished game step by step, compactly.

Hot-seat games are played to the end with random legal plays over the WebSocket; the replay's
views, rebuilt from its start and each step's change the way the browser rebuilds them
(js/replayview.js ``applyChange``), must be exactly the seat's record frames, and its actions
the record's events; a spectator's replay of a card game must hide what the seats hid.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from server_helpers import TIMEOUT, LiveServer
from warboard.holdtheline.scenario_file import scenario_names
from warboard.server.tables import view_delta
from web_helpers import finish_hotseat_game, http_json, next_state


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with LiveServer(f"sqlite:///{tmp_path_factory.mktemp('htl') / 'server.db'}") as server:
        yield server


@pytest.fixture(scope="module")
def http(live: LiveServer) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=live.base, timeout=TIMEOUT) as client:
        yield client


def apply_change(view: dict[str, Any], change: dict[str, Any]) -> dict[str, Any]:
    """The browser's ``applyChange``: the view after one step."""
    out = dict(view)
    out.update(change.get("set", {}))
    for key, items in change.get("items", {}).items():
        out[key] = list(out[key])
        for i, value in items:
            out[key][i] = value
    for key, added in change.get("append", {}).items():
        out[key] = out[key] + added
    for key in change.get("drop", []):
        del out[key]
    return out


def frames(replay: dict[str, Any]) -> list[dict[str, Any]]:
    views = [replay["start"]]
    for step in replay["steps"]:
        views.append(apply_change(views[-1], step["change"]))
    return views


def test_view_delta_round_trips() -> None:
    old = {"a": 1, "units": [{"id": 1}, {"id": 2}, {"id": 3}], "events": [1, 2], "gone": 0}
    new = {"a": 2, "units": [{"id": 1}, {"id": 9}, {"id": 3}], "events": [1, 2, 3], "b": None}
    delta = view_delta(old, new)
    assert delta == {"set": {"a": 2, "b": None}, "items": {"units": [[1, {"id": 9}]]},
                     "append": {"events": [3]}, "drop": ["gone"]}
    assert apply_change(old, delta) == new
    assert view_delta(new, new) == {}
    # a list that shrinks, or changes mostly, is sent whole
    assert view_delta({"x": [1, 2, 3]}, {"x": [1]}) == {"set": {"x": [1]}}
    assert view_delta({"x": [1, 2]}, {"x": [3, 4]}) == {"set": {"x": [3, 4]}}


def test_replay_of_a_hold_the_line_game(live: LiveServer, http: httpx.Client) -> None:
    # not before the game is over
    early = http.post("/api/games", json={"game": "holdtheline", "mode": "hotseat",
                                          "options": {"scenario": "tutorial"}}).json()
    answer = http.get(f"/api/games/{early['id']}/replay", params={"token": early["token"]})
    assert answer.status_code == 409
    assert "over" in answer.json()["error"]

    created = finish_hotseat_game(live.base, "holdtheline", seed=3,
                                  options={"scenario": "tutorial"})
    game_id, token = created["id"], created["tokens"]["0"]
    answer = http.get(f"/api/games/{game_id}/replay", params={"token": token})
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"].startswith("application/json")
    replay = answer.json()
    assert replay["type"] == "replay" and replay["game"] == "holdtheline"
    assert replay["seat"] == 0 and replay["mode"] == "hotseat"
    assert replay["players"] == ["human", "human"]
    assert replay["result"]["summary"]["winner"] in (0, 1, None)

    # every decision and die, and the seat's views after each: exactly the seat's record
    record_answer = http.get(f"/api/games/{game_id}/record", params={"token": token})
    record = record_answer.json()
    steps = replay["steps"]
    assert len(steps) == len(record["events"]) > 20
    assert [(s["seat"], s["action"]) for s in steps] == [
        (e["seat"], e["action"]) for e in record["events"]]
    assert not any(s.get("hidden") for s in steps)
    assert any(s["seat"] is None for s in steps) and any(s["seat"] == 1 for s in steps)
    assert frames(replay) == record["frames"]
    # ... in a fraction of the record's size (each frame there repeats the board and the log)
    assert len(answer.content) * 5 < len(record_answer.content)

    # everything is public: a spectator gets the same game, and the last view is the table's
    watched = http.get(f"/api/games/{game_id}/replay").json()
    assert watched["seat"] is None
    assert [s["action"] for s in watched["steps"]] == [s["action"] for s in steps]
    assert frames(watched)[-1] == http.get(f"/api/games/{game_id}").json()["view"]

    # made once: the same answer again
    assert http.get(f"/api/games/{game_id}/replay", params={"token": token}).content \
        == answer.content

    assert http.get(f"/api/games/{game_id}/replay", params={"token": "nope"}).status_code == 403
    missing = http.get("/api/games/nosuchgame/replay")
    assert missing.status_code == 404 and "error" in missing.json()


@pytest.mark.parametrize("scenario", scenario_names())
def test_every_scenario_is_played_to_its_end_and_replays(live: LiveServer, http: httpx.Client,
                                                         scenario: str) -> None:
    created = finish_hotseat_game(live.base, "holdtheline", seed=7,
                                  options={"scenario": scenario})
    game_id, token = created["id"], created["tokens"]["1"]
    state = http.get(f"/api/games/{game_id}", params={"token": token}).json()
    assert state["status"] == "over" and state["result"]["summary"]["reason"] in ("vp", "time")
    replay = http.get(f"/api/games/{game_id}/replay", params={"token": token}).json()
    record = http.get(f"/api/games/{game_id}/record", params={"token": token}).json()
    assert frames(replay) == record["frames"] and frames(replay)[-1] == state["view"]


def test_replay_of_a_card_game_hides_what_the_reader_did_not_see(
        live: LiveServer, http: httpx.Client) -> None:
    created = finish_hotseat_game(live.base, "hill218", seed=5)
    game_id = created["id"]
    seat0 = http.get(f"/api/games/{game_id}/replay",
                     params={"token": created["tokens"]["0"]}).json()
    record = http.get(f"/api/games/{game_id}/record",
                      params={"token": created["tokens"]["0"]}).json()
    assert frames(seat0) == record["frames"]
    assert [(s["seat"], s["action"], s.get("hidden", False)) for s in seat0["steps"]] == [
        (e["seat"], e["action"], e.get("hidden", False)) for e in record["events"]]

    watched = http.get(f"/api/games/{game_id}/replay").json()
    hidden = [s for s in watched["steps"] if s.get("hidden")]
    assert len(hidden) > sum(1 for s in seat0["steps"] if s.get("hidden"))
    assert all(s["action"] is None for s in hidden)
    views = frames(watched)
    assert views[-1] == http.get(f"/api/games/{game_id}").json()["view"]
    # the spectator's views never hold a seat's own cards
    assert all(v["seat"] is None and not {"hand", "deck", "bottom"} & v.keys() for v in views)
    assert any("hand" in v for v in frames(seat0))


def test_a_game_with_leader_ratings_reaches_turn_1_after_both_assignments(
        live: LiveServer) -> None:
    """Option 11.6 over real sockets: seat 0, then seat 1, is offered its assignments (the
    scenario's first); after both, the game is in turn 1 with the chosen ratings on the
    table."""
    created = http_json("POST", live.base + "/api/games", {
        "game": "holdtheline", "mode": "hotseat",
        "options": {"scenario": "princeton", "options": {"leader_ratings": True}}})
    ws_base = live.base.replace("http://", "ws://")
    socks = {s: connect(f"{ws_base}/ws/games/{created['id']}?token={created['tokens'][str(s)]}")
             for s in (0, 1)}
    try:
        first = next_state(socks[0])
        assert first["view"]["phase"] == "assign" and next_state(socks[1])["legal"] == []
        assert first["legal"][0] == {"type": "assign_ratings",
                                     "ratings": {"mercer": [1, 1], "washington": [2, 2]}}
        version = first["version"]
        socks[0].send(json.dumps({"type": "play", "action": first["legal"][1],
                                  "version": version, "request_id": "r0"}))
        second = next_state(socks[1], after=version)
        assert second["view"]["phase"] == "assign" and second["legal"][0]["type"] == \
            "assign_ratings"
        next_state(socks[0], after=version)
        socks[1].send(json.dumps({"type": "play", "action": second["legal"][0],
                                  "version": second["version"], "request_id": "r1"}))
        done = next_state(socks[0], after=second["version"])
        view = done["view"]
        assert view["phase"] == "act" and view["turn"] == 1
        assert {ld["id"]: ld["rating"] for ld in view["leaders"]}["mercer"] == [2, 2]
    finally:
        for ws in socks.values():
            ws.close()
