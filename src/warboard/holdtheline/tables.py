"""Terrain effects and unit types of Hold the Line as validated data (``tables.toml``).

``TABLES`` is loaded once on import; a broken file raises ``DataFileError`` naming the field.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from warboard.core.datafile import Fields, load_packaged_toml
from warboard.core.errors import DataFileError
from warboard.holdtheline.scenario import UNIT_KINDS

TERRAINS = ("clear", "swamp", "waterway", "bridge", "ford", "forest", "hill", "town", "fence",
            "entrenchment")
MOVEMENT_KINDS = ("normal", "stop", "waterway", "impassable")
AP_COSTS = ("move", "fire", "assault", "dragoon_move_fire", "leader_bonus", "leader_move",
            "rally", "leader_dice", "force_march", "exit")


@dataclass(frozen=True)
class Terrain:
    name: str
    combat: int  # added to each attack die against a defender here
    movement: str  # one of MOVEMENT_KINDS
    blocks_los: bool
    morale: int  # added to a defender's close-combat morale here


@dataclass(frozen=True)
class UnitType:
    kind: str
    label: str
    movement: int
    fire: tuple[int, ...]  # hit number by range (index 0 = range 1)
    dice: int
    close: int  # close-combat hit number; 0 = may not initiate close combat
    infantry: bool
    max_mp: int

    @property
    def range(self) -> int:
        return len(self.fire)


@dataclass(frozen=True)
class Tables:
    terrain: dict[str, Terrain]
    units: dict[str, UnitType]
    leader_movement: int
    leader_escape: int
    ap: dict[str, int]


def parse_tables(name: str, data: dict[str, Any]) -> Tables:
    top = Fields(name, "", data)
    terr = top.sub("terrain")
    terrain: dict[str, Terrain] = {}
    for t in TERRAINS:
        f = terr.sub(t)
        terrain[t] = Terrain(t, f.int("combat", minimum=-3, maximum=3),
                             f.str("movement", choices=MOVEMENT_KINDS), f.bool("blocks_los"),
                             f.int("morale", minimum=-3, maximum=3))
        f.finish()
    terr.finish()
    us = top.sub("units")
    units: dict[str, UnitType] = {}
    for k in UNIT_KINDS:
        f = us.sub(k)
        fire = f.raw("fire")
        if (not isinstance(fire, list) or not fire
                or not all(isinstance(n, int) and not isinstance(n, bool) and 1 <= n <= 7
                           for n in fire)):
            raise f.error("fire", "must be a non-empty list of hit numbers 1..7")
        units[k] = UnitType(k, f.str("label"), f.int("movement", minimum=1, maximum=6),
                            tuple(fire), f.int("dice", minimum=1, maximum=6),
                            f.int("close", minimum=0, maximum=7), f.bool("infantry"),
                            f.int("max_mp", minimum=1, maximum=4))
        f.finish()
    us.finish()
    lf = top.sub("leader")
    leader_movement = lf.int("movement", minimum=1, maximum=6)
    leader_escape = lf.int("escape", minimum=1, maximum=6)
    lf.finish()
    af = top.sub("ap")
    ap = {k: af.int(k, minimum=0, maximum=6) for k in AP_COSTS}
    af.finish()
    top.finish()
    for k, u in units.items():
        if u.close and not u.infantry:
            raise DataFileError(name, f"units.{k}.close", "only infantry types may close combat")
    return Tables(terrain, units, leader_movement, leader_escape, ap)


def load_tables() -> Tables:
    name, data = load_packaged_toml("warboard.holdtheline", "tables.toml")
    return parse_tables(name, data)


TABLES = load_tables()
