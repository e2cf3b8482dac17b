"""The commands that look after the stored games (warboard.server.data_cli): the default
database in the user data folder, ``warboard db current``. (tests/test_schema.py tests
``warboard db upgrade``.)"""

from __future__ import annotations

import json
import os
import signal
import sys
from pathlib import Path
from typing import Any

import pytest

from server_helpers import UNLIMITED_ENV, free_port
from test_server import start_serve
from warboard.cli import main
from warboard.server.paths import default_database_url

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
    assert json.loads(lines[-1]) == {"database": f"sqlite:///{path}", "revision": "0001",
                                     "head": "0001", "status": "current"}


def test_db_current_makes_no_database_where_there_is_none(tmp_path: Path, capsys: Any) -> None:
    missing = tmp_path / "none.db"
    assert main(["db", "current", "--database-url", f"sqlite:///{missing}"]) == 1
    assert "no such database file" in capsys.readouterr().err
    assert not missing.exists()


@XDG
def test_serve_without_a_database_url_stores_in_the_user_data_folder(tmp_path: Path) -> None:
    env = {**UNLIMITED_ENV, "XDG_DATA_HOME": str(tmp_path / "data")}
    process = start_serve(free_port(), None, tmp_path, env)
    os.killpg(process.pid, signal.SIGTERM)
    process.wait(20)
    path = tmp_path / "data" / "warboard" / "warboard.db"
    assert f"games are stored in sqlite:///{path}" in (tmp_path / "serve.out").read_text()
    assert path.is_file() and not (tmp_path / "warboard.db").exists()
