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
from collections.abc import Awaitable, Callable, Coroutine, Iterable
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any, NoReturn, Protocol, TypeVar

from warboard.ai.levels import hint_level, levels_for
from warboard.core.errors import IllegalActionError, RecordError, WarboardError
from warboard.core.i18n import Msg, msg
from warboard.core.protocol import CHANCE, Action, Game, State, sample_chance
from warboard.core.record import Recorder, export_for_seat
from warboard.core.registry import listed_options, make_game
from warboard.core.replay import seen_by, steps_as_seen
from warboard.core.results import end_words
from warboard.core.session import Session
from warboard.server import campaigns, tokens
from warboard.server.ai_runner import AIRunner
from warboard.server.chat import CHAT_MODES, Chat, clean
from warboard.server.clocks import REAL, Clock, ClockError, iso_ms, ruled, time_loss
from warboard.server.cluster import Notice, Peers
from warboard.server.logsent import SentLog
from warboard.server.messages import (
    CreateGame,
    GameCreated,
    HintMessage,
    Refused,
    SpectatorsMessage,
    ThinkingMessage,
    TooMany,
    encode,
    error_message,
    no_such,
    unavailable,
)
from warboard.server.metrics import Metrics
from warboard.server.players import Player, Unauthorized
from warboard.server.settings import ServerSettings
from warboard.server.spectators import Audience
from warboard.server.storage import (
    CampaignData,
    CampaignStep,
    ChatLine,
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

log = logging.getLogger("warboard.server")

HUMAN, AI = "human", "ai"
UNDO = "undo"  # the action key of a stored undo mark: {"undo": n}
WAITING, PLAYING, OVER = "waiting", "playing", "over"
MAX_LISTED_TOKENS = 100
MAX_IDLE_TABLES = 256  # games kept in memory with nobody watching (rebuilt when asked again)
IDLE_SECONDS = 60.0  # a table asked for more recently than this is in use, never forgotten
NO_SEAT = msg("server.noSeat")
SEAT_TAKEN = msg("server.seatTaken")
OVER_REFUSAL = msg("server.over")
SPECTATOR_UNDO = msg("server.spectatorUndo")
GAME = msg("server.thing.game")
EXPIRED = {"abandoned": True, "by": None, "how": "expired"}
CLAIMS = ("win", "draw")  # what a seat may claim when its opponent left (``Table.claim``)


def log_flag(game_id: str, seat: int) -> None:
    """The one line a flag fall writes, by the process whose flag was stored."""
    log.info("game %s over: seat %d ran out of time", game_id, seat,
             extra={"game_id": game_id, "seat": seat, "reason": "time"})


def stopped(clock: Clock, moment: datetime) -> Clock:
    """``clock`` stopped at ``moment`` (at the latest its deadline), the game over."""
    deadline = clock.deadline
    return clock.passed(moment if deadline is None else min(moment, deadline), None, None)


class Subscriber(Protocol):
    """A connection watching a table as ``seat`` (``None``: a spectator)."""

    seat: int | None
    # the log it holds when it takes only the log's new lines (``?log=new``); ``None``: it is
    # sent the whole log in every state
    sent_log: SentLog | None

    def send(self, text: str) -> None:
        """Queue a message (JSON text) for the client; must not block."""
        ...


T = TypeVar("T")
SeatLog = tuple[list[str], list[Msg]]  # a reader's log lines and their messages


async def read_found(storage: Storage, reader: Callable[[str], T | None], key: str,
                     what: Msg) -> T:
    """``reader(key)`` in a worker thread: 503 when the database fails, 404 when there is no
    such ``what`` (``server.thing.campaign``)."""
    try:
        found = await storage.read(reader, key)
    except StorageError as exc:
        raise unavailable(msg("server.thingUnread", what=what), exc) from None
    if found is None:
        raise no_such(what, key)
    return found


def undo_mark(event: EventData) -> int | None:
    """How many decisions a stored undo mark (``{"undo": n}``, stored for the seat that took
    them back) takes back; ``None`` for any other event."""
    n = event.action.get(UNDO) if event.seat is not None else None
    return n if isinstance(n, int) and not isinstance(n, bool) and n > 0 else None


def live_events(events: Iterable[EventData]) -> list[EventData]:
    """The events of the game's record: the stored ones less the undo marks and the decisions
    each mark took back."""
    live: list[EventData] = []
    for event in events:
        n = undo_mark(event)
        if n is None:
            live.append(event)
        else:
            del live[max(0, len(live) - n):]
    return live


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


def view_delta(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    """What turns view ``old`` into ``new``: ``set`` (keys with a new value), ``drop`` (keys
    gone), and for lists that keep their first items, ``items`` (``[[index, value], ...]``:
    the items that changed) and ``append`` (the items added at the end). Empty parts are left
    out."""
    delta: dict[str, Any] = {}
    for key, value in new.items():
        before = old.get(key)
        if key in old and before == value:
            continue
        if isinstance(value, list) and isinstance(before, list) and len(value) >= len(before):
            changed = [[i, value[i]] for i in range(len(before)) if before[i] != value[i]]
            if len(changed) <= len(before) // 2:
                if changed:
                    delta.setdefault("items", {})[key] = changed
                if len(value) > len(before):
                    delta.setdefault("append", {})[key] = value[len(before):]
                continue
        delta.setdefault("set", {})[key] = value
    dropped = [key for key in old if key not in new]
    if dropped:
        delta["drop"] = dropped
    return delta


def replay_steps(game: Game, events: list[dict[str, Any]], seat: int | None) -> dict[str, Any]:
    """A record's events as ``seat`` (``None``: a spectator) saw them: ``start`` (its view
    before the first event) and ``steps``, one per event — ``seat`` (``None`` for chance),
    ``action`` (``None`` with ``hidden: true`` when the reader did not learn it) and
    ``change``, the ``view_delta`` from the view before to the view after."""
    start, seen = steps_as_seen(game, events, seat)
    befores = [start, *(view for _, view in seen[:-1])]
    steps = [{**event, "change": view_delta(before, after)}
             for (event, after), before in zip(seen, befores, strict=True)]
    return {"start": start, "steps": steps}


@dataclass
class _Last:
    """The last decision: who made it, and which readers may learn it."""

    seat: int
    action: dict[str, Any]
    shown: dict[int | None, bool]


class Table:
    """One game in play (built from its stored data by replaying the events); ``game``: the
    game of ``data`` when the caller has made it already."""

    def __init__(self, data: GameData, storage: Storage, ai: AIRunner,
                 peers: Peers | None = None, game: Game | None = None,
                 metrics: Metrics | None = None, settings: ServerSettings | None = None,
                 audience: Audience | None = None) -> None:
        self.id = data.id
        self.mode = data.mode
        self.seed = data.seed
        self.rated = data.rated
        self.clock = data.clock
        self.rematch = data.rematch
        self.campaign = data.campaign  # the series of games it belongs to, if any
        self.game: Game = game if game is not None else make_game(data.game, data.options)
        self.listed_options = listed_options(self.game.name, self.game.options)
        self.seats = {s.seat: s for s in data.seats}
        # a result the server ruled rather than the engine: a resignation, an expiry, a flag,
        # a claim (set once the events are replayed)
        self.ruled: dict[str, Any] | None = None
        self.clock = data.clock
        self.settings = settings if settings is not None else ServerSettings()
        self._timer: asyncio.TimerHandle | None = None  # the running clock's flag
        self._flag_task: asyncio.Task[bool] | None = None
        self._presence: set[asyncio.Task[None]] = set()
        self.chat = Chat(data.mode, self.seats, data.chat)
        self.audience = audience if audience is not None else Audience()
        self._telling: set[asyncio.Task[None]] = set()  # notices on their way to the others
        self.storage = storage
        self.ai = ai
        self.peers = peers if peers is not None else Peers()
        self.metrics = metrics if metrics is not None else Metrics()
        # each reader's log is kept from the first time it is asked for (session.log)
        self.session = Session(self.game, data.seed, self.players(), readers=())
        self.session.recorder.record.created = iso(data.created)
        self.request_ids: dict[str, int] = {}
        self.last: _Last | None = None
        # the decisions of the seat that decided last, since the other seat last decided (the
        # state's ``plays``: what a reader may follow of the other side's turn)
        self.run: list[_Last] = []
        self._legal: tuple[int, list[dict[str, Any]]] | None = None  # (version, actions)
        # the JSON of each action listed so far: most come back turn after turn (the action's
        # type is part of the key, as actions of two types may be equal tuples)
        self._action_json: dict[tuple[type, Action], dict[str, Any]] = {}
        self.subscribers: set[Subscriber] = set()
        self.lock = asyncio.Lock()
        self._ai_task: asyncio.Task[None] | None = None
        self._refresh_task: asyncio.Task[None] | None = None
        self._stale = False  # another process changed the game since the last catch-up began
        self.touched = time.monotonic()  # when it was last asked for
        self._undone = 0  # stored events outside the record: undo marks, what they took back
        self._hints: tuple[int, list[dict[str, Any]]] | None = None  # (version, hints)
        self._replays: dict[int | None, bytes] = {}  # replay_for, once the game is over
        self.creator = ""  # the client that created it here (its AI decisions' queue)
        self.played = time.monotonic()  # when it was created or last played in here
        self._replay_stored(data.events)
        if data.status == OVER and not self.state.is_terminal():
            self.ruled = data.result

    # ------------------------------------------------------------------ reading

    @property
    def state(self) -> State:
        return self.session.state

    @property
    def version(self) -> int:
        """The number of stored events so far (undo marks and the decisions they took back
        count too): it grows with every accepted play or undo."""
        return len(self.session.events) + self._undone

    @property
    def status(self) -> str:
        return self._status(self.seats)

    def _status(self, seats: dict[int, SeatData]) -> str:
        """The status with these seats."""
        if self.ruled is not None or self.state.is_terminal():
            return OVER
        if any(s.kind == HUMAN and not s.joined for s in seats.values()):
            return WAITING
        return PLAYING

    @property
    def result(self) -> dict[str, Any] | None:
        return self.ruled or Recorder.result_json(self.state)

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
        raise Refused(NO_SEAT, 403)

    def snapshot(self, seat: int | None, shared: dict[str, Any] | None = None,
                 log: SeatLog | None = None, log_from: int = 0) -> dict[str, Any]:
        """The game as ``seat`` may see it (a spectator: ``None``): a ``state`` message, the
        fields of ``StateMessage`` as plain data. Its view and legal actions are made once per
        version and its log grows line by line (``Session``), so a state costs little more
        than its size; ``shared`` is the part that is the same for every seat
        (``_shared_fields``) and ``log`` the seat's (``_seat_log``), when the caller makes them
        once for several seats; the log is given from line ``log_from`` on."""
        shared = self._shared_fields() if shared is None else shared
        lines, messages = self._seat_log(seat) if log is None else log
        to_act = (seat is not None and shared["status"] != OVER
                  and self.state.current_player() == seat)
        last = None
        if self.last is not None and self.last.shown[seat]:
            last = {"seat": self.last.seat, "action": self.last.action}
        plays = [{"seat": p.seat, "action": p.action} for p in self.run
                 if p.seat != seat and p.shown[seat]]
        clocks = shared["clocks"]
        if clocks is not None:
            claim = self._claim_from(seat) if seat is not None else None
            clocks = {**clocks, "claim": None if claim is None else iso_ms(claim)}
        return {**shared, "seat": seat, "view": self.session.observation(seat),
                "legal": self._legal_actions() if to_act else [],
                "log_from": log_from, "log": lines[log_from:], "log_msg": messages[log_from:],
                "end": end_words(self.session.narrator, self.result, seat, self.ruled is not None),
                "last": last, "plays": plays,
                "undo": seat is not None and self.undo_refusal(seat) is None,
                "hints": self._hints_field(to_act), "clocks": clocks}

    def _seat_log(self, seat: int | None) -> SeatLog:
        """``seat``'s whole log: its lines and their messages (none for a log the engine keeps
        in the view, whose messages are there: ``view.events``)."""
        return (self.session.log(seat, last=None),
                self.session.log_messages(seat) if self.session.narrator.narrates_events else [])

    def _state_text(self, sub: Subscriber, shared: dict[str, Any],
                    logs: dict[int | None, SeatLog],
                    texts: dict[tuple[int | None, int], str]) -> str:
        """``sub``'s state as JSON text; ``shared``, ``logs`` and ``texts`` are what the states
        of one version have in common (made once for all subscribers)."""
        if sub.seat not in logs:
            logs[sub.seat] = self._seat_log(sub.seat)
        log = logs[sub.seat]
        log_from = 0 if sub.sent_log is None else sub.sent_log.resend_from(*log)
        if (sub.seat, log_from) not in texts:
            texts[sub.seat, log_from] = encode(self.snapshot(sub.seat, shared, log, log_from))
        return texts[sub.seat, log_from]

    def _shared_fields(self) -> dict[str, Any]:
        """The fields of a state that are the same for every seat (``clocks`` without its
        seat's ``claim``)."""
        return {"type": "state", "id": self.id, "game": self.game.name,
                "options": self.listed_options, "mode": self.mode, "rated": self.rated,
                "version": self.version, "status": self.status, "result": self.result,
                "players": self.players(), "rematch": self.rematch,
                "spectators": self.audience.count(self.id),
                "campaign": (None if self.campaign is None
                             else campaigns.state_field(self.campaign, self.id)),
                "clocks": None if self.clock is None else self.clock.message(now())}

    def _legal_actions(self) -> list[dict[str, Any]]:
        """The legal actions of the seat to act, as JSON (made once per version)."""
        if self._legal is None or self._legal[0] != self.version:
            self._legal = (self.version, [self._listed(a) for a in self.state.legal_actions()])
        return self._legal[1]

    def _listed(self, action: Action) -> dict[str, Any]:
        """``action`` as JSON, made once per table (shared by the states: not to be changed)."""
        key = (type(action), action)
        listed = self._action_json.get(key)
        if listed is None:
            listed = self._action_json[key] = self.game.action_to_json(action)
        return listed

    def record_for(self, seat: int) -> dict[str, Any]:
        """The record of a finished game as ``seat`` could know it (docs/records.md)."""
        if self.status != OVER:
            raise Refused(msg("server.recordAtEnd"), 409)
        full = self.session.recorder.record
        return export_for_seat(replace(full, result=self.result), seat).to_json()

    def replay_for(self, seat: int | None) -> bytes:
        """``GET /api/games/{id}/replay``: a finished game as ``seat`` (``None``: a spectator)
        could watch it, step by step — the view at the start, then each event with the changes
        it made to the view (``view_delta``) — as JSON text, made once per reader."""
        if self.status != OVER:
            raise Refused(msg("server.replayAtEnd"), 409)
        cached = self._replays.get(seat)
        if cached is None:
            events = list(self.session.recorder.record.events)
            cached = encode({"type": "replay", "id": self.id, "game": self.game.name,
                             "options": dict(self.game.options), "mode": self.mode,
                             "seat": seat, "players": self.players(), "result": self.result,
                             "end": end_words(self.session.narrator, self.result, seat,
                                              self.ruled is not None),
                             **replay_steps(self.game, events, seat)}).encode()
            self._replays[seat] = cached
        return cached

    # ------------------------------------------------------------------ connections

    def subscribe(self, subscriber: Subscriber) -> None:
        """Watch the table; the current state is sent first (with the spectator count: the
        others are told of a new spectator), then, to a seat whose chat has lines or is muted,
        the chat."""
        first = not self._connected(subscriber.seat) if subscriber.seat is not None else False
        self.subscribers.add(subscriber)
        if subscriber.seat is None:
            self._count_spectators(subscriber)
        subscriber.send(self._state_text(subscriber, self._shared_fields(), {}, {}))
        if first:
            self._mark_presence(subscriber.seat, True)
        if subscriber.seat is not None and (self.chat.lines or self.chat.muted.get(
                subscriber.seat)):
            subscriber.send(encode(self.chat.history(subscriber.seat)))

    def unsubscribe(self, subscriber: Subscriber) -> None:
        """Stop watching; the log of a seat nobody watches any more is no longer kept."""
        self.subscribers.discard(subscriber)
        if subscriber.seat is None:
            self._count_spectators()
        if all(sub.seat != subscriber.seat for sub in self.subscribers):
            self.session.unfollow(subscriber.seat)
            self._mark_presence(subscriber.seat, False)

    # ------------------------------------------------------------------ spectators

    def _count_spectators(self, new: Subscriber | None = None) -> None:
        """A spectator came (``new``, sent the count with its first state) or left: the new
        count to everyone else here and to the other processes."""
        here = sum(1 for sub in self.subscribers if sub.seat is None)
        if self.audience.set(self.id, here):
            self.tell_spectators(new)
            self._tell_peers(self.peers.spectators(self.id, here))

    def tell_spectators(self, skip: Subscriber | None = None) -> None:
        """Send everyone (but ``skip``) the spectator count (it changed)."""
        text = encode(SpectatorsMessage(count=self.audience.count(self.id))
                      .model_dump(mode="json"))
        for sub in list(self.subscribers):
            if sub is not skip:
                sub.send(text)

    def _tell_peers(self, telling: Coroutine[Any, Any, None]) -> None:
        """Send the other processes a notice, without waiting for it."""
        task = asyncio.get_running_loop().create_task(telling)
        self._telling.add(task)
        task.add_done_callback(self._telling.discard)

    # ------------------------------------------------------------------ chat

    async def say(self, seat: int | None, text: str) -> None:
        """A chat line from ``seat``: stored, then sent to the seats that read it."""
        refusal = self.chat.refusal(seat)
        if refusal is not None:
            raise Refused(refusal, 403)
        assert seat is not None
        line = clean(text)
        try:
            chat = await self.storage.write(self.storage.add_chat, self.id, seat, line)
        except StorageError as exc:
            raise self._failed(msg("server.what.chatLine"), exc) from None
        self.heard(chat)

    def heard(self, line: ChatLine) -> None:
        """A chat line stored here or by another server process."""
        self.chat.heard(line)
        for sub in list(self.subscribers):
            if self.chat.reads(sub.seat, line):
                sub.send(encode(self.chat.one(line.seat, line)))

    async def mute(self, seat: int | None, muted: bool) -> None:
        """``seat`` stops (or starts again) reading the other's chat."""
        refusal = self.chat.refusal(seat)
        if refusal is not None:
            raise Refused(refusal, 403)
        assert seat is not None
        try:
            await self.storage.write(self.storage.set_muted, self.id, seat, muted)
        except StorageError as exc:
            raise self._failed(msg("server.what.mute"), exc) from None
        self.muted(seat, muted)

    def muted(self, seat: int, muted: bool) -> None:
        """``seat`` muted or unmuted the other (here or in another server process): its
        connections are sent the chat as it reads it now."""
        self.chat.muted[seat] = muted
        text = encode(self.chat.history(seat))
        for sub in list(self.subscribers):
            if sub.seat == seat:
                sub.send(text)

    def _broadcast(self) -> None:
        """Send every subscriber its seat's state, made and encoded once per seat (and start of
        the log sent)."""
        shared = self._shared_fields()
        logs: dict[int | None, SeatLog] = {}
        texts: dict[tuple[int | None, int], str] = {}
        for sub in list(self.subscribers):
            sub.send(self._state_text(sub, shared, logs, texts))

    def _tell_all(self, message: dict[str, Any]) -> None:
        text = encode(message)
        for sub in list(self.subscribers):
            sub.send(text)

    @staticmethod
    def _failed(what: Msg, exc: StorageError) -> Refused:
        """The refusal of a change (a ``server.what`` message) that could not be stored."""
        return unavailable(msg("server.unstored", what=what), exc)

    # ------------------------------------------------------------------ changing the game

    async def enter(self, token: str | None,
                    player: Player | None = None) -> tuple[int | None, str | None]:
        """The seat ``token`` holds (``None``: a spectator, for no token) and, when this is the
        first use of a seat's invite, the seat's new token: the first to open an invite takes
        the seat (for ``player``, when signed in), and from then on the invite grants nothing
        (``Refused``, 403). The arrival is stored first (``Refused`` when it cannot be, and
        nothing changed)."""
        seat = self.seat_of(token)
        if seat is None or self.seats[seat].joined or self.status == OVER:
            return seat, None
        self._check_newcomer(seat, player)
        async with self.lock:
            if self.seat_of(token) != seat or self.seats[seat].joined:
                return seat, None  # taken while this waited for the lock (seat_of refuses)
            # another server process may let someone in first
            fresh = await self._claim(seat, self.seats[seat].token_hash,
                                      player.id if player is not None else None,
                                      Refused(NO_SEAT, 403))
        return seat, fresh

    async def _claim(self, seat: int, invite_hash: str | None, player_id: str | None,
                     taken: Refused) -> str:
        """Give ``seat`` (its invite's hash ``invite_hash``, ``None`` for a seat with no token
        yet) a new token and ``player_id``, stored first: the token. ``taken`` is raised when
        someone else took it first, in another server process. The clock starts with the
        game. Call with the lock held."""
        fresh = tokens.new_token()
        seats = {**self.seats, seat: replace(self.seats[seat], joined=True, seen=now(),
                                             token_hash=tokens.hash_token(fresh),
                                             player_id=player_id)}
        status = self._status(seats)
        clock = self._passed(now(), None, status, self.state.current_player())
        try:
            claimed = await self.storage.write(
                self.storage.claim_seat, self.id, seat, invite_hash, seats[seat].token_hash,
                status, self.version, clock, player_id)
        except StorageError as exc:
            raise self._failed(msg("server.what.arrival"), exc) from None
        if not claimed:
            await self._catch_up()
            raise taken
        self.seats = seats
        if isinstance(claimed, Clock):
            self.clock = claimed
            self.arm()
        self._broadcast()
        return fresh

    async def take(self, seat: int, player_id: str | None) -> str:
        """Take ``seat``, one that has no token yet (an open game's, a rematch's), for
        ``player_id``: its new token. ``Refused`` (409) when it is taken, here or in another
        server process."""
        async with self.lock:
            if self.seats[seat].token_hash is not None or self.status == OVER:
                raise Refused(SEAT_TAKEN, 409)
            return await self._claim(seat, None, player_id, Refused(SEAT_TAKEN, 409))

    def created_for(self, seat: int, token: str) -> GameCreated:
        """The answer that hands ``seat`` and its token to the player who now holds it."""
        return GameCreated(id=self.id, game=self.game.name, mode=self.mode, seat=seat,
                           token=token, url=f"/play/{self.id}#token={token}")

    async def offered(self, rematch: str) -> None:
        """This finished game's rematch was stored: its seats are told."""
        async with self.lock:
            self.rematch = rematch
            self._broadcast()

    def _check_newcomer(self, seat: int, player: Player | None) -> None:
        """Refuse the seat of a rated game to anyone but a signed-in player who does not hold
        the other seat already (the invite stays unused)."""
        if not self.rated:
            return
        if player is None:
            raise Unauthorized(msg("server.ratedSignIn"))
        if any(s.player_id == player.id for s in self.seats.values() if s.seat != seat):
            raise Refused(msg("server.ratedBothSeats"), 409)

    async def play(self, seat: int | None, action_json: dict[str, Any], version: int,
                   request_id: str, received: datetime | None = None) -> None:
        """A seat's play, ``received`` by the server then (by default: now); ``Refused`` (and
        nothing changed) when it may not be made."""
        received = received if received is not None else now()
        async with self.lock:
            if seat is None:
                raise Refused(msg("server.spectatorPlay"), 403)
            if request_id in self.request_ids:
                raise self._used(request_id)
            if self.status == OVER:
                raise Refused(OVER_REFUSAL, 409)
            await self._in_time(received)
            if version != self.version:
                raise Refused(msg("server.stalePlay", version=version, now=self.version), 409)
            if self.state.current_player() != seat:
                raise Refused(msg("server.notYourTurn"), 409)
            try:
                action = self.game.action_from_json(action_json, self.state)
                await self._commit(seat, action, request_id, received)
            except IllegalActionError as exc:
                raise Refused(msg("server.illegal", reason=str(exc)), 422) from None
            except StorageError as exc:
                if isinstance(exc, StorageConflict) and self.peers.shared:
                    await self._moved_on(request_id)
                raise self._failed(msg("server.what.play"), exc) from None
        self.start_ai()

    def expire(self) -> None:
        """The game was deleted as expired (``Storage.expire_games``): it is over for those
        still watching, and takes no more plays."""
        self.ruled = EXPIRED
        self.disarm()
        self._broadcast()

    async def resign(self, seat: int | None, received: datetime | None = None) -> None:
        received = received if received is not None else now()
        async with self.lock:
            if seat is None:
                raise Refused(msg("server.spectatorResign"), 403)
            if self.status == OVER:
                raise Refused(OVER_REFUSAL, 409)
            await self._in_time(received)
            await self._rule({"abandoned": True, "by": seat, "how": "resigned"}, received,
                             msg("server.what.resignation"))

    # ------------------------------------------------------------------ undo

    def undo_refusal(self, seat: int | None) -> Msg | None:
        """Why ``seat`` may not take back its last decision now (``None``: it may): the game's
        rule (``Game.undo_refusal``), and never once the game is over."""
        if seat is None:
            return SPECTATOR_UNDO
        if self.status == OVER:
            return OVER_REFUSAL
        refusal = self.game.undo_refusal(self.state, self.session.events, seat)
        return None if refusal is None else msg("server.nothingToUndo", reason=refusal)

    async def hint(self, seat: int | None, version: int,
                   request_id: str | None = None) -> dict[str, Any]:
        """The ``hint`` message for ``seat`` at ``version``: the play ``hint_level`` would make,
        decided (in the AI workers, in the creator's turn) from that seat's view only.
        ``Refused`` outside an unrated game against the computer, off the seat's turn, or when
        the game moved on meanwhile."""
        if seat is None or self.mode != "ai" or self.rated:
            raise Refused(msg("server.hintNotHere"), 403)
        if self.status == OVER or self.state.current_player() != seat:
            raise Refused(msg("server.hintNotYourTurn"), 409)
        self._check_hint_version(version)
        level = hint_level(self.game.name)
        action = await self.ai.decide(self.game, self.state.clone(), level,
                                      f"{self.seed}:hint:{version}", self.creator)
        self._check_hint_version(version)  # played or taken back while it was thought over
        return HintMessage(version=version, level=level, action=self._listed(action),
                           text=self.game.action_to_text(action),
                           request_id=request_id).model_dump(mode="json")

    def _check_hint_version(self, version: int) -> None:
        if version != self.version:
            raise Refused(msg("server.staleHint", version=version, now=self.version), 409)

    async def undo(self, seat: int | None, version: int, request_id: str,
                   received: datetime | None = None) -> None:
        """Take back ``seat``'s last decision; ``Refused`` (and nothing changed) when it may
        not. The undo is stored as one event, an undo mark, in one transaction (so the record
        is never half taken back); the table is then rebuilt from the stored events, and the
        version grows by one, so plays made on the state before are refused as stale."""
        received = received if received is not None else now()
        async with self.lock:
            if seat is None:
                raise Refused(SPECTATOR_UNDO, 403)
            if request_id in self.request_ids:
                raise Refused(msg("server.usedUndo", request_id=repr(request_id),
                                  event=self.request_ids[request_id]))
            if version != self.version:
                raise Refused(msg("server.staleUndo", version=version, now=self.version), 409)
            refusal = self.undo_refusal(seat)
            if refusal is not None:
                raise Refused(refusal, 409)
            await self._in_time(received)
            mark = EventData(seat, {UNDO: 1}, request_id)
            try:
                # taken back, it is the seat's decision again: its clock runs from the commit
                clock = await self.storage.write(self.storage.append_events, self.id,
                                                 self.version, [mark], self.status,
                                                 self.result,
                                                 self._passed(received, seat, self.status, seat))
                whole = await self.storage.read(self.storage.load_game, self.id)
            except StorageError as exc:
                if isinstance(exc, StorageConflict) and self.peers.shared:
                    await self._moved_on(request_id)
                raise self._failed(msg("server.what.undo"), exc) from None
            if whole is not None:
                self._rebuild(whole.events)
            if clock is not None:
                self.clock = clock
                self.arm()
            self._broadcast()
        self.start_ai()

    def _replay_stored(self, events: list[EventData]) -> None:
        """Replay the stored events that make the record (``live_events``); the request ids
        of undone decisions and undo marks stay used."""
        live = live_events(events)
        self._undone = len(events) - len(live)
        for index, event in enumerate(events):
            if event.request_id is not None:
                self.request_ids[event.request_id] = index
        for event in live:
            self._replay(event)

    def _rebuild(self, events: list[EventData]) -> None:
        """Replay the game afresh from all of its stored events (after an undo)."""
        created = self.session.recorder.record.created
        self.session = Session(self.game, self.seed, self.players(), readers=())
        self.session.recorder.record.created = created
        self.request_ids = {}
        self.last = None
        self.run = []
        self._replay_stored(events)

    def _hints_field(self, to_act: bool) -> list[Any] | None:
        """``hints`` of a state: for games whose states describe their actions
        (``action_hints``), one per legal action, in their order (``None`` for other games)."""
        if not self.game.describes_actions:
            return None
        return self._action_hints() if to_act else []

    # ------------------------------------------------------------------ clocks

    def arm(self) -> None:
        """Set the exact timer of the running clock's flag (after every change of it)."""
        self.disarm()
        deadline = self.clock.deadline if self.clock is not None else None
        if deadline is None or self.status != PLAYING:
            return
        delay = max(0.0, (deadline - now()).total_seconds())
        self._timer = asyncio.get_running_loop().call_later(delay, self._due)

    def disarm(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _due(self) -> None:
        self._timer = None
        self._flag_task = asyncio.get_running_loop().create_task(self.flag_if_due())

    async def flag_if_due(self) -> bool:
        """End the game on time if the running clock's time is out (``True`` if this process
        stored the flag); a timer or a sweeper calls it."""
        async with self.lock:
            if self.status == OVER or self.clock is None or not self.clock.flagged(now()):
                return False
            return await self._flag()

    async def _flag(self) -> bool:
        """Store the running seat's loss on time, unless the game changed since this table
        read it (another process stored a decision in time, or the flag first): then catch
        up. Call with the lock held and the clock out of time."""
        assert self.clock is not None and self.clock.running is not None
        loser, moment = self.clock.running, now()
        result, clock = time_loss(loser), stopped(self.clock, moment)
        try:
            flagged = await self.storage.write(self.storage.flag_game, self.id, self.version,
                                               moment, result, clock)
        except StorageError as exc:
            log.warning("game %s: the flag could not be stored (tried again by the sweeper): "
                        "%s", self.id, exc)
            return False
        if not flagged:
            await self._catch_up()
            return False
        self.ruled, self.clock = result, clock
        self.disarm()
        log_flag(self.id, loser)
        self._broadcast()
        return True

    async def _in_time(self, received: datetime) -> None:
        """Refuse a message received after the running clock's deadline, and let the flag
        fall. Call with the lock held."""
        if self.clock is not None and self.status == PLAYING and self.clock.flagged(received):
            loser = self.clock.running
            await self._flag()
            raise Refused(msg("server.timeRanOut", seat=loser), 409)

    def _claims(self) -> bool:
        """A seat may claim the game when its opponent left: a real-time clock between two
        people on their own devices."""
        return (self.clock is not None and self.clock.kind == REAL and self.mode != "hotseat"
                and all(s.kind == HUMAN for s in self.seats.values()))

    def _connected(self, seat: int) -> bool:
        return any(sub.seat == seat for sub in self.subscribers)

    def _claim_from(self, seat: int) -> datetime | None:
        """When ``seat`` may claim the game as its opponent left (``None``: it may not, or
        the opponent is connected here or, as last told, elsewhere)."""
        other = self.seats.get(1 - seat)
        if (not self._claims() or self.status != PLAYING or other is None
                or self._connected(other.seat) or other.present or other.seen is None):
            return None
        return other.seen + timedelta(seconds=self.settings.abandon_grace_seconds)

    async def claim(self, seat: int | None, outcome: str, received: datetime) -> None:
        """``seat`` claims the game (``win`` or ``draw``, reason ``abandoned``) because every
        socket of its opponent has been closed for ``abandon_grace_seconds``: over all the
        server processes, as the seat's last-seen time in the database says (the processes
        holding a socket of it renew that time often: ``Tables.heartbeat``)."""
        async with self.lock:
            if seat is None:
                raise Refused(msg("server.spectatorClaim"), 403)
            if self.status != PLAYING or not self._claims():
                raise Refused(msg("server.noClaims"), 409)
            await self._in_time(received)
            grace = timedelta(seconds=self.settings.abandon_grace_seconds)
            try:
                seen, _ = await self.storage.read(self.storage.seat_presence, self.id, 1 - seat)
            except StorageError as exc:
                raise unavailable(msg("server.claimUnread"), exc) from None
            if self._connected(1 - seat) or seen is None or received - seen < grace:
                raise Refused(msg("server.nothingToClaim", seconds=f"{grace.total_seconds():g}"),
                              409)
            result = ruled(seat if outcome == "win" else None, "abandoned")
            await self._rule(result, received, msg("server.what.claim"))

    async def _rule(self, result: dict[str, Any], received: datetime, what: Msg) -> None:
        """End the game with a result the server rules; the clocks stop at ``received``.
        Call with the lock held."""
        clock = None if self.clock is None else stopped(self.clock, received)
        step = self._campaign_step(self.state, campaigns.ruled_winner(result))
        try:
            ended = await self.storage.write(self.storage.update_game, self.id, OVER, result,
                                             None, clock, step)
        except StorageError as exc:
            raise self._failed(what, exc) from None
        if not ended:
            await self._catch_up()  # it ended in another server process
            raise Refused(OVER_REFUSAL, 409)
        self._advanced(step)
        self.ruled, self.clock = result, clock
        self.disarm()
        self._over()
        self._broadcast()

    # ------------------------------------------------------------------ presence

    def _mark_presence(self, seat: int | None, present: bool) -> None:
        """A seat's first socket here opened, or its last one closed: stored (and told to the
        other processes) in the background, for the claims."""
        if seat is None or not self._claims() or self.status == OVER:
            return
        self.seats[seat] = replace(self.seats[seat], seen=now(), present=present)
        task = asyncio.get_running_loop().create_task(self._store_presence(seat, present))
        self._presence.add(task)
        task.add_done_callback(self._presence.discard)
        self._broadcast()

    async def _store_presence(self, seat: int, present: bool) -> None:
        try:
            await self.storage.write(self.storage.mark_presence, self.id, seat, present)
        except StorageError as exc:
            log.warning("game %s: seat %d's presence not stored: %s", self.id, seat, exc)

    def present_seats(self) -> list[int]:
        """The seats with a socket open here, in a game that can be claimed."""
        if not self._claims() or self.status == OVER:
            return []
        return sorted({sub.seat for sub in self.subscribers if sub.seat is not None})

    def _action_hints(self) -> list[dict[str, Any]]:
        """``action_hints`` of each legal action, in their order (made once per version)."""
        if self._hints is None or self._hints[0] != self.version:
            hint = self.state.action_hints
            self._hints = (self.version, [hint(a) for a in self.state.legal_actions()])
        return self._hints[1]

    async def _moved_on(self, request_id: str) -> NoReturn:
        """Another server process stored a play first: catch up, and refuse this one. Call
        with the lock held."""
        try:
            await self._catch_up()
        except StorageError as exc:
            log.error("game %s: %s", self.id, exc)
            raise Refused(msg("server.movedOnUnread"), 503) from None
        if request_id in self.request_ids:
            raise self._used(request_id)
        if self.status == OVER:
            raise Refused(msg("server.overElsewhere"), 409)
        raise Refused(msg("server.movedOn", version=self.version), 409)

    def _used(self, request_id: str) -> Refused:
        """The refusal of a play whose ``request_id`` was played already."""
        return Refused(msg("server.usedPlay", request_id=repr(request_id),
                           event=self.request_ids[request_id]))

    async def _commit(self, seat: int, action: Action, request_id: str | None,
                      received: datetime) -> None:
        """Play ``action`` for ``seat`` (``received`` then) with the chance outcomes that
        follow it: checked on a copy, stored with the clocks, and only then applied and
        broadcast. Call with the lock held."""
        after = self.state.clone()
        after.apply(action)  # raises IllegalActionError, and nothing is changed
        batch = [(action, EventData(seat, self.game.action_to_json(action), request_id)),
                 *chance_events(self.game, after, self.seed, self.version + 1)]
        status = OVER if after.is_terminal() else self.status
        step = self._campaign_step(after, None) if status == OVER else None
        clock = await self.storage.write(self.storage.append_events, self.id, self.version,
                                         [event for _, event in batch], status,
                                         Recorder.result_json(after),
                                         self._passed(received, seat, status,
                                                      after.current_player()), step)
        for outcome, event in batch:
            self._apply(outcome, event)
        self._advanced(step)
        if clock is not None:
            self.clock = clock
            self.arm()
        self.played = time.monotonic()
        self.metrics.plays.labels(self.game.name).inc()
        if status == OVER:
            self._over()
        self._broadcast()

    def _campaign_step(self, end: State, ruled_winner: int | None) -> CampaignStep | None:
        """What this game's end at ``end`` stores for its series (``None`` outside one): the
        series' progress with it and its next game, the same seats playing the same sides."""
        if self.campaign is None:
            return None
        series = campaigns.series_for(self.game.name)
        progress = series.finish(self.campaign.progress, end, ruled_winner)
        options = series.next_options(progress)
        following = None
        if options is not None:
            game = make_game(self.game.name, options)
            seats = campaigns.next_seats(series.seat_sides(self.game.options),
                                         series.seat_sides(options), self.seats)
            following = Tables._new_game(game, self.mode, seats, None, self.rated)
            following.campaign = self.campaign
        return CampaignStep(self.campaign.id, progress, following)

    def _advanced(self, step: CampaignStep | None) -> None:
        """The series' progress and next game, once this game's end is stored."""
        if step is None or self.campaign is None:
            return
        games = self.campaign.games
        if step.next_game is not None:
            games = [*games, step.next_game.id]
        self.campaign = replace(self.campaign, progress=step.progress, games=games)

    def _passed(self, received: datetime, by: int | None, status: str,
                to_act: int) -> Clock | None:
        """The clock once a change ``received`` from seat ``by`` is stored, the game then at
        ``status`` with ``to_act`` (a seat, or not one: chance, the end) to decide; it runs
        only while the game is played."""
        if self.clock is None:
            return None
        running = to_act if status == PLAYING and to_act in self.seats else None
        return self.clock.passed(received, running, by)

    def _over(self) -> None:
        log.info("game %s over: %s", self.id, self.result,
                 extra={"game_id": self.id, "game": self.game.name, "result": self.result})

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
            self.last = _Last(event.seat, event.action,
                              seen_by(self.game, self.state, action, (0, 1, None)))
            if self.run and self.run[-1].seat != event.seat:
                self.run = []
            self.run.append(self.last)
        if event.request_id is not None:
            self.request_ids[event.request_id] = self.version
        self.session.apply(action)

    # ------------------------------------------------------------------ other processes

    async def _catch_up(self) -> bool:
        """Take in what other server processes stored since this table last read the game: new
        events (each decision with its chance outcomes sent as its own state, as if played
        here), joined seats, a resignation. Call with the lock held; ``True`` if anything
        changed."""
        data = await self.storage.read(self.storage.load_game, self.id, self.version)
        if data is None:
            if self.ruled is not None:
                return False
            self.expire()  # another server process deleted it as expired
            return True
        changed = False
        for seat in data.seats:
            if seat.joined and not self.seats[seat.seat].joined:
                self.seats[seat.seat] = seat
                changed = True
        if any(undo_mark(event) is not None for event in data.events):
            # a seat took back a decision through another process: replay the whole record
            whole = await self.storage.read(self.storage.load_game, self.id)
            if whole is not None:
                self._rebuild(whole.events)
                changed = True
            data.events = []
        for event in data.events:
            if changed and event.seat is not None:
                self._broadcast()  # the previous decision
            self._replay(event)
            changed = True
        if self.ruled is None and data.status == OVER and not self.state.is_terminal():
            self.ruled = data.result
            changed = True
        if data.clock != self.clock:
            self.clock = data.clock
            self.arm()
            changed = True
        if [(s.seen, s.present) for s in data.seats] != [(s.seen, s.present)
                                                         for s in self.seats.values()]:
            self.seats = {s.seat: s for s in data.seats}
            changed = True
        if data.rematch != self.rematch:
            self.rematch = data.rematch
            changed = True
        if data.campaign != self.campaign:
            self.campaign = data.campaign
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
        """What another process told about this game (its spectators are counted already:
        ``Tables``)."""
        if notice.thinking is not None:
            self._tell_all(ThinkingMessage(seat=notice.thinking).model_dump(mode="json"))
        elif notice.spectators is not None:
            self.tell_spectators()
        elif notice.chat is not None:
            self.heard(notice.chat)
        elif notice.muted is not None:
            self.muted(*notice.muted)
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
                asked = time.perf_counter()
                action = await self.ai.decide(self.game, self.state.clone(),
                                              self.seats[seat].ai_level or "medium",
                                              f"{self.seed}:ai:{version}", self.creator)
                received = now()  # the computer's clock stops here, as a person's would
                self.metrics.decision_seconds.labels(self.game.name).observe(
                    time.perf_counter() - asked)
                async with self.lock:
                    if self.version == version and self._ai_seat() == seat:
                        try:
                            await self._in_time(received)
                            await self._commit(seat, action, None, received)
                        except StorageConflict as exc:
                            if not self.peers.shared:
                                raise
                            log.warning("game %s: the computer's move was not stored (%s); "
                                        "catching up", self.id, exc)
                            await self._catch_up()  # it moved on elsewhere: think again
            except Refused:  # its time ran out: the flag fell
                return True
            except Exception as exc:
                log.exception("game %s: the computer failed to play", self.id,
                              extra={"game_id": self.id, "seat": seat})
                self._tell_all(error_message(msg("server.aiFailed", error=str(exc))))
                return False
        return True

    def idle(self) -> bool:
        """Nobody is watching or has just asked for it, and the computer is not thinking: it
        may leave memory."""
        return (not self.subscribers and time.monotonic() - self.touched > IDLE_SECONDS
                and all(t is None or t.done() for t in (self._ai_task, self._refresh_task)))

    async def close(self) -> None:
        self.disarm()
        for task in (self._ai_task, self._refresh_task, self._flag_task, *self._presence,
                     *self._telling):
            if task is not None:
                task.cancel()


class Tables:
    """Every live table, by game id: creates games and loads stored ones on first access."""

    def __init__(self, storage: Storage, ai: AIRunner, peers: Peers | None = None,
                 settings: ServerSettings | None = None, metrics: Metrics | None = None) -> None:
        self.storage = storage
        self.ai = ai
        self.peers = peers if peers is not None else Peers()
        self.settings = settings if settings is not None else ServerSettings()
        self.metrics = metrics if metrics is not None else Metrics()
        self._tables: OrderedDict[str, Table] = OrderedDict()  # the least recently used first
        self._loading = asyncio.Lock()
        self._ai_games: dict[str, list[Table]] = {}  # client -> its games against the computer
        self._tasks: list[asyncio.Task[None]] = []  # the expiry, the sweeper, the heartbeat
        self.audience = Audience()

    def _check_ai_games(self, client: str) -> None:
        """Refuse (429) a new game against the computer to a client that has as many live
        ones as it may: unfinished, and played in within ``ai_game_idle_minutes``."""
        cap = self.settings.ai_games_per_client
        if not cap:
            return
        idle = self.settings.ai_game_idle_minutes * 60
        moment = time.monotonic()
        live = [t for t in self._ai_games.pop(client, ())
                if t.status != OVER and moment - t.played < idle]
        if live:
            self._ai_games[client] = live
        if len(live) >= cap:
            self.metrics.rate_limited.labels("ai_games").inc()
            wait = min(t.played for t in live) + idle - moment
            raise TooMany(msg("server.tooManyAiGames", games=len(live),
                              minutes=f"{self.settings.ai_game_idle_minutes:g}"), wait)

    async def create(self, request: CreateGame, client: str = "",
                     player: Player | None = None) -> GameCreated:
        """A new game for ``client`` (the address asking) and ``player`` (when signed in, the
        creator's seat is theirs): its seats, its opening chance events, stored before it is
        answered. A rated game needs a signed-in player in each human seat: its creator now,
        a friend when taking the seat (``Table.enter``); a hotseat game cannot be rated. An
        ``open`` game is a signed-in player's, and its other seat has no token until someone
        takes it (``take``)."""
        if request.rated and request.mode == "hotseat":
            raise Refused(msg("server.ratedHotseat"), 422)
        if request.seed is not None and (request.rated or not self.settings.seeded_games):
            raise Refused(msg("server.seedRefused"), 422)
        if request.rated and player is None:
            raise Refused(msg("server.ratedNeedsPlayers"), 422)
        if request.mode == "open" and player is None:
            raise Unauthorized(msg("server.openSignIn"))
        options, progress = request.options, None  # a campaign's: its first battle's
        if request.campaign is not None:
            if request.mode == "open" or request.clock is not None:
                raise Refused(msg("server.campaignModes"), 422)
            progress, options = await asyncio.to_thread(campaigns.start, request.game,
                                                        request.campaign)
        if request.mode == "ai":
            self._check_ai_games(client)
        try:
            game = await asyncio.to_thread(make_game, request.game, options)
        except (ValueError, WarboardError) as exc:
            raise Refused(msg("server.reason", reason=str(exc)), 422) from None
        levels = levels_for(game.name)
        if request.mode == "ai" and request.ai_level not in levels:
            raise Refused(msg("server.levelNotHere", level=request.ai_level, game=game.name,
                              levels=", ".join(levels)), 422)
        try:
            clock = None if request.clock is None else Clock.from_spec(request.clock.spec())
        except ClockError as exc:
            raise Refused(msg("server.reason", reason=str(exc)), 422) from None
        mine = random.randrange(2) if request.seat == "random" else request.seat
        other = 1 - mine
        seat_tokens: dict[int, str] = {mine: tokens.new_token()}
        if request.mode in ("friend", "hotseat"):
            seat_tokens[other] = tokens.new_token()
        moment = now()
        seats = [SeatData(s, HUMAN, None, tokens.hash_token(seat_tokens[s]),
                          joined=s == mine or request.mode == "hotseat", seen=moment,
                          player_id=player.id if player is not None and s == mine else None)
                 if s in seat_tokens
                 else SeatData(s, HUMAN) if request.mode == "open"
                 else SeatData(s, AI, request.ai_level, None, joined=True) for s in (0, 1)]
        data = self._new_game(game, request.mode, seats, clock, request.rated, request.seed)
        if request.campaign is not None and progress is not None:
            # the first battle's seats hold their tokens in their own rows
            data.campaign = CampaignData(tokens.new_game_id(), game.name, request.campaign,
                                         request.mode, [data.id], [[None, None]], progress)
        table = self._table(data, game, client)
        try:
            table.clock = await self.storage.write(self.storage.create_game, data)
        except StorageError as exc:
            raise unavailable(msg("server.gameUnstored"), exc) from None
        table.arm()
        log.info("game %s created: %s, %s", table.id, game.name, request.mode,
                 extra={"game_id": table.id, "game": game.name, "mode": request.mode})
        self._keep(table)
        if request.mode == "ai":
            self._ai_games.setdefault(client, []).append(table)
        table.start_ai()
        link = f"/play/{table.id}#token="
        return GameCreated(
            id=table.id, game=game.name, mode=request.mode, seat=mine, token=seat_tokens[mine],
            tokens=({str(s): t for s, t in seat_tokens.items()}
                    if request.mode == "hotseat" else None),
            invite=link + seat_tokens[other] if request.mode == "friend" else None,
            url=link + seat_tokens[mine],
            campaign=None if data.campaign is None else data.campaign.id)

    @staticmethod
    def _new_game(game: Game, mode: str, seats: list[SeatData],
                  clock: Clock | None, rated: bool, seed: int | None = None) -> GameData:
        """A new game's data, with its opening chance events (drawn from ``seed``, a new one
        when none is given)."""
        seed = tokens.new_seed() if seed is None else seed
        events = [event for _, event in chance_events(game, game.new_initial_state(), seed, 0)]
        moment = now()
        return GameData(id=tokens.new_game_id(), game=game.name, options=dict(game.options),
                        mode=mode, seed=seed, status=PLAYING, result=None, created=moment,
                        updated=moment, seats=seats, events=events, clock=clock, rated=rated)

    def _table(self, data: GameData, game: Game, client: str) -> Table:
        """The table of a new game ``client`` asked for (``data`` takes its status)."""
        table = Table(data, self.storage, self.ai, self.peers, game, self.metrics,
                      self.settings, self.audience)
        table.creator = client
        data.status = table.status
        # the clock runs once the game is played (not while it waits for a player)
        data.clock = table._passed(data.created, None, data.status,
                                   table.state.current_player())
        return table

    async def take(self, game_id: str, player: Player) -> GameCreated:
        """Take the open seat of the ``open`` game ``game_id`` for ``player`` (not its
        poster): its token (exactly one taker gets it, whichever server process each asks)."""
        table = await self.get(game_id)
        if table.mode != "open":
            raise Refused(msg("server.takeOpenOnly"), 409)
        if any(seat.player_id == player.id for seat in table.seats.values()):
            raise Refused(msg("server.ownOpenGame"), 409)
        free = [s for s, data in table.seats.items()
                if data.token_hash is None and data.player_id is None]
        if not free:
            raise Refused(SEAT_TAKEN, 409)
        return table.created_for(free[0], await table.take(free[0], player.id))

    async def rematch(self, game_id: str, token: str, client: str = "") -> GameCreated:
        """The rematch of a finished game between two players, for the seat ``token`` holds:
        the first of the two to ask offers it (a new game with the seats swapped, waiting for
        the other), the other accepts it by asking too."""
        old = await self.get(game_id)
        seat = old.seat_of(token)  # 403 for a token of no seat here
        assert seat is not None, "a token is never empty (TokenBody)"
        if old.mode not in CHAT_MODES:
            raise Refused(msg("server.rematchSeats"), 409)
        if old.status != OVER:
            raise Refused(msg("server.rematchAtEnd"), 409)
        mine = 1 - seat  # the seats are swapped
        if old.rematch is None:
            offered = await self._offer_rematch(old, mine, client)
            if offered is not None:
                return offered
        new = await self.get(old.rematch or "")
        if new.seats[mine].token_hash is not None:
            raise Refused(msg("server.rematchOffered"), 409)
        return new.created_for(mine, await new.take(mine, old.seats[seat].player_id))

    async def _offer_rematch(self, old: Table, mine: int, client: str) -> GameCreated | None:
        """Offer the rematch of ``old`` holding seat ``mine``; ``None`` when it was offered
        first in another server process (``old`` then knows it)."""
        fresh = tokens.new_token()
        # the other seat is kept for the other player (the lobby's takers cannot have it)
        seats = [SeatData(mine, HUMAN, None, tokens.hash_token(fresh), joined=True,
                          player_id=old.seats[1 - mine].player_id),
                 SeatData(1 - mine, HUMAN, player_id=old.seats[mine].player_id)]
        clock = None if old.clock is None else Clock.from_spec(old.clock.spec())
        data = self._new_game(old.game, old.mode, sorted(seats, key=lambda s: s.seat),
                              clock, old.rated)
        table = self._table(data, old.game, client)
        try:
            offered = await self.storage.write(self.storage.offer_rematch, old.id, data)
        except StorageError as exc:
            raise unavailable(msg("server.rematchUnstored"), exc) from None
        if not offered:
            await old.refresh()
            return None
        self._keep(table)
        await old.offered(table.id)
        return table.created_for(mine, fresh)

    async def get(self, game_id: str) -> Table:
        """The live table of ``game_id``, rebuilt from storage the first time. The computer
        resumes here if it is to act (after a restart, or after it failed)."""
        table = self._tables.get(game_id)
        if table is None:
            if not tokens.is_game_id(game_id):
                raise no_such(GAME, game_id[:40])
            async with self._loading:
                table = self._tables.get(game_id)
                if table is None:
                    data = await self._load(game_id)
                    if data is None:
                        raise no_such(GAME, game_id)
                    # off the event loop: the game's data files, the replay of its record
                    table = await asyncio.to_thread(Table, data, self.storage, self.ai,
                                                    self.peers, None, self.metrics,
                                                    self.settings, self.audience)
                    table.arm()
                    if self.peers.shared:
                        # a change stored while it was read was announced before the table
                        # could hear it
                        table.request_refresh()
        self._keep(table)
        table.start_ai()
        return table

    async def _load(self, game_id: str) -> GameData | None:
        try:
            return await self.storage.read(self.storage.load_game, game_id)
        except StorageError as exc:
            raise unavailable(msg("server.gameUnread"), exc) from None

    def _keep(self, table: Table) -> None:
        """Remember ``table`` as the most recently used; forget the oldest idle ones."""
        table.touched = time.monotonic()
        self._tables[table.id] = table
        self._tables.move_to_end(table.id)
        idle = [t.id for t in self._tables.values() if t.idle()]
        for game_id in idle[:max(0, len(idle) - MAX_IDLE_TABLES)]:
            self._tables.pop(game_id).disarm()  # the sweeper sees to its clock

    def active(self) -> int:
        """The games in memory that are not over."""
        return sum(1 for table in self._tables.values() if table.status != OVER)

    async def list_for_tokens(self, seat_tokens: Iterable[str]) -> list[GameSummary]:
        hashes = [tokens.hash_token(t) for t in seat_tokens if t][:MAX_LISTED_TOKENS]
        try:
            return await self.storage.read(self.storage.games_for_tokens, hashes)
        except StorageError as exc:
            raise unavailable(msg("server.gamesUnread"), exc) from None

    async def start(self) -> None:
        """Listen to the other server processes (when there can be any); delete expired
        games, flag the clocks out of time and renew the seats' presence from time to time."""
        await self.peers.start(self._notice, self._resync)
        grace = self.settings.abandon_grace_seconds
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._every(self.expire, "expired games not deleted",
                                                    self.settings.expiry_interval_minutes * 60)),
                       loop.create_task(self._every(self.sweep, "clocks not swept",
                                                    self.settings.clock_sweep_seconds)),
                       # often enough that a seat still here never looks gone for a grace
                       loop.create_task(self._every(self.heartbeat, "presence not renewed",
                                                    grace / 4))]

    async def sweep(self) -> int:
        """Flag the games whose running clock's deadline passed, whichever process holds them
        (or none): the tables here flag their own, the others are flagged in the database
        (``Storage.flag_game``: of several processes sweeping at once, one wins). How many
        flags this process stored."""
        flagged = 0
        for game_id, version, clock in await self.storage.read(self.storage.due_clocks, now()):
            table = self._tables.get(game_id)
            if table is not None:
                flagged += await table.flag_if_due()
            elif clock.running is not None:
                moment = now()
                if await self.storage.write(self.storage.flag_game, game_id, version, moment,
                                            time_loss(clock.running), stopped(clock, moment)):
                    log_flag(game_id, clock.running)
                    flagged += 1
        return flagged

    async def heartbeat(self) -> None:
        """The seats with a socket open here are still there (``Table.claim``)."""
        await self.storage.write(self.storage.heartbeat,
                                 [(table.id, seat) for table in self._tables.values()
                                  for seat in table.present_seats()])

    async def expire(self) -> list[str]:
        """Delete the games nobody joined within ``invite_expiry_hours`` or played in within
        ``idle_expiry_days`` (finished games are kept); the ids deleted."""
        moment = now()
        hours = timedelta(hours=self.settings.invite_expiry_hours)
        days = timedelta(days=self.settings.idle_expiry_days)
        gone = await self.storage.write(self.storage.expire_games, moment - hours,
                                        moment - days)
        for game_id in gone:
            table = self._tables.pop(game_id, None)
            if table is not None:
                table.expire()
        if gone:
            log.info("deleted %d expired game(s)", len(gone))
        return gone

    @staticmethod
    async def _every(job: Callable[[], Awaitable[object]], failed: str,
                     seconds: float) -> None:
        while True:
            try:
                await job()
            except StorageError as exc:
                log.warning("%s (tried again later): %s", failed, exc)
            await asyncio.sleep(seconds)

    def _notice(self, notice: Notice) -> None:
        if notice.spectators is not None:  # counted for the lobby, in memory or not
            self.audience.set(notice.game, notice.spectators, notice.origin)
        table = self._tables.get(notice.game)
        if table is not None:  # a game not in memory is read afresh when asked for
            table.notice(notice)

    def _resync(self) -> None:
        for table in self._tables.values():
            table.request_refresh()

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        for table in self._tables.values():
            await table.close()
        await self.peers.close()
