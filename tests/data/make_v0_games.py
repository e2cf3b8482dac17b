"""Makes tests/data/v0-games.db and v0-games.json: a SQLite database as warboard made it before
its schema had versions (commit fccaa16: tables by ``create_all``, no ``alembic_version``), with
games of every game, finished and unfinished, for tests/test_schema.py.

It was run once on that commit (``PYTHONPATH=src python tests/data/make_v0_games.py``); to
make it again, check out fccaa16's ``src`` in a worktree of its own and put that on PYTHONPATH
(today's code makes a database that has a schema version). The JSON holds each game's id,
game, status, event count and seat tokens, so the tests can play on in it.
"""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
from pathlib import Path
from typing import Any

from warboard.server.ai_runner import AIRunner
from warboard.server.messages import CreateGame
from warboard.server.storage import Storage
from warboard.server.tables import Tables

HERE = Path(__file__).parent
DATABASE, MANIFEST = HERE / "v0-games.db", HERE / "v0-games.json"
PLAYS_UNFINISHED, PLAYS_AT_MOST = 8, 400


async def make(storage: Storage) -> list[dict[str, Any]]:
    tables, rng, games = Tables(storage, AIRunner(0)), random.Random(218), []
    for game in ("hill218", "ogre218", "holdtheline"):
        for finished in (False, True):
            created = await tables.create(CreateGame(game=game, mode="hotseat"))
            table = await tables.get(created.id)
            plays = PLAYS_AT_MOST if finished else PLAYS_UNFINISHED
            for i in range(plays):
                if table.status == "over":
                    break
                seat = table.state.current_player()
                action = rng.choice(table.snapshot(seat)["legal"])
                await table.play(seat, action, table.version, f"p{i}")
            if finished and table.status != "over":
                await table.resign(0)
            games.append({"id": created.id, "game": game, "mode": "hotseat",
                          "status": table.status, "events": table.version,
                          "tokens": created.tokens})
    created = await tables.create(CreateGame(game="hill218", mode="friend"))
    games.append({"id": created.id, "game": "hill218", "mode": "friend", "status": "waiting",
                  "events": (await tables.get(created.id)).version,
                  "tokens": {"0": created.token}, "invite": created.invite})
    await tables.close()
    return games


def main() -> None:
    DATABASE.unlink(missing_ok=True)
    storage = Storage(f"sqlite:///{DATABASE}")
    games = asyncio.run(make(storage))
    storage.close()
    db = sqlite3.connect(DATABASE)  # one small file: no write-ahead log beside it
    db.execute("PRAGMA journal_mode=DELETE")
    db.execute("VACUUM")
    db.close()
    MANIFEST.write_text(json.dumps(games, indent=1) + "\n")


if __name__ == "__main__":
    main()
