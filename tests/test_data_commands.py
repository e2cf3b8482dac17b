"""The commands that look after the stored games (warboard.server.data_cli): the default
database in the user data folder, ``warboard db current``, ``warboard backup`` (while a real
server process writes) and ``warboard restore``, and the PostgreSQL tools' commands given
instead, run for real. (tests/test_schema.py tests ``warboard db upgrade``.)"""

from __future__ import annotations

import asyncio
import json
import os
import shlex
import shutil
import signal
import sqlite3
import subprocess
import sys
import threading
from contextlib import closing
from pathlib import Path
from typing import Any

import httpx
import pytest

from server_helpers import TIMEOUT, UNLIMITED_ENV, free_port
from test_schema import V0_DATABASE
from test_server import start_serve
from test_server_cluster import URL as CLUSTER_URL
from test_server_cluster import admin_connection, create_database
from warboard.cli import main
from warboard.server import schema
from warboard.server.ai_runner import AIRunner
from warboard.server.messages import CreateGame
from warboard.server.paths import default_database_url
from warboard.server.storage import Storage
from warboard.server.tables import Tables

# platformdirs reads XDG_DATA_HOME on Linux and the other Unix systems, not on macOS or Windows
XDG = pytest.mark.skipif(sys.platform in ("darwin", "win32"),
                         reason="the user data folder is not under XDG_DATA_HOME here")


@XDG
def test_the_default_database_is_in_the_user_data_folder(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch,
                                                         capsys: Any) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    path = tmp_path / "data" / "warboard" / "warboard.db"
    assert default_database_url() == f"sqlite:///{path}"
    assert path.parent.is_dir() and not path.exists()  # the folder is made, not the file
    assert main(["db", "upgrade"]) == 0
    assert main(["db", "current", "--json"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert json.loads(lines[-1]) == {"database": f"sqlite:///{path}",
                                     "revision": schema.head(), "head": schema.head(),
                                     "status": "current"}


def test_db_current_makes_no_database_where_there_is_none(tmp_path: Path, capsys: Any) -> None:
    missing = tmp_path / "none.db"
    assert main(["db", "current", "--database-url", f"sqlite:///{missing}"]) == 1
    assert "no such database file" in capsys.readouterr().err
    assert not missing.exists()


def test_the_db_commands_take_the_servers_settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                   capsys: Any) -> None:
    """``db upgrade`` finds the database ``warboard serve`` would use: the flag, else
    WARBOARD_DATABASE_URL (the container's way), else the settings file."""
    from_env, from_file, from_flag = (tmp_path / f"{n}.db" for n in ("env", "file", "flag"))
    config = tmp_path / "warboard.toml"
    config.write_text(f'database_url = "sqlite:///{from_file}"\n')
    assert main(["db", "upgrade", "--config", str(config)]) == 0
    monkeypatch.setenv("WARBOARD_DATABASE_URL", f"sqlite:///{from_env}")
    assert main(["db", "upgrade", "--config", str(config)]) == 0
    assert main(["db", "upgrade", "--database-url", f"sqlite:///{from_flag}"]) == 0
    assert from_env.is_file() and from_file.is_file() and from_flag.is_file()
    monkeypatch.setenv("WARBOARD_DATABASE_URL", "")
    assert main(["db", "current"]) == 1
    assert "WARBOARD_DATABASE_URL" in capsys.readouterr().err


@XDG
def test_serve_without_a_database_url_stores_in_the_user_data_folder(tmp_path: Path) -> None:
    env = {**UNLIMITED_ENV, "XDG_DATA_HOME": str(tmp_path / "data")}
    process = start_serve(free_port(), None, tmp_path, env)
    os.killpg(process.pid, signal.SIGTERM)
    process.wait(20)
    path = tmp_path / "data" / "warboard" / "warboard.db"
    assert f"games are stored in sqlite:///{path}" in (tmp_path / "serve.out").read_text()
    assert path.is_file() and not (tmp_path / "warboard.db").exists()


# ----------------------------------------------------------------------------- backup, restore

def games_in(path: Path) -> list[str]:
    with closing(sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)) as db:
        return [row[0] for row in db.execute("SELECT id FROM games ORDER BY id")]


def v0_copy(folder: Path) -> Path:
    path = folder / "v0.db"
    shutil.copy(V0_DATABASE, path)
    return path


def test_a_backup_taken_while_a_server_writes_restores_and_plays_on(tmp_path: Path) -> None:
    live, copy, restored = tmp_path / "live.db", tmp_path / "copy.db", tmp_path / "restored.db"
    port = free_port()
    process = start_serve(port, f"sqlite:///{live}", tmp_path)
    created: list[str] = []
    writing, stop = threading.Event(), threading.Event()

    def write() -> None:  # new games, one after the other, until told to stop
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=TIMEOUT) as client:
            while not stop.is_set():
                answer = client.post("/api/games", json={"game": "hill218", "mode": "hotseat"})
                created.append(answer.raise_for_status().json()["id"])
                if len(created) == 3:
                    writing.set()

    writer = threading.Thread(target=write)
    writer.start()
    try:
        assert writing.wait(TIMEOUT)
        before = len(created)
        done = warboard("backup", str(copy), "--database-url", f"sqlite:///{live}")
        after = len(created)
    finally:
        stop.set()
        writer.join(TIMEOUT)
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(TIMEOUT)
    assert done.returncode == 0, done.stderr
    assert (f"backed up into {copy}: a database at revision {schema.head()} (head)"
            in done.stdout)
    assert after > before  # the server went on writing while the backup ran
    with closing(sqlite3.connect(copy)) as db:
        assert db.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert db.execute("PRAGMA journal_mode").fetchone() == ("delete",)  # one file
        # one moment of the database: every game copied with its seats and first events
        assert db.execute("SELECT count(*) FROM games WHERE id NOT IN (SELECT game_id FROM "
                          "seats GROUP BY game_id HAVING count(*) = 2) OR id NOT IN (SELECT "
                          "game_id FROM events)").fetchone() == (0,)
    copied = games_in(copy)
    assert before <= len(copied) <= after + 1 and set(created[:before]) <= set(copied)

    done = warboard("restore", str(copy), "--database-url", f"sqlite:///{restored}")
    assert done.returncode == 0, done.stderr
    assert games_in(restored) == copied

    async def play_on() -> None:
        storage = Storage(f"sqlite:///{restored}")
        table = await Tables(storage, AIRunner(0)).get(created[0])
        seat, version = table.state.current_player(), table.version
        await table.play(seat, table.snapshot(seat)["legal"][0], version, "after-restore")
        data = storage.load_game(created[0])
        assert data is not None and len(data.events) > version
        storage.close()

    asyncio.run(play_on())


def test_restore_takes_only_a_warboard_database_and_keeps_games_unless_forced(
        tmp_path: Path, capsys: Any) -> None:
    backup = v0_copy(tmp_path)
    junk, other = tmp_path / "junk.db", tmp_path / "other.db"
    junk.write_text("not a database")
    with closing(sqlite3.connect(other)) as db:
        db.execute("CREATE TABLE notes (text TEXT)")
    target = tmp_path / "target.db"
    url = f"sqlite:///{target}"
    for file, reason in ((tmp_path / "none.db", "no such file"),
                         (junk, "not a SQLite database (file is not a database)"),
                         (other, "not a warboard database of games: it is empty")):
        assert main(["restore", str(file), "--database-url", url]) == 1
        assert reason in capsys.readouterr().err
        assert not target.exists()

    Storage(url).close()  # a new database, no games yet: restoring into it needs no --force
    assert main(["restore", str(backup), "--database-url", url]) == 0
    assert "then run 'warboard db upgrade'" in capsys.readouterr().out  # v0 has no revision
    assert games_in(target) == games_in(backup)

    newer = tmp_path / "newer.db"
    Storage(f"sqlite:///{newer}").close()
    assert main(["restore", str(newer), "--database-url", url]) == 1
    assert "holds 7 games: give --force" in capsys.readouterr().err
    assert games_in(target) == games_in(backup)
    assert main(["restore", str(newer), "--database-url", url, "--force"]) == 0
    assert games_in(target) == []


def test_backup_copies_only_a_warboard_database_and_replaces_a_file_only_if_forced(
        tmp_path: Path, capsys: Any) -> None:
    source, copy = v0_copy(tmp_path), tmp_path / "copy.db"
    url = f"sqlite:///{source}"
    assert main(["backup", str(copy), "--database-url", f"sqlite:///{tmp_path / 'none.db'}"]) \
        == 1
    assert "no such file" in capsys.readouterr().err
    copy.write_text("an older copy")
    assert main(["backup", str(copy), "--database-url", url]) == 1
    assert "exists: give --force" in capsys.readouterr().err
    assert copy.read_text() == "an older copy"
    assert main(["backup", str(copy), "--database-url", url, "--force"]) == 0
    assert games_in(copy) == games_in(source)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["copy.db", "v0.db"]  # no leftovers


def test_postgresql_is_given_the_pg_dump_and_pg_restore_commands(capsys: Any) -> None:
    url = "postgresql+psycopg://warboard:secret@db.example:5433/games"
    assert main(["backup", "nightly.dump", "--database-url", url]) == 1
    out, err = capsys.readouterr()
    assert out == ("pg_dump --format=custom --file=nightly.dump "
                   "--dbname=postgresql://warboard@db.example:5433/games\n")
    assert "copies SQLite databases only: for PostgreSQL, run the command above" in err
    assert main(["restore", "nightly.dump", "--database-url", url, "--force"]) == 1
    out, err = capsys.readouterr()
    assert out == ("pg_restore --single-transaction --no-owner --clean --if-exists "
                   "--dbname=postgresql://warboard@db.example:5433/games nightly.dump\n")
    assert "secret" not in out + err


def test_the_pg_dump_and_pg_restore_commands_copy_the_games(tmp_path: Path,
                                                            capsys: Any) -> None:
    if shutil.which("pg_dump") is None or shutil.which("pg_restore") is None:
        pytest.skip("pg_dump and pg_restore are not installed (Debian: postgresql-client)")
    admin = admin_connection()
    source, target = create_database(admin), create_database(admin)
    dump = tmp_path / "games.dump"
    try:
        storage = Storage(CLUSTER_URL.format(name=source))
        game = asyncio.run(Tables(storage, AIRunner(0)).create(CreateGame(mode="hotseat")))
        stored = storage.load_game(game.id)
        storage.close()
        for command, name in (("backup", source), ("restore", target)):
            assert main([command, str(dump), "--database-url",
                         CLUSTER_URL.format(name=name)]) == 1
            line = capsys.readouterr().out
            subprocess.run(shlex.split(line), check=True, timeout=60)
        storage = Storage(CLUSTER_URL.format(name=target))
        assert storage.load_game(game.id) == stored
        storage.close()
    finally:
        for name in (source, target):
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.close()


def warboard(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "warboard.cli", *argv], capture_output=True,
                          text=True, timeout=120, env=UNLIMITED_ENV)
