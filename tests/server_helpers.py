"""Helpers for the server tests (tests/test_server*.py): the app served by Uvicorn in a thread of
the test process, on a free port; a server process (``warboard serve``, ``uvicorn --factory``)
and its log."""

from __future__ import annotations

import os
import socket
import subprocess
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

import httpx
import uvicorn
from websockets.sync.client import ClientConnection, connect

from warboard.loadtest.server import same_warboard_env
from warboard.server.ai_runner import AIRunner
from warboard.server.app import build_app
from warboard.server.serve import server_config
from warboard.server.settings import ServerSettings
from warboard.server.storage import Storage

TIMEOUT = 20.0
# the tests of what the server does, not of its limits (tests/test_server_abuse.py), come from
# one address and go faster than a person: no quotas
UNLIMITED = ServerSettings(games_per_minute=0, messages_per_second=0, requests_per_minute=0,
                           sockets_per_client=0, ai_games_per_client=0, players_per_hour=0,
                           chat_per_second=0)
# the same for a `warboard serve` process
UNLIMITED_ENV = {**os.environ, **{f"WARBOARD_{name.upper()}": "0"
                                  for name in UNLIMITED.model_fields_set}}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def ws_url(port: int, game_id: str, token: str | None = None) -> str:
    query = f"?token={token}" if token else ""
    return f"ws://127.0.0.1:{port}/ws/games/{game_id}{query}"


class LiveServer:
    """The app served by Uvicorn in a thread of the test process, on a free port."""

    def __init__(self, database_url: str, web_dir: Path | None = None,
                 settings: ServerSettings = UNLIMITED, ai_workers: int = 0) -> None:
        self.database_url = database_url
        app = build_app(Storage(database_url), AIRunner(ai_workers), web_dir, settings=settings)
        self.port = free_port()
        self.server = uvicorn.Server(server_config(
            app, settings.model_copy(update={"host": "127.0.0.1", "port": self.port})))
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def ws_url(self, game_id: str, token: str | None = None) -> str:
        return ws_url(self.port, game_id, token)

    def ws(self, game_id: str, token: str) -> ClientConnection:
        return connect(self.ws_url(game_id, token))

    def __enter__(self) -> LiveServer:
        self.thread.start()
        deadline = time.monotonic() + TIMEOUT
        while not self.server.started:
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(TIMEOUT)


def wait_for_health(process: subprocess.Popen[bytes], base: str, log: Callable[[], str],
                    timeout: float) -> None:
    """Wait until ``base`` answers ``/api/health`` (``process`` still running; its ``log`` in
    the message when it stops or ``timeout`` seconds pass)."""
    deadline = time.monotonic() + timeout
    while True:
        assert process.poll() is None, f"it stopped:\n{log()}"
        try:
            if httpx.get(f"{base}/api/health", timeout=1).status_code == 200:
                return
        except httpx.TransportError:
            pass
        assert time.monotonic() < deadline, f"it did not serve {base}:\n{log()}"
        time.sleep(0.1)


class ServerProcess:
    """A server process started with ``argv`` in ``folder`` with ``env`` (by default this
    environment; this checkout's warboard either way), listening on ``port``; started when it
    answers ``/api/health``. Its stdout and stderr are kept apart (``out``, ``err``)."""

    def __init__(self, argv: Sequence[str], folder: Path, port: int,
                 env: Mapping[str, str] | None = None, start_timeout: float = 60.0) -> None:
        self.port = port
        self.base = f"http://127.0.0.1:{port}"
        self.out, self.err = folder / "server.out", folder / "server.err"
        with self.out.open("wb") as out, self.err.open("wb") as err:
            self.process = subprocess.Popen(list(argv), cwd=folder, stdout=out, stderr=err,
                                            stdin=subprocess.DEVNULL,
                                            env=same_warboard_env(env))
        wait_for_health(self.process, self.base, self.log, start_timeout)

    def log(self) -> str:
        """What it wrote so far: its stdout, then its stderr."""
        return self.out.read_text() + self.err.read_text()

    def stop(self) -> str:
        """Stop the server; its log."""
        self.process.terminate()
        try:
            self.process.wait(TIMEOUT)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        return self.log()

    def __enter__(self) -> ServerProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.process.poll() is None:
            self.stop()
