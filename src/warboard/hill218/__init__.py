"""The card-placement engine: The Battle for Hill 218 and Ogre: Objective 218 (one engine, two
rulesets as data files).

The names below are imported on first use, so that the registry can read ``plugin`` (what
``warboard --help`` needs) without loading the engine.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from warboard.hill218.actions import Bury, Deploy, Draw, FirstPlayer, Strike
    from warboard.hill218.game import CardGame, make_game
    from warboard.hill218.ruleset import RULESETS, Ruleset, load_ruleset, load_ruleset_file
    from warboard.hill218.serialize import position_from_json, position_to_json
    from warboard.hill218.state import CardState

_HOMES = {
    "actions": ("Bury", "Deploy", "Draw", "FirstPlayer", "Strike"),
    "game": ("CardGame", "make_game"),
    "ruleset": ("RULESETS", "Ruleset", "load_ruleset", "load_ruleset_file"),
    "serialize": ("position_from_json", "position_to_json"),
    "state": ("CardState",),
}
_HOME = {name: module for module, names in _HOMES.items() for name in names}

__all__ = [
    "RULESETS", "Bury", "CardGame", "CardState", "Deploy", "Draw", "FirstPlayer", "Ruleset",
    "Strike", "load_ruleset", "load_ruleset_file", "make_game", "position_from_json",
    "position_to_json",
]


def __getattr__(name: str) -> Any:
    if name not in _HOME:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{_HOME[name]}"), name)
