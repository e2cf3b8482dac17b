"""Hints over real sockets: in an unrated game against the computer the player's ``hint``
message is answered, on its own connection, with the play the strongest level would make from
that seat's view (one of the legal actions its state lists); anywhere else, off its turn or at a
stale version it is refused and nothing changes."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection

from server_helpers import TIMEOUT, LiveServer


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with LiveServer(f"sqlite:///{tmp_path_factory.mktemp('hints') / 'server.db'}") as server:
        yield server


def next_of(ws: ClientConnection, *kinds: str) -> dict[str, Any]:
    """The next message of one of ``kinds``, skipping "thinking"."""
    while True:
        message = json.loads(ws.recv(timeout=TIMEOUT))
        if message["type"] in kinds:
            return message
        assert message["type"] == "thinking", message


def my_turn(ws: ClientConnection) -> dict[str, Any]:
    """The next state in which this seat is to act."""
    while not (state := next_of(ws, "state"))["legal"]:
        pass
    return state


def ask(ws: ClientConnection, version: int) -> dict[str, Any]:
    request_id = str(uuid.uuid4())
    ws.send(json.dumps({"type": "hint", "version": version, "request_id": request_id}))
    answer = next_of(ws, "hint", "error", "state")
    assert answer.get("request_id") == request_id, answer
    return answer


def open_game(live: LiveServer, **fields: Any) -> tuple[dict[str, Any], ClientConnection]:
    created = httpx.post(f"{live.base}/api/games", json=fields, timeout=TIMEOUT)
    assert created.status_code == 201, created.text
    game = created.json()
    return game, live.ws(game["id"], game.get("token") or game["tokens"]["0"])


@pytest.mark.parametrize("game, options", [("hill218", {"quick_start": True}),
                                           ("holdtheline", {"scenario": "tutorial"})])
def test_a_hint_is_a_legal_play_of_the_strongest_level(live: LiveServer, game: str,
                                                        options: dict[str, Any]) -> None:
    _, ws = open_game(live, game=game, mode="ai", ai_level="easy", options=options)
    with ws:
        state = my_turn(ws)
        hint = ask(ws, state["version"])
        assert hint["type"] == "hint", hint
        # the strongest level that plays the game: master where a model ships
        strongest = {"hill218": "master", "holdtheline": "expert"}[game]
        assert hint["level"] == strongest and hint["version"] == state["version"]
        assert hint["action"] in state["legal"] and hint["text"]
        # nothing changed: the hinted play is still to be made, at the same version
        ws.send(json.dumps({"type": "play", "action": hint["action"],
                            "version": state["version"], "request_id": str(uuid.uuid4())}))
        played = next_of(ws, "state", "error")
        assert played["type"] == "state" and played["version"] > state["version"]
        assert played["last"] == {"seat": state["seat"], "action": hint["action"]}


def test_a_hint_is_refused_at_a_stale_version_and_outside_games_against_the_computer(
        live: LiveServer) -> None:
    _, ws = open_game(live, game="hill218", mode="ai", ai_level="easy",
                      options={"quick_start": True})
    with ws:
        state = my_turn(ws)
        stale = ask(ws, state["version"] - 1)
        assert stale["type"] == "error" and stale["msg"]["key"] == "server.staleHint"
    game, ws = open_game(live, game="hill218", mode="hotseat", options={"quick_start": True})
    with ws, live.ws(game["id"], game["tokens"]["1"]) as other:
        states = [next_of(ws, "state"), next_of(other, "state")]
        seat = next(s for s in (0, 1) if states[s]["legal"])
        refused = ask((ws, other)[seat], states[seat]["version"])
        assert refused["type"] == "error" and refused["msg"]["key"] == "server.hintNotHere"
        assert "unrated game against the computer" in refused["message"]
