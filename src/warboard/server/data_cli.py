"""The commands that look after the stored games: ``warboard db upgrade``, ``warboard db
current``, ``warboard backup FILE`` and ``warboard restore FILE`` (docs/data.md). Each works on
the database ``warboard serve`` would use: ``--database-url``, else ``WARBOARD_DATABASE_URL``,
else the settings file (``--config`` or ``WARBOARD_CONFIG``), else the default."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from warboard.server.paths import DATABASE_URL_HELP

if TYPE_CHECKING:  # imported by the commands that need them: the others start quicker
    from sqlalchemy import Connection

    from warboard.server.schema import SchemaState

UPGRADE_HELP = ("Bring the database's tables to this warboard's schema (its newest revision): "
                "a database made before the schema had versions is recognised as the first "
                "revision. The server refuses a database that is behind; back it up first "
                "(warboard backup FILE).")


def add_commands(sub: argparse._SubParsersAction) -> None:
    """``db`` (with ``upgrade`` and ``current``), ``backup`` and ``restore``."""
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

    backup = sub.add_parser(
        "backup", help="copy the SQLite database of games into a file, while it serves",
        description="Copy the SQLite database into FILE with SQLite's online backup: a "
                    "consistent copy, even while a server writes to it. For PostgreSQL it "
                    "prints the pg_dump command to run instead.")
    backup.add_argument("file", metavar="FILE", help="the copy to write")
    backup.add_argument("--force", action="store_true", help="replace FILE if it exists")
    _database_url(backup)
    backup.set_defaults(run=run_backup)
    restore = sub.add_parser(
        "restore", help="put a backup of the games back into the SQLite database",
        description="Copy FILE, a backup made by 'warboard backup', into the database (stop "
                    "the server first). FILE must be a warboard database; a database that "
                    "holds games is replaced only with --force. For PostgreSQL it prints the "
                    "pg_restore command to run instead.")
    restore.add_argument("file", metavar="FILE", help="the backup")
    restore.add_argument("--force", action="store_true",
                         help="replace the games the database holds")
    _database_url(restore)
    restore.set_defaults(run=run_restore)


def _database_url(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--database-url", default=None, help=DATABASE_URL_HELP)
    parser.add_argument("--config", metavar="FILE", default=None,
                        help="the settings file of warboard serve (its database_url); "
                             "docs/operations.md")


def _url(args: argparse.Namespace) -> str:
    """The database ``warboard serve`` would use with the same flag, WARBOARD_DATABASE_URL or
    settings file."""
    from warboard.server.settings import load_settings

    flags = {"database_url": args.database_url} if args.database_url else {}
    return load_settings(flags, args.config).database_url


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


def run_backup(args: argparse.Namespace) -> int:
    from warboard.server.backup import backup

    return _copy(lambda: backup(_url(args), Path(args.file), args.force),
                 f"backed up into {args.file}")


def run_restore(args: argparse.Namespace) -> int:
    from warboard.server.backup import restore

    return _copy(lambda: restore(Path(args.file), _url(args), args.force),
                 f"restored {args.file}")


def _copy(copy: Callable[[], SchemaState], done: str) -> int:
    """Run ``copy``; for PostgreSQL print its own tool's command instead (and fail: nothing
    was copied)."""
    from warboard.server.backup import NotSQLite

    try:
        found = copy()
    except NotSQLite as exc:
        if exc.command:
            print(exc.command)
        raise
    hint = "" if found.status == "current" else "; then run 'warboard db upgrade'"
    print(f"{done}: a database {found.describe()}{hint}")
    return 0
