"""Games, seats and events in a SQL database through SQLAlchemy 2 (a SQLite file or PostgreSQL).

A game is stored as its settings (``games``), who holds each seat (``seats``: a human's token only
as its sha256, or an AI level) and its full record (``events``: every decision and chance outcome,
in order), so it is rebuilt exactly by replaying its events. Each write is one transaction; the
primary key (game, index) of ``events`` makes a second writer of the same game fail instead of
forking it. The calls are synchronous: the server runs them in a worker thread.
"""

from __future__ import annotations

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
    select,
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
            Base.metadata.create_all(self.engine)
        except ModuleNotFoundError as exc:
            hint = (" (install the 'postgres' extra: pip install 'warboard[postgres]')"
                    if "psycopg" in str(exc) else "")
            raise StorageError(f"cannot open the database {_shown(url)}: {exc}{hint}") from exc
        except (SQLAlchemyError, ValueError) as exc:
            reason = exc.orig if isinstance(exc, DBAPIError) and exc.orig else exc
            raise StorageError(f"cannot open the database {_shown(url)}: {reason}") from exc

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

    def load_game(self, game_id: str) -> GameData | None:
        with Session(self.engine) as db:
            row = db.get(GameRow, game_id)
            if row is None:
                return None
            seats = db.scalars(select(SeatRow).where(SeatRow.game_id == game_id)
                               .order_by(SeatRow.seat))
            events = db.scalars(select(EventRow).where(EventRow.game_id == game_id)
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
        """Add events ``first_index``, ``first_index + 1``, ... and the game's new status, in
        one transaction; ``StorageConflict`` (and nothing written) when an index or a request id
        is taken already."""
        try:
            with Session(self.engine) as db, db.begin():
                db.add_all(self._event_rows(game_id, first_index, events))
                db.execute(update(GameRow).where(GameRow.id == game_id)
                           .values(status=status, result=result, updated=now()))
        except IntegrityError as exc:
            raise StorageConflict(f"game {game_id}: event {first_index} is stored already "
                                  "(changed by another server process?)") from exc

    def update_game(self, game_id: str, status: str, result: dict[str, Any] | None,
                    joined_seat: int | None = None) -> None:
        """Set a game's status and result, and mark a seat as joined."""
        with Session(self.engine) as db, db.begin():
            db.execute(update(GameRow).where(GameRow.id == game_id)
                       .values(status=status, result=result, updated=now()))
            if joined_seat is not None:
                db.execute(update(SeatRow)
                           .where(SeatRow.game_id == game_id, SeatRow.seat == joined_seat)
                           .values(joined=True))

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
