"""The server's settings (warboard.server.settings): flags over ``WARBOARD_*`` variables over the
TOML file over the defaults; a bad file, key or value named with where it came from; passwords
masked wherever the settings are shown; the same settings for ``uvicorn --factory
warboard.server:create_app``."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from websockets.sync.client import connect

from server_helpers import ServerProcess, free_port, ws_url
from warboard.server.paths import default_database_url
from warboard.server.settings import ServerSettings, SettingsError, load_settings, mask

SECRET_DB = "postgresql+psycopg://warboard:s3cret@127.0.0.1:{port}/warboard"
SECRET_REDIS = "redis://:hunter2@127.0.0.1:6379/0"


@pytest.fixture(autouse=True)
def no_outside_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    """Only the settings a test gives."""
    for name in list(os.environ):
        if name.upper().startswith("WARBOARD_"):
            monkeypatch.delenv(name)


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def clean_env(**settings: str) -> dict[str, str]:
    """This environment without any WARBOARD_* variable, with ``settings`` added."""
    env = {k: v for k, v in os.environ.items() if not k.upper().startswith("WARBOARD_")}
    return {**env, "PYTHONPATH": str(Path(__file__).resolve().parents[1] / "src"), **settings}


def test_flags_win_over_the_environment_which_wins_over_the_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = write(tmp_path / "warboard.toml",
                   'host = "0.0.0.0"\nport = 1111\nai_workers = 3\nlog_level = "warning"\n')
    monkeypatch.setenv("WARBOARD_PORT", "2222")
    monkeypatch.setenv("WARBOARD_AI_WORKERS", "2")
    settings = load_settings({"port": "3333"}, config)
    assert (settings.port, settings.ai_workers, settings.log_level, settings.host) \
        == (3333, 2, "warning", "0.0.0.0")
    assert settings.database_url == default_database_url()  # nobody set it: the default
    assert load_settings(config=config).port == 2222


def test_the_file_comes_from_warboard_config_unless_config_names_one(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WARBOARD_CONFIG", str(write(tmp_path / "env.toml", "port = 1\n")))
    assert load_settings().port == 1
    assert ServerSettings().port == 1  # the plain class reads it too
    assert load_settings(config=write(tmp_path / "flag.toml", "port = 2\n")).port == 2


def test_every_serve_setting_has_its_environment_variable(
        monkeypatch: pytest.MonkeyPatch) -> None:
    given = {"HOST": "::", "PORT": "9000", "DATABASE_URL": "sqlite:///other.db",
             "AI_WORKERS": "0", "LOG_LEVEL": "DEBUG", "LOG_FORMAT": "json"}
    for name, value in given.items():
        monkeypatch.setenv(f"WARBOARD_{name}", value)
    settings = load_settings()
    assert (settings.host, settings.port, settings.database_url, settings.ai_workers,
            settings.log_level, settings.log_format) \
        == ("::", 9000, "sqlite:///other.db", 0, "debug", "json")


@pytest.mark.parametrize(("env", "flags", "toml", "message"), [
    ({}, {}, "port = 8300\nbogus = 1\n", "{file}: unknown setting 'bogus' (the settings: host,"),
    ({}, {}, 'port = "high"\n', "{file}: port: Input should be a valid integer"),
    ({}, {}, "port = 70000\n", "{file}: port: Input should be less than or equal to 65535"),
    ({}, {}, "port = \n", "{file}: not valid TOML: "),
    ({"WARBOARD_AI_WORKERS": "-1"}, {}, "", "WARBOARD_AI_WORKERS: ai_workers: Input should be "
                                            "greater than or equal to 0"),
    ({"WARBOARD_LOG_FORMAT": "xml"}, {}, 'log_format = "json"\n',
     "WARBOARD_LOG_FORMAT: log_format: Input should be 'text' or 'json'"),
    ({"WARBOARD_PORT": "x"}, {"port": "y"}, "", "--port: port: Input should be a valid integer"),
    ({}, {"log_level": "loud"}, "", "--log-level: log_level: Input should be 'debug', 'info'"),
])
def test_a_bad_setting_is_named_with_where_it_came_from(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, env: dict[str, str],
        flags: dict[str, str], toml: str, message: str) -> None:
    file = write(tmp_path / "bad.toml", toml)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    with pytest.raises(SettingsError) as refused:
        load_settings(flags, file)
    assert str(refused.value).startswith(message.format(file=file)), refused.value


def test_a_missing_file_is_named_by_what_named_it(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(SettingsError, match=r"^--config: no configuration file"):
        load_settings(config=tmp_path / "nowhere.toml")
    monkeypatch.setenv("WARBOARD_CONFIG", str(tmp_path / "nowhere.toml"))
    with pytest.raises(SettingsError, match=r"^WARBOARD_CONFIG: no configuration file"):
        load_settings()


def test_passwords_in_urls_are_masked() -> None:
    settings = ServerSettings(database_url=SECRET_DB.format(port=5432),
                              rate_limit_storage=SECRET_REDIS)
    shown = "\n".join(settings.shown())
    assert 'database_url = "postgresql+psycopg://warboard:***@127.0.0.1:5432/warboard"' in shown
    assert 'rate_limit_storage = "redis://:***@127.0.0.1:6379/0"' in shown
    assert "s3cret" not in shown and "hunter2" not in shown
    assert mask("sqlite:///warboard.db") == "sqlite:///warboard.db"


def test_serve_shows_its_settings_masked_even_when_it_cannot_start(tmp_path: Path) -> None:
    """The settings are printed before the database is opened: here one that does not answer
    (a closed port), whose password shows nowhere."""
    config = write(tmp_path / "warboard.toml",
                   f'database_url = "{SECRET_DB.format(port=free_port())}"\nport = 1\n')
    done = subprocess.run(
        [sys.executable, "-m", "warboard.cli", "serve", "--config", str(config), "--port", "0"],
        env=clean_env(WARBOARD_RATE_LIMIT_STORAGE=SECRET_REDIS, WARBOARD_AI_WORKERS="0"),
        cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1, done.stderr
    assert f"settings (from flags, WARBOARD_*, {config} and the defaults):" in done.stdout
    for line in ("port = 0", "ai_workers = 0", "database_url = \"postgresql+psycopg://warboard:***@",
                 'rate_limit_storage = "redis://:***@127.0.0.1:6379/0"'):
        assert f"    {line}" in done.stdout, done.stdout
    assert "cannot open the database postgresql+psycopg://warboard:***@" in done.stderr
    assert "s3cret" not in done.stdout + done.stderr and "hunter2" not in done.stdout


@pytest.mark.parametrize(("argv", "env", "message"), [
    (["--config", "{dir}/bad.toml"], {}, "warboard: error: {dir}/bad.toml: unknown setting 'prot'"),
    ([], {"WARBOARD_PORT": "eighty"}, "warboard: error: WARBOARD_PORT: port: Input should be"),
    (["--ai-workers", "many"], {}, "warboard: error: --ai-workers: ai_workers: Input should be"),
])
def test_serve_with_bad_settings_exits_2_with_one_line(tmp_path: Path, argv: list[str],
                                                       env: dict[str, str], message: str) -> None:
    write(tmp_path / "bad.toml", "prot = 8300\n")
    done = subprocess.run(
        [sys.executable, "-m", "warboard.cli", "serve", *(a.format(dir=tmp_path) for a in argv)],
        env=clean_env(**env), cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith(message.format(dir=tmp_path)), done.stderr
    assert done.stderr.count("\n") == 1 and done.stdout == ""


def test_uvicorn_runs_the_app_factory_with_settings_from_the_environment(tmp_path: Path) -> None:
    config = write(tmp_path / "warboard.toml",
                   f'database_url = "sqlite:///{tmp_path / "factory.db"}"\nai_workers = 3\n')
    port = free_port()
    env = clean_env(WARBOARD_CONFIG=str(config), WARBOARD_AI_WORKERS="0",
                    WARBOARD_REQUESTS_PER_MINUTE="7")
    with ServerProcess([sys.executable, "-m", "uvicorn", "--factory",
                        "warboard.server:create_app", "--port", str(port)],
                       tmp_path, port, env) as server:
        assert httpx.get(f"{server.base}/api/health").json() == {"ok": True}
        created = httpx.post(f"{server.base}/api/games", json={"game": "hill218", "mode": "ai"})
        assert created.status_code == 201, created.text
        log = server.stop()
    assert (tmp_path / "factory.db").is_file()  # the file's database
    assert "requests_per_minute = 7" in log and "ai_workers = 0" in log  # the environment's
    assert "the computer thinks in a thread of the server" in log
    assert "Traceback" not in log


def test_gunicorn_runs_the_app_factory_with_uvicorn_workers(tmp_path: Path) -> None:
    """The command line of docs/operations.md, on a test port (one worker: SQLite)."""
    pytest.importorskip("gunicorn", reason="gunicorn is in the test extra")
    pytest.importorskip("uvicorn_worker", reason="uvicorn-worker is in the test extra")
    doc = (Path(__file__).resolve().parents[1] / "docs" / "operations.md").read_text()
    line = next(x for x in doc.splitlines() if x.startswith("$ gunicorn "))
    argv = shlex.split(line[2:])
    port = free_port()
    argv[argv.index("-w") + 1] = "1"
    argv[argv.index("-b") + 1] = f"127.0.0.1:{port}"
    env = clean_env(WARBOARD_DATABASE_URL=f"sqlite:///{tmp_path / 'gunicorn.db'}",
                    WARBOARD_AI_WORKERS="0")
    with ServerProcess([sys.executable, "-m", *argv], tmp_path, port, env) as server:
        assert httpx.get(f"{server.base}/api/ready").status_code == 200
        created = httpx.post(f"{server.base}/api/games", json={"game": "hill218", "mode": "ai"})
        assert created.status_code == 201, created.text
        log = server.stop()
    assert (tmp_path / "gunicorn.db").is_file()
    assert "Traceback" not in log


def test_the_app_factory_with_a_bad_setting_stops_with_status_2(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "uvicorn", "--factory", "warboard.server:create_app",
         "--port", str(free_port())],
        env=clean_env(WARBOARD_LOG_LEVEL="chatty"), cwd=tmp_path, capture_output=True,
        text=True, timeout=60)
    assert done.returncode == 2
    assert "warboard: error: WARBOARD_LOG_LEVEL: log_level: Input should be" in done.stderr
    assert "Traceback" not in done.stderr


def test_the_configuration_file_of_docs_operations_is_valid(tmp_path: Path) -> None:
    doc = (Path(__file__).resolve().parents[1] / "docs" / "operations.md").read_text()
    example = doc.split("```toml\n", 1)[1].split("```", 1)[0]
    settings = load_settings(config=write(tmp_path / "warboard.toml", example))
    assert (settings.host, settings.log_format, settings.ai_workers) == ("0.0.0.0", "json", 3)


@pytest.mark.parametrize("setting, extension", [(None, "permessage-deflate"), ("false", None)])
def test_websocket_compression_is_what_the_setting_says(tmp_path: Path, setting: str | None,
                                                         extension: str | None) -> None:
    port = free_port()
    env = clean_env(WARBOARD_DATABASE_URL=f"sqlite:///{tmp_path / 'ws.db'}",
                    WARBOARD_AI_WORKERS="0",
                    **({} if setting is None else {"WARBOARD_WEBSOCKET_COMPRESSION": setting}))
    with ServerProcess([sys.executable, "-m", "warboard.cli", "serve", "--port", str(port)],
                       tmp_path, port, env) as server:
        created = httpx.post(f"{server.base}/api/games",
                             json={"game": "hill218", "mode": "friend"}).json()
        # the client offers permessage-deflate, as browsers do
        with connect(ws_url(port, created["id"], created["token"]),
                     compression="deflate") as ws:
            agreed = ws.response.headers.get("Sec-WebSocket-Extensions")
            assert json.loads(ws.recv(timeout=20))["type"] == "state"
    assert (agreed or "").split(";")[0] == (extension or "")
