"""What a Hold the Line scenario says (contract §5), as the engine uses it.

The TOML format and its validator live in ``scenario_file.py``; the engine and its tests only
need these plain, already-validated values (tests may build them directly).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from warboard.holdtheline.hexes import Hex

UNIT_KINDS = ("regular", "elite", "light", "militia", "dragoon", "artillery")
INFANTRY_KINDS = ("regular", "elite", "light", "militia")
EDGES = ("north", "south", "west", "east")


@dataclass(frozen=True)
class UnitSetup:
    id: str
    kind: str  # one of UNIT_KINDS
    mp: int  # starting MP (also the most a rally can bring it back to)
    at: Hex


@dataclass(frozen=True)
class LeaderSetup:
    id: str
    name: str
    at: Hex
    rating: tuple[int, int] = (1, 1)  # (combat dice, hits it can take) for option 11.6


@dataclass(frozen=True)
class Reinforcement:
    turn: int
    units: tuple[UnitSetup, ...] = ()
    leaders: tuple[LeaderSetup, ...] = ()
    entry: tuple[Hex, ...] = ()  # hexes where they may appear; empty = the hexes in `at`


@dataclass(frozen=True)
class Side:
    name: str  # e.g. "american"
    home_edges: tuple[str, ...]  # some of EDGES
    command_ap: tuple[int, ...]  # per turn (index 0 = turn 1); the last value repeats
    action_die: tuple[int, int, int] = (1, 2, 3)  # value of die faces 1, 2, 3 (remap: 3 -> 0)
    units: tuple[UnitSetup, ...] = ()
    leaders: tuple[LeaderSetup, ...] = ()
    vp_counters: tuple[Hex, ...] = ()  # this side's counters: the enemy scores by taking them
    vp_target: int | None = None  # wins at once on reaching this many VP (checked after a turn)
    objectives: tuple[tuple[Hex, int], ...] = ()  # (hex, VP) held by this side's combat unit
    exit_hexes: tuple[Hex, ...] = ()  # hexes from which this side's units may exit the board
    exit_vp: tuple[int, int] = (0, 0)  # (VP, per this many units exited), e.g. (2, 3)
    reinforcements: tuple[Reinforcement, ...] = ()
    label: str = ""  # how players call this side, e.g. "Hessians" (default: the name, capitalised)

    @property
    def display_name(self) -> str:
        return self.label or self.name.replace("_", " ").capitalize()

    def command_ap_on(self, turn: int) -> int:
        return self.command_ap[min(turn, len(self.command_ap)) - 1]


@dataclass(frozen=True)
class Scenario:
    name: str  # file stem, e.g. "trenton"
    title: str
    history: str
    cols: int
    rows: int
    terrain: dict[Hex, str]  # hexes not listed are clear
    sides: tuple[Side, Side]  # seat 0, seat 1
    first: int  # seat that moves first each turn
    turn_limit: int
    time_out_winner: int | None  # seat that wins when the turn limit passes; None = draw
    time_out_by_vp: bool = False  # at the turn limit the side with more VP wins (equal: draw)
    options: dict[str, object] = field(default_factory=dict)  # optional rules switched on
    special_rules: str = ""  # text shown to players
    summary: str = ""  # one line for scenario lists
    date: str = ""  # ISO date of the battle ("" for the tutorial)
    places: dict[Hex, str] = field(default_factory=dict)  # named hexes shown on the table

    def terrain_at(self, h: Hex) -> str:
        return self.terrain.get(h, "clear")
