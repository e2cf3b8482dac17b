"""``warboard balance NAME`` (or ``--scenario-file FILE``): computer-against-computer games of
a Hold the Line scenario, to see whether its sides are evenly matched (docs/scenarios.md,
"Balance").

Both sides are played by the same agent unless two are given (``--agents hard,medium``). Games
run like the arena's (``arena.run_matches``: worker processes, a seed per game, reproducible with
iteration budgets); the report gives each side's win rate and the draw rate with 95% intervals
(Wilson's, ``ratings.score_interval``), how the games ended and the mean final VP.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from warboard.ai.agent import make_agent
from warboard.ai.arena import run_matches
from warboard.ai.match import MatchResult, MatchSpec
from warboard.ai.ratings import score_interval
from warboard.holdtheline.scenario import Scenario
from warboard.holdtheline.scenario_file import scenario_option

GAME = "holdtheline"


def balance_specs(scenario: str | Scenario, agents: tuple[str, str], games: int, seed: int,
                  time_caps: bool = True) -> list[MatchSpec]:
    """``games`` games of ``scenario`` (a packaged name, or a ``Scenario`` read from a file),
    seat 0 played by ``agents[0]``, seat 1 by ``agents[1]``."""
    return [MatchSpec(GAME, {"scenario": scenario}, agents, seed * 1_000_003 + g, time_caps)
            for g in range(games)]


def _rate(hits: int, n: int) -> dict[str, Any]:
    mean, lo, hi = score_interval([1.0] * hits + [0.0] * (n - hits))
    return {"count": hits, "rate": round(mean, 4), "interval": [round(lo, 4), round(hi, 4)]}


def balance_report(scenario: str, sides: Sequence[str], agents: tuple[str, str],
                   results: Sequence[MatchResult]) -> dict[str, Any]:
    """Wins of each side and draws (each with its 95% interval), endings and mean VP."""
    n = len(results)
    wins = [0, 0]
    draws = 0
    endings: Counter[str] = Counter()
    vp = [0.0, 0.0]
    decisions = [0, 0]
    think = [0.0, 0.0]
    for r in results:
        if r.returns[0] > 0:
            wins[0] += 1
        elif r.returns[1] > 0:
            wins[1] += 1
        else:
            draws += 1
        summary = r.summary or {}
        endings[str(summary.get("reason", "?"))] += 1
        for s in (0, 1):
            vp[s] += (summary.get("vp") or [0, 0])[s]
            decisions[s] += r.decisions[s]
            think[s] += r.think_seconds[s]
    return {
        "game": GAME, "scenario": scenario, "games": n, "agents": list(agents),
        "sides": [{"side": sides[s], "agent": agents[s], "wins": _rate(wins[s], n),
                   "mean_vp": round(vp[s] / max(1, n), 2),
                   "seconds_per_decision": round(think[s] / max(1, decisions[s]), 4)}
                  for s in (0, 1)],
        "draws": _rate(draws, n),
        "endings": dict(endings),
    }


def run_balance(scenario: str | Scenario, agents: tuple[str, str], games: int, seed: int,
                jobs: int, time_caps: bool = True,
                progress: Callable[[MatchResult], None] | None = None) -> dict[str, Any]:
    from warboard.core.registry import make_game

    game: Any = make_game(GAME, {"scenario": scenario})  # fails fast on an unknown scenario
    sides = [s.display_name for s in game.scenario.sides]
    specs = balance_specs(scenario, agents, games, seed, time_caps)
    results = run_matches(specs, jobs, progress=progress)
    return balance_report(game.scenario.name, sides, agents, results)


def parse_agents(text: str) -> tuple[str, str]:
    names = [a.strip() for a in text.split(",") if a.strip()]
    if len(names) not in (1, 2):
        raise ValueError("--agents is one agent for both sides, or two: SIDE0,SIDE1")
    for name in names:
        make_agent(name)  # fail fast on a typo
    return (names[0], names[-1])


def run_balance_command(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    if args.games < 1:
        raise ValueError("--games must be at least 1")
    agents = parse_agents(args.agents)
    scenario = scenario_option(args)
    name = scenario if isinstance(scenario, str) else scenario.name
    console = Console(stderr=args.json)
    with Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TextColumn("{task.fields[tally]}"), TimeElapsedColumn(),
                  TimeRemainingColumn(), console=console, transient=args.json) as progress:
        tally = [0, 0, 0]
        task = progress.add_task(f"{name} balance", total=args.games, tally="")

        def advance(r: MatchResult) -> None:
            tally[0 if r.returns[0] > 0 else 1 if r.returns[1] > 0 else 2] += 1
            progress.update(task, advance=1,
                            tally=f"{tally[0]}–{tally[1]}, {tally[2]} drawn")

        rep = run_balance(scenario, agents, args.games, args.seed, args.jobs,
                          time_caps=not args.no_time_caps, progress=advance)
    if args.json:
        print(json.dumps(rep))
        return 0
    print_balance(console, rep)
    return 0


def print_balance(console: Any, rep: dict[str, Any]) -> None:
    from rich.table import Table

    table = Table(title=f"{rep['scenario']}: {rep['games']} games, "
                        f"{' v '.join(rep['agents'])}")
    for col in ("side", "agent", "wins", "win rate (95%)", "mean VP", "s / decision"):
        table.add_column(col, justify="left" if col in ("side", "agent") else "right")

    def pct(entry: dict[str, Any]) -> str:
        lo, hi = entry["interval"]
        return f"{100 * entry['rate']:.1f}% ({100 * lo:.1f}–{100 * hi:.1f})"

    for side in rep["sides"]:
        table.add_row(side["side"], side["agent"], str(side["wins"]["count"]),
                      pct(side["wins"]), f"{side['mean_vp']:.1f}",
                      f"{side['seconds_per_decision']:.3f}")
    table.add_row("draws", "", str(rep["draws"]["count"]), pct(rep["draws"]), "", "")
    console.print(table)
    endings = ", ".join(f"{k}: {v}" for k, v in sorted(rep["endings"].items()))
    console.print(f"how the games ended: {endings} (vp: a side reached its VP target; time: "
                  "the turn limit)")
