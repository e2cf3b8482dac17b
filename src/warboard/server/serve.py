"""``warboard serve``: open the database, build the app and run it with Uvicorn (one process;
several of them may serve one PostgreSQL database: docs/scaling.md)."""

from __future__ import annotations

import argparse
import gc
import logging
import re
from importlib.util import find_spec
from typing import Any

import uvicorn
from fastapi import FastAPI
from pydantic import ValidationError

from warboard.core import registry
from warboard.server.ai_runner import AIRunner
from warboard.server.app import create_app
from warboard.server.cluster import peers_for
from warboard.server.messages import describe
from warboard.server.paths import default_database_url
from warboard.server.settings import ServerSettings
from warboard.server.storage import Storage

# WebSocket frames up to this size reach the app, which refuses messages over 64 KiB with an
# error message; a larger frame closes the connection (code 1009).
WS_FRAME_LIMIT = 1024 * 1024
# A request whose request line and headers are larger is answered 431 (http_limits), WebSocket
# upgrades included; the browser's requests carry a few hundred bytes of them.
MAX_HEADER_BYTES: int = ServerSettings.model_fields["max_header_bytes"].default  # the default limit
TOKEN_IN_URL = re.compile(r"(\btokens?=)[^&\s\"]+")


class HideTokens(logging.Filter):
    """Blanks the seats' tokens in the URLs Uvicorn logs (``?token=...`` -> ``?token=***``)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(TOKEN_IN_URL.sub(r"\1***", a) if isinstance(a, str) else a
                                for a in record.args)
        return True


def http_settings(max_header_bytes: int) -> dict[str, Any]:
    """Uvicorn's HTTP protocol, with request heads limited to ``max_header_bytes``: httptools
    with a 431 (``HeaderLimitProtocol``), or where httptools is not installed h11 with its own
    limit on an unfinished head, which answers 400."""
    if find_spec("httptools") is None:
        return {"http": "h11", "h11_max_incomplete_event_size": max_header_bytes}
    from warboard.server.http_limits import limited_protocol

    return {"http": limited_protocol(max_header_bytes)}


def server_config(app: FastAPI, host: str, port: int,
                  settings: ServerSettings | None = None) -> uvicorn.Config:
    """Uvicorn's settings: request heads limited, the trusted proxies (``settings``), tokens
    kept out of its log."""
    settings = settings if settings is not None else ServerSettings()
    config = uvicorn.Config(app, host=host, port=port, ws_max_size=WS_FRAME_LIMIT,
                            log_level="info", forwarded_allow_ips=settings.forwarded_allow_ips,
                            **http_settings(settings.max_header_bytes))
    for name in ("uvicorn.error", "uvicorn.access"):
        logger = logging.getLogger(name)
        if not any(isinstance(f, HideTokens) for f in logger.filters):
            logger.addFilter(HideTokens())
    return config


def address(host: str, port: int) -> str:
    """The address to open in a browser."""
    if host in ("0.0.0.0", "::", ""):
        host = "localhost"
    elif ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}/"


def calm_garbage_collector() -> None:
    """Keep the cyclic garbage collector's full passes, which stall every play under way, rare
    and short: fewer long-lived objects in the engine's caches, the start-up objects moved out
    of its sight, and young generations collected less often (docs/load.md)."""
    for setup in dict.fromkeys(g.server_setup for g in registry.games() if g.server_setup):
        registry.resolve(setup)()
    gc.collect()
    gc.freeze()
    gc.set_threshold(10_000, 20, 20)


def run_serve(args: argparse.Namespace) -> int:
    try:
        settings = ServerSettings()
    except ValidationError as exc:
        raise ValueError(f"a WARBOARD_* setting is not valid: "
                         f"{describe(exc.errors(include_url=False))}") from None
    storage = Storage(args.database_url or default_database_url())
    ai = AIRunner(args.ai_workers)
    peers = peers_for(storage)
    app = create_app(storage, ai, peers=peers, settings=settings)
    shared = peers.describe()
    print(f"warboard table server: open {address(args.host, args.port)} in a browser\n"
          f"  games are stored in {storage.describe()}\n"
          + (f"  {shared}\n" if shared else "")
          + f"  the computer thinks {ai.describe()}\n"
          f"  press Ctrl+C to stop", flush=True)
    server = uvicorn.Server(server_config(app, args.host, args.port, settings))
    calm_garbage_collector()
    server.run()
    return 0 if server.started else 1
