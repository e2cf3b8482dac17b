"""Clocks at the table (docs/server-api.md#clocks): real server processes keep them, flag a seat
out of time with nobody connected, once across two processes on one PostgreSQL database, and go
on counting after kill -9; the increment, the states' ``clocks``, correspondence deadlines, a
late decision refused, the time a play spends in the server charged to nobody, and a claim
against a player who left."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest

from server_helpers import UNLIMITED_ENV, free_port
from test_server import TIMEOUT, Player, group_alive, start_serve, ws_url
from test_server_cluster import URL, admin_connection, create_database
from warboard.server.ai_runner import AIRunner
from warboard.server.clocks import Clock, time_loss
from warboard.server.messages import CreateGame, Refused
from warboard.server.storage import EventData, GameData, Storage, now
from warboard.server.tables import Tables, stopped

FAST = {**UNLIMITED_ENV, "WARBOARD_CLOCK_SWEEP_SECONDS": "0.05",
        "WARBOARD_ABANDON_GRACE_SECONDS": "1"}
FLAG_LINE = "ran out of time"


def poll(test: Callable[[], Any], what: str, timeout: float = TIMEOUT) -> Any:
    """``test()`` once it is true (polled), failing after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not (answer := test()):
        assert time.monotonic() < deadline, f"{what} did not happen"
        time.sleep(0.05)
    return answer


def stored(url: str, game_id: str) -> GameData:
    storage = Storage(url)
    try:
        data = storage.load_game(game_id)
    finally:
        storage.close()
    assert data is not None
    return data


def flagged(url: str, game_id: str) -> GameData | None:
    data = stored(url, game_id)
    return data if data.status == "over" else None


def create(base: str, **body: Any) -> dict[str, Any]:
    answer = httpx.post(f"{base}/api/games", json={"game": "hill218", **body}, timeout=TIMEOUT)
    assert answer.status_code == 201, answer.text
    return answer.json()


def moment(text: str) -> datetime:
    return datetime.fromisoformat(text)


class Serve:
    """``warboard serve`` on a free port, in its own process group."""

    def __init__(self, url: str, folder: Path, env: dict[str, str] = FAST) -> None:
        self.url, self.folder, self.env = url, folder, env
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.process = start_serve(self.port, url, folder, env)

    def output(self) -> str:
        return (self.folder / "serve.out").read_text(errors="replace")

    def kill(self, sig: int = signal.SIGKILL) -> None:
        if group_alive(self.process.pid):
            os.killpg(self.process.pid, sig)
        self.process.wait(TIMEOUT)

    def restart(self) -> None:
        self.process = start_serve(self.port, self.url, self.folder, self.env)


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[Serve]:
    server = Serve(f"sqlite:///{tmp_path / 'games.db'}", tmp_path)
    try:
        yield server
    finally:
        server.kill(signal.SIGTERM)
    assert "Traceback" not in server.output(), server.output()


# ----------------------------------------------------------------------------- one process

def test_a_seat_that_waits_out_its_time_loses_with_nobody_connected(serve: Serve) -> None:
    created = create(serve.base, mode="hotseat", clock={"initial": 1.5, "increment": 0})
    data = poll(lambda: flagged(serve.url, created["id"]), "the flag")
    assert data.result == time_loss(0)  # seat 0 buries first
    assert data.result["summary"]["reason"] == "time"
    state = httpx.get(f"{serve.base}/api/games/{created['id']}",
                      params={"token": created["token"]}).json()
    assert state["status"] == "over" and state["result"] == time_loss(0)
    assert state["clocks"]["seats"][0] == 0 and state["clocks"]["running"] is None
    assert serve.output().count(FLAG_LINE) == 1


def test_the_increment_and_the_clocks_in_the_states(serve: Serve) -> None:
    created = create(serve.base, mode="hotseat", clock={"initial": 30, "increment": 5})
    player = Player(ws_url(serve.port, created["id"], created["tokens"]["0"]), 1)
    first = player.next_turn()
    clocks = first["clocks"]
    assert (clocks["kind"], clocks["initial"], clocks["increment"]) == ("real", 30, 5)
    assert clocks["running"] == 0 and clocks["seats"][1] == 30_000
    assert 29_000 < clocks["seats"][0] <= 30_000
    assert moment(clocks["deadline"]) == moment(clocks["started"]) + timedelta(seconds=30)
    sent = datetime.now(moment(clocks["at"]).tzinfo)
    player.play(first)
    after = player.next_state()["clocks"]
    done = datetime.now(sent.tzinfo)
    assert after["running"] == 1 and after["seats"][1] <= 30_000
    # seat 0 was charged from the start of its turn to the receipt (before ``done``), then
    # given 5 s; its new time is exact, stored: the turn passed to seat 1
    def since_start(at: datetime) -> float:
        return (at - moment(clocks["started"])) / timedelta(milliseconds=1)

    # (2 ms: the times are sent to the millisecond)
    assert 35_000 - since_start(done) <= after["seats"][0] <= 35_000 - since_start(sent) + 2
    assert moment(after["started"]) >= sent
    assert moment(after["deadline"]) == moment(after["started"]) + timedelta(seconds=30)
    player.close()


def test_correspondence_deadlines_listing_and_flag(serve: Serve) -> None:
    days = 3 / 86_400  # three seconds a turn
    created = create(serve.base, mode="hotseat", clock={"days": days})
    player = Player(ws_url(serve.port, created["id"], created["tokens"]["0"]), 2)
    first = player.next_turn()
    assert first["clocks"]["kind"] == "correspondence"
    assert first["clocks"]["days"] == pytest.approx(days)
    player.play(first)
    second = player.next_state()["clocks"]
    assert second["running"] == 1 and second["seats"] == [3000, second["seats"][1]]
    assert moment(second["deadline"]) == moment(second["started"]) + timedelta(seconds=3)
    listed = httpx.get(f"{serve.base}/api/games",
                       params={"tokens": ",".join(created["tokens"].values())}).json()["games"]
    assert {g["seat"] for g in listed} == {0, 1}
    assert all(g["clock"]["running"] == 1 and g["clock"]["deadline"] == second["deadline"]
               for g in listed)
    over = player.next_state()  # seat 1 let its three seconds pass
    assert over["status"] == "over" and over["result"] == time_loss(1)
    player.close()


def test_after_kill_9_the_clock_goes_on_and_falls(serve: Serve) -> None:
    """The time the server was down is charged to the seat to act (docs/server-api.md)."""
    created = create(serve.base, mode="hotseat", clock={"initial": 3, "increment": 0})
    before = httpx.get(f"{serve.base}/api/games/{created['id']}",
                       params={"token": created["token"]}).json()["clocks"]
    serve.kill()
    serve.restart()
    state = httpx.get(f"{serve.base}/api/games/{created['id']}",
                      params={"token": created["token"]}).json()
    if state["status"] == "playing":  # the restart took less than the three seconds
        assert state["clocks"]["deadline"] == before["deadline"]
        assert state["clocks"]["seats"][0] < before["seats"][0]
    data = poll(lambda: flagged(serve.url, created["id"]), "the flag after the restart")
    assert data.result == time_loss(0)


def test_a_claim_after_the_opponent_left_for_the_grace(serve: Serve) -> None:
    created = create(serve.base, mode="friend", clock={"initial": 600, "increment": 0})
    me = Player(ws_url(serve.port, created["id"], created["token"]), 3)
    friend = Player(created["invite"].replace(
        "/play/", f"ws://127.0.0.1:{serve.port}/ws/games/").replace("#token=", "?token="), 4)
    friend.next_state()
    poll(lambda: (s := me.next_state())["status"] == "playing" and s["clocks"]["claim"] is None,
         "the friend's arrival")
    me.send(type="claim", outcome="win")
    assert "your opponent is connected" in me.receive()["message"]
    friend.close()
    gone = poll(lambda: (s := me.next_state())["clocks"]["claim"] and s, "the claim offer")
    claim_at = moment(gone["clocks"]["claim"])
    poll(lambda: datetime.now(claim_at.tzinfo) >= claim_at, "the end of the grace")
    me.send(type="claim", outcome="win")
    over = me.next_state()
    assert over["status"] == "over"
    assert over["result"]["summary"] == {"winner": 0, "reason": "abandoned"}
    me.close()


# ----------------------------------------------------------------------------- in process

class SlowStorage(Storage):
    """Storage that takes ``STORE_SECONDS`` more to store each play."""

    STORE_SECONDS = 0.3

    def append_events(self, *args: Any) -> Clock | None:
        time.sleep(self.STORE_SECONDS)
        return super().append_events(*args)


def test_the_time_a_play_spends_in_the_server_is_charged_to_nobody(database_url: str) -> None:
    async def scenario() -> None:
        tables = Tables(SlowStorage(database_url), AIRunner(0))
        created = await tables.create(CreateGame(game="hill218", mode="hotseat",
                                                 clock={"initial": 60, "increment": 0}))
        table = await tables.get(created.id)
        before = table.clock
        assert before is not None and before.started is not None and before.running == 0
        received = now()
        action = table.game.action_to_json(table.state.legal_actions()[0])
        await table.play(0, action, table.version, "r1", received)
        after = table.clock
        assert after is not None and after.started is not None
        charged = int((received - before.started) / timedelta(milliseconds=1))
        assert after.left == (60_000 - charged, 60_000)  # charged up to the receipt, exactly
        assert after.started - received >= timedelta(seconds=SlowStorage.STORE_SECONDS)
        assert stored(database_url, created.id).clock == after  # what a restart reads
        await tables.close()
        tables.storage.close()

    asyncio.run(scenario())


def test_a_decision_received_after_the_deadline_is_refused_and_the_flag_falls(
        database_url: str) -> None:
    async def scenario() -> None:
        tables = Tables(Storage(database_url), AIRunner(0))
        created = await tables.create(CreateGame(game="hill218", mode="hotseat",
                                                 clock={"initial": 0.2, "increment": 0}))
        table = await tables.get(created.id)
        table.disarm()  # the decision comes before the timer's flag (no sweeper runs here)
        assert table.clock is not None and table.clock.deadline is not None
        while (late := now()) <= table.clock.deadline:
            await asyncio.sleep(0.02)
        action = table.game.action_to_json(table.state.legal_actions()[0])
        with pytest.raises(Refused, match="seat 0's time ran out"):
            await table.play(0, action, table.version, "r1", late)
        data = stored(database_url, created.id)
        assert (data.status, data.result, data.events[-1:]) == (
            "over", time_loss(0), [e for e in data.events[-1:] if e.seat is None])
        assert table.status == "over" and table.result == time_loss(0)
        await tables.close()
        tables.storage.close()

    asyncio.run(scenario())


def test_of_two_flags_racing_exactly_one_is_stored(database_url: str) -> None:
    """Many sweepers flagging one game at once: one conditional update wins; a flag read
    before a decision stored in time changes nothing."""
    async def setup() -> tuple[str, Clock, int]:
        tables = Tables(Storage(database_url), AIRunner(0))
        created = await tables.create(CreateGame(game="hill218", mode="hotseat",
                                                 clock={"initial": 0.001, "increment": 0}))
        table = await tables.get(created.id)
        table.disarm()
        assert table.clock is not None
        clock, version = table.clock, table.version
        await tables.close()
        tables.storage.close()
        return created.id, clock, version

    game_id, clock, version = asyncio.run(setup())
    storages = [Storage(database_url) for _ in range(4)]
    try:
        late = clock.started + timedelta(seconds=1)  # type: ignore[operator]
        assert not storages[0].flag_game(game_id, version - 1, late, time_loss(0),
                                         stopped(clock, late))  # the game moved on since
        with ThreadPoolExecutor(len(storages)) as pool:
            wins = list(pool.map(lambda s: s.flag_game(game_id, version, late, time_loss(0),
                                                       stopped(clock, late)), storages))
        assert sorted(wins) == [False, False, False, True]
        assert storages[0].due_clocks(late + timedelta(days=1)) == []
        with pytest.raises(Exception, match="over"):
            storages[0].append_events(game_id, version, [EventData(0, {})], "playing", None)
    finally:
        for storage in storages:
            storage.close()


# ----------------------------------------------------------------------------- two processes

@pytest.fixture
def shared(tmp_path: Path) -> Iterator[tuple[Serve, Serve]]:
    """Two server processes on one new PostgreSQL database, sweeping every 50 ms."""
    admin = admin_connection()
    name = create_database(admin)
    url = URL.format(name=name)
    started: list[Serve] = []
    try:
        for label in ("a", "b"):
            (tmp_path / label).mkdir()
            started.append(Serve(url, tmp_path / label))
        yield started[0], started[1]
    finally:
        for server in started:
            server.kill(signal.SIGTERM)
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.close()


def test_with_two_processes_the_flag_falls_exactly_once(shared: tuple[Serve, Serve]) -> None:
    a, b = shared
    games = [create(a.base, mode="hotseat", clock={"initial": 1, "increment": 0})
             for _ in range(4)]
    # B holds two of them too (a timer each), A holds all: timers and sweepers race
    watchers = [Player(ws_url(b.port, g["id"], g["token"]), i) for i, g in enumerate(games[:2])]
    for game in games:
        data = poll(lambda g=game: flagged(a.url, g["id"]), "the flag")
        assert data.result == time_loss(0)
    for watcher in watchers:
        assert poll(lambda w=watcher: (s := w.next_state())["status"] == "over" and s,
                    "the flag seen on B")["result"] == time_loss(0)
        watcher.close()
    time.sleep(0.5)  # ten more sweeps of each: none may flag again
    lines = [line for server in (a, b) for line in server.output().splitlines()
             if FLAG_LINE in line]
    assert sorted(line.split("game ")[1].split()[0] for line in lines) == sorted(
        g["id"] for g in games), lines
    for server in (a, b):
        assert "Traceback" not in server.output(), server.output()


