"""``warboard loadtest``: start the server (or use one running here), keep N bot-vs-bot games
live over WebSockets for a while, and report the latency of the accepted plays.

The run has three parts: the *ramp* opens the N first games (not measured); the *window* of
``--seconds`` times every play sent in it; then the seats stop playing, wait for the answers
to the plays they sent, and close. With ``--flood`` one more client floods the server through
the window (``flood``). Every count and wait is bounded, and only 127.0.0.1 (or another loopback
address given with ``--url``) is ever contacted, from loopback addresses.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import time
from collections.abc import Callable, Coroutine, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass
from typing import Any, TypeVar

from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

from warboard.loadtest.bots import ANSWER_TIMEOUT, Clock, Plan, Stats, Think, keep_playing
from warboard.loadtest.flood import Flood
from warboard.loadtest.report import Measured, percentile, print_summary, summary
from warboard.loadtest.server import (
    LoadTestError,
    ServerProcess,
    check_addresses,
    check_local,
    healthy,
    load_average,
    per_client_addresses,
    tree_cpu_seconds,
)

MAX_GAMES = 1000
MAX_SECONDS = 3600.0
RAMP_TIMEOUT = 120.0  # seconds to open the first games
TICK = 0.5  # seconds between progress updates and load samples

Tick = Callable[[str, float, float, str], None]  # phase, done, total, figures
T = TypeVar("T")


@dataclass(frozen=True)
class Settings:
    games: int
    seconds: float
    game: str
    think: Think
    seed: int | None = None
    flood: bool = False
    clock: Clock | None = None

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> Settings:
        if not 1 <= args.games <= MAX_GAMES:
            raise ValueError(f"--games must be 1 to {MAX_GAMES}")
        if not 0 < args.seconds <= MAX_SECONDS:
            raise ValueError(f"--seconds must be more than 0 and at most {MAX_SECONDS:.0f}")
        return cls(args.games, args.seconds, args.game, Think.parse(args.think), args.seed,
                   args.flood, Clock.parse(args.clock) if args.clock is not None else None)


@dataclass
class _Machine:
    """CPU and load samples around the measured window."""

    server_pid: int | None
    server_cpu: float | None = None
    client_cpu: float = 0.0
    load_max: float | None = None

    def open(self) -> None:
        self.server_cpu = self._server_cpu()
        self.client_cpu = time.process_time()

    def sample(self) -> None:
        load = load_average()
        if load is not None:
            self.load_max = max(load, self.load_max or 0.0)

    def close(self) -> tuple[float | None, float]:
        """Server and client CPU seconds spent since ``open``."""
        end = self._server_cpu()
        server = None if end is None or self.server_cpu is None else end - self.server_cpu
        return server, time.process_time() - self.client_cpu

    def _server_cpu(self) -> float | None:
        return tree_cpu_seconds(self.server_pid) if self.server_pid is not None else None


@dataclass
class Target:
    """The servers under test: base URLs, and the process when this run started it."""

    bases: list[str]
    description: str
    process: ServerProcess | None = None

    @property
    def own_addresses(self) -> bool:
        return per_client_addresses(self.bases)

    @property
    def pid(self) -> int | None:
        return self.process.pid if self.process is not None else None

    def log_errors(self) -> tuple[int | None, list[str]]:
        """The ``ERROR`` lines of the server's log (``None``: not a server of this run)."""
        return self.process.log_errors() if self.process is not None else (None, [])


def _figures(stats: Stats, elapsed: float) -> str:
    p99 = percentile(stats.latencies, 99)
    rate = len(stats.latencies) / elapsed if elapsed > 0 else 0.0
    return (f"{stats.live_games} live, {len(stats.latencies)} actions, {rate:.0f}/s, "
            f"p99 {'-' if p99 is None else f'{p99 * 1000:.0f} ms'}, {stats.errors} errors")


async def _ramp(plan: Plan, games: int, tick: Tick) -> None:
    """Wait until ``games`` games are open (at most ``RAMP_TIMEOUT``: a server that cannot open
    them all in time is measured with those it has, and the report shows how many)."""
    deadline = time.monotonic() + RAMP_TIMEOUT
    while plan.stats.live_games < games and time.monotonic() < deadline:
        tick("opening games", plan.stats.live_games, games, f"{plan.stats.errors} errors")
        await asyncio.sleep(0.05)


async def _window(plan: Plan, seconds: float, machine: _Machine,
                  tick: Tick) -> tuple[float, list[int]]:
    """Measure for ``seconds``: the wall time it took, and the number of live games at each
    tick."""
    start = time.perf_counter()
    plan.stats.measure_from = start
    machine.open()
    live = []
    while (elapsed := time.perf_counter() - start) < seconds:
        live.append(plan.stats.live_games)
        tick("measuring", elapsed, seconds, _figures(plan.stats, elapsed))
        machine.sample()
        await asyncio.sleep(min(TICK, seconds - elapsed))
    plan.stop.set()
    return time.perf_counter() - start, live


async def _wind_down(slots: list[asyncio.Task[None]], tick: Tick) -> None:
    """Let the seats collect the answers to their last plays, then close everything."""
    tick("finishing", 0, 1, "waiting for the last answers")
    _, late = await asyncio.wait(slots, timeout=ANSWER_TIMEOUT + 5)
    for task in late:
        task.cancel()
    await asyncio.gather(*slots, return_exceptions=True)


async def measure(target: Target, settings: Settings, tick: Tick) -> Measured:
    """Run the games (and the flood) against ``target`` and gather the figures."""
    stats = Stats()
    plan = Plan(target.bases, settings.game, settings.think, asyncio.Event(), stats,
                random.Random(settings.seed), target.own_addresses, settings.clock)
    machine = _Machine(target.pid)
    flooding: AbstractContextManager[Flood | None] = (
        Flood(target.bases[0], settings.game, settings.seconds) if settings.flood
        else nullcontext())
    with flooding as flood:
        load_before = load_average()
        ramp_start = time.perf_counter()
        slots = [asyncio.create_task(keep_playing(plan)) for _ in range(settings.games)]
        try:
            await _ramp(plan, settings.games, tick)
            ramp = time.perf_counter() - ramp_start
            if flood is not None:
                flood.go()
            seconds, live = await _window(plan, settings.seconds, machine, tick)
            server_cpu, client_cpu = machine.close()
            load_after = load_average()
            flooded = await asyncio.to_thread(flood.stop) if flood is not None else None
        finally:
            plan.stop.set()
            await _wind_down(slots, tick)
    return Measured(
        game=settings.game, concurrent_games=settings.games,
        think=(settings.think.low, settings.think.high), seconds=seconds, ramp_seconds=ramp,
        clock=(None if settings.clock is None
               else (settings.clock.initial, settings.clock.increment)),
        latencies=stats.latencies, create_latencies=stats.create_latencies,
        live_games=(min(live), round(sum(live) / len(live), 1)),
        games_started=stats.games_started, games_finished=stats.games_finished,
        warmup_actions=stats.warmup_actions, errors=stats.errors,
        error_messages=stats.error_messages, server_cpu_seconds=server_cpu,
        client_cpu_seconds=client_cpu, load_before=load_before, load_after=load_after,
        load_max=machine.load_max, cores=os.cpu_count() or 1,
        server=target.description, flood=flooded)


def _run_async(main: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """Run the coroutine function ``main`` on uvloop when it is there (as the server does)."""
    factory: Callable[[], asyncio.AbstractEventLoop] | None
    try:
        import uvloop

        factory = uvloop.new_event_loop
    except ImportError:
        factory = None
    with asyncio.Runner(loop_factory=factory) as runner:
        return runner.run(main())


@contextmanager
def _progress(console: Console) -> Iterator[Tick]:
    columns = (TextColumn("{task.description:<14}"), BarColumn(), TimeElapsedColumn(),
               TextColumn("{task.fields[figures]}"))
    with Progress(*columns, console=console, transient=True) as progress:
        task = progress.add_task("starting", total=1, figures="")

        def tick(phase: str, done: float, total: float, figures: str) -> None:
            progress.update(task, description=phase, completed=done, total=total,
                            figures=figures)

        yield tick


@contextmanager
def _target(args: argparse.Namespace) -> Iterator[Target]:
    bases = [check_local(url) for url in args.url] if args.url else ["http://127.0.0.1"]
    if per_client_addresses(bases):
        check_addresses()
    elif args.flood:
        raise LoadTestError("--flood needs the server at an IPv4 loopback address (127.0.0.1, "
                            "not ::1), so that the flood is a client of its own")
    if args.url:
        for base in bases:
            if not healthy(base):
                raise LoadTestError(f"no warboard server answers at {base}/api/health")
        yield Target(bases, " ".join(bases))
        return
    with ServerProcess(args.port, args.database_url, args.serve_args) as process:
        yield Target([process.base], "warboard " + " ".join(process.command[3:]), process)


def run_loadtest(args: argparse.Namespace) -> int:
    settings = Settings.from_args(args)
    console = Console(stderr=True, quiet=args.json)
    with _target(args) as target, _progress(console) as tick:
        measured = _run_async(lambda: measure(target, settings, tick))
        measured.server_errors, measured.server_error_messages = target.log_errors()
    result = summary(measured)
    if args.json:
        print(json.dumps(result))
    else:
        print_summary(result, Console())
    return 0 if result["errors"] == 0 and not result["server_errors"] else 1
