"""The table server over real sockets: a Uvicorn server on a free port, httpx and WebSockets.

Full games are played through the WebSocket by always sending a legal action; every message a
seat gets is recorded and compared with the true game rebuilt from the database, so no message
can carry the other hand, the deck order or the other seat's draws. ``warboard serve`` is also
run as a real process, killed with SIGKILL mid-game and restarted on the same SQLite file.
"""

from __future__ import annotations

import json
import os
import random
import re
import signal
import sqlite3
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from server_helpers import TIMEOUT, UNLIMITED, UNLIMITED_ENV, LiveServer, free_port, ws_url
from warboard.core.i18n import english
from warboard.core.protocol import State
from warboard.core.record import Record, export_for_seat
from warboard.core.registry import make_game
from warboard.hill218.narrate import log_lines
from warboard.hill218.terminal.replay import Replay
from warboard.server.app import NOT_INSTALLED
from warboard.server.messages import MAX_MESSAGE_BYTES, encode
from warboard.server.storage import Storage

FORBIDDEN_KEYS = {"hands", "pool", "top", "seed", "decks", "tokens", "token"}


@pytest.fixture(scope="module")
def web_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("web")
    (folder / "index.html").write_text("<!doctype html><title>warboard client</title>")
    (folder / "app.js").write_text("console.log('warboard');")
    return folder


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory, web_dir: Path) -> Iterator[LiveServer]:
    url = f"sqlite:///{tmp_path_factory.mktemp('db') / 'server.db'}"
    with LiveServer(url, web_dir) as server:
        yield server


@pytest.fixture(scope="module")
def http(live: LiveServer) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=live.base, timeout=TIMEOUT) as client:
        yield client


def create(http: httpx.Client, **body: Any) -> dict[str, Any]:
    answer = http.post("/api/games", json=body)
    assert answer.status_code == 201, answer.text
    return answer.json()


def token_of(url: str) -> str:
    return url.split("#token=")[1]


# ----------------------------------------------------------------------------- the true game

def true_states(database_url: str, game_id: str) -> tuple[list[State], list[dict[str, Any]]]:
    """The state at every version of a game, replayed from its stored events, and the events."""
    data = Storage(database_url).load_game(game_id)
    assert data is not None
    game = make_game(data.game, data.options)
    state = game.new_initial_state()
    states = [state.clone()]
    for event in data.events:
        state.apply(game.action_from_json(event.action, state))
        states.append(state.clone())
    events = [{"seat": e.seat, "action": e.action} for e in data.events]
    return states, events


def other_sides_run(game: Any, states: list[State], events: list[dict[str, Any]],
                    version: int, seat: int | None) -> list[dict[str, Any]]:
    """A state's ``plays`` at ``version`` for ``seat``: the decisions of the seat that decided
    last since the other seat did, unless it is ``seat``, and only those ``seat`` learnt (a
    spectator: that every seat learnt)."""
    run: list[int] = []
    for i, event in enumerate(events[:version]):
        if event["seat"] is None:
            continue
        if run and events[run[-1]]["seat"] != event["seat"]:
            run = []
        run.append(i)
    readers = (0, 1) if seat is None else (seat,)
    return [events[i] for i in run if events[i]["seat"] != seat and all(
        game.visible_to(states[i], game.action_from_json(events[i]["action"], states[i]), s)
        for s in readers)]


def keys_in(data: Any) -> Iterator[str]:
    if isinstance(data, dict):
        for key, value in data.items():
            yield key
            yield from keys_in(value)
    elif isinstance(data, list):
        for value in data:
            yield from keys_in(value)


def check_secrecy(database_url: str, game_id: str, seat: int | None,
                  messages: list[dict[str, Any]], seat_record: dict[str, Any] | None = None,
                  whole_turn: bool = True) -> None:
    """Every message to ``seat`` holds exactly its observation, its legal actions when it is to
    act, and a log that never names the other seat's cards. With the seat's record (which holds
    only what the seat could know), each log must be the one narrated from that record alone.
    ``whole_turn``: the messages cover a turn of two plays or more by another seat (a game
    watched only over its first plays does not)."""
    states, events = true_states(database_url, game_id)
    replay = Replay.load(Record.from_json(seat_record)) if seat_record else None
    game = states[0].game
    others = [s for s in (0, 1) if s != seat]
    states_seen = [m for m in messages if m["type"] == "state"]
    assert states_seen, "no state message was received"
    for message in messages:
        assert not FORBIDDEN_KEYS & set(keys_in(message)), message
        if message["type"] != "state":
            continue
        state = states[message["version"]]
        assert message["seat"] == seat
        assert message["view"] == state.observation(seat)
        to_act = seat is not None and message["status"] != "over" \
            and state.current_player() == seat
        expected = [game.action_to_json(a) for a in state.legal_actions()] if to_act else []
        assert message["legal"] == expected
        for other in others:
            name = ("South", "North")[other]
            for line in message["log"]:
                if line.startswith(f"{name} draws "):
                    assert re.fullmatch(rf"{name} draws \d+ cards?", line), line
                if line.startswith(f"{name} puts "):
                    assert line == f"{name} puts 2 cards under its deck", line
        said = message["log_msg"] if game.name != "holdtheline" else [
            e["msg"] for e in message["view"]["events"] if e.get("text")]
        assert [english(m) for m in said] == message["log"]
        if replay is not None:
            told = [e for entries in replay.told[:message["version"]] for e in entries]
            assert message["log"] == log_lines(replay.rules, told, None)
        last = message["last"]
        if last is not None and last["seat"] in others:
            assert last["action"].get("play") != "bury", last
        assert message["plays"] == other_sides_run(game, states, events, message["version"],
                                                   seat)
    # the checks meant something: a whole turn of the other side was told, and the record
    # holds events this reader never learned
    assert not whole_turn or any(len(m["plays"]) >= 2 for m in states_seen)
    hidden = [i for i, e in enumerate(events)
              if not all(game.visible_to(states[i], game.action_from_json(e["action"]), s)
                         for s in ((0, 1) if seat is None else (seat,)))]
    assert hidden


# ----------------------------------------------------------------------------- playing

class Player:
    """A WebSocket client that plays a random legal action whenever its seat is to act."""

    def __init__(self, url: str, seed: int) -> None:
        self.ws: ClientConnection = connect(url, open_timeout=TIMEOUT, max_size=None)
        self.rng = random.Random(seed)
        self.messages: list[dict[str, Any]] = []
        self.played = -1
        self.seat_token: str | None = None  # the seat's own, when this client used an invite

    def receive(self) -> dict[str, Any]:
        """The next message (a ``seat`` message is taken in on the way: ``seat_token``)."""
        message = json.loads(self.ws.recv(timeout=TIMEOUT))
        if message["type"] == "seat":
            assert self.seat_token is None and not self.messages, message
            self.seat_token = message["seat_token"]
            message = json.loads(self.ws.recv(timeout=TIMEOUT))
        self.messages.append(message)
        return message

    def next_state(self) -> dict[str, Any]:
        # the computer's "thinking" and a change of the spectator count may come between
        while (message := self.receive())["type"] != "state":
            assert message["type"] in ("thinking", "spectators"), message
        return message

    def next_turn(self) -> dict[str, Any]:
        """The next state in which this seat is to act."""
        while not (state := self.next_state())["legal"]:
            pass
        return state

    def send(self, **message: Any) -> None:
        self.ws.send(json.dumps(message))

    def play(self, state: dict[str, Any], request_id: str | None = None) -> dict[str, Any]:
        action = self.rng.choice(state["legal"])
        self.send(type="play", action=action, version=state["version"],
                  request_id=request_id or uuid.uuid4().hex)
        self.played = state["version"]
        return action

    def play_out(self, max_messages: int = 2000) -> dict[str, Any]:
        """Play until the game is over; the final state."""
        for _ in range(max_messages):
            message = self.receive()
            assert message["type"] != "error", message
            if message["type"] != "state":
                continue
            if message["status"] == "over":
                return message
            if message["legal"] and message["version"] > self.played:
                self.play(message)
        raise AssertionError("the game did not end")

    def close(self) -> None:
        self.ws.close()


def play_against_ai(live: LiveServer, http: httpx.Client, game: str, options: dict[str, Any],
                    seed: int) -> tuple[str, Player, dict[str, Any], dict[str, Any]]:
    created = create(http, game=game, options=options, mode="ai", ai_level="easy", seat=0)
    player = Player(live.ws_url(created["id"], created["token"]), seed)
    final = player.play_out()
    player.close()
    return created["id"], player, final, created


# ----------------------------------------------------------------------------- HTTP

def test_messages_are_compact_json_of_the_same_data() -> None:
    for big in (2**63 - 1, 10**20):  # orjson writes 64 bits at most: json.dumps the rest
        message = {"log": ["Tank — détruit"], "counts": {0: 1, 1: [2, 3]}, "big": big}
        text = encode(message)
        assert " " not in text.replace("Tank — détruit", "") and "détruit" in text
        assert json.loads(text) == {"log": ["Tank — détruit"], "counts": {"0": 1, "1": [2, 3]},
                                    "big": big}


def test_health_and_client_pages(live: LiveServer, http: httpx.Client) -> None:
    assert http.get("/api/health").json() == {"ok": True}
    for path in ("/", "/play/abc", "/replay/abc", "/rules"):
        page = http.get(path)
        assert page.status_code == 200 and "warboard client" in page.text, path
    assert http.get("/static/app.js").text == "console.log('warboard');"
    assert http.get("/static/missing.js").status_code == 404
    assert http.get("/api/nothing").json() == {"error": "Not Found"}


def test_without_the_client_a_short_page_says_so(tmp_path: Path) -> None:
    with LiveServer(f"sqlite:///{tmp_path / 'x.db'}", tmp_path / "none") as live:
        for path in ("/", "/play/abcdefghij"):
            assert httpx.get(live.base + path).text == NOT_INSTALLED
        assert httpx.get(live.base + "/static/app.js").status_code == 404


def test_create_games_in_each_mode(live: LiveServer, http: httpx.Client) -> None:
    ai = create(http, game="hill218", mode="ai", ai_level="easy", seat=1)
    assert ai["seat"] == 1 and ai["tokens"] is None and ai["invite"] is None
    assert ai["url"] == f"/play/{ai['id']}#token={ai['token']}"
    # the computer holds seat 0 and buries first; its turn follows on its own
    deadline = time.monotonic() + TIMEOUT
    while True:
        view = http.get(f"/api/games/{ai['id']}", params={"token": ai["token"]}).json()
        if view["legal"] or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    assert view["seat"] == 1 and view["players"] == ["ai:easy", "human"]
    assert view["status"] == "playing" and view["legal"]
    assert all(a["play"] == "bury" for a in view["legal"])

    friend = create(http, game="ogre218", options={"damaged_ogres": [1, 0]}, mode="friend")
    invite = token_of(friend["invite"])
    assert friend["tokens"] is None and invite != friend["token"]
    mine = http.get(f"/api/games/{friend['id']}", params={"token": friend["token"]}).json()
    assert mine["seat"] == 0 and mine["status"] == "waiting" and mine["legal"]
    assert mine["options"] == {"damaged_ogres": [1, 0]}
    theirs = http.get(f"/api/games/{friend['id']}", params={"token": invite}).json()
    assert theirs["seat"] == 1 and theirs["status"] == "playing" and theirs["legal"] == []
    friends = theirs["seat_token"]  # the invite took the seat and is spent
    assert friends not in (None, invite, friend["token"])
    public = http.get(f"/api/games/{friend['id']}").json()
    assert public["seat"] is None and "hand" not in public["view"] and public["legal"] == []

    hotseat = create(http, game="hill218", options={"quick_start": True}, mode="hotseat")
    assert set(hotseat["tokens"]) == {"0", "1"} and hotseat["invite"] is None
    assert hotseat["tokens"]["0"] == hotseat["token"]
    both = [http.get(f"/api/games/{hotseat['id']}", params={"token": t}).json()
            for t in hotseat["tokens"].values()]
    assert [b["seat"] for b in both] == [0, 1]
    assert all(b["status"] == "playing" and b["players"] == ["human", "human"] for b in both)
    assert sum(bool(b["legal"]) for b in both) == 1

    tokens = ",".join([ai["token"], friends, invite, hotseat["tokens"]["1"], "not-a-token"])
    listed = http.get("/api/games", params={"tokens": tokens}).json()["games"]
    assert {(g["id"], g["seat"]) for g in listed} == {
        (ai["id"], 1), (friend["id"], 1), (hotseat["id"], 1)}
    assert all(g["status"] == "playing" and g["result"] is None for g in listed)


def test_http_refusals(live: LiveServer, http: httpx.Client) -> None:
    game = create(http, mode="friend")
    other = create(http, mode="ai", ai_level="easy")
    assert http.get("/api/games/nosuchgame").status_code == 404
    assert http.get("/api/games/" + "x" * 500).json()["error"].startswith("no game")
    wrong = http.get(f"/api/games/{game['id']}", params={"token": other["token"]})
    assert wrong.status_code == 403 and "token" in wrong.json()["error"]
    assert http.post("/api/games", content=b"{not json").status_code == 400
    bad = http.post("/api/games", json={"mode": "online", "seat": 2, "x": 1})
    assert bad.status_code == 422 and "mode" in bad.json()["error"]
    unknown = http.post("/api/games", json={"game": "chess"})
    assert unknown.status_code == 422 and "unknown game" in unknown.json()["error"]
    options = http.post("/api/games", json={"options": {"quick_start": "yes"}})
    assert options.status_code == 422 and "quick_start" in options.json()["error"]
    huge = http.post("/api/games", content=b" " * (MAX_MESSAGE_BYTES + 1))
    assert huge.status_code == 413
    seeded = http.post("/api/games", json={"mode": "hotseat", "seed": 7})
    assert seeded.status_code == 422 and "seed" in seeded.json()["error"]
    early = http.get(f"/api/games/{game['id']}/record", params={"token": game["token"]})
    assert early.status_code == 409
    assert http.get(f"/api/games/{game['id']}/record").status_code == 403


def test_a_seeded_server_draws_a_games_chance_from_the_seed_its_creator_chose(
        tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'seeded.db'}"
    with LiveServer(url, settings=UNLIMITED.model_copy(update={"seeded_games": True})) as server, \
            httpx.Client(base_url=server.base, timeout=TIMEOUT) as client:
        def opening(seed: int) -> list[dict[str, Any]]:
            """The opening chance events (the decks' shuffles) of a full hill218 game."""
            made = create(client, mode="hotseat", options={}, seed=seed)
            return true_states(url, made["id"])[1]

        assert opening(7) == opening(7) != opening(8)
        assert all(event["seat"] is None for event in opening(7))
        for body, field in (({"seed": -1}, "seed"), ({"seed": 2**63}, "seed"),
                            ({"seed": "seven"}, "seed"), ({"seed": 7, "rated": True}, "seed")):
            refused = client.post("/api/games", json=body)
            assert refused.status_code == 422 and field in refused.json()["error"], body


# ----------------------------------------------------------------------------- full games

@pytest.mark.parametrize(("game", "options", "seed"), [
    ("hill218", {"quick_start": True}, 1),
    ("hill218", {}, 2),
    ("ogre218", {"quick_start": True}, 3),
    ("ogre218", {"damaged_ogres": [0, 1]}, 4),
])
def test_full_game_against_easy_ai_keeps_secrets(live: LiveServer, http: httpx.Client,
                                                 game: str, options: dict[str, Any],
                                                 seed: int) -> None:
    game_id, player, final, created = play_against_ai(live, http, game, options, seed)
    assert final["status"] == "over" and final["result"]["returns"] in ([1, -1], [-1, 1], [0, 0])
    assert any(m["type"] == "thinking" and m["seat"] == 1 for m in player.messages)
    record = http.get(f"/api/games/{game_id}/record", params={"token": created["token"]})
    assert record.status_code == 200
    check_secrecy(live.database_url, game_id, 0, player.messages, record.json())

    data = Storage(live.database_url).load_game(game_id)
    assert data is not None
    full = Record(game=data.game, options=data.options, seed=data.seed,
                  players=["human", "ai:easy"],
                  events=[{"seat": e.seat, "action": e.action} for e in data.events],
                  result=final["result"])
    expected = export_for_seat(full, 0).to_json()
    got = record.json()
    assert got["view"] == 0 and got["seed"] is None
    assert got["events"] == expected["events"] and got["frames"] == expected["frames"]
    assert any(e.get("hidden") for e in got["events"])
    listed = http.get("/api/games", params={"tokens": created["token"]}).json()["games"]
    assert listed[0]["status"] == "over" and listed[0]["result"] == final["result"]


def test_friend_game_between_two_clients_and_a_spectator(live: LiveServer,
                                                         http: httpx.Client) -> None:
    created = create(http, game="hill218", mode="friend", seat=1)
    game_id = created["id"]
    spectator = Player(live.ws_url(game_id), 0)
    north = Player(live.ws_url(game_id, created["token"]), 11)
    south = Player(live.ws_url(game_id, token_of(created["invite"])), 12)
    with ThreadPoolExecutor(2) as pool:
        finals = list(pool.map(Player.play_out, (south, north)))
    assert finals[0]["version"] == finals[1]["version"]
    assert finals[0]["result"] == finals[1]["result"] and finals[0]["status"] == "over"
    deadline = time.monotonic() + TIMEOUT
    while spectator.receive()["version"] < finals[0]["version"]:
        assert time.monotonic() < deadline
    for player in (spectator, north, south):
        player.close()
    assert south.seat_token is not None
    for player, token in ((south, south.seat_token), (north, created["token"])):
        record = http.get(f"/api/games/{game_id}/record", params={"token": token}).json()
        check_secrecy(live.database_url, game_id, record["view"], player.messages, record)
    check_secrecy(live.database_url, game_id, None, spectator.messages)


# ----------------------------------------------------------------------------- refusals

def expect_error(player: Player, request_id: str | None = None) -> str:
    message = player.receive()
    assert message["type"] == "error", message
    assert message["request_id"] == request_id
    return message["message"]


def snapshot(http: httpx.Client, game_id: str, token: str) -> dict[str, Any]:
    return http.get(f"/api/games/{game_id}", params={"token": token}).json()


def test_stale_version_and_repeated_request_id_change_nothing(live: LiveServer,
                                                              http: httpx.Client) -> None:
    created = create(http, game="hill218", options={"quick_start": True}, mode="hotseat")
    game_id = created["id"]
    players = {s: Player(live.ws_url(game_id, t), 5) for s, t in created["tokens"].items()}
    states = {s: p.next_state() for s, p in players.items()}
    seat = next(s for s, st in states.items() if st["legal"])
    player, state = players[seat], states[seat]
    player.play(state, request_id="first-play")
    after = {s: p.next_state() for s, p in players.items()}
    assert after["0"]["version"] == after["1"]["version"] > state["version"]
    before = snapshot(http, game_id, created["tokens"][seat])

    player.send(type="play", action=state["legal"][0], version=state["version"],
                request_id="second")
    assert "stale version" in expect_error(player, "second")
    again = next(s for s, a in after.items() if a["legal"])
    players[again].send(type="play", action=after[again]["legal"][0],
                        version=after[again]["version"], request_id="first-play")
    assert "was used already" in expect_error(players[again], "first-play")
    assert snapshot(http, game_id, created["tokens"][seat]) == before
    for p in players.values():
        p.close()


def test_bad_messages_get_errors_and_change_nothing(live: LiveServer,
                                                    http: httpx.Client) -> None:
    created = create(http, game="hill218", mode="friend", seat=0)
    game_id, invite = created["id"], token_of(created["invite"])
    south = Player(live.ws_url(game_id, created["token"]), 1)
    north = Player(live.ws_url(game_id, invite), 2)
    state = south.next_state()
    assert south.next_state()["status"] == "playing"  # North joined
    north_state = north.next_state()
    spectator = Player(live.ws_url(game_id), 3)
    assert spectator.next_state()["spectators"] == 1
    for seat in (south, north):  # told of the spectator
        assert seat.receive() == {"type": "spectators", "count": 1}
    before = snapshot(http, game_id, created["token"])
    assert state["legal"] and not north_state["legal"]

    south.ws.send("{not json")
    assert "not valid JSON" in expect_error(south)
    south.ws.send(json.dumps({"type": "play", "request_id": "big",
                              "action": {"x": "y" * MAX_MESSAGE_BYTES}, "version": 1}))
    assert "too large" in expect_error(south)
    south.send(type="teleport", request_id="t1")
    assert "unknown message type 'teleport'" in expect_error(south, "t1")
    south.send(type="play", action=state["legal"][0], request_id="v1")
    assert "version" in expect_error(south, "v1")
    south.send(type="play", action={"play": "deploy", "unit": "tank", "at": [5, 5]},
               version=state["version"], request_id="illegal")
    assert "illegal play" in expect_error(south, "illegal")
    south.send(type="play", action={"play": "fly"}, version=state["version"], request_id="u")
    assert "illegal play" in expect_error(south, "u")
    south.ws.send(b"\x00\x01")
    assert "text" in expect_error(south)
    north.send(type="play", action=state["legal"][0], version=state["version"],
               request_id="north")
    assert expect_error(north, "north") == "it is not your turn"
    spectator.send(type="play", action=state["legal"][0], version=state["version"],
                   request_id="spec")
    assert "spectators cannot play" in expect_error(spectator, "spec")
    spectator.send(type="resign")
    assert "spectators cannot resign" in expect_error(spectator)
    assert snapshot(http, game_id, created["token"]) == before

    # a frame above the protocol's limit closes the connection; the game is unchanged
    south.ws.send("x" * (2 * 1024 * 1024))
    with pytest.raises(ConnectionClosed) as closed:
        south.receive()
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
    assert snapshot(http, game_id, created["token"]) == before
    for p in (north, spectator):
        p.close()


def test_unknown_game_and_wrong_token_are_turned_away(live: LiveServer,
                                                      http: httpx.Client) -> None:
    game = create(http, mode="ai", ai_level="easy")
    other = create(http, mode="ai", ai_level="easy")
    for url in (live.ws_url("nosuchgame", game["token"]),
                live.ws_url(game["id"], other["token"])):
        with connect(url, open_timeout=TIMEOUT) as ws:
            message = json.loads(ws.recv(timeout=TIMEOUT))
            assert message["type"] == "error"
            with pytest.raises(ConnectionClosed) as closed:
                ws.recv(timeout=TIMEOUT)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008


def test_resign_ends_the_game(live: LiveServer, http: httpx.Client) -> None:
    created = create(http, game="ogre218", mode="ai", ai_level="easy", options={
        "quick_start": True})
    player = Player(live.ws_url(created["id"], created["token"]), 9)
    state = player.next_turn()
    player.send(type="resign")
    over = player.next_state()
    assert over["status"] == "over" and over["version"] == state["version"]
    assert over["result"] == {"abandoned": True, "by": 0, "how": "resigned"}
    assert over["legal"] == []
    player.send(type="resign", request_id="again")
    assert expect_error(player, "again") == "the game is over"
    player.close()
    record = http.get(f"/api/games/{created['id']}/record", params={"token": created["token"]})
    assert record.json()["result"] == over["result"]


# ----------------------------------------------------------------------------- database failures

@contextmanager
def locked(path: Path) -> Iterator[None]:
    """Another connection holds SQLite's write lock on the file ``path``: every write of the
    server fails with a real ``database is locked`` (after the busy timeout of its URL)."""
    other = sqlite3.connect(path, isolation_level=None)
    try:
        other.execute("BEGIN EXCLUSIVE")
        yield
    finally:
        other.close()


def test_a_failing_database_refuses_with_an_error_and_changes_nothing(tmp_path: Path,
                                                                      web_dir: Path) -> None:
    path = tmp_path / "games.db"
    with LiveServer(f"sqlite:///{path}?timeout=0.2", web_dir) as server, \
            httpx.Client(base_url=server.base, timeout=TIMEOUT) as client:
        created = create(client, mode="friend")
        south = Player(server.ws_url(created["id"], created["token"]), 4)
        state = south.next_turn()
        with locked(path):
            action = south.play(state, request_id="locked")
            assert "could not be stored, nothing changed" in expect_error(south, "locked")
            assert client.post("/api/games", json={}).status_code == 503
            # the invited friend's arrival cannot be stored: an error, and the socket closes
            north = Player(server.ws_url(created["id"], token_of(created["invite"])), 5)
            assert "database is locked" in expect_error(north)
            with pytest.raises(ConnectionClosed) as closed:
                north.receive()
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1013
        now = snapshot(client, created["id"], created["token"])
        assert {key: now[key] for key in state} == state
        south.send(type="play", action=action, version=state["version"],
                   request_id="locked")  # the same play, again
        assert south.next_state()["version"] > state["version"]
        north = Player(server.ws_url(created["id"], token_of(created["invite"])), 5)
        assert north.next_state()["status"] == "playing"
        for player in (south, north):
            player.close()


# ----------------------------------------------------------------------------- kill -9

def start_serve(port: int, database_url: str | None, folder: Path,
                env: dict[str, str] = UNLIMITED_ENV) -> subprocess.Popen[bytes]:
    """``warboard serve`` as a process of its own (in a new process group), on
    ``database_url`` (``None``: its default); waits until it answers."""
    database = ["--database-url", database_url] if database_url else []
    with (folder / "serve.out").open("ab") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "warboard.cli", "serve", "--port", str(port), *database,
             "--ai-workers", "1"],
            cwd=folder, stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
            env=env)
    deadline = time.monotonic() + TIMEOUT
    while True:
        assert process.poll() is None, (folder / "serve.out").read_text()
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=1).status_code == 200:
                return process
        except httpx.TransportError:
            pass
        assert time.monotonic() < deadline, "warboard serve did not start"
        time.sleep(0.1)


def group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    return True


def test_server_killed_with_sigkill_goes_on_where_it_was(tmp_path: Path) -> None:
    port = free_port()
    url = f"sqlite:///{tmp_path / 'games.db'}"
    base = f"http://127.0.0.1:{port}"
    process = start_serve(port, url, tmp_path)
    try:
        assert "open http://127.0.0.1:" in (tmp_path / "serve.out").read_text()
        created = httpx.post(f"{base}/api/games", json={
            "game": "hill218", "mode": "ai", "ai_level": "easy"}).json()
        game_url = ws_url(port, created["id"], created["token"])
        player = Player(game_url, 21)
        for _ in range(3):  # the burial and two turns, each answered by the computer
            player.play(player.next_turn())
        state = player.next_turn()
        before = httpx.get(f"{base}/api/games/{created['id']}",
                           params={"token": created["token"]}).json()
        assert before == state

        os.kill(process.pid, signal.SIGKILL)
        process.wait(TIMEOUT)
        deadline = time.monotonic() + TIMEOUT
        while group_alive(process.pid):  # the AI worker leaves when the server is gone
            assert time.monotonic() < deadline, "an AI worker outlived the server"
            time.sleep(0.1)
        with pytest.raises(ConnectionClosed):
            player.receive()

        process = start_serve(port, url, tmp_path)
        after = httpx.get(f"{base}/api/games/{created['id']}",
                          params={"token": created["token"]}).json()
        assert after == before
        player = Player(game_url, 22)
        assert player.next_state() == before
        player.play(before)
        moved = player.next_state()
        assert moved["version"] > before["version"]
        assert moved["log"][:len(before["log"])] == before["log"]
        player.close()
    finally:
        if group_alive(process.pid):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait(TIMEOUT)
