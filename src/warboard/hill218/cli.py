"""The card games' part of the ``warboard`` command (``GameInfo.cli``)."""

from __future__ import annotations

import argparse
from typing import Any


def _damaged_ogres(text: str) -> list[int]:
    try:
        a, b = (int(v) for v in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError("write it as N0,N1 (e.g. 1,0)") from None
    return [a, b]


def add_arguments(command: str, group: argparse._ArgumentGroup) -> None:
    """Their options of ``warboard play``, ``warboard arena``, ``warboard bench`` and
    ``warboard train``."""
    if command == "play":
        group.add_argument("--quick-start", action="store_true",
                           help="draw 3 cards and skip putting 2 under the deck")
        group.add_argument("--damaged-ogres", type=_damaged_ogres, metavar="N0,N1",
                           help="ogre218 handicap: Ogres that start damaged in each seat's deck")
    elif command in ("arena", "train"):
        group.add_argument("--quick-start", action="store_true",
                           help="play with the quick_start option")
    elif command == "bench":
        group.add_argument("--vector", action="store_true",
                           help="time the vector environment (warboard.hill218.vector) "
                                "instead: agent steps/s against random play, with and without "
                                "observations and masks (docs/adapters.md)")
        group.add_argument("--envs", type=int, default=32, metavar="N",
                           help="games stepped together by --vector (default: 32)")


def game_options(name: str, args: argparse.Namespace) -> dict[str, Any]:
    """The game's options from ``warboard arena``'s arguments."""
    return {"quick_start": True} if args.quick_start else {}


def add_commands(commands: argparse._SubParsersAction, queries: argparse._SubParsersAction,
                 ) -> None:
    """The card games have no command or ``rules`` query of their own."""
