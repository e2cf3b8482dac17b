"""Undo, action hints and the scenario list of the table server, over real sockets.

A Hold the Line hot-seat game is played through the WebSocket: a seat takes back its own last
decision (stored as an undo mark, the table rebuilt from the stored events, the version
growing), but never past a die roll, never the other seat's decision, never from a stale
version or with a request id used before. A second server on the same database rebuilds the
game with the undo in it.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from server_helpers import TIMEOUT, LiveServer


@pytest.fixture(scope="module")
def database(tmp_path_factory: pytest.TempPathFactory) -> str:
    return f"sqlite:///{tmp_path_factory.mktemp('undo') / 'server.db'}"


@pytest.fixture(scope="module")
def live(database: str) -> Iterator[LiveServer]:
    with LiveServer(database) as server:
        yield server


@pytest.fixture(scope="module")
def http(live: LiveServer) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=live.base, timeout=TIMEOUT) as client:
        yield client


def message(ws: ClientConnection, kind: str) -> dict[str, Any]:
    """The next message of ``kind`` ("state" or "error"), skipping "thinking"."""
    while True:
        msg = json.loads(ws.recv(timeout=TIMEOUT))
        if msg["type"] == kind:
            return msg
        assert msg["type"] == "thinking", msg


def send(ws: ClientConnection, kind: str, version: int, **fields: Any) -> str:
    request_id = fields.pop("request_id", None) or str(uuid.uuid4())
    ws.send(json.dumps({"type": kind, "version": version, "request_id": request_id, **fields}))
    return request_id


def without_events(view: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k != "events"}


class Hotseat:
    """Both seats of a new hot-seat Hold the Line game, each on its own socket."""

    def __init__(self, live: LiveServer, http: httpx.Client, scenario: str = "tutorial") -> None:
        answer = http.post("/api/games", json={"game": "holdtheline", "mode": "hotseat",
                                               "options": {"scenario": scenario}})
        assert answer.status_code == 201, answer.text
        self.created = answer.json()
        self.id = self.created["id"]
        self.ws = {s: live.ws(self.id, self.created["tokens"][str(s)]) for s in (0, 1)}
        self.latest = {s: message(self.ws[s], "state") for s in (0, 1)}

    def states(self) -> dict[int, dict[str, Any]]:
        """The next state of each seat (after a change both were told of)."""
        self.latest = {s: message(self.ws[s], "state") for s in (0, 1)}
        return self.latest

    def to_act(self) -> int:
        return next(s for s in (0, 1) if self.latest[s]["legal"])

    def close(self) -> None:
        for ws in self.ws.values():
            ws.close()


@pytest.fixture
def game(live: LiveServer, http: httpx.Client) -> Iterator[Hotseat]:
    g = Hotseat(live, http)
    yield g
    g.close()


def first_move(state: dict[str, Any]) -> dict[str, Any]:
    return next(a for a in state["legal"] if a["type"] == "move")


# ----------------------------------------------------------------------------- scenarios


def test_scenarios_are_listed_with_their_sides(http: httpx.Client) -> None:
    answer = http.get("/api/scenarios")
    assert answer.status_code == 200
    scenarios = answer.json()["scenarios"]
    names = [s["name"] for s in scenarios]
    assert names[0] == "tutorial" and "trenton" in names
    for s in scenarios:
        assert s["title"] and s["summary"]
        assert len(s["sides"]) == 2 and all(side["name"] and side["label"] for side in s["sides"])
        assert s["first"] in (0, 1) and s["turns"] > 0


def test_a_holdtheline_game_with_an_unknown_scenario_is_refused(http: httpx.Client) -> None:
    answer = http.post("/api/games", json={"game": "holdtheline",
                                           "options": {"scenario": "waterloo"}})
    assert answer.status_code == 422
    assert "waterloo" in answer.json()["error"]


# ----------------------------------------------------------------------------- hints


def test_hints_run_parallel_to_the_legal_actions(game: Hotseat) -> None:
    seat = game.to_act()
    state = game.latest[seat]
    assert len(state["hints"]) == len(state["legal"]) > 0
    for action, hint in zip(state["legal"], state["hints"], strict=True):
        assert "ap" in hint
        if action["type"] == "move":
            assert hint["to"] == action["path"][-1]
    assert game.latest[1 - seat]["legal"] == [] and game.latest[1 - seat]["hints"] == []
    assert state["undo"] is False  # nothing decided yet


# ----------------------------------------------------------------------------- undo


def test_undo_takes_back_a_move(game: Hotseat, live: LiveServer, database: str) -> None:
    seat = game.to_act()
    before = game.latest[seat]
    send(game.ws[seat], "play", before["version"], action=first_move(before))
    moved = game.states()[seat]
    assert moved["version"] == before["version"] + 1
    assert moved["undo"] is True and game.latest[1 - seat]["undo"] is False
    assert moved["view"] != before["view"]

    send(game.ws[seat], "undo", moved["version"])
    undone = game.states()[seat]
    assert undone["version"] == moved["version"] + 1  # versions only grow
    assert undone["view"] == before["view"]
    assert undone["legal"] == before["legal"] and undone["hints"] == before["hints"]
    assert undone["log"] == before["log"]
    assert undone["undo"] is False  # back at the die roll: nothing more to take back

    # a play made on the state before the undo is stale
    send(game.ws[seat], "play", moved["version"], action=first_move(before))
    assert "stale" in message(game.ws[seat], "error")["message"]

    # another server on the same database rebuilds the game with the undo in it
    with LiveServer(database) as other, httpx.Client(base_url=other.base, timeout=TIMEOUT) as h2:
        token = game.created["tokens"][str(seat)]
        again = h2.get(f"/api/games/{game.id}", params={"token": token}).json()
    assert again["version"] == undone["version"]
    assert again["view"] == undone["view"] and again["legal"] == undone["legal"]

    # and play goes on from there
    send(game.ws[seat], "play", undone["version"], action=undone["legal"][-1])
    assert game.states()[seat]["version"] > undone["version"]


def test_two_moves_are_taken_back_one_at_a_time(game: Hotseat) -> None:
    seat = game.to_act()
    start = game.latest[seat]
    state = start
    for _ in range(2):
        send(game.ws[seat], "play", state["version"], action=first_move(state))
        state = game.states()[seat]
        if not state["legal"] or state["view"]["active"] != seat:
            pytest.skip("the turn ended after one move")
    send(game.ws[seat], "undo", state["version"])
    one = game.states()[seat]
    send(game.ws[seat], "undo", one["version"])
    two = game.states()[seat]
    assert without_events(two["view"]) == without_events(start["view"])
    assert two["version"] == start["version"] + 4


def test_undo_never_goes_past_a_die_or_the_other_seat(game: Hotseat) -> None:
    seat = game.to_act()
    state = game.latest[seat]
    # ending the turn rolls the other side's action die
    send(game.ws[seat], "play", state["version"], action={"type": "end"})
    after = game.states()
    assert after[seat]["undo"] is False
    send(game.ws[seat], "undo", after[seat]["version"])
    assert "nothing to take back" in message(game.ws[seat], "error")["message"]

    other = 1 - seat
    assert after[other]["legal"], "the other side is to act after its action die"
    send(game.ws[other], "play", after[other]["version"], action=first_move(after[other]))
    moved = game.states()
    # the first seat may not take back the other seat's decision
    assert moved[seat]["undo"] is False and moved[other]["undo"] is True
    send(game.ws[seat], "undo", moved[seat]["version"])
    assert "nothing to take back" in message(game.ws[seat], "error")["message"]


def test_stale_and_repeated_undo_requests_are_refused(game: Hotseat) -> None:
    seat = game.to_act()
    state = game.latest[seat]
    send(game.ws[seat], "play", state["version"], action=first_move(state))
    moved = game.states()[seat]
    send(game.ws[seat], "undo", state["version"])  # the version before the move
    assert "stale" in message(game.ws[seat], "error")["message"]
    rid = send(game.ws[seat], "undo", moved["version"])
    undone = game.states()[seat]
    send(game.ws[seat], "play", undone["version"], action=first_move(undone))
    again = game.states()[seat]
    send(game.ws[seat], "undo", again["version"], request_id=rid)
    assert "used already" in message(game.ws[seat], "error")["message"]


def test_spectators_cannot_undo(game: Hotseat, live: LiveServer) -> None:
    with connect(f"ws://127.0.0.1:{live.port}/ws/games/{game.id}") as ws:
        state = message(ws, "state")
        assert state["seat"] is None and state["undo"] is False
        send(ws, "undo", state["version"])
        assert "spectators" in message(ws, "error")["message"]


def test_undo_message_fields_are_checked(game: Hotseat) -> None:
    ws = game.ws[0]
    ws.send(json.dumps({"type": "undo", "request_id": "x"}))
    assert "version" in message(ws, "error")["message"]


def test_the_state_over_http_carries_hints_and_undo(game: Hotseat, http: httpx.Client) -> None:
    seat = game.to_act()
    token = game.created["tokens"][str(seat)]
    state = http.get(f"/api/games/{game.id}", params={"token": token}).json()
    assert state["hints"] == game.latest[seat]["hints"] and state["undo"] is False
