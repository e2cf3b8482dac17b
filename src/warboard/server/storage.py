"""Games, seats and events in a SQL database through SQLAlchemy 2 (a SQLite file or PostgreSQL).

A game is stored as its settings (``games``), who holds each seat (``seats``: a human's token only
as its sha256, or an AI level) and its full record (``events``: every decision and chance outcome,
in order), so it is rebuilt exactly by replaying its events. Each write is one transaction of
SQLAlchemy Core statements; the primary key (game, index) of ``events`` makes a second writer of
the same game fail instead of forking it, the unique request ids refuse a play stored twice, and
a finished game takes no more events. Any failure of the database is raised as ``StorageError``
(``StorageConflict`` for a clash with what is stored), with nothing written.

The calls are synchronous. The server runs the writes through ``write``, in the one thread of the
storage's own writer, so they never queue on each other's locks (SQLite lets one writer in at a
time, and its busy handler sleeps in growing steps); the reads run in worker threads (``read``).
A SQLite file is opened with ``journal_mode=WAL`` and ``synchronous=NORMAL``: readers do not
block the writer, and a commit does not wait for the disk (docs/server-api.md says what that
means for durability). The write-ahead log is copied into the database file (and the disk
synced) by a thread of its own every second, never by a commit as SQLite would do by itself;
the log is kept near ``wal_limit_bytes`` (``Checkpointer``).

Games nobody joined or played for a while are deleted by ``expire_games``; finished games stay.

Players (``players``) are known by their keys, stored only as their sha256 (``player_keys``, one
per device), and move to another device by one-time codes (``player_transfers``); a seat may
belong to a player. A rated game's end updates its players' Glicko-2 ratings (``ratings``) in
the same transaction that stores the end, which only one writer can make (``_rate``).

On PostgreSQL every write also sends a notification on the channel ``warboard_games`` (``NOTIFY``
in the same transaction, so it is delivered only once the write is committed, and never for one
rolled back): the game's id, its new version and the writing ``Storage``'s ``origin``. The other
server processes on the same database listen to it (``warboard.server.cluster``).
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import secrets
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Executor, ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from functools import partial
from typing import Any, TypeVar

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Connection,
    DateTime,
    Engine,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    and_,
    bindparam,
    create_engine,
    delete,
    event,
    false,
    insert,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, IntegrityError, SQLAlchemyError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

from warboard.core.errors import WarboardError
from warboard.server import ratings, schema
from warboard.server.clocks import Clock
from warboard.server.ratings import Rating

log = logging.getLogger("warboard.server")


class StorageError(WarboardError):
    """The database cannot be opened or used."""


class StorageConflict(StorageError):
    """A write clashed with what is stored (another process changed the game)."""


class _RolledBack(Exception):
    """Ends a transaction that found it has nothing to do, writing nothing."""


CHANNEL = "warboard_games"  # PostgreSQL's notification channel of the games' changes
OVER = "over"  # the status of a finished game: it takes no more events
HUMAN = "human"  # the kind of a seat a person holds (with a token)
LOBBY_MODE = "open"  # the mode of the games posted in the lobby
# WAL, no fsync per commit, and no automatic checkpoint (the ``Checkpointer`` thread does it)
SQLITE_PRAGMAS = ("PRAGMA journal_mode=WAL", "PRAGMA synchronous=NORMAL",
                  "PRAGMA wal_autocheckpoint=0")
CHECKPOINT_SECONDS = 1.0
WAL_LIMIT_BYTES = 64 * 1024 * 1024  # a larger write-ahead log is emptied (``Checkpointer``)
TRUNCATE_WAIT_MS, TRUNCATE_TRIES = 100, 3  # how long the writes may be held off to empty it
EXPIRY_BATCH = 500  # games deleted in one transaction by ``expire_games``
CHAT_MAX_LENGTH = 300  # the longest chat line, in characters
CHAT_KEPT = 200  # the chat lines of a game read back (the latest)

T = TypeVar("T")


def notice_payload(game_id: str, origin: str, version: int | None = None,
                   **news: Any) -> str:
    """A notification's text: which game changed, and who changed it (``origin``).

    ``version``: its events are stored up to there (``None``: its seats or status changed).
    ``news``, each left out when ``None``: ``thinking`` (the computer started a decision for
    that seat), ``spectators`` (how many watch it in the writing process), ``chat`` (a line
    stored: ``ChatLine.to_json``), ``muted`` (``[seat, muted]``: a seat muted or unmuted the
    other's chat).
    """
    data: dict[str, Any] = {"game": game_id, "origin": origin}
    if version is not None:
        data["version"] = version
    data.update((key, value) for key, value in news.items() if value is not None)
    return json.dumps(data, separators=(",", ":"))


class Base(DeclarativeBase):
    pass


class GameRow(Base):
    __tablename__ = "games"
    __table_args__ = (Index("games_status_updated", "status", "updated"),
                      Index("games_deadline", "deadline"),
                      Index("games_lobby", "mode", "status", "updated"))

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    mode: Mapped[str] = mapped_column(String(16))
    seed: Mapped[int] = mapped_column(BigInteger)
    status: Mapped[str] = mapped_column(String(16))
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    # its end changes the players' ratings (in the transaction that stores the end)
    rated: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    # the clocks (``Clock.to_json``), when the game has them; ``deadline``: when the running
    # one's flag falls (``None`` when none runs), set with ``clock_version``, the game's
    # version then: the flag falls only if neither changed since it was read (``flag_game``)
    clock: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    deadline: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    clock_version: Mapped[int | None] = mapped_column(Integer, nullable=True)
    # the game offered as this one's rematch (at most one: set once, by a conditional update)
    rematch: Mapped[str | None] = mapped_column(String(16), nullable=True)
    campaign: Mapped[str | None] = mapped_column(String(16), nullable=True)  # its series


class SeatRow(Base):
    __tablename__ = "seats"
    __table_args__ = (Index("seats_player", "player_id"),)

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))  # "human" or "ai"
    ai_level: Mapped[str | None] = mapped_column(String(16), nullable=True)
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, unique=True)
    joined: Mapped[bool] = mapped_column(default=False)  # its token has been used
    # the signed-in player who holds it (None: anonymous, or the computer)
    player_id: Mapped[str | None] = mapped_column(ForeignKey("players.id"), nullable=True)
    # presence (docs/server-api.md#presence): when a socket of the seat was last known open,
    # and whether one was then (written on connect, on disconnect and by heartbeats)
    seen: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    present: Mapped[bool | None] = mapped_column(nullable=True)
    muted: Mapped[bool] = mapped_column(default=False)  # it does not read the other's chat


class EventRow(Base):
    __tablename__ = "events"
    __table_args__ = (UniqueConstraint("game_id", "request_id"),)

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    index: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)  # None: chance
    action: Mapped[dict[str, Any]] = mapped_column(JSON)
    request_id: Mapped[str | None] = mapped_column(String(100), nullable=True)


class PlayerRow(Base):
    __tablename__ = "players"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    name: Mapped[str] = mapped_column(String(32))
    name_key: Mapped[str] = mapped_column(String(32), unique=True)  # the name casefolded
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class PlayerKeyRow(Base):
    """A player's secret key, as its sha256; one per device (a transfer adds one)."""

    __tablename__ = "player_keys"

    key_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class TransferRow(Base):
    """A one-time code that gives another device a key of the player, until ``expires``."""

    __tablename__ = "player_transfers"

    code_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)
    expires: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class RatingRow(Base):
    """A player's Glicko-2 rating in one game."""

    __tablename__ = "ratings"
    __table_args__ = (Index("ratings_game_rating", "game", "rating"),)

    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    rating: Mapped[float] = mapped_column(Float)
    deviation: Mapped[float] = mapped_column(Float)
    volatility: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)
    updated: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ChatRow(Base):
    """One line of a game's chat between its two players."""

    __tablename__ = "chat"
    __table_args__ = (Index("chat_game", "game_id", "id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"))
    seat: Mapped[int] = mapped_column(Integer)
    text: Mapped[str] = mapped_column(String(CHAT_MAX_LENGTH))
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class CustomScenarioRow(Base):
    """A battle of a player's own design (the web editor): its game and its text, checked by
    the game before it was stored (``GameInfo.custom_setups``); shared by its id."""

    __tablename__ = "custom_scenarios"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    text: Mapped[str] = mapped_column(Text)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))



class AnalysisRow(Base):
    """A finished game's post-game analysis (``server/analyses.py``): the level that judged it,
    how many of its ``total`` decisions are judged (``done``), and once all are, ``judgements``
    (each decision's ``Judgement.to_json``). A row without judgements is an analysis under way
    in some server process, which writes ``updated`` as it goes; one left unwritten too long
    was abandoned and may be taken over."""

    __tablename__ = "analyses"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    level: Mapped[str] = mapped_column(String(16))
    done: Mapped[int] = mapped_column(Integer)
    total: Mapped[int] = mapped_column(Integer)
    # SQL NULL while under way, not JSON null, so that ``IS NULL`` finds it
    judgements: Mapped[list[Any] | None] = mapped_column(JSON(none_as_null=True), nullable=True)
    updated: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class CampaignRow(Base):
    """A series of games in play (``GameInfo.series``): its games' ids in order, and for each
    game the token hashes of its seats (``seats``: a token holds a seat in every game of the
    series, and ``seats.token_hash`` is unique, so after the first game they are kept here),
    and the series' progress as the game's series writes it."""

    __tablename__ = "campaigns"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    name: Mapped[str] = mapped_column(String(64))
    mode: Mapped[str] = mapped_column(String(16))
    seats: Mapped[list[Any]] = mapped_column(JSON)
    games: Mapped[list[Any]] = mapped_column(JSON)
    progress: Mapped[dict[str, Any]] = mapped_column(JSON)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated: Mapped[datetime] = mapped_column(DateTime(timezone=True))


GAMES, SEATS, EVENTS, CHAT, CAMPAIGNS, ANALYSES = (
    Base.metadata.tables[name] for name in ("games", "seats", "events", "chat", "campaigns",
                                            "analyses"))
PLAYERS, PLAYER_KEYS, TRANSFERS, RATINGS = (
    Base.metadata.tables[name] for name in ("players", "player_keys", "player_transfers",
                                            "ratings"))
# The statements of every play, built once: building one and its cache key on each call cost
# as much CPU as running it (docs/load.md). The game's columns to set are the parameters.
UPDATE_GAME = update(GAMES).where(GAMES.c.id == bindparam("game_id"))
UPDATE_RUNNING = UPDATE_GAME.where(GAMES.c.status != OVER)
INSERT_EVENTS = insert(EVENTS)


@dataclass(frozen=True)
class SeatData:
    seat: int
    kind: str
    ai_level: str | None = None
    token_hash: str | None = None
    joined: bool = False
    player_id: str | None = None
    seen: datetime | None = None
    present: bool = False
    muted: bool = False  # it does not read the other seat's chat


@dataclass(frozen=True)
class ChatLine:
    """A line of a game's chat: who wrote it, and when (ISO 8601)."""

    seat: int
    text: str
    at: str

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "text": self.text, "at": self.at}


@dataclass(frozen=True)
class EventData:
    """One record event; ``request_id`` is the client's id of the message that made it."""

    seat: int | None
    action: dict[str, Any]
    request_id: str | None = None


@dataclass(frozen=True)
class AnalysisData:
    """A stored analysis (``AnalysisRow``): ``judgements`` is ``None`` while it is under way."""

    level: str
    done: int
    total: int
    judgements: list[dict[str, Any]] | None
    updated: datetime


@dataclass
class CampaignData:
    """A series of games in play: ``games``, their ids in order; ``seats``, for each of them
    the token hash of each seat (``None``: the seat's own row holds it, as in the first game,
    or it has none); ``progress``, the series' own data."""

    id: str
    game: str
    name: str
    mode: str
    games: list[str]
    seats: list[list[str | None]]
    progress: dict[str, Any]


@dataclass(frozen=True)
class CampaignStep:
    """What the end of a series' game stores in the same transaction: the series' progress
    with it, and the next game (``None`` once the series is over), its seats' token hashes
    kept in the series' row."""

    campaign_id: str
    progress: dict[str, Any]
    next_game: GameData | None


@dataclass
class GameData:
    """Everything stored about one game."""

    id: str
    game: str
    options: dict[str, Any]
    mode: str
    seed: int
    status: str
    result: dict[str, Any] | None
    created: datetime
    updated: datetime
    seats: list[SeatData] = field(default_factory=list)
    events: list[EventData] = field(default_factory=list)
    rated: bool = False
    clock: Clock | None = None
    rematch: str | None = None  # the game offered as its rematch
    chat: list[ChatLine] = field(default_factory=list)  # the latest ``CHAT_KEPT`` lines
    campaign: CampaignData | None = None  # the series it is a game of


@dataclass(frozen=True)
class LobbyGame:
    """A game of the lobby (``open`` mode) waiting for a player or being played: the names of
    its seats' players (``None``: nobody holds it yet)."""

    id: str
    game: str
    options: dict[str, Any]
    status: str
    rated: bool
    clock: dict[str, Any] | None
    names: tuple[str | None, str | None]
    created: str
    updated: str


@dataclass(frozen=True)
class GameSummary:
    """One game as a seat's token lists it."""

    id: str
    game: str
    mode: str
    seat: int
    status: str
    result: dict[str, Any] | None
    created: str
    updated: str
    rated: bool = False
    clock: dict[str, Any] | None = None  # ``Clock.message``: whose clock runs, the deadline


@dataclass(frozen=True)
class Player:
    """A signed-in player: its public id and its name."""

    id: str
    name: str


@dataclass(frozen=True)
class Standing:
    """A player's place on a game's leaderboard."""

    id: str
    name: str
    rating: float
    deviation: float
    games: int


@dataclass
class Profile:
    """What anyone may see of a player: its ratings by game and its latest games."""

    player: Player
    ratings: dict[str, Rating]
    games: list[GameSummary]


def shown_url(url: str) -> str:
    """A database URL fit for messages: its password hidden."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except ArgumentError:
        return repr(url)


def _campaign(row: CampaignRow | None) -> CampaignData | None:
    if row is None:
        return None
    return CampaignData(row.id, row.game, row.name, row.mode, list(row.games),
                        [list(s) for s in row.seats], dict(row.progress))


def _held_tokens(campaign: CampaignData | None, game_id: str) -> list[str | None]:
    """The token hashes of a series' game's seats kept in the series' row (``None``: its own
    row holds it)."""
    if campaign is None or game_id not in campaign.games:
        return [None, None]
    return campaign.seats[campaign.games.index(game_id)]


def now() -> datetime:
    return datetime.now(UTC)


def iso(moment: datetime) -> str:
    """ISO 8601 in UTC (SQLite gives back naive datetimes: they are UTC)."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).isoformat(timespec="seconds")


def reason_of(exc: SQLAlchemyError) -> object:
    """What the database said (the driver's own error when there is one)."""
    return exc.orig if isinstance(exc, DBAPIError) and exc.orig else exc


def _dialect_insert(db: Connection, table: Any) -> Any:
    """The database's own INSERT of ``table``, which has ``on_conflict_do_nothing``."""
    return (postgresql.insert if db.dialect.name == "postgresql" else sqlite.insert)(table)


def _utc(moment: datetime) -> datetime:
    """``moment`` in UTC, as the columns hold it (a naive one is taken to be UTC)."""
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def _tune_sqlite(engine: Engine, wal_limit_bytes: int) -> None:
    """Open every SQLite connection in WAL mode with ``synchronous=NORMAL``, and a log cut
    back to ``wal_limit_bytes`` whenever it starts over."""
    pragmas = (*SQLITE_PRAGMAS, f"PRAGMA journal_size_limit={int(wal_limit_bytes)}")

    @event.listens_for(engine, "connect")
    def _pragmas(dbapi_connection: Any, record: Any) -> None:
        cursor = dbapi_connection.cursor()
        try:
            for pragma in pragmas:
                cursor.execute(pragma)
        finally:
            cursor.close()


class Checkpointer:
    """Copies a SQLite file's write-ahead log into the database every ``interval`` seconds in a
    thread of its own. A ``PASSIVE`` checkpoint never blocks the writer, so the commits never
    wait for the disk syncs of a checkpoint; but it cannot start the log over while readers
    keep reading it, so under a steady flow of reads and writes the log would grow without end.

    When the log is over ``limit_bytes`` it is emptied instead, by ``TRUNCATE`` checkpoints run
    in the storage's ``writer`` thread: the writes queue behind them (no write can slip in
    between two tries), each try waits at most ``TRUNCATE_WAIT_MS`` for the readers, and after
    ``TRUNCATE_TRIES`` the log is left to the next round. A first try may spend its wait on a
    reader's slot that new readers keep taking (SQLite waits for the slot it saw first); by
    then every reader reads the last commit, and the next try finds the log free."""

    def __init__(self, engine: Engine, interval: float, limit_bytes: int,
                 writer: Executor) -> None:
        self._engine = engine
        self._interval = interval
        self._limit = limit_bytes
        self._writer = writer
        self._wal = f"{engine.url.database}-wal"
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="warboard-checkpoint",
                                        daemon=True)
        self._thread.start()

    def _wal_bytes(self) -> int:
        try:
            return os.stat(self._wal).st_size
        except OSError:  # none yet
            return 0

    def _run(self) -> None:
        while not self._stop.wait(self._interval):
            try:
                if self._wal_bytes() > self._limit:
                    self._writer.submit(self._empty).result()
                else:
                    with self._engine.connect() as db:
                        db.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")
            except SQLAlchemyError as exc:
                log.warning("SQLite checkpoint failed (tried again in %.1f s): %s",
                            self._interval, reason_of(exc))

    def _empty(self) -> None:
        """``TRUNCATE`` checkpoints until one empties the log (at most ``TRUNCATE_TRIES``)."""
        with self._engine.connect() as db:
            usual = db.exec_driver_sql("PRAGMA busy_timeout").scalar_one()
            db.exec_driver_sql(f"PRAGMA busy_timeout={TRUNCATE_WAIT_MS}")
            try:
                for _ in range(TRUNCATE_TRIES):
                    busy = db.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)").one()[0]
                    if not busy:
                        return
            finally:
                db.exec_driver_sql(f"PRAGMA busy_timeout={int(usual)}")

    def close(self) -> None:
        self._stop.set()
        self._thread.join()


def _sqlite_file(engine: Engine) -> bool:
    return engine.dialect.name == "sqlite" and engine.url.database not in (None, "", ":memory:")


@contextmanager
def opening(url: str) -> Iterator[None]:
    """Any failure to open the database ``url`` (or to read its schema) as ``StorageError``."""
    try:
        yield
    except ModuleNotFoundError as exc:
        hint = (" (install the 'postgres' extra: pip install 'warboard[postgres]')"
                if "psycopg" in str(exc) else "")
        raise StorageError(f"cannot open the database {shown_url(url)}: {exc}{hint}") from exc
    except (SQLAlchemyError, ValueError, schema.SchemaError) as exc:
        reason = reason_of(exc) if isinstance(exc, SQLAlchemyError) else exc
        raise StorageError(f"cannot open the database {shown_url(url)}: {reason}") from exc


class Storage:
    """The database behind the server. An empty one is made at the schema's newest revision;
    one at an older revision (or made before the schema had versions) is refused until
    ``warboard db upgrade`` brings it there (``warboard.server.schema``).

    ``wal_limit_bytes`` and ``checkpoint_seconds``: with a SQLite file, the size over which its
    write-ahead log is emptied, and how often it is checkpointed (``Checkpointer``)."""

    def __init__(self, url: str, *, wal_limit_bytes: int = WAL_LIMIT_BYTES,
                 checkpoint_seconds: float = CHECKPOINT_SECONDS) -> None:
        with opening(url):
            self.engine = create_engine(url)
            if _sqlite_file(self.engine):
                _tune_sqlite(self.engine, wal_limit_bytes)
            with self.engine.begin() as db:
                schema.ensure_current(db)
        self.origin = secrets.token_hex(8)  # this Storage's name in its notifications
        self.notifies = self.engine.dialect.name == "postgresql"
        self._writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="warboard-writer")
        self._checkpointer = (Checkpointer(self.engine, checkpoint_seconds, wal_limit_bytes,
                                           self._writer)
                              if _sqlite_file(self.engine) else None)

    def describe(self) -> str:
        """The database URL with any password hidden."""
        return self.engine.url.render_as_string(hide_password=True)

    def ping(self) -> None:
        """A trivial query, for the readiness check: ``StorageError`` when the database does
        not answer it."""
        with self._failures("the database does not answer"), self.engine.connect() as db:
            db.execute(select(GAMES.c.id).limit(1))

    def close(self) -> None:
        if self._checkpointer is not None:  # first: it may hand the writer a checkpoint
            self._checkpointer.close()
        self._writer.shutdown(wait=True)
        self.engine.dispose()

    async def write(self, call: Callable[..., T], *args: Any) -> T:
        """``call(*args)`` in the writer's thread: the writes are made one at a time."""
        return await asyncio.get_running_loop().run_in_executor(self._writer,
                                                                partial(call, *args))

    @staticmethod
    async def read(call: Callable[..., T], *args: Any) -> T:
        """``call(*args)`` in a worker thread (reads need not wait for the writes)."""
        return await asyncio.to_thread(call, *args)

    @contextmanager
    def _failures(self, what: str) -> Iterator[None]:
        """Any failure of the database as ``StorageError`` saying what could not be done."""
        try:
            yield
        except StorageError:
            raise
        except IntegrityError as exc:
            raise StorageConflict(f"{what}: it clashes with what is stored (changed by "
                                  f"another server process?): {reason_of(exc)}") from exc
        except SQLAlchemyError as exc:
            raise StorageError(f"{what}: {reason_of(exc)}") from exc

    @contextmanager
    def _transaction(self, what: str) -> Iterator[Connection]:
        """One write transaction, committed at the end (rolled back when it fails)."""
        with self._failures(what), self.engine.begin() as db:
            yield db

    def create_game(self, game: GameData) -> Clock | None:
        """Store a new game with its seats and first events (one transaction), and the series
        it starts if it is a series' first game; its clock, if any, started at the commit
        (``clock.running``: the seat to act, if it is playing)."""
        with self._transaction(f"game {game.id}: cannot store the new game") as db:
            if game.campaign is not None:
                c, moment = game.campaign, now()
                db.execute(insert(CAMPAIGNS).values(
                    id=c.id, game=c.game, name=c.name, mode=c.mode, seats=c.seats,
                    games=c.games, progress=c.progress, created=moment, updated=moment))
            self._insert_game(db, game)
            return self._set_clock(db, game.id, len(game.events), game.clock)

    def _insert_game(self, db: Connection, game: GameData) -> None:
        db.execute(insert(GAMES).values(
            id=game.id, game=game.game, options=game.options, mode=game.mode,
            seed=game.seed, status=game.status, result=game.result, created=game.created,
            updated=game.updated, rated=game.rated,
            clock=None if game.clock is None else game.clock.to_json(),
            campaign=None if game.campaign is None else game.campaign.id))
        db.execute(insert(SEATS), [{"game_id": game.id, "seat": s.seat, "kind": s.kind,
                                    "ai_level": s.ai_level, "token_hash": s.token_hash,
                                    "joined": s.joined, "player_id": s.player_id,
                                    "seen": s.seen, "present": s.present}
                                   for s in game.seats])
        self._insert_events(db, game.id, 0, game.events)

    @staticmethod
    def _set_clock(db: Connection, game_id: str, version: int,
                   clock: Clock | None) -> Clock | None:
        """Start ``clock`` now (the end of the transaction, as near its commit as can be) and
        store it with its deadline and the game's ``version``."""
        if clock is None:
            return None
        clock = clock.start(now())
        db.execute(UPDATE_GAME, {"game_id": game_id, "clock": clock.to_json(),
                                 "deadline": clock.deadline, "clock_version": version})
        return clock

    def offer_rematch(self, old_id: str, game: GameData) -> bool:
        """Store ``game`` as the rematch of the finished game ``old_id`` (its clock, if any,
        not running: the game waits for the other player): ``False`` (nothing written) when
        that game has one already (offered here or in another server process), or is not
        over."""
        try:
            with self._transaction(f"game {old_id}: cannot store its rematch") as db:
                offered = db.execute(update(GAMES)
                                     .where(GAMES.c.id == old_id, GAMES.c.status == OVER,
                                            GAMES.c.rematch.is_(None))
                                     .values(rematch=game.id)).rowcount
                if not offered:
                    raise _RolledBack
                self._insert_game(db, game)
                self._notify(db, old_id)
        except _RolledBack:
            return False
        return True

    def load_game(self, game_id: str, first_event: int = 0) -> GameData | None:
        """A stored game, with its events from index ``first_event`` on (all by default)."""
        with self._failures(f"game {game_id}: cannot read it"), Session(self.engine) as db:
            row = db.get(GameRow, game_id)
            if row is None:
                return None
            seats = db.scalars(select(SeatRow).where(SeatRow.game_id == game_id)
                               .order_by(SeatRow.seat))
            events = db.scalars(select(EventRow).where(EventRow.game_id == game_id,
                                                       EventRow.index >= first_event)
                                .order_by(EventRow.index))
            # a catch-up (``first_event`` > 0) hears the chat from the notices instead
            chat = db.scalars(select(ChatRow).where(ChatRow.game_id == game_id)
                              .order_by(ChatRow.id.desc())
                              .limit(CHAT_KEPT if first_event == 0 else 0))
            campaign = None if row.campaign is None else _campaign(db.get(CampaignRow,
                                                                          row.campaign))
            held = _held_tokens(campaign, game_id)
            return GameData(
                id=row.id, game=row.game, options=dict(row.options), mode=row.mode,
                seed=row.seed, status=row.status, result=row.result, created=row.created,
                updated=row.updated, rated=row.rated, rematch=row.rematch,
                clock=None if row.clock is None else Clock.from_json(row.clock),
                seats=[SeatData(s.seat, s.kind, s.ai_level, s.token_hash or held[s.seat],
                                s.joined, player_id=s.player_id, seen=s.seen,
                                present=bool(s.present), muted=s.muted) for s in seats],
                campaign=campaign,
                events=[EventData(e.seat, e.action, e.request_id) for e in events],
                chat=[ChatLine(c.seat, c.text, iso(c.created)) for c in reversed(list(chat))])

    def load_campaign(self, campaign_id: str) -> CampaignData | None:
        """A stored series of games."""
        with self._failures(f"campaign {campaign_id}: cannot read it"), \
                Session(self.engine) as db:
            row = db.get(CampaignRow, campaign_id)
            return None if row is None else _campaign(row)

    def _advance(self, db: Connection, step: CampaignStep | None) -> None:
        """A series' game has ended (in ``db``'s transaction, which stored the end: only one
        writer can): the series' progress, and its next game with the seats' token hashes
        kept in the series' row (each token holds a seat in every game of it)."""
        if step is None:
            return
        row = db.execute(select(CAMPAIGNS.c.games, CAMPAIGNS.c.seats)
                         .where(CAMPAIGNS.c.id == step.campaign_id).with_for_update()).one()
        games, seats = list(row.games), list(row.seats)
        if step.next_game is not None:
            game = step.next_game
            games.append(game.id)
            seats.append([s.token_hash for s in game.seats])
            self._insert_game(db, replace(game, seats=[replace(s, token_hash=None)
                                                       for s in game.seats]))
        db.execute(update(CAMPAIGNS).where(CAMPAIGNS.c.id == step.campaign_id)
                   .values(progress=step.progress, games=games, seats=seats, updated=now()))

    def append_events(self, game_id: str, first_index: int, events: Sequence[EventData],
                      status: str, result: dict[str, Any] | None,
                      clock: Clock | None = None,
                      campaign: CampaignStep | None = None) -> Clock | None:
        """Add events ``first_index``, ``first_index + 1``, ... in one transaction, with the
        game's result and its status when it is now ``over``, and its ``clock`` started at the
        commit (the clock is answered); ``StorageConflict`` (and nothing written) when an index
        or a request id is taken already, or the game is over.

        The game's row is updated first: it stays locked until the commit, so two writers of
        one game queue there, and the second finds the first one's events (or its end) and
        fails on the primary key or the unique request ids."""
        values: dict[str, Any] = {"game_id": game_id, "result": result, "updated": now()}
        if status == OVER:  # a join, not a play, ends the waiting (update_game)
            values["status"] = OVER
        with self._transaction(f"game {game_id}: event {first_index} is not stored") as db:
            running = db.execute(UPDATE_RUNNING, values).rowcount
            if not running:
                raise StorageConflict(f"game {game_id}: the game is over (or gone); "
                                      f"event {first_index} is not stored")
            self._insert_events(db, game_id, first_index, events)
            if status == OVER:
                self._rate(db, game_id, result)
                self._advance(db, campaign)
            started = self._set_clock(db, game_id, first_index + len(events), clock)
            self._notify(db, game_id, first_index + len(events))
        return started

    def update_game(self, game_id: str, status: str, result: dict[str, Any] | None,
                    joined_seat: int | None = None, clock: Clock | None = None,
                    campaign: CampaignStep | None = None) -> bool:
        """Set a game's status and result (and its stopped ``clock`` when it is now over), and
        mark a seat as joined. A finished game keeps its status and result: then only the
        seat is marked, and the answer is ``False``."""
        with self._transaction(f"game {game_id}: cannot store its status") as db:
            ended: dict[str, Any] = {"deadline": None} if status == OVER else {}
            if clock is not None:
                ended["clock"] = clock.to_json()
            changed = db.execute(update(GAMES)
                                 .where(GAMES.c.id == game_id, GAMES.c.status != OVER)
                                 .values(status=status, result=result, updated=now(),
                                         **ended)).rowcount
            if changed and status == OVER:
                self._rate(db, game_id, result)
                self._advance(db, campaign)
            if joined_seat is not None:
                db.execute(update(SEATS)
                           .where(SEATS.c.game_id == game_id, SEATS.c.seat == joined_seat)
                           .values(joined=True))
            self._notify(db, game_id)
        return bool(changed)

    def claim_seat(self, game_id: str, seat: int, invite_hash: str | None, token_hash: str,
                   status: str, version: int, clock: Clock | None = None,
                   player_id: str | None = None) -> Clock | bool:
        """The first use of a seat's invite (``invite_hash``; ``None``: a seat that has no
        token yet, an open game's or a rematch's): the seat now holds ``token_hash`` instead
        (and belongs to ``player_id``), is joined, and the game has ``status`` (at
        ``version``), its ``clock`` started at the commit. ``False`` (nothing written) when the
        invite was used already, or the seat taken (here or by another server process), or the
        game is over; else the started clock, or ``True``."""
        held = (SEATS.c.token_hash.is_(None) if invite_hash is None
                else SEATS.c.token_hash == invite_hash)
        try:
            with self._transaction(f"game {game_id}: cannot store the arrival") as db:
                moment = now()
                claimed = db.execute(update(SEATS)
                                     .where(SEATS.c.game_id == game_id, SEATS.c.seat == seat,
                                            held, SEATS.c.joined.is_(False))
                                     .values(token_hash=token_hash, joined=True,
                                             player_id=player_id, seen=moment,
                                             present=False)).rowcount
                running = db.execute(update(GAMES)
                                     .where(GAMES.c.id == game_id, GAMES.c.status != OVER)
                                     .values(status=status, updated=moment)).rowcount
                if not (claimed and running):
                    raise _RolledBack
                started = self._set_clock(db, game_id, version, clock)
                self._notify(db, game_id)
        except _RolledBack:
            return False
        return started if started is not None else True

    def flag_game(self, game_id: str, version: int, moment: datetime,
                  result: dict[str, Any], clock: Clock) -> bool:
        """End a game on time with ``result`` and its stopped ``clock``: only if it is not
        over, its clock was set at ``version`` and its deadline is at or before ``moment``.
        One conditional update, so of several processes flagging one game at once exactly one
        does (``True``); the others, and a flag read before a decision stored in time, change
        nothing."""
        with self._transaction(f"game {game_id}: cannot store its flag") as db:
            flagged = db.execute(update(GAMES)
                                 .where(GAMES.c.id == game_id, GAMES.c.status != OVER,
                                        GAMES.c.clock_version == version,
                                        GAMES.c.deadline <= _utc(moment))
                                 .values(status=OVER, result=result, deadline=None,
                                         clock=clock.to_json(), updated=now())).rowcount
            if flagged:
                self._rate(db, game_id, result)
                self._notify(db, game_id)
        return bool(flagged)

    def due_clocks(self, moment: datetime) -> list[tuple[str, int, Clock]]:
        """The games whose running clock's deadline is at or before ``moment``: id, clock
        version and clock (read by the sweepers of every process: ``flag_game`` decides)."""
        with self._failures("cannot read the clocks due"), self.engine.connect() as db:
            rows = db.execute(select(GAMES.c.id, GAMES.c.clock_version, GAMES.c.clock)
                              .where(GAMES.c.deadline <= _utc(moment),
                                     GAMES.c.status != OVER)
                              .order_by(GAMES.c.deadline).limit(EXPIRY_BATCH))
            return [(game_id, version, Clock.from_json(clock))
                    for game_id, version, clock in rows if clock is not None]

    def mark_presence(self, game_id: str, seat: int, present: bool) -> None:
        """A seat's first socket here opened (``present``) or its last one closed: told to the
        other processes (the claims they offer change)."""
        with self._transaction(f"game {game_id}: cannot store seat {seat}'s presence") as db:
            db.execute(update(SEATS).where(SEATS.c.game_id == game_id, SEATS.c.seat == seat)
                       .values(seen=now(), present=present))
            self._notify(db, game_id)

    def heartbeat(self, seats: Sequence[tuple[str, int]]) -> None:
        """The seats (game, seat) with a socket open here are still there (not notified)."""
        if not seats:
            return
        with self._transaction("cannot store the seats' presence") as db:
            moment = now()
            for game_id, seat in seats:
                db.execute(update(SEATS)
                           .where(SEATS.c.game_id == game_id, SEATS.c.seat == seat)
                           .values(seen=moment, present=True))

    def seat_presence(self, game_id: str, seat: int) -> tuple[datetime | None, bool]:
        """When a socket of ``seat`` was last known open, and whether one was then."""
        with self._failures(f"game {game_id}: cannot read the seats"), \
                self.engine.connect() as db:
            row = db.execute(select(SEATS.c.seen, SEATS.c.present)
                             .where(SEATS.c.game_id == game_id, SEATS.c.seat == seat)).one()
            return (None if row.seen is None else _utc(row.seen)), bool(row.present)

    def expire_games(self, unjoined_before: datetime, idle_before: datetime) -> list[str]:
        """Delete the games that are not over and either still wait for a human seat that
        never joined and were created before ``unjoined_before``, or were last changed before
        ``idle_before``: their events, seats and row, ``EXPIRY_BATCH`` games a transaction (so
        a long backlog never holds the database for long). Finished games are kept. The ids
        of the games deleted.

        On PostgreSQL the games are locked as they are chosen and a game another transaction
        holds is left for the next time; each deleted game is notified (with no version)."""
        unjoined = (select(SEATS.c.game_id)
                    .where(SEATS.c.game_id == GAMES.c.id, SEATS.c.kind == HUMAN,
                           SEATS.c.joined.is_(False))
                    .exists())
        chosen = (select(GAMES.c.id)
                  # not ``!=``: a range on each side of it can use the index (status, updated)
                  .where(or_(GAMES.c.status < OVER, GAMES.c.status > OVER),
                         or_(GAMES.c.updated < _utc(idle_before),
                             and_(GAMES.c.created < _utc(unjoined_before), unjoined)))
                  .limit(EXPIRY_BATCH)
                  .with_for_update(skip_locked=True))
        expired: list[str] = []
        while True:
            with self._transaction("cannot delete the expired games") as db:
                ids = list(db.scalars(chosen))
                if ids:
                    for rows in (EVENTS, CHAT, SEATS):
                        db.execute(delete(rows).where(rows.c.game_id.in_(ids)))
                    db.execute(delete(GAMES).where(GAMES.c.id.in_(ids)))
                    for game_id in ids:
                        self._notify(db, game_id)
            expired += ids
            if len(ids) < EXPIRY_BATCH:
                return expired

    def _rate(self, db: Connection, game_id: str, result: dict[str, Any] | None) -> None:
        """A rated game has ended (in ``db``'s transaction, which stored the end: only one
        writer can, the game being not over before): each player's rating in its game is
        updated against the other side's from before, the computer's level being fixed."""
        game = db.execute(select(GAMES.c.game, GAMES.c.rated)
                          .where(GAMES.c.id == game_id)).one()
        score = ratings.scores(result)
        if not game.rated or score is None:
            return
        seats = db.execute(select(SEATS.c.seat, SEATS.c.player_id, SEATS.c.ai_level)
                           .where(SEATS.c.game_id == game_id).order_by(SEATS.c.seat)).all()
        if any(s.player_id is None and s.ai_level is None for s in seats):
            log.warning("game %s: rated, but a seat has no player: not rated", game_id)
            return
        ids = sorted({s.player_id for s in seats if s.player_id is not None})
        moment = now()
        fresh = Rating()
        for player_id in ids:  # in one order, so two games ending at once cannot deadlock
            db.execute(_dialect_insert(db, RATINGS).values(
                player_id=player_id, game=game.game, rating=fresh.rating,
                deviation=fresh.deviation, volatility=fresh.volatility, games=0,
                updated=moment).on_conflict_do_nothing())
        rows = db.execute(select(RATINGS)
                          .where(RATINGS.c.game == game.game, RATINGS.c.player_id.in_(ids))
                          .order_by(RATINGS.c.player_id).with_for_update())
        held = {r.player_id: Rating(r.rating, r.deviation, r.volatility, r.games) for r in rows}
        before = [held[s.player_id] if s.player_id is not None
                  else ratings.level_rating(str(s.ai_level)) for s in seats]
        for s in seats:
            if s.player_id is not None:
                after = ratings.updated(before[s.seat], before[1 - s.seat], score[s.seat])
                db.execute(update(RATINGS)
                           .where(RATINGS.c.player_id == s.player_id,
                                  RATINGS.c.game == game.game)
                           .values(rating=after.rating, deviation=after.deviation,
                                   volatility=after.volatility, games=after.games,
                                   updated=moment))

    @staticmethod
    def _insert_events(db: Connection, game_id: str, first_index: int,
                       events: Sequence[EventData]) -> None:
        if events:
            db.execute(INSERT_EVENTS, [
                {"game_id": game_id, "index": first_index + i, "seat": e.seat,
                 "action": e.action, "request_id": e.request_id} for i, e in enumerate(events)])

    def add_chat(self, game_id: str, seat: int, line: str) -> ChatLine:
        """Store a chat line of ``seat``; the other processes are sent the line itself."""
        moment = now()
        chat = ChatLine(seat, line, iso(moment))
        with self._transaction(f"game {game_id}: cannot store the chat line") as db:
            db.execute(insert(CHAT).values(game_id=game_id, seat=seat, text=line,
                                           created=moment))
            self._notify(db, game_id, chat=chat.to_json())
        return chat

    def set_muted(self, game_id: str, seat: int, muted: bool) -> None:
        """Whether ``seat`` reads the other seat's chat."""
        with self._transaction(f"game {game_id}: cannot store the mute") as db:
            db.execute(update(SEATS).where(SEATS.c.game_id == game_id, SEATS.c.seat == seat)
                       .values(muted=muted))
            self._notify(db, game_id, muted=[seat, muted])

    def _notify(self, db: Connection, game_id: str, version: int | None = None,
                **news: Any) -> None:
        """Tell the other server processes, once this transaction commits (PostgreSQL)."""
        if self.notifies:
            db.execute(text("SELECT pg_notify(:channel, :payload)"),
                       {"channel": CHANNEL,
                        "payload": notice_payload(game_id, self.origin, version, **news)})

    def lobby_games(self, status: str, limit: int) -> list[LobbyGame]:
        """The lobby's games (``open`` mode) of ``status``, the most recently changed first."""
        with self._failures("cannot list the lobby's games"), Session(self.engine) as db:
            games = list(db.scalars(select(GameRow)
                                    .where(GameRow.mode == LOBBY_MODE, GameRow.status == status)
                                    .order_by(GameRow.updated.desc()).limit(limit)))
            names: dict[tuple[str, int], str] = {
                (game_id, seat): name for game_id, seat, name in db.execute(
                    select(SeatRow.game_id, SeatRow.seat, PlayerRow.name)
                    .join(PlayerRow, PlayerRow.id == SeatRow.player_id)
                    .where(SeatRow.game_id.in_([g.id for g in games])))}
            return [LobbyGame(g.id, g.game, dict(g.options), g.status, g.rated,
                              None if g.clock is None else Clock.from_json(g.clock).spec(),
                              (names.get((g.id, 0)), names.get((g.id, 1))), iso(g.created),
                              iso(g.updated)) for g in games]

    def games_for_tokens(self, token_hashes: Iterable[str]) -> list[GameSummary]:
        """The games whose seats these token hashes hold, the most recently updated first."""
        hashes = list(token_hashes)
        if not hashes:
            return []
        with self._failures("cannot list the games"), Session(self.engine) as db:
            rows: list[tuple[GameRow, int]] = [
                (g, seat) for g, seat in db.execute(select(GameRow, SeatRow.seat)
                                                    .join(SeatRow, SeatRow.game_id == GameRow.id)
                                                    .where(SeatRow.token_hash.in_(hashes)))]
            rows += self._campaign_seats(db, {g.campaign for g, _ in rows} - {None}, set(hashes))
            rows.sort(key=lambda row: (-row[0].updated.timestamp(), row[1]))
            moment = now()
            return [GameSummary(g.id, g.game, g.mode, seat, g.status, g.result, iso(g.created),
                                iso(g.updated), g.rated,
                                None if g.clock is None or g.status == OVER
                                else Clock.from_json(g.clock).message(moment))
                    for g, seat in rows]

    @staticmethod
    def _campaign_seats(db: Session, campaign_ids: set[str | None],
                        hashes: set[str]) -> list[tuple[GameRow, int]]:
        """The later games of these campaigns whose seats the token ``hashes`` hold (their
        hashes are kept in the campaign's row), with the seat."""
        found: dict[str, list[int]] = {}
        for c in db.scalars(select(CampaignRow).where(CampaignRow.id.in_(campaign_ids))):
            for game_id, held in zip(c.games, c.seats, strict=True):
                seats = [seat for seat, h in enumerate(held) if h in hashes]
                if seats:
                    found[game_id] = seats
        games: Iterable[GameRow] = (db.scalars(select(GameRow).where(GameRow.id.in_(found)))
                                    if found else [])
        return [(g, seat) for g in games for seat in found[g.id]]

    # ------------------------------------------------------------------ players

    def add_custom_scenario(self, scenario_id: str, game: str, text: str) -> None:
        """Store a checked custom scenario under a new id."""
        with self._transaction(f"scenario {scenario_id}: cannot store it") as db:
            db.execute(insert(CustomScenarioRow).values(
                id=scenario_id, game=game, text=text, created=now()))

    def custom_scenario(self, scenario_id: str) -> tuple[str, str] | None:
        """A stored custom scenario's game and text."""
        with self._failures(f"scenario {scenario_id}: cannot read it"), \
                Session(self.engine) as db:
            row = db.get(CustomScenarioRow, scenario_id)
            return None if row is None else (row.game, row.text)

    # ------------------------------------------------------------------ analyses

    def analysis(self, game_id: str) -> AnalysisData | None:
        """A finished game's stored analysis, done or under way."""
        with self._failures(f"game {game_id}: cannot read its analysis"), \
                Session(self.engine) as db:
            row = db.get(AnalysisRow, game_id)
            return None if row is None else AnalysisData(row.level, row.done, row.total,
                                                         row.judgements, _utc(row.updated))

    def claim_analysis(self, game_id: str, level: str, total: int,
                       abandoned_before: datetime) -> bool:
        """Mark a finished game's analysis as under way in this process: ``True`` when none
        was stored or the one stored was abandoned (under way and not written since
        ``abandoned_before``); ``False``, changing nothing, while another process makes it or
        once it is done (so of processes asking at once, one makes it)."""
        moment = now()
        with self._transaction(f"game {game_id}: cannot start its analysis") as db:
            taken = db.execute(update(ANALYSES).where(
                ANALYSES.c.game_id == game_id, ANALYSES.c.judgements.is_(None),
                ANALYSES.c.updated < abandoned_before).values(
                level=level, done=0, total=total, updated=moment)).rowcount
            if taken:
                return True
            # RETURNING, not rowcount: psycopg gives -1 for an INSERT that did nothing
            return db.execute(_dialect_insert(db, ANALYSES).values(
                game_id=game_id, level=level, done=0, total=total, judgements=None,
                updated=moment).on_conflict_do_nothing().returning(ANALYSES.c.game_id)
            ).first() is not None

    def analysis_progress(self, game_id: str, done: int,
                          judgements: list[dict[str, Any]] | None = None) -> None:
        """How far the analysis under way has come; with ``judgements``, its end."""
        with self._transaction(f"game {game_id}: cannot store its analysis") as db:
            db.execute(update(ANALYSES).where(ANALYSES.c.game_id == game_id,
                                              ANALYSES.c.judgements.is_(None))
                       .values(done=done, judgements=judgements, updated=now()))

    def drop_analysis(self, game_id: str) -> None:
        """Forget an analysis that failed under way (a later request starts it again)."""
        with self._transaction(f"game {game_id}: cannot drop its analysis") as db:
            db.execute(delete(ANALYSES).where(ANALYSES.c.game_id == game_id,
                                              ANALYSES.c.judgements.is_(None)))

    def create_player(self, player: Player, name_key: str, key_hash: str) -> None:
        """Store a new player with its first key; ``StorageConflict`` (nothing stored) when
        another player has the name ``name_key`` (the name casefolded)."""
        moment = now()
        with self._transaction(f"player {player.name!r}: cannot store it") as db:
            db.execute(insert(PLAYERS).values(id=player.id, name=player.name,
                                              name_key=name_key, created=moment))
            db.execute(insert(PLAYER_KEYS).values(key_hash=key_hash, player_id=player.id,
                                                  created=moment))

    def player_by_key(self, key_hash: str) -> Player | None:
        """The player one of whose keys has this hash."""
        with self._failures("cannot read the player"), self.engine.connect() as db:
            row = db.execute(select(PLAYERS.c.id, PLAYERS.c.name)
                             .join(PLAYER_KEYS, PLAYER_KEYS.c.player_id == PLAYERS.c.id)
                             .where(PLAYER_KEYS.c.key_hash == key_hash)).first()
        return Player(row.id, row.name) if row is not None else None

    def add_transfer(self, player_id: str, code_hash: str, expires: datetime) -> None:
        """A transfer code for the player, good until ``expires``; the expired ones of every
        player go."""
        with self._transaction("cannot store the transfer code") as db:
            db.execute(delete(TRANSFERS).where(TRANSFERS.c.expires < now()))
            db.execute(insert(TRANSFERS).values(code_hash=code_hash, player_id=player_id,
                                                expires=_utc(expires)))

    def redeem_transfer(self, code_hash: str, key_hash: str) -> Player | None:
        """Use a transfer code: its player gains the key ``key_hash``. ``None`` (nothing
        written) when there is no such code, or it expired, or it was used (the code is gone
        once used: of two redeeming it at once, one deletes it and the other finds it
        gone)."""
        try:
            with self._transaction("cannot use the transfer code") as db:
                row = db.execute(select(TRANSFERS.c.player_id, TRANSFERS.c.expires)
                                 .where(TRANSFERS.c.code_hash == code_hash)).first()
                if row is None or _utc(row.expires) <= now():
                    raise _RolledBack
                if not db.execute(delete(TRANSFERS)
                                  .where(TRANSFERS.c.code_hash == code_hash)).rowcount:
                    raise _RolledBack
                db.execute(insert(PLAYER_KEYS).values(key_hash=key_hash,
                                                      player_id=row.player_id, created=now()))
                player = db.execute(select(PLAYERS.c.id, PLAYERS.c.name)
                                    .where(PLAYERS.c.id == row.player_id)).one()
        except _RolledBack:
            return None
        return Player(player.id, player.name)

    def profile(self, player_id: str, games: int) -> Profile | None:
        """The player's ratings and its ``games`` latest games."""
        with self._failures(f"player {player_id}: cannot read it"), Session(self.engine) as db:
            row = db.get(PlayerRow, player_id)
            if row is None:
                return None
            held = db.scalars(select(RatingRow).where(RatingRow.player_id == player_id)
                              .order_by(RatingRow.game))
            played = db.execute(select(GameRow, SeatRow.seat)
                                .join(SeatRow, SeatRow.game_id == GameRow.id)
                                .where(SeatRow.player_id == player_id)
                                .order_by(GameRow.updated.desc(), GameRow.id).limit(games))
            return Profile(
                Player(row.id, row.name),
                {r.game: Rating(r.rating, r.deviation, r.volatility, r.games) for r in held},
                [GameSummary(g.id, g.game, g.mode, seat, g.status, g.result, iso(g.created),
                             iso(g.updated), g.rated) for g, seat in played])

    def leaderboard(self, game: str, limit: int) -> list[Standing]:
        """The ``limit`` best-rated players of ``game``, best first (a tie: more games, then
        the name)."""
        with self._failures(f"cannot read the leaderboard of {game}"), \
                self.engine.connect() as db:
            rows = db.execute(select(PLAYERS.c.id, PLAYERS.c.name, RATINGS.c.rating,
                                     RATINGS.c.deviation, RATINGS.c.games)
                              .join(RATINGS, RATINGS.c.player_id == PLAYERS.c.id)
                              .where(RATINGS.c.game == game)
                              .order_by(RATINGS.c.rating.desc(), RATINGS.c.games.desc(),
                                        PLAYERS.c.name_key)
                              .limit(limit))
            return [Standing(r.id, r.name, r.rating, r.deviation, r.games) for r in rows]
