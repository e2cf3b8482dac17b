"""``warboard ladder``: the published ladder, the round robin of every agent the computer plays
as (random play, greedy, and each level) for each game, with Elo ratings, their 95% intervals
and a chart (docs/ai.md, "The ladder").

A game whose battles differ (``GameInfo.ladder_options``: Hold the Line's) plays every pair
over each of them in turn, both seat orders on each, so that its ratings hold over all its
battles rather than one.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from rich.console import Console

from warboard.ai.arena import schedule
from warboard.ai.arena_cli import play_tournament
from warboard.ai.levels import LEVELS
from warboard.ai.match import MatchSpec
from warboard.core.registry import game_names, info, resolve

LADDER = ("random", "greedy", *LEVELS)


def option_sets(game: str) -> list[dict[str, Any]]:
    """The options a game's ladder spreads its games over (its default options alone, unless
    the game names its battles)."""
    ref = info(game).ladder_options
    return [{}] if ref is None else list(resolve(ref)())


def ladder_specs(game: str, games: int, seed: int, time_caps: bool) -> list[MatchSpec]:
    """Every game of ``game``'s ladder: ``games`` a pair on each of its option sets."""
    specs = []
    for n, options in enumerate(option_sets(game)):
        specs += schedule(game, list(LADDER), games, seed * 1_009 + n, options,
                          time_caps=time_caps)
    return specs


def run_ladder_command(args: argparse.Namespace) -> int:
    if args.games < 2 or args.games % 2:
        raise ValueError("--games must be even (both seat orders) and at least 2")
    unknown = sorted(set(args.game) - set(game_names()))
    if unknown:
        raise ValueError(f"unknown game {unknown[0]!r}: choose from {', '.join(game_names())}")
    console = Console(quiet=args.json)
    for game in args.game or game_names():
        specs = ladder_specs(game, args.games, args.seed, not args.no_time_caps)
        per_pair = args.games * len(option_sets(game))
        rep = play_tournament(args, console, f"{game}-ladder", list(LADDER), specs, per_pair)
        if args.json:
            print(json.dumps(rep.to_json()), flush=True)
    return 0
