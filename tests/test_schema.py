"""The schema's versions (warboard.server.schema, Alembic): the first revision is the models'
schema exactly, a new database is made at head, a database made before the schema had versions
(tests/data/v0-games.db, made by the code of that time; its tables on PostgreSQL from
tests/data/v0-schema-postgresql.sql) is refused until ``warboard db upgrade`` and then its games
load, play on and replay; a database behind head or ahead of it is refused, saying what to do.
"""

from __future__ import annotations

import asyncio
import json
import random
import shutil
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import column as sa_column
from sqlalchemy import create_engine, inspect, select, text
from sqlalchemy import table as sa_table

from warboard.cli import main
from warboard.server import schema
from warboard.server.ai_runner import AIRunner
from warboard.server.messages import CreateGame, Refused
from warboard.server.storage import EVENTS, GAMES, SEATS, Base, Storage, StorageError
from warboard.server.tables import Tables

DATA = Path(__file__).parent / "data"
V0_DATABASE, V0_GAMES = DATA / "v0-games.db", DATA / "v0-games.json"
V0_POSTGRESQL = DATA / "v0-schema-postgresql.sql"
V0_COLUMNS = {"games": {"id", "game", "options", "mode", "seed", "status", "result", "created",
                        "updated"},
              "seats": {"game_id", "seat", "kind", "ai_level", "token_hash", "joined"},
              "events": {"game_id", "index", "seat", "action", "request_id"}}


def differences(url: str) -> list[Any]:
    """What Alembic's autogenerate finds between the database and the models."""
    engine = create_engine(url)
    try:
        with engine.connect() as db:
            return list(compare_metadata(MigrationContext.configure(db), Base.metadata))
    finally:
        engine.dispose()


def schema_state(url: str) -> schema.SchemaState:
    engine = create_engine(url)
    try:
        with engine.connect() as db:
            return schema.state(db)
    finally:
        engine.dispose()


def execute(url: str, *statements: str) -> None:
    engine = create_engine(url)
    try:
        with engine.begin() as db:
            for statement in statements:
                db.execute(text(statement))
    finally:
        engine.dispose()


def utc(value: Any) -> Any:
    """SQLite gives back naive datetimes: they are UTC."""
    return value.replace(tzinfo=UTC) if isinstance(value, datetime) else value


def make_v0_database(url: str) -> None:
    """The database at ``url`` as warboard made it before its schema had versions, holding
    the games of tests/data/v0-games.db."""
    if url.startswith("sqlite"):
        shutil.copy(V0_DATABASE, url.removeprefix("sqlite:///"))
        return
    execute(url, *(s for s in V0_POSTGRESQL.read_text().split(";") if s.strip()))
    source, target = create_engine(f"sqlite:///{V0_DATABASE}"), create_engine(url)
    with source.connect() as old, target.begin() as new:
        for table in (GAMES, SEATS, EVENTS):
            # the columns of that time, which the models' tables have more than
            then = sa_table(table.name, *(sa_column(c.name, c.type) for c in table.columns
                                          if c.name in V0_COLUMNS[table.name]))
            rows = [{k: utc(v) for k, v in row.items()}
                    for row in old.execute(select(then)).mappings()]
            new.execute(then.insert(), rows)
    source.dispose()
    target.dispose()


def upgrade(url: str, capsys: pytest.CaptureFixture[str]) -> str:
    """``warboard db upgrade`` (in this process); what it printed."""
    assert main(["db", "upgrade", "--database-url", url]) == 0
    return capsys.readouterr().out


def test_a_new_database_is_made_at_head_with_the_models_schema(database_url: str) -> None:
    Storage(database_url).close()
    assert schema_state(database_url).status == "current"
    assert differences(database_url) == []


# what the models have that the schema before versions (revision 0001) had not: revision 0002's
# (players), 0003's (the lobby: chat, rematches, mutes) and 0004's (clocks)
SINCE_BASELINE = {("add_table", "chat"), ("add_index", "chat_game"),
                  ("add_column", "games.rematch"), ("add_column", "seats.muted"),
                  ("add_index", "games_lobby"),
                  ("add_column", "games.clock"), ("add_column", "games.deadline"),
                  ("add_column", "games.clock_version"), ("add_index", "games_deadline"),
                  ("add_column", "seats.seen"), ("add_column", "seats.present"),
                  ("add_table", "players"), ("add_table", "player_keys"),
                  ("add_table", "player_transfers"), ("add_table", "ratings"),
                  ("add_index", "ix_player_keys_player_id"),
                  ("add_index", "ix_player_transfers_player_id"),
                  ("add_index", "ratings_game_rating"), ("add_column", "games.rated"),
                  ("add_column", "seats.player_id"), ("add_index", "seats_player"),
                  ("add_fk", "seats"), ("add_table", "custom_scenarios"),
                  ("add_table", "campaigns"), ("add_column", "games.campaign"),
                  ("add_table", "analyses")}


def named(difference: Any) -> tuple[str, str]:
    """One of Alembic's differences as (kind, what it is about)."""
    kind, *rest = difference
    if kind == "add_column":
        return kind, f"{rest[1]}.{rest[2].name}"
    if kind == "add_fk":
        return kind, rest[0].table.name
    return kind, rest[0].name


def test_the_first_revision_makes_what_the_code_before_it_made(database_url: str,
                                                               capsys: Any) -> None:
    """The tables warboard made before (``create_all``), once recognised, differ from the
    models only by what came after the baseline, and the revisions bring them to the models."""
    make_v0_database(database_url)
    assert schema_state(database_url).status == "unversioned"
    assert {named(d) for d in differences(database_url)} == SINCE_BASELINE
    assert f"upgraded to revision {schema.head()} (head)" in upgrade(database_url, capsys)
    assert differences(database_url) == []


def v0_games() -> list[dict[str, Any]]:
    return json.loads(V0_GAMES.read_text())


def test_a_database_of_the_code_before_is_refused_then_upgraded_and_its_games_go_on(
        database_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    make_v0_database(database_url)
    with pytest.raises(StorageError, match=r"before its schema had versions.*warboard backup "
                                           r"FILE.*warboard db upgrade"):
        Storage(database_url)
    upgrade(database_url, capsys)
    assert f"nothing to do, it is at revision {schema.head()} (head)" in upgrade(database_url,
                                                                                  capsys)
    assert main(["db", "current", "--json", "--database-url", database_url]) == 0
    assert json.loads(capsys.readouterr().out)["status"] == "current"

    async def scenario() -> None:
        storage = Storage(database_url)
        tables, rng = Tables(storage, AIRunner(0)), random.Random(3)
        for stored in v0_games():
            table = await tables.get(stored["id"])
            assert (table.game.name, table.status, table.version) \
                == (stored["game"], stored["status"], stored["events"])
            assert table.seat_of(stored["tokens"]["0"]) == 0
            if stored["status"] == "over":
                replay = json.loads(table.replay_for(None))
                assert len(replay["steps"]) == stored["events"]
                with pytest.raises(Refused, match="over"):
                    await table.resign(0)
            elif stored["mode"] == "hotseat":
                for i in range(4):
                    seat = table.state.current_player()
                    await table.play(seat, rng.choice(table.snapshot(seat)["legal"]),
                                     table.version, f"after-upgrade-{i}")
                assert table.version > stored["events"]
        new = await tables.create(CreateGame(mode="hotseat"))
        await tables.close()
        storage.close()

        again = Storage(database_url)  # what was played after the upgrade was stored
        for stored in v0_games():
            data = again.load_game(stored["id"])
            assert data is not None
            grew = stored["status"] == "playing"
            assert (len(data.events) > stored["events"]) == grew
        assert again.load_game(new.id) is not None
        again.close()

    asyncio.run(scenario())


def test_a_database_made_before_the_index_gets_it_when_upgraded(database_url: str,
                                                                capsys: Any) -> None:
    make_v0_database(database_url)
    execute(database_url, "DROP INDEX games_status_updated")
    upgrade(database_url, capsys)
    assert "games_status_updated" in {
        i["name"] for i in inspect(create_engine(database_url)).get_indexes("games")}
    assert differences(database_url) == []


def test_a_revision_this_warboard_does_not_know_is_refused(database_url: str,
                                                          capsys: Any) -> None:
    Storage(database_url).close()
    execute(database_url, "UPDATE alembic_version SET version_num = '9999'")
    with pytest.raises(StorageError, match="9999, which this warboard does not know"):
        Storage(database_url)
    assert main(["db", "upgrade", "--database-url", database_url]) == 1
    assert "does not know" in capsys.readouterr().err
    assert schema_state(database_url).revision == "9999"


def test_a_database_with_only_some_of_the_tables_is_not_taken_for_one(tmp_path: Path,
                                                                      capsys: Any) -> None:
    url = f"sqlite:///{tmp_path / 'some.db'}"
    execute(url, "CREATE TABLE games (id VARCHAR(16) PRIMARY KEY)")
    with pytest.raises(StorageError, match="incomplete: only warboard's games"):
        Storage(url)
    assert main(["db", "upgrade", "--database-url", url]) == 1
    assert schema_state(url).revision is None


SECOND_REVISION = '''
import sqlalchemy as sa
from alembic import op

revision = "{next}"
down_revision = "{head}"


def upgrade() -> None:
    op.add_column("games", sa.Column("note", sa.String(40), nullable=True))
'''


HEAD = schema.head()
NEXT = f"{int(HEAD) + 1:04d}"


@pytest.fixture
def second_revision(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The migrations with one more revision (``NEXT``, after the head: a column more)."""
    migrations = tmp_path / "migrations"
    shutil.copytree(schema.MIGRATIONS, migrations,
                    ignore=shutil.ignore_patterns("__pycache__"))
    (migrations / "versions" / f"v{NEXT}_note.py").write_text(
        SECOND_REVISION.format(next=NEXT, head=HEAD))
    monkeypatch.setattr(schema, "MIGRATIONS", migrations)
    schema._scripts.cache_clear()
    yield
    schema._scripts.cache_clear()


def test_a_database_behind_head_is_refused_until_upgraded(tmp_path: Path, capsys: Any,
                                                          second_revision: None) -> None:
    url = f"sqlite:///{tmp_path / 'games.db'}"
    make_v0_database(url)
    execute(url, "CREATE TABLE alembic_version (version_num VARCHAR(32) PRIMARY KEY)",
            "INSERT INTO alembic_version VALUES ('0001')")  # what upgrading it to 0001 does
    assert schema.head() == NEXT
    with pytest.raises(StorageError, match=rf"at revision 0001, behind this warboard's {NEXT}: "
                                           r"back the games up"):
        Storage(url)
    assert main(["db", "current", "--database-url", url]) == 0
    assert "behind" in capsys.readouterr().out
    assert f"upgraded to revision {NEXT} (head); it was at revision 0001" in upgrade(url, capsys)
    assert "note" in {c["name"] for c in inspect(create_engine(url)).get_columns("games")}
    storage = Storage(url)
    assert all(storage.load_game(game["id"]) is not None for game in v0_games())
    storage.close()
