"""Games survive the server: stored in SQLite or PostgreSQL, rebuilt exactly from their events.

The PostgreSQL variant runs in a schema of its own on postgresql+psycopg://root@127.0.0.1:5432/test
(dropped afterwards) and skips, saying why, when psycopg is missing or the server is not there.
"""

from __future__ import annotations

import asyncio
import random
import uuid
from collections.abc import Iterator
from typing import Any

import pytest

from warboard.server import tables as tables_module
from warboard.server.ai_runner import AIRunner
from warboard.server.messages import CreateGame, Refused
from warboard.server.storage import Storage, StorageError
from warboard.server.tables import Table, Tables

POSTGRES = "postgresql+psycopg://root@127.0.0.1:5432/test"


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Any) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'games.db'}"
        return
    try:
        import psycopg
    except ImportError:
        pytest.skip("PostgreSQL variant: psycopg is not installed "
                    "(pip install -e '.[postgres]')")
    try:
        admin = psycopg.connect("host=127.0.0.1 port=5432 user=root dbname=test",
                                connect_timeout=3, autocommit=True)
    except psycopg.OperationalError as exc:
        pytest.skip(f"PostgreSQL variant: no server at 127.0.0.1:5432 ({exc})".strip())
    schema = f"warboard_test_{uuid.uuid4().hex[:12]}"
    admin.execute(f'CREATE SCHEMA "{schema}"')
    try:
        yield f"{POSTGRES}?options=-csearch_path%3D{schema}"
    finally:
        admin.execute(f'DROP SCHEMA "{schema}" CASCADE')
        admin.close()


def snapshots(table: Table) -> dict[Any, dict[str, Any]]:
    return {seat: table.snapshot(seat).model_dump() for seat in (0, 1, None)}


async def play_randomly(table: Table, plays: int, rng: random.Random, tag: str) -> None:
    for i in range(plays):
        seat = table.state.current_player()
        legal = table.snapshot(seat).legal
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
        legal = table2.snapshot(seat).legal
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
        await table.join(0)
        await table.resign(1)
        listed = await tables.list_for_tokens([created.token, invite, "nothing"])
        assert [(g.seat, g.status) for g in listed] == [(0, "over"), (1, "over")]

        table2 = await Tables(Storage(database_url), ai).get(created.id)
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
