"""Games survive the server: stored in SQLite or PostgreSQL, rebuilt exactly from their events.

The PostgreSQL variant (tests/conftest.py's ``database_url``) runs in a schema of its own on
postgresql+psycopg://root@127.0.0.1:5432/test (dropped afterwards) and skips, saying why, when
psycopg is missing or the server is not there.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import sqlite3
import threading
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select, update

from test_server import locked
from warboard.server import storage as storage_module
from warboard.server import tables as tables_module
from warboard.server.ai_runner import AIRunner
from warboard.server.cluster import connect_args
from warboard.server.messages import CreateGame, Refused
from warboard.server.settings import ServerSettings
from warboard.server.storage import (
    CHANNEL,
    EVENTS,
    GAMES,
    SEATS,
    EventData,
    GameData,
    SeatData,
    Storage,
    StorageError,
    now,
)
from warboard.server.tables import Table, Tables


def snapshots(table: Table) -> dict[Any, dict[str, Any]]:
    return {seat: table.snapshot(seat) for seat in (0, 1, None)}


async def play_randomly(table: Table, plays: int, rng: random.Random, tag: str) -> None:
    for i in range(plays):
        seat = table.state.current_player()
        legal = table.snapshot(seat)["legal"]
        await table.play(seat, rng.choice(legal), table.version, f"{tag}{i}")


def test_a_game_is_rebuilt_exactly_from_its_events(database_url: str) -> None:
    async def scenario() -> None:
        storage, ai = Storage(database_url), AIRunner(0)
        tables = Tables(storage, ai)
        created = await tables.create(CreateGame(game="hill218", mode="hotseat"))
        table = await tables.get(created.id)
        await play_randomly(table, 12, random.Random(7), "r")
        seen = snapshots(table)

        # a new server process: fresh storage and tables, the game rebuilt from the database
        again = Storage(database_url)
        table2 = await Tables(again, ai).get(created.id)
        assert snapshots(table2) == seen
        assert table2.state.to_json() == table.state.to_json()  # hidden cards included
        seat = table2.state.current_player()
        legal = table2.snapshot(seat)["legal"]
        with pytest.raises(Refused, match="used already"):
            await table2.play(seat, legal[0], table2.version, "r0")

        # a second writer of the same game fails and changes nothing
        await table2.play(seat, legal[0], table2.version, "new")
        with pytest.raises(Refused, match="could not be stored") as refused:
            await table.play(seat, legal[-1], table.version, "other")
        assert refused.value.status == 503
        assert snapshots(table) == seen
        stored = again.load_game(created.id)
        assert stored is not None and len(stored.events) == table2.version
        storage.close()
        again.close()

    asyncio.run(scenario())


def test_joins_resignations_and_listing_are_stored(database_url: str) -> None:
    async def scenario() -> None:
        storage, ai = Storage(database_url), AIRunner(0)
        tables = Tables(storage, ai)
        created = await tables.create(CreateGame(game="ogre218", mode="friend", seat=1))
        invite = created.invite.split("#token=")[1] if created.invite else ""
        table = await tables.get(created.id)
        assert table.status == "waiting" and table.seat_of(invite) == 0
        seat, mine = await table.enter(invite)  # the invite takes the seat, and is spent
        assert seat == 0 and mine is not None and table.status == "playing"
        await table.resign(1)
        listed = await tables.list_for_tokens([created.token, invite, mine, "nothing"])
        assert [(g.seat, g.status) for g in listed] == [(0, "over"), (1, "over")]

        table2 = await Tables(Storage(database_url), ai).get(created.id)
        assert table2.seat_of(mine) == 0
        with pytest.raises(Refused, match="an invite link works once"):
            table2.seat_of(invite)
        assert table2.status == "over"
        assert table2.result == {"abandoned": True, "by": 1, "how": "resigned"}
        assert snapshots(table2) == snapshots(table)
        storage.close()

    asyncio.run(scenario())


def test_a_database_that_cannot_be_opened_says_so(tmp_path: Any) -> None:
    with pytest.raises(StorageError, match="cannot open the database"):
        Storage(f"sqlite:///{tmp_path / 'no' / 'such' / 'folder.db'}")
    with pytest.raises(StorageError, match="cannot open the database"):
        Storage("nosuchdb://x")


def test_forgotten_tables_are_rebuilt_when_asked_again(tmp_path: Any,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tables_module, "MAX_IDLE_TABLES", 2)
    monkeypatch.setattr(tables_module, "IDLE_SECONDS", -1.0)

    async def scenario() -> None:
        tables = Tables(Storage(f"sqlite:///{tmp_path / 'games.db'}"), AIRunner(0))
        first = await tables.get((await tables.create(CreateGame(mode="hotseat"))).id)
        await play_randomly(first, 3, random.Random(1), "p")
        for _ in range(3):
            await tables.create(CreateGame(mode="hotseat"))
        again = await tables.get(first.id)
        assert again is not first and snapshots(again) == snapshots(first)
        assert await tables.get(first.id) is again

    asyncio.run(scenario())


def test_database_failures_are_refusals_that_change_nothing(tmp_path: Path) -> None:
    """With the file locked by another connection every write fails for real (``database is
    locked``): each change is refused with 503 and the table stays as it was, in memory and in
    the database; once the lock is gone the same changes go through."""
    path = tmp_path / "games.db"
    url = f"sqlite:///{path}?timeout=0.1"

    async def scenario() -> None:
        storage = Storage(url)
        tables = Tables(storage, AIRunner(0))
        created = await tables.create(CreateGame(game="hill218", mode="friend"))
        table = await tables.get(created.id)
        await play_randomly(table, 3, random.Random(5), "p")
        seen, seat = snapshots(table), table.state.current_player()
        action = table.snapshot(seat)["legal"][0]
        changes = {"play": lambda: table.play(seat, action, table.version, "x"),
                   "join": lambda: table.enter(created.invite.split("#token=")[1]),
                   "resign": lambda: table.resign(0),
                   "create": lambda: tables.create(CreateGame(mode="hotseat"))}
        with locked(path):
            for name, change in changes.items():
                with pytest.raises(Refused, match="database is locked") as refused:
                    await change()
                assert refused.value.status == 503, name
        assert snapshots(table) == seen and table.status == "waiting"
        stored = storage.load_game(created.id)
        assert stored is not None and not stored.seats[1].joined
        assert len(stored.events) == table.version and stored.status == "waiting"

        await changes["play"]()
        await changes["join"]()
        assert table.version > seen[0]["version"] and table.status == "playing"
        assert snapshots(await Tables(Storage(url), AIRunner(0)).get(created.id)) \
            == snapshots(table)
        storage.close()

    asyncio.run(scenario())


def stored_game(game_id: str, status: str, age: timedelta, idle: timedelta,
                seats: tuple[SeatData, ...]) -> GameData:
    """A game created ``age`` ago and last changed ``idle`` ago, with two events."""
    moment = now()
    return GameData(id=game_id, game="hill218", options={}, mode="friend", seed=1,
                    status=status, result=None, created=moment - age, updated=moment - idle,
                    seats=list(seats),
                    events=[EventData(None, {"deal": 1}), EventData(0, {"play": 2}, "r0")])


def rows_of(storage: Storage, game_ids: set[str]) -> dict[str, int]:
    with storage.engine.connect() as db:
        return {table.name: db.scalar(select(func.count()).select_from(table)
                                      .where(table.c.game_id.in_(game_ids)))
                for table in (EVENTS, SEATS)}


def test_games_nobody_joined_or_played_expire(database_url: str,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(storage_module, "EXPIRY_BATCH", 2)  # several transactions
    joined, waiting = SeatData(0, "human", joined=True), SeatData(1, "human", joined=False)
    friend = SeatData(1, "human", joined=True)
    computer = SeatData(1, "ai", "easy")  # never marked joined, never waited for
    day, hour = timedelta(days=1), timedelta(hours=1)
    games = {
        "over-unjoined": ("over", 60 * day, 60 * day, (joined, waiting)),
        "old-invite": ("waiting", 8 * day, 8 * day, (joined, waiting)),
        "old-invite-2": ("waiting", 9 * day, hour, (joined, waiting)),
        "fresh-invite": ("waiting", hour, hour, (joined, waiting)),
        "idle-31-days": ("playing", 40 * day, 31 * day, (joined, friend)),
        "idle-vs-ai": ("playing", 31 * day, 31 * day, (joined, computer)),
        "active-vs-ai": ("playing", 40 * day, hour, (joined, computer)),
    }
    expired = {"old-invite", "old-invite-2", "idle-31-days", "idle-vs-ai"}
    storage = Storage(database_url)
    for game_id, (status, age, idle, seats) in games.items():
        storage.create_game(stored_game(game_id, status, age, idle, seats))
    listener = None
    if storage.notifies:
        import psycopg

        listener = psycopg.connect(**connect_args(storage.engine.url), autocommit=True)
        listener.execute(f"LISTEN {CHANNEL}")

    moment = now()
    gone = storage.expire_games(unjoined_before=moment - 7 * day,
                                idle_before=moment - 30 * day)
    assert sorted(gone) == sorted(expired)
    assert all(storage.load_game(g) is None for g in expired)
    kept = set(games) - expired
    assert all(len(storage.load_game(g).events) == 2 for g in kept)  # type: ignore[union-attr]
    assert rows_of(storage, expired) == {"events": 0, "seats": 0}
    assert rows_of(storage, kept) == {"events": 2 * len(kept), "seats": 2 * len(kept)}
    assert storage.expire_games(moment - 7 * day, moment - 30 * day) == []
    if listener is not None:
        notices = [json.loads(n.payload) for n in listener.notifies(timeout=2.0,
                                                                     stop_after=len(expired))]
        listener.close()
        assert sorted(n["game"] for n in notices) == sorted(expired)
        assert all("version" not in n for n in notices)
    storage.close()


def test_the_write_ahead_log_comes_back_under_its_limit(tmp_path: Path) -> None:
    """Readers that never stop keep a ``PASSIVE`` checkpoint from starting the log over: a
    flood of writes must still see its log emptied once it is over ``wal_limit_bytes``, and no
    write held up for long while that is done."""
    path, limit = tmp_path / "games.db", 256 * 1024
    wal = Path(f"{path}-wal")
    storage = Storage(f"sqlite:///{path}", wal_limit_bytes=limit, checkpoint_seconds=0.05)
    storage.create_game(stored_game("flood", "playing", timedelta(0), timedelta(0),
                                    (SeatData(0, "human", joined=True),)))
    stop, reads = threading.Event(), [0, 0]

    def read(who: int) -> None:
        reader = sqlite3.connect(path, isolation_level=None)
        while not stop.is_set():
            reader.execute("BEGIN")
            reader.execute("SELECT count(*), max(length(action)) FROM events").fetchall()
            reader.execute("COMMIT")
            reads[who] += 1
        reader.close()

    async def flood() -> tuple[int, float]:
        largest, slowest, pad = 0, 0.0, "x" * 16_000
        for i in range(2, 202):  # about 3.2 MB of events, a commit each, as the server writes
            start = time.monotonic()
            await storage.write(storage.append_events, "flood", i, [EventData(0, {"pad": pad})],
                                "playing", None)
            slowest = max(slowest, time.monotonic() - start)
            largest = max(largest, wal.stat().st_size)
        return largest, slowest

    readers = [threading.Thread(target=read, args=(who,)) for who in (0, 1)]
    for reader in readers:
        reader.start()
    try:
        largest, slowest = asyncio.run(flood())
        assert largest > limit
        assert slowest < 2.5  # not a busy timeout (5 s) of the writer
        deadline = time.monotonic() + 5.0
        while wal.stat().st_size > limit:
            assert time.monotonic() < deadline, f"the log stays at {wal.stat().st_size} bytes"
            time.sleep(0.05)
        before = list(reads)
        time.sleep(0.2)
        assert all(after > then for after, then in zip(reads, before, strict=True))
    finally:
        stop.set()
        for reader in readers:
            reader.join()
        storage.close()
    assert os.path.getsize(path) > 3_000_000  # the events reached the database file


class Watcher:
    """A subscriber keeping the states it is sent."""

    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.sent_log = None  # the whole log in every state
        self.states: list[dict[str, Any]] = []

    def send(self, text: str) -> None:
        self.states.append(json.loads(text))


def test_the_tables_expire_games_by_their_settings(database_url: str) -> None:
    """``Tables.expire`` deletes what the settings' ages say, and a game still in memory ends
    for whoever watches it ("expired"), taking no more plays."""

    async def scenario() -> None:
        storage = Storage(database_url)
        settings = ServerSettings(invite_expiry_hours=2, idle_expiry_days=3)
        tables = Tables(storage, AIRunner(0), settings=settings)
        fresh = await tables.create(CreateGame(game="hill218", mode="friend"))
        old = await tables.create(CreateGame(game="hill218", mode="friend"))
        idle = await tables.create(CreateGame(game="hill218", mode="hotseat"))
        with storage.engine.begin() as db:
            db.execute(update(GAMES).where(GAMES.c.id == old.id)
                       .values(created=now() - timedelta(hours=3)))
            db.execute(update(GAMES).where(GAMES.c.id == idle.id)
                       .values(updated=now() - timedelta(days=4)))
        table = await tables.get(old.id)
        watcher = Watcher(0)
        table.subscribe(watcher)
        assert sorted(await tables.expire()) == sorted([old.id, idle.id])
        assert watcher.states[-1]["status"] == "over"
        assert watcher.states[-1]["result"] == {"abandoned": True, "by": None, "how": "expired"}
        with pytest.raises(Refused, match="the game is over"):
            await table.play(0, watcher.states[0]["legal"][0], table.version, "late")
        with pytest.raises(Refused, match="no game"):
            await tables.get(idle.id)
        assert (await tables.get(fresh.id)).status == "waiting"
        storage.close()

    asyncio.run(scenario())
