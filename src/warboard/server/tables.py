"""Live games: a ``Table`` holds one game's true state and is the only way to change it.

A table checks every message (the seat's token and turn, the version the client saw, a fresh
request id, then the engine's own rules), draws the chance outcomes the play triggers, commits
all of them to storage, and only then changes its state and tells each connection what its own
seat may see: ``observation(seat)``, the legal actions when that seat is to act, and the game
log narrated from that seat's views (the other seat's draws and burials stay hidden). The
computer's turns follow on their own. ``Tables`` creates games and rebuilds a stored game on
first access by replaying its events.

Several server processes may serve one PostgreSQL database (``warboard.server.cluster``): a
table then catches up with what the others stored when they say so, or when its own write finds
the game moved on (the play is refused with a "refresh" error and the seat is sent the current
state); a process decides for the computer only while it holds the game's claim.

Chance is drawn from ``random.Random(f"{seed}:{index}")`` for the event at ``index`` (the
engine never draws by itself), and each computer decision from
``random.Random(f"{seed}:ai:{version}")``, so a restarted server goes on exactly as the old one
would have.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any, Protocol

from warboard.core.errors import IllegalActionError, RecordError
from warboard.core.protocol import CHANCE, Action, Game, State, sample_chance
from warboard.core.record import Recorder, export_for_seat
from warboard.core.registry import make_game
from warboard.server import tokens
from warboard.server.ai_runner import AIRunner
from warboard.server.cluster import Notice, Peers
from warboard.server.messages import (
    CreateGame,
    GameCreated,
    Refused,
    StateMessage,
    ThinkingMessage,
    error_message,
)
from warboard.server.storage import (
    EventData,
    GameData,
    GameSummary,
    SeatData,
    Storage,
    StorageConflict,
    StorageError,
    iso,
    now,
)
from warboard.terminal.session import Session

log = logging.getLogger("warboard.server")

HUMAN, AI = "human", "ai"
WAITING, PLAYING, OVER = "waiting", "playing", "over"
READERS = (0, 1, None)  # whose log a table keeps: each seat's, and the public one
MAX_LISTED_TOKENS = 100
MAX_IDLE_TABLES = 256  # games kept in memory with nobody watching (rebuilt when asked again)
IDLE_SECONDS = 60.0  # a table asked for more recently than this is in use, never forgotten


class Subscriber(Protocol):
    """A connection watching a table as ``seat`` (``None``: a spectator)."""

    seat: int | None

    def send(self, message: dict[str, Any]) -> None:
        """Queue ``message`` for the client; must not block."""
        ...


def chance_events(game: Game, state: State, seed: int,
                  first_index: int) -> list[tuple[Action, EventData]]:
    """Draw and apply to ``state`` the chance outcomes due now, until a seat is to act or the
    game is over; the event at index ``i`` is drawn from ``random.Random(f"{seed}:{i}")``."""
    events: list[tuple[Action, EventData]] = []
    while state.current_player() == CHANCE:
        outcome = sample_chance(state, random.Random(f"{seed}:{first_index + len(events)}"))
        events.append((outcome, EventData(None, game.action_to_json(outcome))))
        state.apply(outcome)
    return events


@dataclass
class _Last:
    """The last decision: who made it, and which readers may learn it."""

    seat: int
    action: dict[str, Any]
    shown: dict[int | None, bool]


class Table:
    """One game in play (built from its stored data by replaying the events)."""

    def __init__(self, data: GameData, storage: Storage, ai: AIRunner,
                 peers: Peers | None = None) -> None:
        self.id = data.id
        self.mode = data.mode
        self.seed = data.seed
        self.game: Game = make_game(data.game, data.options)
        self.seats = {s.seat: s for s in data.seats}
        self.abandoned = data.result if data.result and data.result.get("abandoned") else None
        self.storage = storage
        self.ai = ai
        self.peers = peers if peers is not None else Peers()
        self.session = Session(self.game, data.seed, self.players(), READERS)
        self.session.recorder.record.created = iso(data.created)
        self.request_ids: dict[str, int] = {}
        self.last: _Last | None = None
        self.subscribers: set[Subscriber] = set()
        self.lock = asyncio.Lock()
        self._ai_task: asyncio.Task[None] | None = None
        self._refresh_task: asyncio.Task[None] | None = None
        self._stale = False  # another process changed the game since the last catch-up began
        self.touched = time.monotonic()  # when it was last asked for
        for event in data.events:
            self._replay(event)

    # ------------------------------------------------------------------ reading

    @property
    def state(self) -> State:
        return self.session.state

    @property
    def version(self) -> int:
        """The number of events so far: it grows with every accepted play."""
        return len(self.session.events)

    @property
    def status(self) -> str:
        if self.abandoned is not None or self.state.is_terminal():
            return OVER
        if any(s.kind == HUMAN and not s.joined for s in self.seats.values()):
            return WAITING
        return PLAYING

    @property
    def result(self) -> dict[str, Any] | None:
        return self.abandoned or Recorder.result_json(self.state)

    def players(self) -> list[str]:
        """Who holds each seat: ``human`` or ``ai:LEVEL``."""
        return [HUMAN if self.seats[s].kind == HUMAN else f"ai:{self.seats[s].ai_level}"
                for s in (0, 1)]

    def seat_of(self, token: str | None) -> int | None:
        """The seat ``token`` holds here (``None`` for no token: a spectator)."""
        if token is None or token == "":
            return None
        digest = tokens.hash_token(token)
        for seat in self.seats.values():
            if seat.token_hash == digest:
                return seat.seat
        raise Refused("this token holds no seat in this game", 403)

    def snapshot(self, seat: int | None) -> StateMessage:
        """The game as ``seat`` may see it (a spectator: ``None``)."""
        state = self.state
        to_act = (seat is not None and self.status != OVER
                  and state.current_player() == seat)
        last = None
        if self.last is not None and self.last.shown[seat]:
            last = {"seat": self.last.seat, "action": self.last.action}
        return StateMessage(
            id=self.id, game=self.game.name, options=dict(self.game.options), mode=self.mode,
            seat=seat, version=self.version, status=self.status, result=self.result,
            players=self.players(), view=state.observation(seat),
            legal=[self.game.action_to_json(a) for a in state.legal_actions()] if to_act else [],
            log=self.session.log(seat, last=None), last=last)

    def record_for(self, seat: int) -> dict[str, Any]:
        """The record of a finished game as ``seat`` could know it (docs/records.md)."""
        if self.status != OVER:
            raise Refused("the record is available once the game is over", 409)
        full = self.session.recorder.record
        return export_for_seat(replace(full, result=self.result), seat).to_json()

    # ------------------------------------------------------------------ connections

    def subscribe(self, subscriber: Subscriber) -> None:
        """Watch the table; the current state is sent first."""
        self.subscribers.add(subscriber)
        subscriber.send(self._message(subscriber.seat))

    def unsubscribe(self, subscriber: Subscriber) -> None:
        self.subscribers.discard(subscriber)

    def _message(self, seat: int | None) -> dict[str, Any]:
        return self.snapshot(seat).model_dump(mode="json")

    def _broadcast(self) -> None:
        messages: dict[int | None, dict[str, Any]] = {}
        for sub in list(self.subscribers):
            if sub.seat not in messages:
                messages[sub.seat] = self._message(sub.seat)
            sub.send(messages[sub.seat])

    def _tell_all(self, message: dict[str, Any]) -> None:
        for sub in list(self.subscribers):
            sub.send(message)

    # ------------------------------------------------------------------ changing the game

    async def join(self, seat: int) -> None:
        """A human seat's token was used: its player is here."""
        info = self.seats[seat]
        if info.joined:
            return
        async with self.lock:
            if self.seats[seat].joined:
                return
            self.seats[seat] = replace(info, joined=True)
            await asyncio.to_thread(self.storage.update_game, self.id, self.status, self.result,
                                    seat)
            self._broadcast()

    async def play(self, seat: int | None, action_json: dict[str, Any], version: int,
                   request_id: str) -> None:
        """A seat's play; ``Refused`` (and nothing changed) when it may not be made."""
        async with self.lock:
            if seat is None:
                raise Refused("spectators cannot play: open the game with a seat's token", 403)
            if request_id in self.request_ids:
                raise Refused(f"request_id {request_id!r} was used already (for event "
                              f"{self.request_ids[request_id]}); the play is not made again")
            if self.status == OVER:
                raise Refused("the game is over", 409)
            if version != self.version:
                raise Refused(f"stale version {version}: the game is at version {self.version} "
                              "(something happened since you looked); nothing was played", 409)
            if self.state.current_player() != seat:
                raise Refused("it is not your turn", 409)
            try:
                action = self.game.action_from_json(action_json, self.state)
                await self._commit(seat, action, request_id)
            except IllegalActionError as exc:
                raise Refused(f"illegal play: {exc}", 422) from None
            except StorageConflict as exc:
                if not self.peers.shared:
                    log.error("game %s: %s", self.id, exc)
                    raise Refused(f"the play could not be stored, nothing changed: {exc}",
                                  503) from None
                await self._moved_on(request_id)
            except StorageError as exc:
                log.error("game %s: %s", self.id, exc)
                raise Refused(f"the play could not be stored, nothing changed: {exc}",
                              503) from None
        self.start_ai()

    async def resign(self, seat: int | None) -> None:
        async with self.lock:
            if seat is None:
                raise Refused("spectators cannot resign", 403)
            if self.status == OVER:
                raise Refused("the game is over", 409)
            result = {"abandoned": True, "by": seat, "how": "resigned"}
            if not await asyncio.to_thread(self.storage.update_game, self.id, OVER, result):
                await self._catch_up()  # it ended in another server process
                raise Refused("the game is over", 409)
            self.abandoned = result
            self._broadcast()

    async def _moved_on(self, request_id: str) -> None:
        """Another server process stored a play first: catch up, and refuse this one. Call
        with the lock held."""
        try:
            await self._catch_up()
        except StorageError as exc:
            log.error("game %s: %s", self.id, exc)
            raise Refused("the game moved on in another server process and cannot be read "
                          "now; nothing was played: refresh", 503) from None
        if request_id in self.request_ids:
            raise Refused(f"request_id {request_id!r} was used already (for event "
                          f"{self.request_ids[request_id]}); the play is not made again")
        if self.status == OVER:
            raise Refused("the game is over (it ended in another server process)", 409)
        raise Refused("the game moved on: another server process stored a play first, so "
                      f"nothing was played; refresh (the game is at version {self.version})",
                      409)

    async def _commit(self, seat: int, action: Action, request_id: str | None) -> None:
        """Play ``action`` for ``seat`` with the chance outcomes that follow it: checked on a
        copy, stored, and only then applied and broadcast. Call with the lock held."""
        after = self.state.clone()
        after.apply(action)  # raises IllegalActionError, and nothing is changed
        batch = [(action, EventData(seat, self.game.action_to_json(action), request_id)),
                 *chance_events(self.game, after, self.seed, self.version + 1)]
        status = OVER if after.is_terminal() else self.status
        await asyncio.to_thread(self.storage.append_events, self.id, self.version,
                                [event for _, event in batch], status,
                                Recorder.result_json(after))
        for outcome, event in batch:
            self._apply(outcome, event)
        self._broadcast()

    def _replay(self, event: EventData) -> None:
        """Apply an event read from storage, checking that it belongs to the seat to act."""
        action = self.game.action_from_json(event.action, self.state)
        expected = self.state.current_player()
        if event.seat != (None if expected == CHANCE else expected):
            raise RecordError(f"game {self.id}: event {self.version} was stored for seat "
                              f"{event.seat!r} but does not belong to it")
        self._apply(action, event)

    def _apply(self, action: Action, event: EventData) -> None:
        """Apply a stored event to the live state, its log and the last decision."""
        if event.seat is not None:
            visible_to = getattr(self.game, "visible_to", None)
            shown = {s: visible_to is None or visible_to(self.state, action, s) for s in (0, 1)}
            self.last = _Last(event.seat, event.action, {**shown, None: shown[0] and shown[1]})
        if event.request_id is not None:
            self.request_ids[event.request_id] = self.version
        self.session.apply(action)

    # ------------------------------------------------------------------ other processes

    async def _catch_up(self) -> bool:
        """Take in what other server processes stored since this table last read the game: new
        events (each decision with its chance outcomes sent as its own state, as if played
        here), joined seats, a resignation. Call with the lock held; ``True`` if anything
        changed."""
        data = await asyncio.to_thread(self.storage.load_game, self.id, self.version)
        if data is None:
            return False
        changed = False
        for seat in data.seats:
            if seat.joined and not self.seats[seat.seat].joined:
                self.seats[seat.seat] = seat
                changed = True
        for event in data.events:
            if changed and event.seat is not None:
                self._broadcast()  # the previous decision
            self._replay(event)
            changed = True
        if self.abandoned is None and data.result and data.result.get("abandoned"):
            self.abandoned = data.result
            changed = True
        if changed:
            self._broadcast()
        return changed

    async def refresh(self) -> bool:
        """Catch up with the database now (``True`` if anything changed)."""
        async with self.lock:
            return await self._catch_up()

    def request_refresh(self) -> None:
        """Another process changed the game: catch up soon. Notices that come while a catch-up
        runs are served by one more catch-up."""
        self._stale = True
        if self._refresh_task is None or self._refresh_task.done():
            self._refresh_task = asyncio.get_running_loop().create_task(self._refreshing())

    async def _refreshing(self) -> None:
        while self._stale:
            self._stale = False
            try:
                await self.refresh()
            except Exception:
                log.exception("game %s: cannot catch up with the database", self.id)
                return

    def notice(self, notice: Notice) -> None:
        """What another process told about this game."""
        if notice.thinking is not None:
            self._tell_all(ThinkingMessage(seat=notice.thinking).model_dump(mode="json"))
        elif notice.version is None or notice.version > self.version:
            self.request_refresh()

    # ------------------------------------------------------------------ the computer's turns

    def _ai_seat(self) -> int | None:
        """The computer's seat when it is to act now."""
        seat = self.state.current_player()
        if self.status == OVER or seat not in self.seats or self.seats[seat].kind != AI:
            return None
        return seat

    def start_ai(self) -> None:
        """Let the computer play while it is to act (once at a time)."""
        if self._ai_seat() is not None and (self._ai_task is None or self._ai_task.done()):
            self._ai_task = asyncio.get_running_loop().create_task(self._ai_turns())

    async def _ai_turns(self) -> None:
        """Decide for the computer while it is to act, holding the game's claim; when another
        server process holds it, that process plays and tells."""
        try:
            while self._ai_seat() is not None:
                if not await self.peers.claim_ai(self.id):
                    return
                try:
                    if self.peers.shared:
                        await self.refresh()  # the claim's last holder may have played
                    played = await self._ai_moves()
                finally:
                    await self.peers.release_ai(self.id)
                if not played:
                    return
                if self.peers.shared:
                    # a play stored elsewhere while the claim was held (its process found the
                    # claim taken and left the computer's reply to this one)
                    await self.refresh()
        except Exception:
            log.exception("game %s: the computer's turns stopped", self.id)

    async def _ai_moves(self) -> bool:
        """The computer's moves until it is not to act; ``False`` if it failed."""
        while (seat := self._ai_seat()) is not None:
            version = self.version
            self._tell_all(ThinkingMessage(seat=seat).model_dump(mode="json"))
            await self.peers.thinking(self.id, seat)
            try:
                action = await self.ai.decide(self.game, self.state.clone(),
                                              self.seats[seat].ai_level or "medium",
                                              f"{self.seed}:ai:{version}")
                async with self.lock:
                    if self.version == version and self._ai_seat() == seat:
                        try:
                            await self._commit(seat, action, None)
                        except StorageConflict as exc:
                            if not self.peers.shared:
                                raise
                            log.warning("game %s: the computer's move was not stored (%s); "
                                        "catching up", self.id, exc)
                            await self._catch_up()  # it moved on elsewhere: think again
            except Exception as exc:
                log.exception("game %s: the computer failed to play", self.id)
                self._tell_all(error_message(f"the computer player failed ({exc}); reload the "
                                             "game to let it try again"))
                return False
        return True

    def idle(self) -> bool:
        """Nobody is watching or has just asked for it, and the computer is not thinking: it
        may leave memory."""
        return (not self.subscribers and time.monotonic() - self.touched > IDLE_SECONDS
                and all(t is None or t.done() for t in (self._ai_task, self._refresh_task)))

    async def close(self) -> None:
        for task in (self._ai_task, self._refresh_task):
            if task is not None:
                task.cancel()


class Tables:
    """Every live table, by game id: creates games and loads stored ones on first access."""

    def __init__(self, storage: Storage, ai: AIRunner, peers: Peers | None = None) -> None:
        self.storage = storage
        self.ai = ai
        self.peers = peers if peers is not None else Peers()
        self._tables: OrderedDict[str, Table] = OrderedDict()  # the least recently used first
        self._loading = asyncio.Lock()

    async def create(self, request: CreateGame) -> GameCreated:
        """A new game: its seats, its opening chance events, stored before it is answered."""
        try:
            game = make_game(request.game, request.options)
        except ValueError as exc:
            raise Refused(str(exc), 422) from None
        mine, other = request.seat, 1 - request.seat
        seat_tokens = {mine: tokens.new_token()}
        if request.mode != "ai":
            seat_tokens[other] = tokens.new_token()
        seats = [SeatData(s, HUMAN, None, tokens.hash_token(seat_tokens[s]),
                          joined=s == mine or request.mode == "hotseat") if s in seat_tokens
                 else SeatData(s, AI, request.ai_level, None, joined=True) for s in (0, 1)]
        seed = tokens.new_seed()
        events = [event for _, event in chance_events(game, game.new_initial_state(), seed, 0)]
        moment = now()
        data = GameData(id=tokens.new_game_id(), game=game.name, options=dict(game.options),
                        mode=request.mode, seed=seed, status=PLAYING, result=None,
                        created=moment, updated=moment, seats=seats, events=events)
        table = Table(data, self.storage, self.ai, self.peers)
        data.status = table.status
        await asyncio.to_thread(self.storage.create_game, data)
        self._keep(table)
        table.start_ai()
        link = f"/play/{table.id}#token="
        return GameCreated(
            id=table.id, game=game.name, mode=request.mode, seat=mine, token=seat_tokens[mine],
            tokens=({str(s): t for s, t in seat_tokens.items()}
                    if request.mode == "hotseat" else None),
            invite=link + seat_tokens[other] if request.mode == "friend" else None,
            url=link + seat_tokens[mine])

    async def get(self, game_id: str) -> Table:
        """The live table of ``game_id``, rebuilt from storage the first time. The computer
        resumes here if it is to act (after a restart, or after it failed)."""
        table = self._tables.get(game_id)
        if table is None:
            if not tokens.is_game_id(game_id):
                raise Refused(f"no game {game_id[:40]!r}", 404)
            async with self._loading:
                table = self._tables.get(game_id)
                if table is None:
                    data = await asyncio.to_thread(self.storage.load_game, game_id)
                    if data is None:
                        raise Refused(f"no game {game_id!r}", 404)
                    table = Table(data, self.storage, self.ai, self.peers)
                    if self.peers.shared:
                        # a change stored while it was read was announced before the table
                        # could hear it
                        table.request_refresh()
        self._keep(table)
        table.start_ai()
        return table

    def _keep(self, table: Table) -> None:
        """Remember ``table`` as the most recently used; forget the oldest idle ones."""
        table.touched = time.monotonic()
        self._tables[table.id] = table
        self._tables.move_to_end(table.id)
        idle = [t.id for t in self._tables.values() if t.idle()]
        for game_id in idle[:max(0, len(idle) - MAX_IDLE_TABLES)]:
            del self._tables[game_id]

    async def list_for_tokens(self, seat_tokens: Iterable[str]) -> list[GameSummary]:
        hashes = [tokens.hash_token(t) for t in seat_tokens if t][:MAX_LISTED_TOKENS]
        rows = await asyncio.to_thread(self.storage.games_for_tokens, hashes)
        return rows

    async def start(self) -> None:
        """Listen to the other server processes (when there can be any)."""
        await self.peers.start(self._notice, self._resync)

    def _notice(self, notice: Notice) -> None:
        table = self._tables.get(notice.game)
        if table is not None:  # a game not in memory is read afresh when asked for
            table.notice(notice)

    def _resync(self) -> None:
        for table in self._tables.values():
            table.request_refresh()

    async def close(self) -> None:
        for table in self._tables.values():
            await table.close()
        await self.peers.close()
