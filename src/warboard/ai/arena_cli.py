"""``warboard arena``: run a round robin with a progress bar and print the tables (or, with
``--json``, the report the JSON file holds)."""

from __future__ import annotations

import argparse
import importlib
import json
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from warboard.ai.agent import make_agent
from warboard.ai.arena import (
    PLOTS_HINT,
    ArenaReport,
    report,
    run_matches,
    schedule,
    write_outputs,
    write_records,
)
from warboard.ai.match import MatchSpec
from warboard.core.registry import info


def run_arena_command(args: argparse.Namespace) -> int:
    agents = [a.strip() for a in args.agents.split(",") if a.strip()]
    if len(agents) < 2 or len(set(agents)) != len(agents):
        raise ValueError("--agents needs two or more different agents, e.g. random,greedy,hard")
    for spec in agents:
        make_agent(spec)  # fail fast on a typo
    options = game_options(args)
    specs = schedule(args.game, agents, args.games, args.seed, options,
                     time_caps=not args.no_time_caps, keep_records=args.records is not None,
                     seconds=args.seconds)
    label = args.game if "scenario" not in options else f"{args.game}-{options['scenario']}"
    console = Console(quiet=args.json)
    rep = play_tournament(args, console, label, agents, specs, args.games)
    if args.json:
        print(json.dumps(rep.to_json()), flush=True)
    return 0


def play_tournament(args: argparse.Namespace, console: Console, label: str, agents: list[str],
                    specs: list[MatchSpec], games_per_pair: int) -> ArenaReport:
    """Play ``specs`` with a progress bar (``args.jobs``, ``args.backend``), print the tables
    unless ``args.json``, and write the report, the chart and (``args.records``) the
    records."""
    with Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), console=console) as progress:
        task = progress.add_task(f"{label} arena", total=len(specs))
        results = run_matches(specs, args.jobs, args.backend,
                              lambda _: progress.advance(task))
    rep = report(label, agents, games_per_pair, results)
    if not args.json:
        print_report(console, rep)
    json_path, png_path = write_outputs(rep, Path(args.out))
    if args.records is not None:
        paths = write_records(specs, results, Path(args.records))
        console.print(f"wrote {len(paths)} records into {args.records}", markup=False)
    if png_path is None:
        console.print(f"wrote {json_path}; no PNG chart, matplotlib is not installed: "
                      f"{PLOTS_HINT}", markup=False)
    else:
        console.print(f"wrote {json_path} and {png_path}")
    return rep


def game_options(args: argparse.Namespace) -> dict[str, Any]:
    """The game's options from its own arguments (``GameInfo.cli``)."""
    cli = info(args.game).cli
    return {} if cli is None else dict(importlib.import_module(cli).game_options(args.game, args))


def print_report(console: Console, rep: ArenaReport) -> None:
    table = Table(title=f"{rep.game}: {rep.games_per_pair} games per pair, both seat orders")
    for col in ("a", "b", "a wins", "draws", "b wins", "a score (95%)"):
        table.add_column(col, justify="right" if col not in ("a", "b") else "left")
    for p in rep.pairs:
        lo, hi = p["a_score_interval"]
        table.add_row(p["a"], p["b"], str(p["a_wins"]), str(p["draws"]), str(p["b_wins"]),
                      f"{100 * p['a_score']:.1f}% ({100 * lo:.1f}–{100 * hi:.1f})")
    console.print(table)
    ratings = Table(title="Elo ratings (mean 1500)")
    for col in ("agent", "Elo", "95% interval", "s / decision"):
        ratings.add_column(col, justify="left" if col == "agent" else "right")
    for agent in sorted(rep.agents, key=lambda a: -rep.elo[a]):
        lo, hi = rep.elo_interval[agent]
        ratings.add_row(agent, f"{rep.elo[agent]:.0f}", f"{lo:.0f}–{hi:.0f}",
                        f"{rep.decision_seconds[agent]:.3f}")
    console.print(ratings)
