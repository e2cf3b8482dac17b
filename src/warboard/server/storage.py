"""Games, seats and events in a SQL database through SQLAlchemy 2 (a SQLite file or PostgreSQL).

A game is stored as its settings (``games``), who holds each seat (``seats``: a human's token only
as its sha256, or an AI level) and its full record (``events``: every decision and chance outcome,
in order), so it is rebuilt exactly by replaying its events. Each write is one transaction; the
primary key (game, index) of ``events`` makes a second writer of the same game fail instead of
forking it, and a finished game takes no more events. The calls are synchronous: the server runs
them in a worker thread.

On PostgreSQL every write also sends a notification on the channel ``warboard_games`` (``NOTIFY``
in the same transaction, so it is delivered only once the write is committed, and never for one
rolled back): the game's id, its new version and the writing ``Storage``'s ``origin``. The other
server processes on the same database listen to it (``warboard.server.cluster``).
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    DateTime,
    ForeignKey,
    Integer,
    String,
    UniqueConstraint,
    create_engine,
    func,
    select,
    text,
    update,
)
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, IntegrityError, SQLAlchemyError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

from warboard.core.errors import WarboardError


class StorageError(WarboardError):
    """The database cannot be opened or used."""


class StorageConflict(StorageError):
    """A write clashed with what is stored (another process changed the game)."""


CHANNEL = "warboard_games"  # PostgreSQL's notification channel of the games' changes
OVER = "over"  # the status of a finished game: it takes no more events
SCHEMA_LOCK = int.from_bytes(b"warboard", "big")  # PostgreSQL advisory lock: creating tables


def notice_payload(game_id: str, origin: str, version: int | None = None,
                   thinking: int | None = None) -> str:
    """A notification's text: which game changed, and who changed it (``origin``).

    ``version``: its events are stored up to there (``None``: its seats or status changed);
    ``thinking``: the computer started a decision for that seat (nothing was stored).
    """
    data: dict[str, Any] = {"game": game_id, "origin": origin}
    if version is not None:
        data["version"] = version
    if thinking is not None:
        data["thinking"] = thinking
    return json.dumps(data, separators=(",", ":"))


class Base(DeclarativeBase):
    pass


class GameRow(Base):
    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    mode: Mapped[str] = mapped_column(String(16))
    seed: Mapped[int] = mapped_column(BigInteger)
    status: Mapped[str] = mapped_column(String(16))
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class SeatRow(Base):
    __tablename__ = "seats"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))  # "human" or "ai"
    ai_level: Mapped[str | None] = mapped_column(String(16), nullable=True)
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, unique=True)
    joined: Mapped[bool] = mapped_column(default=False)  # its token has been used


class EventRow(Base):
    __tablename__ = "events"
    __table_args__ = (UniqueConstraint("game_id", "request_id"),)

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    index: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)  # None: chance
    action: Mapped[dict[str, Any]] = mapped_column(JSON)
    request_id: Mapped[str | None] = mapped_column(String(100), nullable=True)


@dataclass(frozen=True)
class SeatData:
    seat: int
    kind: str
    ai_level: str | None = None
    token_hash: str | None = None
    joined: bool = False


@dataclass(frozen=True)
class EventData:
    """One record event; ``request_id`` is the client's id of the message that made it."""

    seat: int | None
    action: dict[str, Any]
    request_id: str | None = None


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


def _shown(url: str) -> str:
    """A database URL fit for messages: its password hidden."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except ArgumentError:
        return repr(url)


def now() -> datetime:
    return datetime.now(UTC)


def iso(moment: datetime) -> str:
    """ISO 8601 in UTC (SQLite gives back naive datetimes: they are UTC)."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).isoformat(timespec="seconds")


class Storage:
    """The database behind the server; creates its tables when they are missing."""

    def __init__(self, url: str) -> None:
        try:
            self.engine = create_engine(url)
            with self.engine.begin() as db:
                if db.dialect.name == "postgresql":
                    # server processes starting together create the tables one at a time
                    db.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": SCHEMA_LOCK})
                Base.metadata.create_all(db)
        except ModuleNotFoundError as exc:
            hint = (" (install the 'postgres' extra: pip install 'warboard[postgres]')"
                    if "psycopg" in str(exc) else "")
            raise StorageError(f"cannot open the database {_shown(url)}: {exc}{hint}") from exc
        except (SQLAlchemyError, ValueError) as exc:
            reason = exc.orig if isinstance(exc, DBAPIError) and exc.orig else exc
            raise StorageError(f"cannot open the database {_shown(url)}: {reason}") from exc
        self.origin = secrets.token_hex(8)  # this Storage's name in its notifications
        self.notifies = self.engine.dialect.name == "postgresql"

    def describe(self) -> str:
        """The database URL with any password hidden."""
        return self.engine.url.render_as_string(hide_password=True)

    def close(self) -> None:
        self.engine.dispose()

    def create_game(self, game: GameData) -> None:
        """Store a new game with its seats and first events (one transaction)."""
        with Session(self.engine) as db, db.begin():
            db.add(GameRow(id=game.id, game=game.game, options=game.options, mode=game.mode,
                           seed=game.seed, status=game.status, result=game.result,
                           created=game.created, updated=game.updated))
            db.flush()  # the game row first: seats and events refer to it
            db.add_all(SeatRow(game_id=game.id, seat=s.seat, kind=s.kind, ai_level=s.ai_level,
                               token_hash=s.token_hash, joined=s.joined) for s in game.seats)
            db.add_all(self._event_rows(game.id, 0, game.events))

    def load_game(self, game_id: str, first_event: int = 0) -> GameData | None:
        """A stored game, with its events from index ``first_event`` on (all by default)."""
        with Session(self.engine) as db:
            row = db.get(GameRow, game_id)
            if row is None:
                return None
            seats = db.scalars(select(SeatRow).where(SeatRow.game_id == game_id)
                               .order_by(SeatRow.seat))
            events = db.scalars(select(EventRow).where(EventRow.game_id == game_id,
                                                       EventRow.index >= first_event)
                                .order_by(EventRow.index))
            return GameData(
                id=row.id, game=row.game, options=dict(row.options), mode=row.mode,
                seed=row.seed, status=row.status, result=row.result, created=row.created,
                updated=row.updated,
                seats=[SeatData(s.seat, s.kind, s.ai_level, s.token_hash, s.joined)
                       for s in seats],
                events=[EventData(e.seat, e.action, e.request_id) for e in events])

    def append_events(self, game_id: str, first_index: int, events: Sequence[EventData],
                      status: str, result: dict[str, Any] | None) -> None:
        """Add events ``first_index``, ``first_index + 1``, ... in one transaction, with the
        game's result and its status when it is now ``over``; ``StorageConflict`` (and nothing
        written) when an index or a request id is taken already, or the game is over.

        The game's row is updated first: it stays locked until the commit, so two writers of
        one game queue there, and the second finds the first one's events (or its end)."""
        values: dict[str, Any] = {"result": result, "updated": now()}
        if status == OVER:  # a join, not a play, ends the waiting (update_game)
            values["status"] = OVER
        try:
            with Session(self.engine) as db, db.begin():
                running = db.execute(update(GameRow)
                                     .where(GameRow.id == game_id, GameRow.status != OVER)
                                     .values(**values)).rowcount
                if not running:
                    raise StorageConflict(f"game {game_id}: the game is over (or gone); "
                                          f"event {first_index} is not stored")
                self._check_free(db, game_id, first_index, events)
                db.add_all(self._event_rows(game_id, first_index, events))
                db.flush()
                self._notify(db, game_id, first_index + len(events))
        except IntegrityError as exc:
            raise StorageConflict(f"game {game_id}: event {first_index} is stored already "
                                  "(changed by another server process?)") from exc

    def update_game(self, game_id: str, status: str, result: dict[str, Any] | None,
                    joined_seat: int | None = None) -> bool:
        """Set a game's status and result, and mark a seat as joined. A finished game keeps
        its status and result: then only the seat is marked, and the answer is ``False``."""
        with Session(self.engine) as db, db.begin():
            changed = db.execute(update(GameRow)
                                 .where(GameRow.id == game_id, GameRow.status != OVER)
                                 .values(status=status, result=result, updated=now())).rowcount
            if joined_seat is not None:
                db.execute(update(SeatRow)
                           .where(SeatRow.game_id == game_id, SeatRow.seat == joined_seat)
                           .values(joined=True))
            self._notify(db, game_id)
        return bool(changed)

    @staticmethod
    def _check_free(db: Session, game_id: str, first_index: int,
                    events: Sequence[EventData]) -> None:
        """``StorageConflict`` unless the events go right after the stored ones, with request
        ids not used yet (the primary key and the unique request ids would refuse them too, but
        later and less clearly)."""
        stored = db.scalar(select(func.count()).select_from(EventRow)
                           .where(EventRow.game_id == game_id))
        if stored != first_index:
            raise StorageConflict(f"game {game_id}: {stored} events are stored, so event "
                                  f"{first_index} cannot be added (changed by another server "
                                  "process?)")
        ids = [e.request_id for e in events if e.request_id is not None]
        if ids and db.scalar(select(EventRow.index).where(EventRow.game_id == game_id,
                                                          EventRow.request_id.in_(ids))
                             .limit(1)) is not None:
            raise StorageConflict(f"game {game_id}: request id {ids[0]!r} is stored already")

    def _notify(self, db: Session, game_id: str, version: int | None = None) -> None:
        """Tell the other server processes, once this transaction commits (PostgreSQL)."""
        if self.notifies:
            db.execute(text("SELECT pg_notify(:channel, :payload)"),
                       {"channel": CHANNEL,
                        "payload": notice_payload(game_id, self.origin, version)})

    def games_for_tokens(self, token_hashes: Iterable[str]) -> list[GameSummary]:
        """The games whose seats these token hashes hold, the most recently updated first."""
        hashes = list(token_hashes)
        if not hashes:
            return []
        with Session(self.engine) as db:
            rows = db.execute(select(GameRow, SeatRow.seat)
                              .join(SeatRow, SeatRow.game_id == GameRow.id)
                              .where(SeatRow.token_hash.in_(hashes))
                              .order_by(GameRow.updated.desc(), SeatRow.seat))
            return [GameSummary(g.id, g.game, g.mode, seat, g.status, g.result, iso(g.created),
                                iso(g.updated)) for g, seat in rows]

    @staticmethod
    def _event_rows(game_id: str, first_index: int,
                    events: Sequence[EventData]) -> list[EventRow]:
        return [EventRow(game_id=game_id, index=first_index + i, seat=e.seat, action=e.action,
                         request_id=e.request_id) for i, e in enumerate(events)]
