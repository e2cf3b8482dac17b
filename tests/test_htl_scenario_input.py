"""A scenario given from outside (a game option, an adapter parameter, ``POST /api/games``) is
the name of a packaged scenario, never a path: anything else is a ``ValueError`` before any file
is touched, and the packaged scenarios are read once. Scenario files are a command-line feature
(``--scenario-file``, ``warboard scenarios --check``), read only when they are regular files of
at most 1 MiB, so a FIFO, a device or a /proc entry never blocks or fills the memory.

Every test that could hang on a regression has a timeout; the tests that would read
``/dev/zero`` or open a FIFO run only against the names check, never against an open()."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from importlib import resources
from typing import Any

import pytest

from warboard.core.datafile import MAX_FILE_BYTES, load_toml
from warboard.core.errors import DataFileError
from warboard.core.registry import make_game
from warboard.holdtheline.scenario_file import (
    NAME_RE,
    load_scenario,
    load_scenario_file,
    scenario_names,
)

pytestmark = pytest.mark.timeout(30)

PACKAGED = str(resources.files("warboard.holdtheline.scenarios").joinpath("tutorial.toml"))
FIFO = "<a FIFO>"  # replaced by the path of a real FIFO (the ``fifo`` fixture)
NOT_NAMES = ["/etc/passwd", "../tutorial", "tutorial.toml", PACKAGED, "/dev/zero",
             "/dev/urandom", "/proc/self/fd/0", FIFO, "", "Tutorial", "tutorial ", "tutorial\0",
             "x" * 200]
NOT_STRINGS: list[Any] = [["tutorial"], {"name": "tutorial"}, 3, True, None]


@pytest.fixture(scope="module")
def fifo(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("fifo") / "battle.toml"
    os.mkfifo(path)
    return str(path)


def given(name: Any, fifo: str) -> Any:
    return fifo if name == FIFO else name


# ------------------------------------------------------------------ audit: what touches the disk

_seen: list[tuple[str, tuple[Any, ...]]] | None = None
DISK_EVENTS = ("open", "os.listdir", "os.scandir")


def _audit(event: str, args: tuple[Any, ...]) -> None:
    if _seen is not None and event in DISK_EVENTS:
        _seen.append((event, args))


sys.addaudithook(_audit)  # cannot be removed; it records only inside disk_access()


def disk_access(call: Any) -> list[tuple[str, tuple[Any, ...]]]:
    """The files and folders ``call()`` opens or lists (its exception, if any, is swallowed)."""
    global _seen
    _seen = []
    try:
        call()
    except Exception:
        pass
    finally:
        seen, _seen = _seen, None
    return seen


# ------------------------------------------------------------------ names only, checked first


@pytest.mark.parametrize("name", NOT_NAMES)
def test_make_game_refuses_anything_but_a_packaged_name(name, fifo):
    with pytest.raises(ValueError, match="unknown scenario") as info:
        make_game("holdtheline", {"scenario": given(name, fifo)})
    message = str(info.value)
    assert all(n in message for n in scenario_names()), "the message lists the valid names"
    assert len(message) < 400


def test_every_packaged_name_passes_the_name_check():
    assert scenario_names() and all(NAME_RE.fullmatch(n) for n in scenario_names())
    assert [load_scenario(n).name for n in scenario_names()] == list(scenario_names())


@pytest.mark.parametrize("value", NOT_STRINGS, ids=repr)
def test_a_scenario_that_is_not_a_string_is_a_value_error(value):
    with pytest.raises(ValueError, match="must be a scenario name"):
        make_game("holdtheline", {"scenario": value})


@pytest.mark.parametrize("name", NOT_NAMES)
def test_load_scenario_takes_names_only(name, fifo):
    with pytest.raises(ValueError, match="unknown scenario"):
        load_scenario(given(name, fifo))


def test_a_refused_name_touches_no_file(fifo):
    load_scenario("tutorial")  # the packaged set is listed once, before
    for name in [*NOT_NAMES, "waterloo"]:
        assert disk_access(lambda n=name: make_game("holdtheline",
                                                    {"scenario": given(n, fifo)})) == [], name


def test_a_packaged_scenario_is_read_once():
    assert disk_access(lambda: load_toml(PACKAGED)), "the audit hook sees a file being read"
    make_game("holdtheline", {"scenario": "princeton"})
    for name in scenario_names():
        make_game("holdtheline", {"scenario": name})
    for name in scenario_names():
        assert disk_access(lambda n=name: make_game("holdtheline", {"scenario": n})) == [], name
    assert disk_access(scenario_names) == []


# ------------------------------------------------------------------ the adapters


@pytest.mark.parametrize("value", [*NOT_NAMES, *NOT_STRINGS], ids=repr)
def test_the_encoding_refuses_anything_but_a_packaged_name(value, fifo):
    from warboard.adapters.encodings import make_encoding

    with pytest.raises(ValueError, match="scenario"):
        make_encoding("holdtheline", {"scenario": given(value, fifo)})


@pytest.mark.parametrize("name", ["/etc/passwd", "/dev/zero", PACKAGED, FIFO])
def test_openspiel_and_pettingzoo_refuse_a_path(name, fifo):
    pyspiel = pytest.importorskip("pyspiel")
    pytest.importorskip("pettingzoo")
    import warboard.adapters.openspiel  # noqa: F401
    from warboard.adapters.pettingzoo import env

    with pytest.raises(ValueError, match="unknown scenario"):
        pyspiel.load_game("warboard_holdtheline", {"scenario": given(name, fifo)})
    with pytest.raises(ValueError, match="unknown scenario"):
        env(game="holdtheline", scenario=given(name, fifo))


# ------------------------------------------------------------------ scenario files, bounded


def test_load_toml_refuses_what_is_not_a_regular_file(tmp_path, fifo):
    for path, problem in [(fifo, "is not a regular file (a FIFO)"),
                          ("/dev/zero", "is not a regular file (a character device)"),
                          (str(tmp_path), "is not a regular file (a folder)"),
                          (str(tmp_path / "nowhere.toml"), "cannot be read")]:
        start = time.monotonic()
        with pytest.raises(DataFileError) as info:
            load_toml(path)
        assert time.monotonic() - start < 1
        assert str(info.value).startswith(f"{path}: (file): {problem}"), str(info.value)


def test_load_toml_reads_at_most_the_limit(tmp_path):
    big = tmp_path / "big.toml"
    with big.open("wb") as f:
        f.truncate(MAX_FILE_BYTES + 1)  # sparse: no disk space used
    with pytest.raises(DataFileError, match=r"big.toml: \(file\): is larger than 1 MiB"):
        load_toml(big)
    # a file that says it is empty and is not (a /proc file) is cut at the limit, not read whole
    with pytest.raises(DataFileError, match=r"status: \(file\): is larger than 16 bytes"):
        load_toml("/proc/self/status", max_bytes=16)
    small = tmp_path / "small.toml"
    small.write_text('title = "ok"\n', encoding="utf-8")
    assert load_toml(small, max_bytes=13) == (str(small), {"title": "ok"})


def test_a_scenario_file_that_is_not_utf8_names_the_file(tmp_path):
    path = tmp_path / "latin1.toml"
    path.write_bytes(b'title = "Tr\xe9nton"\n')
    with pytest.raises(DataFileError, match=r"latin1.toml: \(file\): is not UTF-8 text"):
        load_scenario_file(path)


# ------------------------------------------------------------------ the command line


def warboard(*argv: str) -> subprocess.CompletedProcess[str]:
    """``warboard ARGV`` with stdin a pipe nobody writes to (so /proc/self/fd/0 is a FIFO)."""
    return subprocess.run([sys.executable, "-m", "warboard.cli", *argv], capture_output=True,
                          text=True, timeout=20, stdin=subprocess.PIPE)


def test_scenarios_check_refuses_what_is_not_a_small_regular_file(tmp_path, fifo):
    big = tmp_path / "big.toml"
    with big.open("wb") as f:
        f.truncate(MAX_FILE_BYTES + 1)
    for path, problem in [(fifo, "is not a regular file (a FIFO)"),
                          ("/dev/zero", "is not a regular file (a character device)"),
                          ("/proc/self/fd/0", "is not a regular file (a FIFO)"),
                          (str(tmp_path), "is not a regular file (a folder)"),
                          (str(big), "is larger than 1 MiB"),
                          (str(tmp_path / "nowhere.toml"), "cannot be read")]:
        done = warboard("scenarios", "--check", path)
        assert done.returncode == 1, (path, done.stdout, done.stderr)
        assert done.stderr.startswith(f"warboard: error: {path}: (file): {problem}"), done.stderr
        assert done.stderr.count("\n") == 1, done.stderr
        assert done.stdout == ""


def test_scenarios_check_prints_ok_and_the_summary(tmp_path):
    path = tmp_path / "my_battle.toml"
    path.write_text(resources.files("warboard.holdtheline.scenarios").joinpath(
        "trenton.toml").read_text(encoding="utf-8"), encoding="utf-8")
    done = warboard("scenarios", "--check", str(path))
    assert done.returncode == 0, done.stderr
    first = done.stdout.splitlines()[0]
    assert first.startswith(f"{path}: OK — Trenton: "), first
    assert "Seat 1: Hessians" in done.stdout and "History:" in done.stdout


def test_scenarios_name_is_a_name(tmp_path):
    path = tmp_path / "trenton.toml"
    path.write_text("", encoding="utf-8")
    done = warboard("scenarios", str(path))
    assert done.returncode == 1 and "unknown scenario" in done.stderr
    assert "--check" in done.stderr  # says how to check a file


def test_play_and_balance_take_a_scenario_file(tmp_path):
    path = tmp_path / "my_battle.toml"
    path.write_text(resources.files("warboard.holdtheline.scenarios").joinpath(
        "tutorial.toml").read_text(encoding="utf-8"), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "warboard.cli", "play", "holdtheline",
                           "--scenario-file", str(path), "--opponent", "random", "--seed", "3",
                           "--no-color"], input="quit\n", capture_output=True, text=True,
                          timeout=60)
    assert done.returncode in (0, 1), done.stderr
    assert "quit" in done.stdout and "Traceback" not in done.stderr
    done = warboard("play", "holdtheline", "--scenario", "tutorial", "--scenario-file",
                    str(path))
    assert done.returncode == 2 and "not allowed with argument" in done.stderr
    done = warboard("balance", "--scenario-file", str(path), "--games", "1", "--agents",
                    "random", "--jobs", "1", "--json")
    assert done.returncode == 0, done.stderr
    assert '"scenario": "my_battle"' in done.stdout
    done = warboard("balance", "--scenario-file", "/dev/zero", "--games", "1")
    assert done.returncode == 1 and "is not a regular file" in done.stderr
    done = warboard("balance", str(path), "--games", "1")
    assert done.returncode == 1 and "unknown scenario" in done.stderr


# ------------------------------------------------------------------ the server, over sockets


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    from web_helpers import running_server

    with running_server(tmp_path_factory.mktemp("scenario-server")) as base:
        yield base


def post(url: str, body: Any) -> tuple[int, Any]:
    import json

    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=5) as r:
            return r.status, json.load(r)
    except urllib.error.HTTPError as exc:
        return exc.code, json.load(exc)


@pytest.mark.parametrize("value", [*NOT_NAMES, *NOT_STRINGS], ids=repr)
def test_the_server_answers_422_to_a_scenario_that_is_not_a_name(server, value, fifo):
    start = time.monotonic()
    status, body = post(server + "/api/games", {"game": "holdtheline", "mode": "hotseat",
                                                "options": {"scenario": given(value, fifo)}})
    assert status == 422, body
    assert "scenario" in body["error"], body
    assert time.monotonic() - start < 2
    with urllib.request.urlopen(server + "/api/health", timeout=1) as r:
        assert r.status == 200
