"""The database schema's versions (Alembic): which revision a database is at, bringing it to the
newest (``head``), and the check made before the server uses it.

The revisions are in ``migrations/versions``; the first, ``0001`` (``BASELINE``), is the schema
warboard made before it had versions. A database is

* ``empty``: none of warboard's tables; made at head by the revisions;
* ``unversioned``: warboard's tables without Alembic's ``alembic_version``, made by warboard
  before its schema had versions: ``upgrade`` stamps it ``BASELINE``, then goes on to head;
* ``behind``, ``current`` or ``unknown`` (a revision this warboard does not have: a newer one's).

``Storage`` uses only a ``current`` database (and makes an ``empty`` one): any other is refused,
naming ``warboard db upgrade``, so a host backs the games up before their tables change
(docs/data.md). On PostgreSQL both hold an advisory lock for their transaction, so server
processes starting together make the tables one at a time.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, inspect, text

from warboard.core.errors import WarboardError

MIGRATIONS = Path(__file__).parent / "migrations"
BASELINE = "0001"
BASELINE_TABLES = frozenset({"games", "seats", "events"})
# warboard made the index only from some version on, and added it to a database without it
# when it opened one: recognising such a database as the baseline does the same
BASELINE_INDEX = "CREATE INDEX IF NOT EXISTS games_status_updated ON games (status, updated)"
LOCK = int.from_bytes(b"warboard", "big")  # PostgreSQL's advisory lock of schema changes
UPGRADE_HINT = ("back the games up (warboard backup FILE) and run 'warboard db upgrade' with "
                "the same --database-url")


class SchemaError(WarboardError):
    """The database's schema is not one this warboard can use as it is."""


def _config(db: Connection | None = None) -> Config:
    """Alembic's settings, made here rather than read from an alembic.ini; ``db``: the
    connection the revisions run on (``migrations/env.py``)."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = db
    return config


@cache
def _scripts() -> ScriptDirectory:
    return ScriptDirectory.from_config(_config())


def head() -> str:
    """The newest revision."""
    revision = _scripts().get_current_head()
    assert revision is not None, "the migrations have revisions"
    return revision


@dataclass(frozen=True)
class SchemaState:
    """Where a database's schema stands: ``revision`` (``None``: no ``alembic_version``),
    whether it has warboard's tables, and the ``head`` it is compared with."""

    revision: str | None
    tables: frozenset[str]
    head: str

    @property
    def status(self) -> str:
        """``empty``, ``partial``, ``unversioned``, ``behind``, ``current`` or ``unknown``."""
        if self.revision is None:
            if not self.tables:
                return "empty"
            return "unversioned" if self.tables == BASELINE_TABLES else "partial"
        if self.revision == self.head:
            return "current"
        known = {script.revision for script in _scripts().walk_revisions()}
        return "behind" if self.revision in known else "unknown"

    def describe(self) -> str:
        """The state in words (``warboard db current``, the refusals)."""
        return {
            "empty": "empty (no warboard tables yet)",
            "partial": f"incomplete: only warboard's {', '.join(sorted(self.tables))} of "
                       f"{', '.join(sorted(BASELINE_TABLES))} (not a database warboard made)",
            "unversioned": "made by warboard before its schema had versions (no revision)",
            "behind": f"at revision {self.revision}, behind this warboard's {self.head}",
            "current": f"at revision {self.revision} (head)",
            "unknown": f"at revision {self.revision}, which this warboard does not know (made "
                       f"by a newer warboard: run that one, or restore a backup of this one's)",
        }[self.status]


def state(db: Connection) -> SchemaState:
    revision = MigrationContext.configure(db).get_current_revision()
    tables = BASELINE_TABLES & set(inspect(db).get_table_names())
    return SchemaState(revision, frozenset(tables), head())


def _locked(db: Connection) -> SchemaState:
    """The state, read under the schema lock (PostgreSQL; held until ``db`` commits)."""
    if db.dialect.name == "postgresql":
        db.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": LOCK})
    return state(db)


def upgrade(db: Connection) -> tuple[SchemaState, SchemaState]:
    """Bring the database to head in ``db``'s transaction; its state before and after."""
    before = _locked(db)
    if before.status in ("partial", "unknown"):
        raise SchemaError(f"it is {before.describe()}")
    if before.status == "unversioned":
        db.execute(text(BASELINE_INDEX))
        command.stamp(_config(db), BASELINE)
    command.upgrade(_config(db), "head")
    return before, state(db)


def ensure_current(db: Connection) -> None:
    """Make an empty database at head (in ``db``'s transaction); refuse one not at head."""
    found = _locked(db)
    if found.status == "empty":
        command.upgrade(_config(db), "head")
    elif found.status != "current":
        hint = f": {UPGRADE_HINT}" if found.status in ("unversioned", "behind") else ""
        raise SchemaError(f"it is {found.describe()}{hint}")
