"""Copies of a SQLite database of games (``warboard backup``, ``warboard restore``), made with
SQLite's online backup API: a copy is one consistent moment of the database, taken while a server
goes on writing to it (in WAL mode its writes do not wait for the copy's read). PostgreSQL has
its own tools for this; for it the ``pg_dump`` and ``pg_restore`` lines are given instead.
"""

from __future__ import annotations

import os
import shlex
import sqlite3
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path

from sqlalchemy import Connection, create_engine, text
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import SQLAlchemyError

from warboard.core.errors import WarboardError
from warboard.server import schema
from warboard.server.schema import SchemaState
from warboard.server.storage import reason_of


class BackupError(WarboardError):
    """A copy that cannot or may not be made."""


class NotSQLite(BackupError):
    """The database is not a SQLite file: ``command`` is what copies it instead."""

    def __init__(self, message: str, command: str | None) -> None:
        super().__init__(message)
        self.command = command


def _libpq(url: str) -> str | None:
    """A PostgreSQL ``url`` as libpq reads it, quoted for a shell: no SQLAlchemy driver, and no
    password (pg_dump asks for it, or reads ~/.pgpass); ``None`` for other databases."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "postgresql":
        return None
    plain = URL.create("postgresql", parsed.username, None, parsed.host, parsed.port,
                       parsed.database, parsed.query)
    return shlex.quote(plain.render_as_string(hide_password=False))


def pg_dump_line(url: str, file: Path) -> str | None:
    """The documented ``pg_dump`` command that backs up a PostgreSQL ``url`` into ``file``
    (``None`` for other databases)."""
    dbname = _libpq(url)
    if dbname is None:
        return None
    return f"pg_dump --format=custom --file={shlex.quote(str(file))} --dbname={dbname}"


def pg_restore_line(url: str, file: Path, force: bool) -> str | None:
    """The ``pg_restore`` command that restores ``file`` into a PostgreSQL ``url`` (``force``:
    dropping the tables already there first)."""
    dbname = _libpq(url)
    if dbname is None:
        return None
    clean = "--clean --if-exists " if force else ""
    return (f"pg_restore --single-transaction --no-owner {clean}--dbname={dbname} "
            f"{shlex.quote(str(file))}")


def _sqlite_file(url: str, what: str, line: str | None) -> Path:
    """The file of a SQLite URL; ``NotSQLite`` with ``line`` (the command of PostgreSQL's own
    tool) for any other database."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        instead = ("for PostgreSQL, run the command above (docs/data.md)" if line
                   else f"{parsed.get_backend_name()} is not supported")
        raise NotSQLite(f"warboard {what} copies SQLite databases only: {instead}", line)
    if parsed.database in (None, "", ":memory:"):
        raise BackupError(f"{url}: an in-memory database has no file to copy")
    return Path(parsed.database)


@contextmanager
def _reading(path: Path) -> Iterator[Connection]:
    """The SQLite file ``path``, opened read-only (a missing file is not made)."""
    engine = create_engine("sqlite://", creator=lambda: sqlite3.connect(
        f"{path.resolve().as_uri()}?mode=ro", uri=True))
    try:
        with engine.connect() as db:
            yield db
    except (sqlite3.Error, SQLAlchemyError) as exc:  # not there, not SQLite, unreadable
        reason = reason_of(exc) if isinstance(exc, SQLAlchemyError) else exc
        raise BackupError(f"{path}: not a SQLite database ({reason})") from None
    finally:
        engine.dispose()


def _schema_of(path: Path) -> SchemaState:
    with _reading(path) as db:
        return schema.state(db)


def _warboard_schema(path: Path) -> SchemaState:
    """``path``'s schema, refused unless it is a database of warboard's games this warboard
    knows (at head, behind it, or from before the schema had versions)."""
    if not path.is_file():
        raise BackupError(f"{path}: no such file")
    found = _schema_of(path)
    if found.status not in ("current", "behind", "unversioned"):
        raise BackupError(f"{path}: not a warboard database of games: it is {found.describe()}")
    return found


def _refuse_to_overwrite(path: Path, force: bool) -> None:
    """Refuse a restore over a database that holds games, unless ``force``."""
    if force or not path.is_file() or not path.stat().st_size:
        return
    with _reading(path) as db:
        games = (db.execute(text("SELECT count(*) FROM games")).scalar_one()
                 if "games" in schema.state(db).tables else 0)
    if games:
        raise BackupError(f"{path} holds {games} games: give --force to replace them (with "
                          f"the server stopped)")


@contextmanager
def _writing(path: Path) -> Iterator[sqlite3.Connection]:
    """A new SQLite file that becomes ``path`` once complete (a copy cut short leaves no file
    that looks like one), in rollback-journal mode: one file, no write-ahead log beside it."""
    partial = path.with_name(f".{path.name}.partial")
    partial.unlink(missing_ok=True)
    try:
        with closing(sqlite3.connect(partial)) as target:
            yield target
            target.execute("PRAGMA journal_mode=DELETE")
        os.replace(partial, path)
    finally:
        partial.unlink(missing_ok=True)


@contextmanager
def _copying(source: Path, target: Path) -> Iterator[None]:
    """SQLite's failures while copying (a folder that is not there, a full disk) as
    ``BackupError``."""
    try:
        yield
    except sqlite3.Error as exc:
        raise BackupError(f"cannot copy {source} into {target}: {exc}") from None


def backup(url: str, file: Path, force: bool = False) -> SchemaState:
    """Copy the SQLite database ``url`` into ``file`` (``force``: over one that exists); the
    schema of the copy."""
    source = _sqlite_file(url, "backup", pg_dump_line(url, file))
    found = _warboard_schema(source)
    if file.exists() and not force:
        raise BackupError(f"{file} exists: give --force to replace it")
    with _copying(source, file), closing(sqlite3.connect(source)) as db, \
            _writing(file) as target:
        db.backup(target)
    return found


def restore(file: Path, url: str, force: bool = False) -> SchemaState:
    """Copy the backup ``file`` into the SQLite database ``url``, which must hold no games
    unless ``force``; the schema restored."""
    target = _sqlite_file(url, "restore", pg_restore_line(url, file, force))
    found = _warboard_schema(file)
    _refuse_to_overwrite(target, force)
    with _copying(file, target), closing(sqlite3.connect(file)) as source, \
            closing(sqlite3.connect(target)) as db:
        source.backup(db)
    return found
