"""Several ``warboard serve`` processes on one PostgreSQL database, behind one address.

Each process keeps its own live tables; the database is the only truth they share. Two things
make them one server:

- **Fan-out** (PostgreSQL ``LISTEN``/``NOTIFY``): every write of a game sends a notification on
  the channel ``warboard_games`` in the transaction that commits it (``Storage``), so it arrives
  only after the commit and never for a write rolled back. Each process listens on a connection
  of its own; for a game it holds in memory it reads the new events from the database and sends
  each of its connections its own seat's view (``Table.request_refresh``). The payload is small:
  the game's id, its new version, and the writer's ``origin`` (a process ignores its own).
- **The computer's turns**: a process decides for a game only while it holds the game's
  advisory lock (``pg_try_advisory_lock``, on a second connection of its own); another process
  that finds it taken leaves the turn to its holder, and PostgreSQL lets the lock go when its
  holder's connection ends, even after ``kill -9``, so the next process that looks at the game
  takes over. The primary key (game, index) of the events still refuses a second commit of one
  move, whatever happens to the lock.

Why not Redis pub/sub: the database is already shared, so no other service has to be run and
watched, and a notification sent in the committing transaction can neither arrive before its
events are readable nor announce a play that was rolled back (docs/scaling.md).

With SQLite, or when psycopg 3 is not installed, ``Peers`` stands for a single process: no
fan-out, and every computer turn is this process's.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass
from typing import Any, TypedDict

from sqlalchemy.engine import URL

from warboard.server.storage import CHANNEL, ChatLine, Storage, notice_payload

log = logging.getLogger("warboard.server")

RECONNECT_SECONDS = (0.5, 30.0)  # the first and the longest wait before listening again


class Keepalive(TypedDict):
    """libpq's TCP keepalive parameters (passed to ``AsyncConnection.connect`` by name)."""

    keepalives: int
    keepalives_idle: int
    keepalives_interval: int
    keepalives_count: int


# a listening connection that died quietly is noticed
KEEPALIVE: Keepalive = {"keepalives": 1, "keepalives_idle": 30, "keepalives_interval": 10,
                        "keepalives_count": 3}


@dataclass(frozen=True)
class Notice:
    """Another process (``origin``) changed a game: its events are stored up to ``version``
    (``None``: its seats or status changed); or it says something that is not stored with the
    events: the computer started a decision for seat ``thinking``, ``spectators`` watch the
    game there, a ``chat`` line was stored (``ChatLine.to_json``), a seat ``muted`` the other's
    chat (``(seat, muted)``)."""

    game: str
    version: int | None = None
    thinking: int | None = None
    origin: str = ""
    spectators: int | None = None
    chat: ChatLine | None = None
    muted: tuple[int, bool] | None = None


def _chat(data: Any) -> ChatLine | None:
    if not isinstance(data, dict):
        return None
    seat, line, at = data.get("seat"), data.get("text"), data.get("at")
    if not (isinstance(seat, int) and isinstance(line, str) and isinstance(at, str)):
        raise ValueError("a bad chat line")
    return ChatLine(seat, line, at)


def _muted(data: Any) -> tuple[int, bool] | None:
    if data is None:
        return None
    if not (isinstance(data, list) and len(data) == 2 and isinstance(data[0], int)
            and isinstance(data[1], bool)):
        raise ValueError("a bad mute")
    return data[0], data[1]


def read_notice(payload: str, origin: str) -> Notice | None:
    """The notice in a notification's text; ``None`` for this process's own or a bad one."""
    try:
        data = json.loads(payload)
        if not isinstance(data, dict) or data.get("origin") == origin:
            return None
        game, numbers = data["game"], [data.get(key) for key in
                                       ("version", "thinking", "spectators")]
        if not isinstance(game, str) or not all(v is None or isinstance(v, int)
                                                for v in numbers):
            return None
        return Notice(game, numbers[0], numbers[1], origin=str(data.get("origin")),
                      spectators=numbers[2], chat=_chat(data.get("chat")),
                      muted=_muted(data.get("muted")))
    except (ValueError, KeyError):
        return None


def lock_key(game_id: str) -> int:
    """The advisory lock of a game's computer turns: a signed 64-bit number."""
    digest = hashlib.sha256(f"warboard:ai:{game_id}".encode()).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


def connect_args(url: URL) -> dict[str, Any]:
    """psycopg's connection arguments for a SQLAlchemy PostgreSQL URL (its query parameters,
    e.g. ``options=-csearch_path=...``, are libpq's)."""
    args: dict[str, Any] = {key: value if isinstance(value, str) else value[-1]
                            for key, value in url.query.items()}
    for key, value in (("host", url.host), ("port", url.port), ("user", url.username),
                       ("password", url.password), ("dbname", url.database)):
        if value is not None:
            args[key] = value
    return args


class Peers:
    """A single server process: nobody to tell, and every computer turn is this process's."""

    shared = False  # other processes may change the games

    async def start(self, on_notice: Callable[[Notice], None],
                    on_resync: Callable[[], None]) -> None:
        """Begin listening: ``on_notice`` for each change made elsewhere, ``on_resync`` when
        changes may have been missed (every live table must then catch up)."""

    async def claim_ai(self, game_id: str) -> bool:
        """Whether this process may decide for the computer in ``game_id`` now (then it must
        ``release_ai`` when it stops)."""
        return True

    async def release_ai(self, game_id: str) -> None:
        pass

    async def thinking(self, game_id: str, seat: int) -> None:
        """Tell the others that the computer started a decision for ``seat``."""

    async def spectators(self, game_id: str, count: int) -> None:
        """Tell the others how many spectators watch ``game_id`` in this process."""

    def describe(self) -> str | None:
        return None

    async def close(self) -> None:
        pass


class PostgresPeers(Peers):
    """The processes serving one PostgreSQL database: notifications and advisory locks."""

    shared = True

    def __init__(self, storage: Storage) -> None:
        import psycopg  # the caller checked that it is there

        self._psycopg = psycopg
        self.origin = storage.origin
        self._args = connect_args(storage.engine.url)
        self._task: asyncio.Task[None] | None = None
        self._listener: Any = None  # psycopg.AsyncConnection listening to the channel
        self._locks: Any = None  # psycopg.AsyncConnection holding the advisory locks
        self._locks_opening: asyncio.Lock | None = None
        self._held: set[str] = set()

    def describe(self) -> str:
        return (f"table updates are shared with every server process on this database "
                f"(PostgreSQL LISTEN/NOTIFY, channel {CHANNEL})")

    async def start(self, on_notice: Callable[[Notice], None],
                    on_resync: Callable[[], None]) -> None:
        self._locks_opening = asyncio.Lock()
        self._listener = await self._listen()  # the server does not start if it cannot listen
        self._task = asyncio.get_running_loop().create_task(self._run(on_notice, on_resync))

    async def _listen(self) -> Any:
        conn = await self._psycopg.AsyncConnection.connect(**self._args, **KEEPALIVE,
                                                           autocommit=True)
        try:
            await conn.execute(f"LISTEN {CHANNEL}")
        except BaseException:
            await conn.close()
            raise
        return conn

    async def _run(self, on_notice: Callable[[Notice], None],
                   on_resync: Callable[[], None]) -> None:
        """Hand each notification to ``on_notice``; listen again when the connection is lost
        (waiting longer each time it fails), and then let every table catch up."""
        wait = RECONNECT_SECONDS[0]
        while True:
            try:
                if self._listener is None:
                    self._listener = await self._listen()
                    log.warning("listening to %s again; every live table catches up", CHANNEL)
                    wait = RECONNECT_SECONDS[0]
                    on_resync()
                async for note in self._listener.notifies():
                    notice = read_notice(note.payload, self.origin)
                    if notice is None:
                        continue
                    try:
                        on_notice(notice)
                    except Exception:
                        log.exception("the notification %r could not be handled", note.payload)
                raise self._psycopg.OperationalError("the notifications stopped")
            except (self._psycopg.Error, OSError) as exc:
                log.warning("lost the connection listening to %s (%s); listening again in "
                            "%.1f s", CHANNEL, exc, wait)
                await self._drop_listener()
                await asyncio.sleep(wait)
                wait = min(2 * wait, RECONNECT_SECONDS[1])

    async def _lock_connection(self) -> Any:
        assert self._locks_opening is not None, "start() first"
        async with self._locks_opening:
            if self._locks is None or self._locks.closed:
                self._locks = await self._psycopg.AsyncConnection.connect(
                    **self._args, **KEEPALIVE, autocommit=True)
            return self._locks

    async def claim_ai(self, game_id: str) -> bool:
        if game_id in self._held:
            return False
        try:
            conn = await self._lock_connection()
            cursor = await conn.execute("SELECT pg_try_advisory_lock(%s)", (lock_key(game_id),))
            row = await cursor.fetchone()
            claimed = bool(row and row[0])
        except (self._psycopg.Error, OSError) as exc:
            # without the lock the computer still plays here: the events' primary key refuses
            # a second commit of the same move, so at worst two processes think at once
            log.warning("game %s: cannot take the computer's turn lock (%s); playing anyway",
                        game_id, exc)
            await self._drop_locks()
            claimed = True
        if claimed:
            self._held.add(game_id)
        return claimed

    async def release_ai(self, game_id: str) -> None:
        if game_id not in self._held:
            return
        self._held.discard(game_id)
        conn = self._locks
        if conn is None or conn.closed:
            return  # its locks ended with it
        try:
            await conn.execute("SELECT pg_advisory_unlock(%s)", (lock_key(game_id),))
        except (self._psycopg.Error, OSError) as exc:
            log.warning("game %s: cannot release the computer's turn lock (%s); dropping the "
                        "connection that holds it", game_id, exc)
            await self._drop_locks()

    async def thinking(self, game_id: str, seat: int) -> None:
        await self._tell(game_id, "that the computer thinks", thinking=seat)

    async def spectators(self, game_id: str, count: int) -> None:
        await self._tell(game_id, "how many watch it", spectators=count)

    async def _tell(self, game_id: str, what: str, **news: Any) -> None:
        """A notice of something not stored, sent on the locks' connection."""
        try:
            conn = await self._lock_connection()
            await conn.execute("SELECT pg_notify(%s, %s)",
                               (CHANNEL, notice_payload(game_id, self.origin, **news)))
        except (self._psycopg.Error, OSError) as exc:
            log.warning("game %s: cannot tell the other processes %s (%s)", game_id, what, exc)
            await self._drop_locks()

    async def _drop_listener(self) -> None:
        conn, self._listener = self._listener, None
        if conn is not None:
            await self._close_quietly(conn)

    async def _drop_locks(self) -> None:
        conn, self._locks = self._locks, None
        if conn is not None:
            await self._close_quietly(conn)

    @staticmethod
    async def _close_quietly(conn: Any) -> None:
        try:
            await conn.close()
        except Exception as exc:
            log.debug("closing a connection: %s", exc)

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        await self._drop_listener()
        await self._drop_locks()
        self._held.clear()


def peers_for(storage: Storage) -> Peers:
    """``PostgresPeers`` for a PostgreSQL database (with psycopg 3 installed), else ``Peers``."""
    if not storage.notifies:
        return Peers()
    try:
        import psycopg  # noqa: F401
    except ImportError:
        log.warning("psycopg 3 is not installed (pip install 'warboard[postgres]'): this "
                    "server process does not share table updates with others on the database")
        return Peers()
    return PostgresPeers(storage)
