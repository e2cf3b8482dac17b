"""Combat numbers (8.2, 8.4, 11.3-11.6, 11.14, 11.15): range, dice, hit numbers, modifiers.

``hit_on`` everywhere is the chart's hit number; a die hits when ``die + mod >= hit_on``. The
"lowest natural die that hits" shown to players is ``natural_hit_on(hit_on, mod)`` (7: none).
"""

from __future__ import annotations

from typing import NamedTuple

from warboard.holdtheline.options import Options
from warboard.holdtheline.tables import UnitType


class Profile(NamedTuple):
    dice: int
    hit_on: int  # chart hit number
    mod: int  # added to each die
    dist: int
    flank: bool

    @property
    def natural(self) -> int:
        return natural_hit_on(self.hit_on, self.mod)


def natural_hit_on(hit_on: int, mod: int) -> int:
    """The lowest die face (1..6) that hits, or 7 when none does."""
    for face in range(1, 7):
        if face + mod >= hit_on:
            return face
    return 7


def die_hits(face: int, hit_on: int, mod: int) -> bool:
    return face + mod >= hit_on


def fire_range(ut: UnitType, opts: Options, on_hill: bool) -> int:
    """Greatest range of fire: the chart (8.2.3), -1 with 11.15 (never below 1), +1 for
    artillery on a hill with 11.4."""
    r = ut.range
    if opts.grand_tactical:
        r = max(1, r - 1)
    if opts.artillery_hill_range and ut.kind == "artillery" and on_hill:
        r += 1
    return r


def fire_hit_number(ut: UnitType, dist: int) -> int:
    """The chart's hit number at ``dist`` (beyond the printed range: 6, rule 11.4)."""
    if dist <= ut.range:
        return ut.fire[dist - 1]
    return 6


def terrain_mod(terrain_combat: int, terrain: str, ut: UnitType, opts: Options) -> int:
    if opts.artillery_forest and ut.kind == "artillery" and terrain == "forest":
        return -2
    return terrain_combat


def dice_count(ut: UnitType, mp: int, opts: Options, leader_dice: int = 0) -> int:
    n = ut.dice
    if opts.elite_four_dice and ut.kind == "elite" and mp >= 3:
        n = 4
    return n + leader_dice
