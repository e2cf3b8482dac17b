"""``warboard bench holdtheline`` (every scenario, or ``--scenario NAME``): a random game is the
scenario's setup, then at every decision a uniformly random legal action and at every chance
node a die; legal-action generation is timed in the engine (``legal_actions`` of positions met
in random games, listed afresh) and through ``rules legal`` (the positions as JSON lines).
"""

from __future__ import annotations

import argparse
import json
import random
import time
from typing import Any, NotRequired, TypedDict

from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

from warboard.ai.search_speed import SearchSpeed, describe, rounded, time_level
from warboard.core.interchange import router, run_batch


class ScenarioRow(TypedDict):
    """One scenario of ``warboard bench holdtheline --json`` (``scenarios``)."""

    scenario: str
    games_per_second: float
    decisions_per_second: float
    decisions_per_game: float
    dice_per_game: float
    random_games: dict[str, float]  # htl_random_games, rounded
    legal: dict[str, float]  # htl_legal_speed, rounded
    ismcts: SearchSpeed | None  # with --ai: htl_ismcts_speed, rounded


class BenchResult(TypedDict):
    """What ``warboard bench holdtheline --json`` prints."""

    game: str
    engine: str
    cores: int
    scenarios: list[ScenarioRow]
    load_average: NotRequired[list[float]]  # where the system has one


def htl_random_game(game: Any, rng: random.Random,
                    hook: Any = None) -> tuple[Any, int, int]:
    """One random game of Hold the Line: the final state, decisions and dice. ``hook`` sees
    each decision point before its action."""
    from warboard.core.protocol import CHANCE

    state = game.new_initial_state()
    decisions = dice = 0
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            state.apply(state.sample_chance_outcome(rng))
            dice += 1
            continue
        if hook is not None:
            hook(state)
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
        decisions += 1
    return state, decisions, dice


def htl_random_games(game: Any, seconds: float, seed: int, progress: Any = None
                     ) -> dict[str, float]:
    rng = random.Random(seed)
    games = decisions = dice = 0
    start = time.perf_counter()
    elapsed = 0.0
    while elapsed < seconds:
        _, n, d = htl_random_game(game, rng)
        games += 1
        decisions += n
        dice += d
        elapsed = time.perf_counter() - start
        if progress is not None:
            progress(min(elapsed, seconds))
    return {"games": games, "decisions": decisions, "dice": dice, "seconds": elapsed,
            "games_per_second": games / elapsed, "decisions_per_second": decisions / elapsed}


def htl_legal_speed(game: Any, size: int, seed: int) -> dict[str, float]:
    """Legal actions of ``size`` decision points met in random games: listed by the engine
    (each position cloned and listed afresh) and by ``rules legal`` (positions as JSON lines)."""
    rng = random.Random(seed)
    points: list[Any] = []
    while len(points) < size:
        htl_random_game(game, rng, lambda st: points.append(st.clone()))
    points = points[:size]
    actions = 0
    start = time.perf_counter()
    for st in points:
        fresh = st.clone()
        fresh.forget_legal_actions()
        actions += len(fresh.legal_actions())
    engine = time.perf_counter() - start
    lines = []
    for st in points:
        data = st.to_json()
        data.pop("events", None)
        lines.append(json.dumps(data))
    start = time.perf_counter()
    for _ in run_batch(lines, router("legal")):
        pass
    batch = time.perf_counter() - start
    return {"positions": len(points), "actions": actions,
            "actions_per_position": actions / len(points),
            "engine_positions_per_second": len(points) / engine,
            "rules_legal_positions_per_second": len(points) / batch}


def htl_ismcts_speed(game: Any, level: str, decisions: int, seed: int,
                     native: bool = True) -> SearchSpeed:
    """Time the level's agent (its Hold the Line budget) on decision points of random games."""
    rng = random.Random(seed)
    points: list[Any] = []

    def keep_some(state: Any) -> None:
        if rng.random() < 0.1 and len(state.legal_actions()) > 1:
            points.append(state.clone())

    while len(points) < decisions:
        htl_random_game(game, rng, keep_some)
    return time_level(level, points[:decisions], rng, native)


def run_bench(args: argparse.Namespace) -> int:
    from warboard.core.registry import make_game
    from warboard.holdtheline.scenario_file import list_names

    names = [args.scenario] if args.scenario else list_names()
    console = Console(stderr=True, quiet=args.json)
    rows: list[ScenarioRow] = []
    with Progress(TextColumn("{task.description}"), BarColumn(), TimeElapsedColumn(),
                  console=console, transient=True) as progress:
        for name in names:
            game = make_game("holdtheline", {"scenario": name})
            task = progress.add_task(f"{name}: random games", total=args.seconds)
            games = htl_random_games(game, args.seconds, args.seed,
                                     lambda t, task=task: progress.update(task, completed=t))
            progress.update(task, description=f"{name}: legal actions")
            legal = htl_legal_speed(game, min(args.corpus, 500), args.seed)
            ai = None
            if args.ai:
                progress.update(task, description=f"{name}: timing ismcts:{args.ai}")
                ai = htl_ismcts_speed(game, args.ai, args.ai_decisions, args.seed,
                                  not args.python_search)
            progress.remove_task(task)
            rows.append({
                "scenario": name,
                "games_per_second": round(games["games_per_second"], 2),
                "decisions_per_second": round(games["decisions_per_second"], 1),
                "decisions_per_game": round(games["decisions"] / max(1, games["games"]), 1),
                "dice_per_game": round(games["dice"] / max(1, games["games"]), 1),
                "random_games": {k: round(v, 2) for k, v in games.items()},
                "legal": {k: round(v, 2) for k, v in legal.items()},
                "ismcts": rounded(ai) if ai else None,
            })
    result: BenchResult = {"game": "holdtheline", "engine": "python", "cores": 1, "scenarios": rows}
    try:
        import os

        result["load_average"] = [round(v, 2) for v in os.getloadavg()]
    except (AttributeError, OSError):
        pass
    if args.json:
        print(json.dumps(result))
        return 0
    out = Console()
    out.print("[bold]holdtheline[/] on one core (pure-Python engine)")
    for r in rows:
        lg = r["legal"]
        out.print(f"  {r['scenario']:<14} {r['games_per_second']:7.1f} random games/s "
                  f"({r['decisions_per_game']:.0f} decisions, {r['dice_per_game']:.0f} dice "
                  f"per game); legal actions: {lg['engine_positions_per_second']:,.0f} "
                  f"positions/s in the engine, {lg['rules_legal_positions_per_second']:,.0f}/s "
                  f"by rules legal ({lg['actions_per_position']:.0f} actions each)")
        if r["ismcts"]:
            out.print(f"  {'':<14} {describe(r['ismcts'])}")
    if "load_average" in result:
        out.print(f"load average at the end: {result['load_average']}")
    return 0
