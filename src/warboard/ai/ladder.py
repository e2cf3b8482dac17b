"""``warboard ladder``: the published ladder, the round robin of every agent the computer plays
as (random play, greedy, and each level) for each game, with Elo ratings, their 95% intervals
and a chart, and the Markdown table of them all (docs/ai.md, "The ladder").

A game whose battles differ (``GameInfo.ladder_options``: Hold the Line's) plays every pair
over each of them in turn, both seat orders on each, so that its ratings hold over all its
battles rather than one.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from rich.console import Console

from warboard.ai.arena import ArenaReport, report_path, schedule
from warboard.ai.arena_cli import play_tournament
from warboard.ai.levels import levels_for
from warboard.ai.match import MatchSpec
from warboard.core.registry import game_names, info, resolve

BASELINES = ("random", "greedy")  # the agents below the levels in every game's ladder
SUFFIX = "-ladder"  # a ladder's report is named after its game with it: hill218-ladder


def ladder_agents(game: str) -> list[str]:
    """Random play, greedy and every level that plays ``game`` (``master`` where it ships)."""
    return [*BASELINES, *levels_for(game)]


def option_sets(game: str) -> list[dict[str, Any]]:
    """The options a game's ladder spreads its games over (its default options alone, unless
    the game names its battles)."""
    ref = info(game).ladder_options
    return [{}] if ref is None else list(resolve(ref)())


def ladder_specs(game: str, variants: list[dict[str, Any]], games: int, seed: int,
                 time_caps: bool, seconds: float | None = None) -> list[MatchSpec]:
    """Every game of ``game``'s ladder: ``games`` a pair on each of ``variants`` (its
    ``option_sets``)."""
    specs = []
    for n, options in enumerate(variants):
        specs += schedule(game, ladder_agents(game), games, seed * 1_009 + n, options,
                          time_caps=time_caps, seconds=seconds)
    return specs


def markdown_table(reports: list[ArenaReport]) -> str:
    """The ladder's table: each agent's Elo with its 95% interval in each game's report, and
    its seconds a decision, the strongest first (by the first game that has it); "—" where a
    game has no such agent (``master`` where no model ships)."""
    games = [rep.game.removesuffix(SUFFIX) for rep in reports]
    lines = [f"| agent | {' | '.join(f'{g} Elo (95%)' for g in games)} | "
             f"s / decision ({' / '.join(games)}) |",
             "|---|" + "---|" * (len(reports) + 1)]
    agents = list(dict.fromkeys(a for rep in reports for a in rep.agents))

    def strength(agent: str) -> float:
        return -next(rep.elo[agent] for rep in reports if agent in rep.elo)

    for agent in sorted(agents, key=strength):
        elo = [f"{round(rep.elo[agent])} ({round(rep.elo_interval[agent][0])}–"
               f"{round(rep.elo_interval[agent][1])})" if agent in rep.elo else "—"
               for rep in reports]
        seconds = " / ".join(f"{rep.decision_seconds[agent]:.3f}"
                             if agent in rep.decision_seconds else "—" for rep in reports)
        lines.append(f"| `{agent}` | {' | '.join(elo)} | {seconds} |")
    return "\n".join(lines) + "\n"


def every_report(out: Path, played: dict[str, ArenaReport]) -> list[ArenaReport]:
    """The ladder report of every game, in the registry's order: those just ``played``, and
    the others' from an earlier ladder in ``out`` where it has one (so that a ladder of one
    game leaves the others' rows of ``ladder.md`` in place)."""
    reports = []
    for game in game_names():
        path = report_path(out, game + SUFFIX)
        if game in played:
            reports.append(played[game])
        elif path.is_file():
            reports.append(ArenaReport.from_json(json.loads(path.read_text(encoding="utf-8"))))
    return reports


def run_ladder_command(args: argparse.Namespace) -> int:
    if args.games < 2 or args.games % 2:
        raise ValueError("--games must be even (both seat orders) and at least 2")
    unknown = sorted(set(args.game) - set(game_names()))
    if unknown:
        raise ValueError(f"unknown game {unknown[0]!r}: choose from {', '.join(game_names())}")
    console = Console(quiet=args.json)
    out = Path(args.out)
    reports = {}
    for game in args.game or game_names():
        variants = option_sets(game)
        specs = ladder_specs(game, variants, args.games, args.seed, not args.no_time_caps,
                             args.seconds)
        rep = play_tournament(args, console, game + SUFFIX, ladder_agents(game), specs,
                              args.games * len(variants))
        reports[game] = rep
        if args.json:
            print(json.dumps(rep.to_json()), flush=True)
    table = markdown_table(every_report(out, reports))
    path = out / "ladder.md"
    path.write_text(table, encoding="utf-8")
    console.print(table, markup=False)
    console.print(f"wrote {path}", markup=False)
    return 0
