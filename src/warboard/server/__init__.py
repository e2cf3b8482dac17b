"""The web table's server (``warboard serve``): the API of docs/server-api.md.

``warboard.server.create_app`` is the app factory for ASGI servers that build the app
themselves (``uvicorn --factory warboard.server:create_app``): it takes its settings from the
environment and the configuration file (docs/operations.md).

Modules, each with one job:

- ``serve``: the command (``run_serve``), the app factory and Uvicorn's settings;
- ``settings``: what a host may set (flags, ``WARBOARD_*`` variables, a TOML file);
- ``logs``: the log's handler, its text or JSON lines, tokens kept out of it;
- ``app``: the FastAPI app — HTTP routes, the WebSocket route, the browser client's files;
- ``connection``: one WebSocket client — reading its messages, queueing what it is sent;
- ``tables``: live games and their authority — checks, chance, commit, then broadcast;
- ``ai_runner``: the computer's decisions in worker processes (or a thread);
- ``cluster``: several server processes on one PostgreSQL database (LISTEN/NOTIFY fan-out,
  the computer's turns claimed with advisory locks);
- ``storage``: the database (SQLAlchemy 2: SQLite or PostgreSQL);
- ``messages``: the JSON read and written, as pydantic models;
- ``tokens``: game ids, seat tokens and their hashes, seeds.
"""

from __future__ import annotations

from typing import Any


def __getattr__(name: str) -> Any:
    # imported when asked for: the CLI reads the settings without loading the server
    if name == "create_app":
        from warboard.server.serve import create_app

        return create_app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
