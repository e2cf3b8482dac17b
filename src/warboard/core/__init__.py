"""Game-agnostic core: the state protocol, seeded chance, errors, records and replay."""

from warboard.core.errors import (
    DataFileError,
    IllegalActionError,
    PositionError,
    RecordError,
    WarboardError,
)
from warboard.core.protocol import CHANCE, TERMINAL, Game, State, sample_chance
from warboard.core.registry import game_names, make_game

__all__ = [
    "CHANCE", "TERMINAL", "DataFileError", "Game", "IllegalActionError", "PositionError",
    "RecordError", "State", "WarboardError", "game_names", "make_game", "sample_chance",
]
