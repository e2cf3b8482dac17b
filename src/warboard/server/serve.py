"""``warboard serve`` and the app factory for other ASGI servers: read the settings, set up the
log, open the database, build the app and run it with Uvicorn (one process; several of them may
serve one PostgreSQL database: docs/scaling.md)."""

from __future__ import annotations

import argparse
import logging
import sys
from importlib.util import find_spec
from pathlib import Path
from typing import Any

import uvicorn
from fastapi import FastAPI

from warboard.core.errors import WarboardError
from warboard.server import collector
from warboard.server.ai_runner import AIRunner
from warboard.server.app import build_app
from warboard.server.cluster import peers_for
from warboard.server.logs import configure_logging
from warboard.server.settings import (
    SERVE_FLAGS,
    ServerSettings,
    SettingsError,
    config_file,
    load_settings,
)
from warboard.server.storage import Storage

log = logging.getLogger("warboard.server")

# WebSocket frames up to this size reach the app, which refuses messages over 64 KiB with an
# error message; a larger frame closes the connection (code 1009).
WS_FRAME_LIMIT = 1024 * 1024
# A request whose request line and headers are larger is answered 431 (http_limits), WebSocket
# upgrades included; the browser's requests carry a few hundred bytes of them.
MAX_HEADER_BYTES: int = ServerSettings.model_fields["max_header_bytes"].default  # the default limit
BAD_SETTINGS = 2  # the exit status for settings that cannot be read or are not valid


def http_settings(max_header_bytes: int) -> dict[str, Any]:
    """Uvicorn's HTTP protocol, with request heads limited to ``max_header_bytes``: httptools
    with a 431 (``HeaderLimitProtocol``), or where httptools is not installed h11 with its own
    limit on an unfinished head, which answers 400."""
    if find_spec("httptools") is None:
        return {"http": "h11", "h11_max_incomplete_event_size": max_header_bytes}
    from warboard.server.http_limits import limited_protocol

    return {"http": limited_protocol(max_header_bytes)}


def server_config(app: FastAPI, settings: ServerSettings) -> uvicorn.Config:
    """Uvicorn's settings: the address, request heads limited, the trusted proxies, WebSocket
    compression; the log is left as ``configure_logging`` set it up."""
    return uvicorn.Config(app, host=settings.host, port=settings.port, ws_max_size=WS_FRAME_LIMIT,
                          ws_per_message_deflate=settings.websocket_compression,
                          log_config=None, log_level=settings.log_level,
                          forwarded_allow_ips=settings.forwarded_allow_ips,
                          **http_settings(settings.max_header_bytes))


def address(host: str, port: int) -> str:
    """The address to open in a browser."""
    if host in ("0.0.0.0", "::", ""):
        host = "localhost"
    elif ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}/"


def serve_flags(args: argparse.Namespace) -> dict[str, Any]:
    """The settings given as flags of ``warboard serve`` (those left out are absent)."""
    return {name: vars(args)[name] for name in SERVE_FLAGS if name in vars(args)}


def settings_lines(settings: ServerSettings, file: Path | None) -> list[str]:
    """The settings in effect (read with the configuration file ``file``), as lines of TOML
    under a heading (passwords masked)."""
    sources = f"flags, WARBOARD_*, {file}" if file is not None else "flags, WARBOARD_*"
    return [f"settings (from {sources} and the defaults):",
            *(f"  {line}" for line in settings.shown())]


def open_app(settings: ServerSettings) -> tuple[FastAPI, list[str]]:
    """Open the database and the computer's workers, and build the app; the app, and what it
    runs on in lines for the operator (passwords masked)."""
    storage = Storage(settings.database_url)
    ai = AIRunner(settings.ai_workers)
    peers = peers_for(storage)
    shared = peers.describe()
    about = [f"games are stored in {storage.describe()}", *([shared] if shared else []),
             f"the computer thinks {ai.describe()}"]
    return build_app(storage, ai, peers=peers, settings=settings), about


def run_serve(args: argparse.Namespace) -> int:
    try:
        settings = load_settings(serve_flags(args), args.config)
    except SettingsError as exc:
        print(f"warboard: error: {exc}", file=sys.stderr)
        return BAD_SETTINGS
    configure_logging(settings)
    # first, so that a server that fails to start has shown what it was given
    shown = settings_lines(settings, config_file(args.config))
    print("warboard table server\n" + "".join(f"  {line}\n" for line in shown), end="",
          flush=True)
    app, about = open_app(settings)
    print(f"  open {address(settings.host, settings.port)} in a browser\n"
          + "".join(f"  {line}\n" for line in about) + "  press Ctrl+C to stop", flush=True)
    server = uvicorn.Server(server_config(app, settings))
    collector.calm()
    collector.collect_fully_every()
    server.run()
    return 0 if server.started else 1


def create_app() -> FastAPI:
    """The app for an ASGI server that builds it itself (``uvicorn --factory
    warboard.server:create_app``, gunicorn with Uvicorn workers: docs/operations.md), set up
    from ``WARBOARD_*`` and ``WARBOARD_CONFIG``; the address and the server's own workers are
    that server's options. Settings that are not valid stop the process with status 2, a
    database that cannot be opened with status 1, each with its reason on stderr."""
    try:
        settings = load_settings()
        configure_logging(settings)
        log.info("warboard table server: %s", " ".join(settings_lines(settings, config_file())))
        app, about = open_app(settings)
    except (SettingsError, WarboardError) as exc:
        print(f"warboard: error: {exc}", file=sys.stderr, flush=True)
        raise SystemExit(BAD_SETTINGS if isinstance(exc, SettingsError) else 1) from None
    log.info("warboard table server: %s", "; ".join(about))
    return app
