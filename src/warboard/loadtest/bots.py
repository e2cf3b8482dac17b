"""Bot-vs-bot friend games over the server's WebSocket, timed like people play.

A *slot* keeps one game live: it creates a friend game (``POST /api/games``), opens one
WebSocket per seat with that seat's token (the invite link's token for the other seat), lets
both seats play it out and starts the next one. Each game is a client of its own to the server:
its request and both sockets come from a loopback address of its own (``game_address``).

A seat that is to act waits its think time, sends a random legal action with a fresh
``request_id`` and times it until its own ``state`` message with a newer version arrives: that
latency is what the load test reports.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from warboard.loadtest.server import game_address, http_json

RETRY_PAUSE = 0.5  # seconds before a slot whose game failed starts the next one
ANSWER_TIMEOUT = 30.0  # seconds a sent play may wait for its state before it counts as lost
MAX_ERRORS_PER_GAME = 5  # a game with more refusals than this is given up
MAX_ERRORS_KEPT = 20  # error messages kept for the report (all are counted)


@dataclass
class Stats:
    """What every seat of every game adds up to."""

    measure_from: float | None = None  # perf_counter when the measured window opened
    latencies: list[float] = field(default_factory=list)  # seconds, per play sent in the window
    warmup_actions: int = 0  # plays accepted that were sent before the window opened
    create_latencies: list[float] = field(default_factory=list)  # seconds per POST /api/games
    games_started: int = 0
    games_finished: int = 0
    live_games: int = 0
    errors: int = 0
    error_messages: list[str] = field(default_factory=list)

    def accepted(self, sent: float, answered: float) -> None:
        """A play sent at ``sent`` was answered at ``answered`` (``perf_counter`` times)."""
        if self.measure_from is not None and sent >= self.measure_from:
            self.latencies.append(answered - sent)
        else:
            self.warmup_actions += 1

    def error(self, message: str) -> None:
        self.errors += 1
        if len(self.error_messages) < MAX_ERRORS_KEPT:
            self.error_messages.append(message)


@dataclass(frozen=True)
class Think:
    """A think time drawn uniformly from ``low``..``high`` seconds."""

    low: float
    high: float

    @classmethod
    def parse(cls, text: str) -> Think:
        """``MS`` (always that long) or ``MIN-MAX`` in milliseconds."""
        low, _, high = text.partition("-")
        try:
            a, b = float(low), float(high or low)
        except ValueError:
            raise ValueError(f"think time {text!r}: write MS or MIN-MAX (e.g. 200-600)") from None
        if not 0 <= a <= b <= 60_000:
            raise ValueError(f"think time {text!r}: 0 <= MIN <= MAX <= 60000 ms")
        return cls(a / 1000, b / 1000)

    def draw(self, rng: random.Random) -> float:
        return rng.uniform(self.low, self.high)


@dataclass(frozen=True)
class Clock:
    """A real-time clock for each new game: ``initial`` seconds a seat, ``increment`` more each
    turn."""

    initial: float
    increment: float

    @classmethod
    def parse(cls, text: str) -> Clock:
        """``INITIAL+INCREMENT`` in seconds (``180+2``), or ``INITIAL`` with no increment."""
        initial, _, increment = text.partition("+")
        try:
            a, b = float(initial), float(increment or 0)
        except ValueError:
            raise ValueError(f"clock {text!r}: write INITIAL+INCREMENT in seconds "
                             "(e.g. 180+2)") from None
        if not (0 < a <= 86_400 and 0 <= b <= 86_400):
            raise ValueError(f"clock {text!r}: 0 < INITIAL <= 86400 and 0 <= INCREMENT <= "
                             "86400 seconds")
        return cls(a, b)


@dataclass
class Plan:
    """How the bots play: against ``bases`` (http://..., one game after another on each in
    turn), ``game``, think times, a stop flag; each game from an address of its own unless
    ``own_addresses`` is false, with ``clock`` when there is one."""

    bases: list[str]
    game: str
    think: Think
    stop: asyncio.Event
    stats: Stats
    rng: random.Random
    own_addresses: bool = True
    clock: Clock | None = None

    games_made: int = 0

    def next_game(self) -> tuple[str, str | None]:
        """The server of the next game (round robin) and the address its bots speak from
        (``None``: the system's choice)."""
        number = self.games_made
        self.games_made += 1
        return (self.bases[number % len(self.bases)],
                game_address(number) if self.own_addresses else None)


@dataclass
class _Pending:
    request_id: str
    version: int
    sent: float


class Seat:
    """One seat's client: reads its states, plays when it is to act, times its plays."""

    def __init__(self, plan: Plan, connection: ClientConnection) -> None:
        self.plan = plan
        self.connection = connection
        self.pending: _Pending | None = None
        self.acted_version = -1  # the version this seat last played at
        self.last_state: dict[str, Any] | None = None
        self.errors = 0
        self.over = False

    async def run(self) -> None:
        """Play until the game is over or the stop flag is up with no play awaiting its answer
        (a seat waiting for its turn when the flag goes up is cancelled by ``_play_out``)."""
        async for raw in self.connection:
            await self._handle(json.loads(raw))
            if self.over or (self.plan.stop.is_set() and self.pending is None):
                return
        close = self.connection.close_code, self.connection.close_reason
        self.plan.stats.error(f"the server closed the connection ({close[0]} {close[1]})")

    async def _handle(self, message: dict[str, Any]) -> None:
        kind = message.get("type")
        if kind == "error":
            self._refused(message)
            state = self.last_state  # nothing changed: play again from the last state
        elif kind == "state":
            self._answered(message)
            self.over = message["status"] == "over"
            state = self.last_state = message
        else:  # "seat": the invite's fresh token, needed only to reconnect (a bot never does)
            return
        if state is not None and state["legal"] and self._may_act(state["version"]):
            await self._act(state)

    def _refused(self, message: dict[str, Any]) -> None:
        """An ``error``: counted; the play it refused no longer awaits an answer (one refused
        unread, past the message rate, comes without its ``request_id``)."""
        self.plan.stats.error(str(message.get("message")))
        self.errors += 1
        if self.pending is not None and message.get("request_id") in (None,
                                                                      self.pending.request_id):
            self.pending = None
            self.acted_version = -1
        if self.errors > MAX_ERRORS_PER_GAME:
            self.over = True

    def _answered(self, message: dict[str, Any]) -> None:
        pending = self.pending
        if pending is not None and message["version"] > pending.version:
            self.plan.stats.accepted(pending.sent, time.perf_counter())
            self.pending = None

    def _may_act(self, version: int) -> bool:
        return (self.pending is None and version != self.acted_version and not self.over
                and not self.plan.stop.is_set())

    async def _act(self, state: dict[str, Any]) -> None:
        """Think, then send a random legal action for ``state``'s version."""
        await asyncio.sleep(self.plan.think.draw(self.plan.rng))
        if self.plan.stop.is_set():
            return
        request_id = uuid.uuid4().hex
        action = self.plan.rng.choice(state["legal"])
        self.acted_version = state["version"]
        text = json.dumps({"type": "play", "action": action, "version": state["version"],
                           "request_id": request_id})
        self.pending = _Pending(request_id, state["version"], time.perf_counter())
        await self.connection.send(text)


def token_of(link: str) -> str:
    """The token in a ``/play/ID#token=T`` link."""
    return link.split("#token=", 1)[1]


async def create_game(plan: Plan, base: str, source: str | None) -> tuple[str, list[str]]:
    """A new friend game on ``base``, asked from ``source``: its id and both seats' tokens
    (seat 0 first; seat 1's is its invite)."""
    body: dict[str, Any] = {"game": plan.game, "mode": "friend", "seat": 0}
    if plan.clock is not None:  # only then: a server without clocks refuses the field
        body["clock"] = {"initial": plan.clock.initial, "increment": plan.clock.increment}
    start = time.perf_counter()
    created = await asyncio.to_thread(http_json, "POST", base, "/api/games", body, source)
    plan.stats.create_latencies.append(time.perf_counter() - start)
    return created["id"], [created["token"], token_of(created["invite"])]


async def play_game(plan: Plan) -> None:
    """Create one game and let its two seats play it out (or until the stop flag)."""
    base, source = plan.next_game()
    game_id, seat_tokens = await create_game(plan, base, source)
    plan.stats.games_started += 1
    ws_base = "ws" + base.removeprefix("http")
    # as the browser asks: each state with the log's new lines only
    urls = [f"{ws_base}/ws/games/{game_id}?log=new&token={t}" for t in seat_tokens]
    local = (source, 0) if source else None
    async with (connect(urls[0], local_addr=local) as first,
                connect(urls[1], local_addr=local) as second):
        plan.stats.live_games += 1
        try:
            seats = [Seat(plan, first), Seat(plan, second)]
            if await _play_out(plan, seats):
                plan.stats.games_finished += 1
        finally:
            plan.stats.live_games -= 1


async def _play_out(plan: Plan, seats: list[Seat]) -> bool:
    """Run both seats until the game ends (``True``) or the stop flag is up (``False``); a
    seat's failure is raised, and the other seat is stopped."""
    tasks = [asyncio.ensure_future(seat.run()) for seat in seats]
    stop = asyncio.ensure_future(plan.stop.wait())
    try:
        while not stop.done() and (running := {t for t in tasks if not t.done()}):
            await asyncio.wait({*running, stop}, return_when=asyncio.FIRST_COMPLETED)
            for task in tasks:
                if task.done():
                    task.result()
        if all(task.done() for task in tasks):
            return all(seat.over for seat in seats)
        await _last_answers(plan, seats)
        return False
    finally:
        for pending in (*tasks, stop):
            pending.cancel()
        await asyncio.gather(*tasks, stop, return_exceptions=True)


async def _last_answers(plan: Plan, seats: list[Seat]) -> None:
    """After the stop flag: let the plays already sent get their answers (``ANSWER_TIMEOUT``);
    one still unanswered then counts as an error."""
    deadline = time.perf_counter() + ANSWER_TIMEOUT
    while any(seat.pending for seat in seats) and time.perf_counter() < deadline:
        await asyncio.sleep(0.05)
    for seat in seats:
        if seat.pending is not None:
            plan.stats.error(f"no answer to a play within {ANSWER_TIMEOUT:.0f} s")


async def keep_playing(plan: Plan) -> None:
    """One slot: a game after another until the stop flag; a failure is counted and the slot
    goes on with a new game."""
    while not plan.stop.is_set():
        try:
            await play_game(plan)
        except (OSError, ConnectionClosed, ValueError, KeyError) as exc:
            plan.stats.error(f"{type(exc).__name__}: {exc}")
            await asyncio.sleep(RETRY_PAUSE)  # no busy loop against a failing server
