"""A WebSocket opened with ``?log=new`` is sent only the log's new lines, over real sockets.

Each reader (both seats and a spectator) watches a game on two sockets: one sent the whole log in
every state, one opened with ``?log=new``. After every change, the second's log joined as the
browser joins it (the lines before ``log_from`` it holds, then the new ones) must be the first's
log, line for line and message for message, and the rest of the two states the same: through a
whole Hill 218 game and through a Hold the Line undo (which takes lines back). ``SentLog``, which
finds where to start, is checked on any two logs.
"""

from __future__ import annotations

import json
import random
import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from hypothesis import given
from hypothesis import strategies as st
from websockets.exceptions import InvalidStatus
from websockets.sync.client import ClientConnection, connect

from server_helpers import TIMEOUT, LiveServer
from warboard.server.logsent import SentLog

READERS: tuple[int | None, ...] = (0, 1, None)


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with LiveServer(f"sqlite:///{tmp_path_factory.mktemp('log') / 'server.db'}") as server:
        yield server


@pytest.fixture(scope="module")
def http(live: LiveServer) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=live.base, timeout=TIMEOUT) as client:
        yield client


class Reader:
    """One reader of a game on two sockets: the whole log, and the new lines only."""

    def __init__(self, live: LiveServer, game_id: str, token: str | None) -> None:
        self.whole = live.ws(game_id, token) if token else connect(live.ws_url(game_id))
        self.new = connect(live.ws_url(game_id, token) + ("&" if token else "?") + "log=new")
        self.log: list[str] = []  # the new-lines socket's log, joined
        self.log_msg: list[Any] = []
        self.starts: list[tuple[int, int]] = []  # (log_from, lines held before) of each state
        self.last: dict[str, Any] = {}  # the last state, as the whole-log socket had it

    def next_state(self) -> dict[str, Any]:
        """The next state, read on both sockets: the new-lines one's log joined must make it
        the same state."""
        whole, new = state_of(self.whole), state_of(self.new)
        start = new.pop("log_from")
        assert whole.pop("log_from") == 0 and 0 <= start <= len(self.log)
        self.starts.append((start, len(self.log)))
        self.log = self.log[:start] + new["log"]
        self.log_msg = self.log_msg[:start] + new["log_msg"]
        assert self.log == whole["log"] and self.log_msg == whole["log_msg"]
        # (the spectator count may differ: the second socket of the spectator counts itself)
        unlogged = {"log": [], "log_msg": [], "spectators": 0}
        assert {**new, **unlogged} == {**whole, **unlogged}
        self.last = whole
        return whole

    def close(self) -> None:
        self.whole.close()
        self.new.close()


def state_of(ws: ClientConnection) -> dict[str, Any]:
    """The next ``state`` message (a spectator count or the computer's thinking may come
    between)."""
    while (message := json.loads(ws.recv(timeout=TIMEOUT)))["type"] != "state":
        assert message["type"] in ("spectators", "thinking"), message
    return message


def hotseat(http: httpx.Client, game: str, **options: Any) -> dict[str, Any]:
    answer = http.post("/api/games", json={"game": game, "mode": "hotseat", "options": options})
    assert answer.status_code == 201, answer.text
    created: dict[str, Any] = answer.json()
    return created


def watch(live: LiveServer, created: dict[str, Any]) -> dict[int | None, Reader]:
    """Every reader of the game, each past its first states (the whole log on both sockets)."""
    tokens = {0: created["tokens"]["0"], 1: created["tokens"]["1"], None: None}
    readers = {r: Reader(live, created["id"], tokens[r]) for r in READERS}
    for reader in readers.values():
        reader.next_state()
        assert reader.starts == [(0, 0)]
    return readers


def send(ws: ClientConnection, kind: str, version: int, **fields: Any) -> None:
    ws.send(json.dumps({"type": kind, "version": version, "request_id": uuid.uuid4().hex,
                        **fields}))


def test_a_whole_hill218_game_joins_to_the_whole_log(live: LiveServer,
                                                      http: httpx.Client) -> None:
    readers = watch(live, hotseat(http, "hill218"))
    rng = random.Random(7)
    try:
        while (state := readers[0].last)["status"] != "over":
            seat = 0 if state["legal"] else 1
            state = readers[seat].last
            send(readers[seat].whole, "play", state["version"],
                 action=rng.choice(state["legal"]))
            for reader in readers.values():
                reader.next_state()
        for reader in readers.values():
            # a play's lines come in its state alone: none is sent twice
            assert all(start == held for start, held in reader.starts)
            assert len(reader.log) > 20
    finally:
        for reader in readers.values():
            reader.close()


def test_an_undo_takes_lines_back_on_both_sockets(live: LiveServer, http: httpx.Client) -> None:
    readers = watch(live, hotseat(http, "holdtheline", scenario="tutorial"))
    try:
        seat = 0 if readers[0].last["legal"] else 1
        state = readers[seat].last
        move = next(a for a in state["legal"] if a["type"] == "move")
        send(readers[seat].whole, "play", state["version"], action=move)
        moved = {r: readers[r].next_state() for r in READERS}
        assert moved[seat]["undo"] is True
        send(readers[seat].whole, "undo", moved[seat]["version"])
        undone = {r: readers[r].next_state() for r in READERS}
        for r in READERS:
            assert len(undone[r]["log"]) < len(moved[r]["log"])
            start, held = readers[r].starts[-1]
            assert start <= len(undone[r]["log"]) < held
    finally:
        for reader in readers.values():
            reader.close()


def test_another_log_than_new_is_refused(live: LiveServer, http: httpx.Client) -> None:
    created = hotseat(http, "hill218")
    with pytest.raises(InvalidStatus):
        connect(live.ws_url(created["id"], created["tokens"]["0"]) + "&log=all").close()


LOGS = st.lists(st.sampled_from(["a", "b", "c"]), max_size=8)


@given(LOGS, LOGS)
def test_the_lines_sent_again_are_those_from_the_first_change(old: list[str],
                                                               new: list[str]) -> None:
    sent = SentLog()
    assert sent.resend_from(old, [f"m{x}" for x in old]) == 0
    start = sent.resend_from(new, [f"m{x}" for x in new])
    assert old[:start] + new[start:] == new  # what the client joins is the new log
    assert start == len(new) or start == len(old) or old[start] != new[start]  # no line twice
    assert sent.resend_from(list(new), [f"m{x}" for x in new]) == len(new)


def test_a_changed_message_is_sent_again_under_the_same_line() -> None:
    sent = SentLog()
    sent.resend_from(["South draws 1 card"], [{"key": "a", "params": {"count": 1}}])
    assert sent.resend_from(["South draws 1 card", "x"],
                            [{"key": "b", "params": {"count": 1}}, {"key": "x"}]) == 0
