"""How fast a level's agent decides: the timing behind ``warboard bench GAME --ai LEVEL``.

Each game's bench collects decision points from random games of its own; the timing of a level
on them, and what it reports, is the same for every game.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from typing import Any, TypedDict


class SearchSpeed(TypedDict):
    """One level's agent timed on decision points (``time_level``)."""

    level: str
    decisions: int
    seconds: float
    seconds_per_decision: float
    slowest_decision: float
    decisions_per_second: float
    simulations_per_second: float
    native_decisions: int  # how many of the decisions the compiled search made


def time_level(level: str, points: Sequence[Any], rng: random.Random,
               native: bool = True) -> SearchSpeed:
    """Time ``level``'s agent (its budget for each point's game) deciding at each of ``points``
    (states with a seat to act), one after another on this core; ``native=False``: with the
    Python search even where a compiled one is built."""
    from warboard.ai.agent import decide
    from warboard.ai.levels import agent_for_level

    agent = agent_for_level(level, native=native)
    iterations = 0
    compiled = 0
    slowest = 0.0
    start = time.perf_counter()
    for state in points:
        t = time.perf_counter()
        decide(agent, state, rng)
        slowest = max(slowest, time.perf_counter() - t)
        iterations += agent.last_iterations
        compiled += agent.last_native
    elapsed = time.perf_counter() - start
    return {"level": level, "decisions": len(points), "seconds": elapsed,
            "seconds_per_decision": elapsed / len(points), "slowest_decision": slowest,
            "decisions_per_second": len(points) / elapsed,
            "simulations_per_second": iterations / elapsed, "native_decisions": compiled}


def rounded(speed: SearchSpeed, digits: int = 3) -> SearchSpeed:
    """``speed`` with its times and rates rounded (the level and the count as they are)."""
    return {"level": speed["level"], "decisions": speed["decisions"],
            "seconds": round(speed["seconds"], digits),
            "seconds_per_decision": round(speed["seconds_per_decision"], digits),
            "slowest_decision": round(speed["slowest_decision"], digits),
            "decisions_per_second": round(speed["decisions_per_second"], digits),
            "simulations_per_second": round(speed["simulations_per_second"], digits),
            "native_decisions": speed["native_decisions"]}


def describe(speed: SearchSpeed) -> str:
    """``speed`` in words, for the bench's table."""
    return (f"ismcts:{speed['level']}: {speed['simulations_per_second']:,.0f} simulations/s, "
            f"{speed['seconds_per_decision']:.2f} s per decision "
            f"(slowest {speed['slowest_decision']:.2f} s), "
            f"{speed['native_decisions']} of {speed['decisions']} by the compiled search")
