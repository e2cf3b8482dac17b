"""The commands that look after the stored games: ``warboard db upgrade`` and ``warboard db
current`` (docs/data.md). Each takes ``--database-url``, the database ``warboard serve`` would
use by default when it is not given."""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from warboard.server.paths import DATABASE_URL_HELP, default_database_url

if TYPE_CHECKING:  # imported by the commands that need them: the others start quicker
    from sqlalchemy import Connection

UPGRADE_HELP = ("Bring the database's tables to this warboard's schema (its newest revision): "
                "a database made before the schema had versions is recognised as the first "
                "revision. The server refuses a database that is behind; back it up first "
                "(warboard backup FILE).")


def add_commands(sub: argparse._SubParsersAction) -> None:
    """``db``, with ``upgrade`` and ``current``."""
    db = sub.add_parser("db", help="the database's schema version: show it, upgrade it",
                        description="Show or upgrade the schema revision of the database the "
                                    "games are stored in (Alembic's revisions, shipped with "
                                    "warboard).")
    db_commands = db.add_subparsers(dest="db_command", metavar="COMMAND", required=True)
    upgrade = db_commands.add_parser("upgrade", help="bring the schema to this warboard's",
                                     description=UPGRADE_HELP)
    _database_url(upgrade)
    upgrade.set_defaults(run=run_upgrade)
    current = db_commands.add_parser(
        "current", help="print the database's schema revision",
        description="Print the schema revision the database is at, and whether it is this "
                    "warboard's (head) or needs 'warboard db upgrade'.")
    _database_url(current)
    current.add_argument("--json", action="store_true",
                         help="print one JSON object: database, revision, head, status")
    current.set_defaults(run=run_current)


def _database_url(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--database-url", default=None, help=DATABASE_URL_HELP)


def _url(args: argparse.Namespace) -> str:
    return args.database_url or default_database_url()


@contextmanager
def _transaction(url: str) -> Iterator[Connection]:
    """A transaction on the database ``url`` (its failures as ``StorageError``)."""
    from sqlalchemy import create_engine

    from warboard.server.storage import opening

    with opening(url):
        engine = create_engine(url)
        try:
            with engine.begin() as db:
                yield db
        finally:
            engine.dispose()


def run_upgrade(args: argparse.Namespace) -> int:
    from warboard.server import schema
    from warboard.server.storage import shown_url

    url = _url(args)
    with _transaction(url) as db:
        before, after = schema.upgrade(db)
    print(f"{shown_url(url)}: " + (f"nothing to do, it is {after.describe()}"
                                   if before.revision == after.revision
                                   else f"upgraded to revision {after.revision} (head); it was "
                                        f"{before.describe()}"))
    return 0


def run_current(args: argparse.Namespace) -> int:
    from sqlalchemy.engine import make_url

    from warboard.server import schema
    from warboard.server.storage import shown_url

    url = _url(args)
    parsed = make_url(url)
    if (parsed.get_backend_name() == "sqlite" and parsed.database not in (None, "", ":memory:")
            and not Path(parsed.database).is_file()):  # asking makes no file
        raise FileNotFoundError(2, "no such database file", parsed.database)
    with _transaction(url) as db:
        found = schema.state(db)
    report = {"database": shown_url(url), "revision": found.revision, "head": found.head,
              "status": found.status}
    print(json.dumps(report) if args.json else f"{report['database']}: {found.describe()}")
    return 0

