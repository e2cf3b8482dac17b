"""Helpers for the server tests (tests/test_server*.py): the app served by Uvicorn in a thread of
the test process, on a free port."""

from __future__ import annotations

import os
import socket
import threading
import time
from pathlib import Path

import uvicorn
from websockets.sync.client import ClientConnection, connect

from warboard.server.ai_runner import AIRunner
from warboard.server.app import create_app
from warboard.server.serve import server_config
from warboard.server.settings import ServerSettings
from warboard.server.storage import Storage

TIMEOUT = 20.0
# the tests of what the server does, not of its limits (tests/test_server_abuse.py), come from
# one address and go faster than a person: no quotas
UNLIMITED = ServerSettings(games_per_minute=0, messages_per_second=0, requests_per_minute=0,
                           sockets_per_client=0, ai_games_per_client=0)
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
                 settings: ServerSettings = UNLIMITED) -> None:
        self.database_url = database_url
        app = create_app(Storage(database_url), AIRunner(0), web_dir, settings=settings)
        self.port = free_port()
        self.server = uvicorn.Server(server_config(app, "127.0.0.1", self.port))
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
