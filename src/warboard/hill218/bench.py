"""``warboard bench`` of the card games: random full games per second and the speed of
``rules legal``.

A random game is a fresh shuffled setup with random burials, then at every decision a uniformly
random complete legal play (``sampler``). Games run on one core. When the native fast path is
built (``fast``) its figures are the headline ones and the pure-Python engine is measured
beside it. ``--vector`` times the vector environment instead (``bench_vector``).
"""

from __future__ import annotations

import argparse
import json
import random
import time
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

from warboard.ai.search_speed import SearchSpeed, describe, rounded, time_level
from warboard.core.interchange import run_batch
from warboard.hill218 import interchange
from warboard.hill218.game import CardGame
from warboard.hill218.sampler import random_game
from warboard.hill218.serialize import position_to_json
from warboard.hill218.state import CardState


def python_random_games(game: CardGame, seconds: float, seed: int,
                        progress: Any = None) -> dict[str, float]:
    rng = random.Random(seed)
    games = plays = 0
    start = time.perf_counter()
    elapsed = 0.0
    while elapsed < seconds:
        _, n = random_game(game, rng)
        games += 1
        plays += n
        elapsed = time.perf_counter() - start
        if progress is not None:
            progress(min(elapsed, seconds))
    return {"games": games, "plays": plays, "seconds": elapsed,
            "games_per_second": games / elapsed, "plays_per_second": plays / elapsed}


def native_random_games(game: CardGame, seconds: float, seed: int) -> dict[str, float] | None:
    """The native fast path's figures, or None when it is not built."""
    try:
        from warboard.hill218 import fast
    except ImportError:
        return None
    if not fast.available():
        return None
    rules = fast.FastRules(game.rules, game.options)
    batch, games, plays, elapsed = 200, 0, 0, 0.0
    start = time.perf_counter()
    while elapsed < seconds:
        out = fast.random_games(rules, batch, seed + games)
        games += out["games"]
        plays += out["plays"]
        elapsed = time.perf_counter() - start
    return {"games": games, "plays": plays, "seconds": elapsed,
            "games_per_second": games / elapsed, "plays_per_second": plays / elapsed}


def legal_corpus(game: CardGame, size: int, seed: int) -> list[str]:
    """``size`` positions (JSON lines) met in random games, every decision point kept."""
    rng = random.Random(seed)
    lines: list[str] = []
    while len(lines) < size:
        random_game(game, rng, lambda state: lines.append(json.dumps(position_to_json(state, rng))))
    return lines[:size]


def time_legal(lines: list[str]) -> dict[str, float]:
    start = time.perf_counter()
    plays = 0
    for out in run_batch(lines, interchange.legal):
        plays += out.count('"play"')
    elapsed = time.perf_counter() - start
    return {"positions": len(lines), "plays": plays, "seconds": elapsed,
            "positions_per_second": len(lines) / elapsed, "plays_per_second": plays / elapsed}


def ismcts_speed(game: CardGame, level: str, decisions: int, seed: int,
                 native: bool = True) -> SearchSpeed:
    """Time the level's agent on decision points met in random games (one core)."""
    rng = random.Random(seed)
    points: list[CardState] = []

    def keep_some(state: CardState) -> None:
        if rng.random() < 0.15:
            points.append(state.clone())

    while len(points) < decisions:
        random_game(game, rng, keep_some)
    return time_level(level, points[:decisions], rng, native)


def run_bench(args: argparse.Namespace) -> int:
    if args.vector:
        from warboard.hill218.bench_vector import run_vector_bench

        return run_vector_bench(args)
    game = CardGame(args.game)
    console = Console(stderr=True, quiet=args.json)
    with Progress(TextColumn("{task.description}"), BarColumn(), TimeElapsedColumn(),
                  console=console, transient=True) as progress:
        task = progress.add_task(f"{args.game}: random games (python)", total=args.seconds)
        py = python_random_games(game, args.seconds, args.seed,
                                 lambda t: progress.update(task, completed=t))
        progress.update(task, description=f"{args.game}: random games (native)")
        native = native_random_games(game, args.seconds, args.seed)
        progress.update(task, description=f"{args.game}: building the rules-legal corpus")
        lines = legal_corpus(game, args.corpus, args.seed)
        progress.update(task, description=f"{args.game}: timing rules legal")
        legal = time_legal(lines)
        ai = None
        if args.ai:
            progress.update(task, description=f"{args.game}: timing ismcts:{args.ai}")
            ai = ismcts_speed(game, args.ai, args.ai_decisions, args.seed,
                                  not args.python_search)
    head = native or py
    result = {
        "game": args.game,
        "engine": "native" if native else "python",
        "games_per_second": round(head["games_per_second"], 1),
        "plays_per_second": round(head["plays_per_second"], 1),
        "plays_per_game": round(head["plays"] / max(1, head["games"]), 2),
        "python": {k: round(v, 2) for k, v in py.items()},
        "native": {k: round(v, 2) for k, v in native.items()} if native else None,
        "rules_legal": {k: round(v, 2) for k, v in legal.items()},
        "ismcts": rounded(ai) if ai else None,
        "cores": 1,
    }
    if args.json:
        print(json.dumps(result))
        return 0
    out = Console()
    out.print(f"[bold]{args.game}[/] random full games on one core")
    if native:
        out.print(f"  native fast path: {native['games_per_second']:10.1f} games/s "
                  f"{native['plays_per_second']:12.1f} plays/s")
    out.print(f"  python engine:    {py['games_per_second']:10.1f} games/s "
              f"{py['plays_per_second']:12.1f} plays/s")
    out.print(f"  plays per game:   {result['plays_per_game']:10.2f}")
    out.print(f"rules legal on {legal['positions']} positions from random games: "
              f"{legal['positions_per_second']:.0f} positions/s, "
              f"{legal['plays_per_second']:.0f} plays listed/s")
    if ai:
        out.print(f"{describe(ai)}, on {ai['decisions']} decision points")
    return 0
