"""Hold the Line's part of the ``warboard`` command (``GameInfo.cli``): its options of the
shared commands, and its own ``scenarios`` and ``balance`` commands and ``rules los`` query;
the battles ``warboard ladder`` plays (``GameInfo.ladder_options``)."""

from __future__ import annotations

import argparse
import os
from typing import Any

from warboard.core.registry import make_game


def add_arguments(command: str, group: argparse._ArgumentGroup) -> None:
    """Its options of ``warboard play``, ``warboard arena``, ``warboard bench`` and
    ``warboard train``."""
    if command == "play":
        scenario = group.add_mutually_exclusive_group()
        scenario.add_argument("--scenario", default=None, metavar="NAME",
                              help="the scenario (default: tutorial; 'warboard scenarios' lists "
                                   "them)")
        scenario.add_argument("--scenario-file", default=None, metavar="FILE",
                              help="play a scenario file of your own instead "
                                   "(docs/scenarios.md)")
        scenario.add_argument("--campaign", default=None, metavar="NAME",
                              help="play a campaign's battles in order ('warboard campaigns' "
                                   "lists them); saved after each battle (--save FILE, or "
                                   "the user data folder)")
        scenario.add_argument("--campaign-file", default=None, metavar="FILE",
                              help="play a campaign file of your own (docs/scenarios.md, "
                                   "\"Campaigns\")")
        scenario.add_argument("--resume", default=None, metavar="FILE",
                              help="go on with a saved campaign (the file --campaign saved)")
        group.add_argument("--side", default=None,
                           help="the side you play, by name (e.g. american, british) "
                                "(default: the scenario's first side)")
        group.add_argument("--rule", action="append", default=[], metavar="OPTION",
                           help="switch on an optional rule of section 11 by name or number "
                                "(e.g. leader_ratings or 11.6); may be repeated")
    elif command in ("arena", "train"):
        group.add_argument("--scenario", default=None, help="the scenario (default: tutorial)")
    elif command == "bench":
        group.add_argument("--scenario", default=None,
                           help="only this scenario (default: every one)")


def game_options(name: str, args: argparse.Namespace) -> dict[str, Any]:
    """The game's options from ``warboard arena``'s arguments, checked here so that a typo fails
    before any game."""
    options = {"scenario": args.scenario or "tutorial"}
    make_game(name, options)
    return options


def ladder_options() -> list[dict[str, Any]]:
    """``warboard ladder`` plays every battle of the rulebook (not the tutorial)."""
    from warboard.holdtheline.scenario_file import list_names

    return [{"scenario": name} for name in list_names() if name != "tutorial"]


def add_commands(commands: argparse._SubParsersAction, queries: argparse._SubParsersAction,
                 ) -> None:
    queries.add_parser("los", help="Hold the Line line-of-sight query per line -> {\"los\": ...}",
                       description='Each input line is a Hold the Line line-of-sight query '
                                   '{"cols", "rows", "terrain", "units", "from", "to"}; each '
                                   'output line is {"los": true|false} (docs/interchange.md).')

    scenarios = commands.add_parser(
        "scenarios", help="list the Hold the Line scenarios, show one, or check a scenario file",
        description="Without a name: every packaged Hold the Line scenario with its title, "
                    "turns, sides and a one-line summary. With a name: its details, special "
                    "rules and history note. With --check FILE: validate a scenario file of "
                    "your own and show it (exit status 1 if it is not valid). The format is in "
                    "docs/scenarios.md.")
    shown = scenarios.add_mutually_exclusive_group()
    shown.add_argument("name", nargs="?", help="a packaged scenario's name (e.g. trenton)")
    shown.add_argument("--check", metavar="FILE",
                       help="validate this scenario file (TOML, at most 1 MiB) and show it")
    scenarios.add_argument("--json", action="store_true",
                           help="print one JSON object instead of the text (docs/scenarios.md)")
    scenarios.set_defaults(run="warboard.holdtheline.scenario_file:run_scenarios")

    campaigns = commands.add_parser(
        "campaigns", help="list the Hold the Line campaigns, or show one",
        description="Without a name: every packaged Hold the Line campaign (rulebook 12) with "
                    "its battles in order. With a name: its battles, how the campaign is "
                    "scored and its history note. The format is in docs/scenarios.md, "
                    "\"Campaigns\".")
    campaigns.add_argument("name", nargs="?",
                           help="a packaged campaign's name (e.g. washingtons_christmas)")
    campaigns.add_argument("--json", action="store_true",
                           help="print one JSON object instead of the text")
    campaigns.set_defaults(run="warboard.holdtheline.campaign_cli:run_campaigns")

    balance = commands.add_parser(
        "balance", help="Hold the Line: AI-against-AI games to measure a scenario's balance",
        description="Play --games games of a Hold the Line scenario between computer players "
                    "(the same agent on both sides by default) and report each side's win "
                    "rate and the draws, with 95% intervals (Wilson's), how the games ended "
                    "and the mean VP. See docs/scenarios.md, \"Balance\".")
    balanced = balance.add_mutually_exclusive_group(required=True)
    balanced.add_argument("scenario", nargs="?", help="a packaged scenario's name (e.g. trenton)")
    balanced.add_argument("--scenario-file", metavar="FILE",
                          help="a scenario file of your own instead of a name")
    balance.add_argument("--games", type=int, default=40, help="games to play (default: 40)")
    balance.add_argument("--agents", default="hard",
                         help="the agent of both sides, or SIDE0,SIDE1 (random, greedy, "
                              "ismcts:LEVEL or a level; default: hard)")
    balance.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                         help="parallel worker processes (default: one per core)")
    balance.add_argument("--seed", type=int, default=1, help="seed (default: 1)")
    balance.add_argument("--no-time-caps", action="store_true",
                         help="levels search their full iteration budgets (results replay "
                              "exactly, whatever the machine's load)")
    balance.add_argument("--json", action="store_true", help="print one JSON object")
    balance.set_defaults(run="warboard.holdtheline.balance:run_balance_command")
