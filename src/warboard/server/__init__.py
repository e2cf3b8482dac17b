"""The web table's server (``warboard serve``): the API of docs/server-api.md.

Modules, each with one job:

- ``serve``: the command (``run_serve``) and Uvicorn's settings;
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
