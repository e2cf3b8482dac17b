"""The load test's figures: percentiles, one JSON-ready summary, and its printed form."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table


def percentile(values: Sequence[float], p: float) -> float | None:
    """The nearest-rank ``p``-th percentile of ``values`` (sorted or not); ``None`` if empty."""
    if not values:
        return None
    ordered = sorted(values)
    rank = max(1, math.ceil(p / 100 * len(ordered)))
    return ordered[rank - 1]


def _ms(seconds: float | None) -> float | None:
    return None if seconds is None else round(seconds * 1000, 2)


def _share(cpu_seconds: float | None, wall: float) -> float | None:
    """CPU seconds over wall seconds in percent of one core (200: two cores busy)."""
    return None if cpu_seconds is None or wall <= 0 else round(100 * cpu_seconds / wall, 1)


@dataclass
class Measured:
    """The raw outcome of one run (times in seconds)."""

    game: str
    concurrent_games: int
    think: tuple[float, float]
    seconds: float  # the measured window, wall time
    ramp_seconds: float  # to open the first games before the window
    latencies: list[float]
    live_games: tuple[int, float]  # the fewest and the mean number of games open in the window
    create_latencies: list[float]
    games_started: int
    games_finished: int
    warmup_actions: int
    errors: int
    error_messages: list[str]
    server_cpu_seconds: float | None
    client_cpu_seconds: float
    load_before: float | None
    load_after: float | None
    load_max: float | None
    cores: int
    server: str
    server_errors: int | None = None  # failures in the log of a server this run started
    server_error_messages: list[str] = field(default_factory=list)
    flood: dict[str, Any] | None = None  # what the flooding client got (``Flooder.stop``)
    clock: tuple[float, float] | None = None  # each game's clock: initial, increment (s)


def summary(run: Measured) -> dict[str, Any]:
    """The figures as one JSON object."""
    lat = run.latencies
    return {
        "game": run.game,
        "concurrent_games": run.concurrent_games,
        "seconds": round(run.seconds, 2),
        "think_ms": [round(run.think[0] * 1000), round(run.think[1] * 1000)],
        "clock": None if run.clock is None else list(run.clock),
        "actions": len(lat),
        "actions_per_second": round(len(lat) / run.seconds, 1) if run.seconds > 0 else 0.0,
        "p50_ms": _ms(percentile(lat, 50)),
        "p90_ms": _ms(percentile(lat, 90)),
        "p99_ms": _ms(percentile(lat, 99)),
        "max_ms": _ms(max(lat) if lat else None),
        "mean_ms": _ms(sum(lat) / len(lat) if lat else None),
        "errors": run.errors,
        "error_messages": run.error_messages,
        "server_errors": run.server_errors,
        "server_error_messages": run.server_error_messages,
        "live_games_min": run.live_games[0],
        "live_games_mean": run.live_games[1],
        "games_started": run.games_started,
        "games_finished": run.games_finished,
        "create_p50_ms": _ms(percentile(run.create_latencies, 50)),
        "create_p99_ms": _ms(percentile(run.create_latencies, 99)),
        "ramp_seconds": round(run.ramp_seconds, 2),
        "warmup_actions": run.warmup_actions,
        "server_cpu_percent": _share(run.server_cpu_seconds, run.seconds),
        "client_cpu_percent": _share(run.client_cpu_seconds, run.seconds),
        "load_average_before": run.load_before,
        "load_average_after": run.load_after,
        "load_average_max": run.load_max,
        "cores": run.cores,
        "server": run.server,
        "flood": run.flood,
    }


def _fmt(value: Any, unit: str = "") -> str:
    return "-" if value is None else f"{value}{unit}"


def print_summary(result: dict[str, Any], console: Console) -> None:
    """The figures as a table, then any errors."""
    table = Table(title=f"warboard loadtest: {result['concurrent_games']} concurrent "
                        f"{result['game']} games for {result['seconds']} s", show_header=False)
    table.add_column(style="bold")
    table.add_column(justify="right")
    lo, hi = result["think_ms"]
    rows = [
        ("think time", f"{lo}-{hi} ms" if lo != hi else f"{lo} ms"),
        ("clock", "none" if result["clock"] is None
         else "{:g}+{:g} s".format(*result["clock"])),
        ("games open: fewest / mean", f"{result['live_games_min']} / {result['live_games_mean']}"),
        ("games started / finished", f"{result['games_started']} / {result['games_finished']}"),
        ("accepted actions", _fmt(result["actions"])),
        ("actions per second", _fmt(result["actions_per_second"])),
        ("latency p50", _fmt(result["p50_ms"], " ms")),
        ("latency p90", _fmt(result["p90_ms"], " ms")),
        ("latency p99", _fmt(result["p99_ms"], " ms")),
        ("latency max", _fmt(result["max_ms"], " ms")),
        ("new game (POST) p50 / p99",
         f"{_fmt(result['create_p50_ms'])} / {_fmt(result['create_p99_ms'], ' ms')}"),
        ("errors (refused or lost)", _fmt(result["errors"])),
        ("errors in the server's log", _fmt(result["server_errors"])),
        ("server CPU (100% = one core)", _fmt(result["server_cpu_percent"], "%")),
        ("load test client CPU", _fmt(result["client_cpu_percent"], "%")),
        ("load average before / after / max",
         " / ".join(_fmt(result[k]) for k in ("load_average_before", "load_average_after",
                                               "load_average_max"))
         + f" ({result['cores']} cores)"),
    ]
    for name, value in rows:
        table.add_row(name, value)
    console.print(table)
    console.print(f"server: {result['server']}")
    if result["flood"] is not None:
        print_flood(result["flood"], console)
    for message in result["error_messages"]:
        console.print(f"[red]error:[/] {escape(message)}", highlight=False)
    for message in result["server_error_messages"]:
        console.print(f"[red]server log:[/] {escape(message)}", highlight=False)


FLOOD_ROWS = (("new friend games", "games"), ("new expert games, computer first", "ai_games"),
              ("WebSocket messages", "messages"), ("WebSockets opened", "sockets"))


def print_flood(flood: dict[str, Any], console: Console) -> None:
    """What the flooding client got: per kind of attempt, how many were made, accepted (and at
    what rate), refused and dropped; then anything unexpected it was answered."""
    table = Table(title=f"the flood: one client ({flood['address']}) for {flood['seconds']} s, "
                        f"its CPU {_fmt(flood['cpu_percent'], '%')}")
    for column in ("", "sent", "accepted", "per second", "refused", "dropped"):
        table.add_column(column, justify="left" if not column else "right")
    seconds = flood["seconds"] or 1.0
    for name, key in FLOOD_ROWS:
        counts = flood[key]
        table.add_row(name, *(str(counts[k]) for k in ("sent", "accepted")),
                      f"{counts['accepted'] / seconds:.1f}",
                      *(str(counts[k]) for k in ("refused", "dropped")))
    console.print(table)
    for message in flood["unexpected"]:
        console.print(f"[yellow]flood got:[/] {escape(message)}", highlight=False)
