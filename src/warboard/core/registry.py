"""Every game warboard knows, by name, made on demand (engines are imported only when used)."""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from types import ModuleType
from typing import Any

from warboard.core.protocol import Game

# name -> (module, factory function); the factory takes (name, options)
GAMES: dict[str, tuple[str, str]] = {
    "hill218": ("warboard.hill218.game", "make_game"),
    "ogre218": ("warboard.hill218.game", "make_game"),
    "holdtheline": ("warboard.holdtheline.game", "make_game"),
}

# name -> module answering the game's ``warboard rules`` queries (see core.interchange)
INTERCHANGES: dict[str, str] = {
    "hill218": "warboard.hill218.interchange",
    "ogre218": "warboard.hill218.interchange",
    "holdtheline": "warboard.holdtheline.interchange",
}


def game_names() -> list[str]:
    return list(GAMES)


def make_game(name: str, options: Mapping[str, Any] | None = None) -> Game:
    """The game ``name`` with ``options``; ``ValueError`` names what is wrong."""
    if not isinstance(name, str) or name not in GAMES:
        raise ValueError(f"unknown game {name!r}; games: {', '.join(GAMES)}")
    if options is not None and not isinstance(options, Mapping):
        raise ValueError(f"options: must be an object of option name to value, not "
                         f"{type(options).__name__}")
    module, factory = GAMES[name]
    return getattr(importlib.import_module(module), factory)(name, options)


def interchanges() -> list[ModuleType]:
    """The interchange modules of every game, each once, in the order of ``INTERCHANGES``."""
    return [importlib.import_module(m) for m in dict.fromkeys(INTERCHANGES.values())]
