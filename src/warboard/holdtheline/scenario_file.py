"""Hold the Line scenario files (TOML): reading, validation, and the packaged scenarios.

The format is documented field by field in ``docs/scenarios.md``. Every problem is a
``DataFileError`` whose message reads ``FILE: FIELD: PROBLEM``; the result is a
``warboard.holdtheline.scenario.Scenario``, the plain values the engine uses.
"""

from __future__ import annotations

import datetime
import json
import re
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

from warboard.core.datafile import (
    Fields,
    known_name,
    load_packaged_toml,
    load_toml,
    not_whole,
    packaged_names,
    type_msg,
)
from warboard.core.errors import DataFileError
from warboard.core.i18n import Msg, msg
from warboard.holdtheline.hexes import Hex, on_board
from warboard.holdtheline.options import BY_NUMBER, OPTIONS, Options
from warboard.holdtheline.scenario import (
    EDGES,
    INFANTRY_KINDS,
    UNIT_KINDS,
    LeaderSetup,
    Reinforcement,
    Scenario,
    Side,
    UnitSetup,
)
from warboard.holdtheline.tables import TABLES

PACKAGE = "warboard.holdtheline.scenarios"

# Terrain names and unit sizes come from the engine's tables (tables.toml), option names from
# options.py: one source of truth for each.
TERRAINS = tuple(TABLES.terrain)
IMPASSABLE = frozenset(t.name for t in TABLES.terrain.values() if t.movement == "impassable")

# One letter per terrain in a `map` picture.
MAP_LETTERS: dict[str, str] = {
    ".": "clear", "s": "swamp", "w": "waterway", "b": "bridge", "d": "ford", "f": "forest",
    "h": "hill", "t": "town", "n": "fence", "e": "entrenchment",
}
assert set(MAP_LETTERS.values()) == set(TERRAINS), "a terrain without a map letter"

MIN_SIZE, MAX_SIZE = 5, 30
MAX_TURNS = 50
MAX_COMMAND_AP = 12
NAME_RE = re.compile(r"^[a-z][a-z0-9_]*$")
ID_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]*$")


# ============================================================================ packaged scenarios
# What a game option, an adapter parameter or the server names is one of these, by name: the name
# is checked against the packaged set before anything is read, so it can never become a path.
# Files of one's own are read with load_scenario_file, which only the command line calls.

@cache
def scenario_names() -> tuple[str, ...]:
    """The packaged scenarios' names (file stems), sorted; the folder is listed once."""
    return packaged_names(PACKAGE)


@cache
def _packaged(name: str) -> Scenario:
    path, data = load_packaged_toml(PACKAGE, f"{name}.toml")
    return parse_scenario(path, data, name)


def load_scenario(name: object) -> Scenario:
    """A packaged scenario by name (``"trenton"``), read once; anything else, a path included,
    is a ``ValueError`` that lists the names."""
    return _packaged(known_name(name, scenario_names(), "scenario"))


def list_names() -> list[str]:
    """Packaged scenario names in list order: the tutorial first, then by date."""
    return [name for name, _, _ in list_scenarios()]


def list_scenarios() -> list[tuple[str, str, str]]:
    """``(name, title, summary)`` of every packaged scenario: undated ones (the tutorial) first,
    then by the date of the battle."""
    loaded = [_packaged(name) for name in scenario_names()]
    loaded.sort(key=lambda s: (s.date, s.name))
    return [(s.name, s.title, s.summary) for s in loaded]


# ============================================================================ parsing

def load_scenario_file(path: str | Path) -> Scenario:
    """A scenario file of one's own (``warboard play --scenario-file``): a regular file of at
    most 1 MiB (``load_toml``), named after its stem."""
    name, data = load_toml(path)
    return parse_scenario(name, data, Path(path).stem)


def parse_scenario(path: str, data: dict[str, Any], name: str) -> Scenario:
    """Validate a scenario's TOML data; ``path`` names the file in error messages."""
    return _Parser(path, data, name).scenario()


def _hex_text(h: Hex) -> str:
    return f"{h[0]},{h[1]}"


class _Parser:
    def __init__(self, path: str, data: dict[str, Any], name: str) -> None:
        self.path = path
        self.top = Fields(path, "", data)
        self.name = name
        self.cols = MIN_SIZE
        self.rows = MIN_SIZE
        self.terrain: dict[Hex, str] = {}
        self.ids: dict[str, str] = {}  # unit / leader id -> field where it was defined

    def error(self, where: str, problem: str | Msg) -> DataFileError:
        return DataFileError(self.path, where, problem)

    # ---------------------------------------------------------------- values
    def hex(self, where: str, value: Any) -> Hex:
        """A hex written "col,row" or [col, row]; it must be on the board."""
        if isinstance(value, str):
            # at most 9 digits: a number is never too long for int() (a client's text)
            m = re.fullmatch(r"\s*(-?\d{1,9})\s*,\s*(-?\d{1,9})\s*", value)
            if not m:
                raise self.error(where, msg("datafile.notHex", value=repr(value)))
            h = (int(m.group(1)), int(m.group(2)))
        elif (isinstance(value, list) and len(value) == 2
              and all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
            h = (value[0], value[1])
        else:
            raise self.error(where, msg("datafile.notHex", value=type_msg(value)))
        if not on_board(h, self.cols, self.rows):
            raise self.error(where, msg("datafile.offBoard", hex=_hex_text(h),
                                        lastCol=self.cols - 1, lastRow=self.rows - 1))
        return h

    def passable_hex(self, where: str, value: Any, what: Msg) -> Hex:
        h = self.hex(where, value)
        terrain = self.terrain.get(h, "clear")
        if terrain in IMPASSABLE:
            raise self.error(where, msg("datafile.impassableHex", what=what, hex=_hex_text(h),
                                        terrain=terrain))
        return h

    def hexes(self, fields: Fields, key: str, default: Any = ()) -> tuple[Hex, ...]:
        value = fields.raw(key, list(default))
        where = fields.field(key)
        if not isinstance(value, list):
            raise self.error(where, msg("datafile.notHexList", type=type_msg(value)))
        out = [self.hex(f"{where}[{i}]", v) for i, v in enumerate(value)]
        for i, h in enumerate(out):
            if h in out[:i]:
                raise self.error(f"{where}[{i}]", msg("datafile.hexTwice", hex=_hex_text(h)))
        return tuple(out)

    def table_list(self, fields: Fields, key: str) -> list[Fields]:
        value = fields.raw(key, [])
        where = fields.field(key)
        if not isinstance(value, list):
            raise self.error(where, msg("datafile.notTableList", type=type_msg(value)))
        return [Fields(self.path, f"{where}[{i}]", v) for i, v in enumerate(value)]

    def text(self, fields: Fields, key: str, default: Any = ...) -> str:
        value = fields.raw(key, default)
        if not isinstance(value, str):
            raise fields.error(key, msg("datafile.notString", type=type_msg(value)))
        if default is ... and not value.strip():
            raise fields.error(key, msg("datafile.empty"))
        return value.strip()

    # ---------------------------------------------------------------- the file
    def scenario(self) -> Scenario:
        top = self.top
        title = self.text(top, "title")
        summary = self.text(top, "summary")
        if "\n" in summary:
            raise top.error("summary", msg("datafile.notOneLine"))
        history = self.text(top, "history")
        special = self.text(top, "special_rules", "")
        date = top.raw("date", "")
        if isinstance(date, datetime.date) and not isinstance(date, datetime.datetime):
            date = date.isoformat()
        elif date != "":
            raise top.error("date", msg("datafile.notDate", type=type_msg(date)))
        self.cols = top.int("cols", 13, minimum=MIN_SIZE, maximum=MAX_SIZE)
        self.rows = top.int("rows", 9, minimum=MIN_SIZE, maximum=MAX_SIZE)
        turn_limit = top.int("turn_limit", minimum=1, maximum=MAX_TURNS)
        self.read_map()
        self.read_terrain()
        places = self.read_places()
        options = self.read_options()

        sides_table = top.sub("sides")
        names = list(sides_table.table)
        if len(names) != 2:
            raise self.error("sides", msg("datafile.notTwoSides", found=len(names)))
        for n in names:
            if not NAME_RE.match(n):
                raise self.error(f"sides.{n}", msg("datafile.badSideName"))
        sides = tuple(self.read_side(sides_table.sub(n), n, turn_limit) for n in names)
        sides_table.seen.update(names)
        self.check_board(sides)

        first = top.str("first")
        if first not in names:
            raise top.error("first", msg("datafile.notSide", sides=", ".join(names),
                                         value=repr(first)))
        time_out = top.str("time_out")
        if time_out not in (*names, "draw", "vp"):
            raise top.error("time_out", msg("datafile.notTimeOut", sides=", ".join(names),
                                            value=repr(time_out)))
        top.finish()
        return Scenario(
            name=self.name, title=title, history=history, cols=self.cols, rows=self.rows,
            terrain=dict(self.terrain), sides=(sides[0], sides[1]),
            first=names.index(first), turn_limit=turn_limit,
            time_out_winner=names.index(time_out) if time_out in names else None,
            time_out_by_vp=time_out == "vp",
            options=options, special_rules=special, summary=summary, date=date, places=places,
        )

    def read_map(self) -> None:
        picture = self.top.raw("map", None)
        if picture is None:
            return
        if not isinstance(picture, str):
            raise self.top.error("map", msg("datafile.notMap", type=type_msg(picture)))
        lines = [line for line in picture.splitlines() if line.strip()]
        if len(lines) != self.rows:
            raise self.top.error("map", msg("datafile.mapRows", found=len(lines),
                                            rows=self.rows))
        for row, line in enumerate(lines):
            letters = line.split()
            if len(letters) != self.cols:
                raise self.top.error("map", msg("datafile.mapCols", row=row, found=len(letters),
                                                cols=self.cols))
            for col, letter in enumerate(letters):
                if letter not in MAP_LETTERS:
                    known = ", ".join(f"{k} {v}" for k, v in MAP_LETTERS.items())
                    raise self.top.error("map", msg("datafile.mapLetter", hex=f"{col},{row}",
                                                    letter=repr(letter), known=known))
                if MAP_LETTERS[letter] != "clear":
                    self.terrain[(col, row)] = MAP_LETTERS[letter]

    def read_terrain(self) -> None:
        table = self.top.sub("terrain", {})
        for terrain in table.table:
            if terrain not in TERRAINS:
                raise table.error(terrain, msg("datafile.unknownTerrain",
                                               terrains=", ".join(TERRAINS)))
            for i, h in enumerate(self.hexes(table, terrain)):
                if h in self.terrain:
                    raise self.error(f"{table.field(terrain)}[{i}]",
                                     msg("datafile.terrainTwice", hex=_hex_text(h),
                                         terrain=self.terrain[h]))
                if terrain != "clear":
                    self.terrain[h] = terrain
        table.finish()

    def read_places(self) -> dict[Hex, str]:
        table = self.top.sub("places", {})
        places = {}
        for key in table.table:
            places[self.hex(f'places."{key}"', key)] = self.text(table, key)
        return places

    def read_options(self) -> dict[str, object]:
        """``options = ["leader_ratings", "11.10"]`` (switched on) or a table of values
        (``[options] ap_adjust = [1, 0]``); names or rule numbers, stored by name."""
        value = self.top.raw("options", [])
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            value = {v: True for v in value}
        if not isinstance(value, dict):
            raise self.top.error("options", msg("datafile.notOptions", type=type_msg(value)))
        out: dict[str, object] = {}
        for key, v in value.items():
            name = BY_NUMBER.get(key, key)
            if name not in OPTIONS:
                raise self.error(f"options.{key}",
                                 msg("datafile.unknownOption", options=", ".join(OPTIONS)))
            try:
                Options.from_mapping({name: v})
            except ValueError as exc:
                raise self.error(f"options.{key}", str(exc)) from None
            out[name] = v
        try:
            Options.from_mapping(out)
        except ValueError as exc:
            raise self.error("options", str(exc)) from None
        return out

    # ---------------------------------------------------------------- sides
    def read_side(self, f: Fields, name: str, turn_limit: int) -> Side:
        label = self.text(f, "label", "")
        home = self.read_home(f)
        command = self.read_command_ap(f, turn_limit)
        die = self.read_action_die(f)
        vp_target = f.raw("vp_target", None)
        if vp_target is not None:
            vp_target = f.int("vp_target", minimum=1, maximum=99)
        units = tuple(self.read_unit(u) for u in self.table_list(f, "units"))
        leaders = tuple(self.read_leader(ld) for ld in self.table_list(f, "leaders"))
        vp_counters = tuple(self.passable_hex(f"{f.field('vp_counters')}[{i}]", v,
                                              msg("datafile.what.vpCounter"))
                            for i, v in enumerate(self.hex_list(f, "vp_counters")))
        objectives = []
        for o in self.table_list(f, "objectives"):
            h = self.passable_hex(o.field("at"), o.raw("at"), msg("datafile.what.objective"))
            objectives.append((h, o.int("vp", 1, minimum=1, maximum=99)))
            o.finish()
        exits, exit_vp = self.read_exits(f)
        reinforcements = tuple(self.read_reinforcement(r, turn_limit)
                               for r in self.table_list(f, "reinforcements"))
        f.finish()
        return Side(
            name=name, home_edges=home, command_ap=command, action_die=die, units=units,
            leaders=leaders, vp_counters=vp_counters, vp_target=vp_target,
            objectives=tuple(objectives), exit_hexes=exits, exit_vp=exit_vp,
            reinforcements=reinforcements, label=label,
        )

    def read_home(self, f: Fields) -> tuple[str, ...]:
        """``home``: an edge or a list of edges, none twice."""
        home = f.raw("home")
        if isinstance(home, str):
            home = [home]
        if not isinstance(home, list) or not home:
            raise f.error("home", msg("datafile.notHome", edges=", ".join(EDGES)))
        for edge in home:
            if edge not in EDGES:
                raise f.error("home", msg("datafile.unknownEdge", edge=repr(edge),
                                          edges=", ".join(EDGES)))
        if len(set(home)) != len(home):
            raise f.error("home", msg("datafile.edgeTwice"))
        return tuple(home)

    def read_command_ap(self, f: Fields, turn_limit: int) -> tuple[int, ...]:
        """``command_ap``: a number, or one per turn (the last repeating)."""
        command = f.raw("command_ap")
        if isinstance(command, int) and not isinstance(command, bool):
            command = [command]
        if (not isinstance(command, list) or not command
                or not all(isinstance(v, int) and not isinstance(v, bool) for v in command)):
            raise f.error("command_ap", msg("datafile.notCommandAp"))
        if len(command) > turn_limit:
            raise f.error("command_ap", msg("datafile.commandApTurns", found=len(command),
                                            turns=turn_limit))
        for v in command:
            if not 0 <= v <= MAX_COMMAND_AP:
                raise f.error("command_ap", msg("datafile.commandApRange", most=MAX_COMMAND_AP,
                                                value=v))
        return tuple(command)

    def read_action_die(self, f: Fields) -> tuple[int, int, int]:
        die = f.raw("action_die", [1, 2, 3])
        if (not isinstance(die, list) or len(die) != 3
                or not all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 6
                           for v in die)):
            raise f.error("action_die", msg("datafile.notActionDie"))
        return (die[0], die[1], die[2])

    def read_exits(self, f: Fields) -> tuple[tuple[Hex, ...], tuple[int, int]]:
        """``exits`` (hexes on the board's edge) and ``exit_vp`` ([VP, per this many units])."""
        exits = self.hexes(f, "exits")
        for i, h in enumerate(exits):
            if not (h[0] in (0, self.cols - 1) or h[1] in (0, self.rows - 1)):
                raise self.error(f"{f.field('exits')}[{i}]",
                                 msg("datafile.exitNotOnEdge", hex=_hex_text(h)))
        exit_vp = f.raw("exit_vp", [1, 1] if exits else [0, 0])
        if (not isinstance(exit_vp, list) or len(exit_vp) != 2
                or not all(isinstance(v, int) and not isinstance(v, bool) for v in exit_vp)
                or exit_vp[0] < 0 or exit_vp[1] < (1 if exits else 0)):
            raise f.error("exit_vp", msg("datafile.notExitVp"))
        if exit_vp[0] and not exits:
            raise f.error("exit_vp", msg("datafile.exitVpNoExits"))
        return exits, (exit_vp[0], exit_vp[1])

    def hex_list(self, f: Fields, key: str) -> list[Any]:
        value = f.raw(key, [])
        if not isinstance(value, list):
            raise f.error(key, msg("datafile.notHexList", type=type_msg(value)))
        return value

    def new_id(self, where: str, value: str) -> None:
        if not ID_RE.match(value):
            raise self.error(where, msg("datafile.badId", id=repr(value)))
        if value in self.ids:
            raise self.error(where, msg("datafile.idTwice", id=repr(value),
                                        where=self.ids[value]))
        self.ids[value] = where

    def read_unit(self, u: Fields) -> UnitSetup:
        uid = u.str("id")
        self.new_id(u.field("id"), uid)
        kind = u.str("kind")
        if kind not in UNIT_KINDS:
            raise u.error("kind", msg("datafile.unknownKind", kind=repr(kind),
                                      kinds=", ".join(UNIT_KINDS)))
        # full size by default (3.4); a scenario may start a unit reduced, never above its size
        high = TABLES.units[kind].max_mp
        mp = u.raw("mp", high)
        if isinstance(mp, bool) or not isinstance(mp, int):
            raise u.error("mp", not_whole(mp))
        if not 1 <= mp <= high:
            allowed = msg("datafile.mpOne") if high == 1 else msg("datafile.mpUpTo", most=high)
            raise u.error("mp", msg("datafile.mpRange", kind=kind, allowed=allowed, most=high,
                                    value=mp))
        at = self.passable_hex(u.field("at"), u.raw("at"),
                               msg("datafile.what.unit", id=uid))
        u.finish()
        return UnitSetup(id=uid, kind=kind, mp=mp, at=at)

    def read_leader(self, f: Fields) -> LeaderSetup:
        name = self.text(f, "name")
        lid = f.str("id", re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_") or "leader")
        self.new_id(f.field("id") if f.has("id") else f.field("name"), lid)
        rating = f.raw("rating", [1, 1])
        if (not isinstance(rating, list) or len(rating) != 2
                or not all(isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= 2
                           for v in rating)):
            raise f.error("rating", msg("datafile.notRating"))
        at = self.passable_hex(f.field("at"), f.raw("at"),
                               msg("datafile.what.leader", name=name))
        f.finish()
        return LeaderSetup(id=lid, name=name, at=at, rating=(rating[0], rating[1]))

    def read_reinforcement(self, r: Fields, turn_limit: int) -> Reinforcement:
        turn = r.int("turn", minimum=2, maximum=turn_limit)
        units = tuple(self.read_unit(u) for u in self.table_list(r, "units"))
        leaders = tuple(self.read_leader(ld) for ld in self.table_list(r, "leaders"))
        if not units and not leaders:
            raise r.error("units", msg("datafile.emptyReinforcement"))
        entry = self.hexes(r, "entry")
        for i, h in enumerate(entry):
            if self.terrain.get(h, "clear") in IMPASSABLE:
                raise self.error(f"{r.field('entry')}[{i}]",
                                 msg("datafile.impassableEntry", hex=_hex_text(h),
                                     terrain=self.terrain[h]))
        self.check_stacking([(0, u, f"{r.field('units')}[{i}]") for i, u in enumerate(units)],
                            [(0, ld, f"{r.field('leaders')}[{i}]")
                             for i, ld in enumerate(leaders)])
        r.finish()
        return Reinforcement(turn=turn, units=units, leaders=leaders, entry=entry)

    # ---------------------------------------------------------------- the whole board
    def check_board(self, sides: tuple[Side, ...]) -> None:
        units = [(s, u, f"sides.{side.name}.units[{i}]") for s, side in enumerate(sides)
                 for i, u in enumerate(side.units)]
        leaders = [(s, ld, f"sides.{side.name}.leaders[{i}]") for s, side in enumerate(sides)
                   for i, ld in enumerate(side.leaders)]
        self.check_stacking(units, leaders)
        counters: dict[Hex, str] = {}
        for side in sides:
            for i, h in enumerate(side.vp_counters):
                where = f"sides.{side.name}.vp_counters[{i}]"
                if h in counters:
                    raise self.error(where, msg("datafile.counterTwice", hex=_hex_text(h),
                                                where=counters[h]))
                counters[h] = where

    def check_stacking(self, units: list[tuple[int, UnitSetup, str]],
                       leaders: list[tuple[int, LeaderSetup, str]]) -> None:
        """4.3: one infantry-type unit or dragoon per hex, one artillery per hex, one leader per
        hex; and no hex holds both sides' units."""
        foot: dict[Hex, UnitSetup] = {}
        guns: dict[Hex, UnitSetup] = {}
        owner: dict[Hex, int] = {}
        for side, u, place in units:
            if u.at in owner and owner[u.at] != side:
                raise self.error(place, msg("datafile.unitWithEnemy", id=u.id,
                                            hex=_hex_text(u.at)))
            owner[u.at] = side
            table = guns if u.kind == "artillery" else foot
            other = table.get(u.at)
            if other is not None:
                infantry = u.kind in INFANTRY_KINDS
                what = (msg("datafile.stack.artillery") if u.kind == "artillery" else
                        msg("datafile.stack.mixed") if infantry != (other.kind in INFANTRY_KINDS)
                        else msg("datafile.stack.infantry") if infantry
                        else msg("datafile.stack.dragoons"))
                raise self.error(place, msg("datafile.overstacked", id=u.id, other=other.id,
                                            what=what, hex=_hex_text(u.at)))
            table[u.at] = u
        seen: dict[Hex, LeaderSetup] = {}
        for side, ld, place in leaders:
            if ld.at in seen:
                raise self.error(place, msg("datafile.leadersTogether", first=seen[ld.at].name,
                                            second=ld.name, hex=_hex_text(ld.at)))
            if ld.at in owner and owner[ld.at] != side:
                raise self.error(place, msg("datafile.leaderWithEnemy", name=ld.name,
                                            hex=_hex_text(ld.at)))
            seen[ld.at] = ld


# ============================================================================ warboard scenarios

def time_out_text(scenario: Scenario) -> str:
    if scenario.time_out_by_vp:
        return "the side with more VP wins (equal VP: a draw)."
    if scenario.time_out_winner is None:
        return "a draw."
    return f"{scenario.sides[scenario.time_out_winner].display_name} win."


def describe(scenario: Scenario) -> str:
    """Everything a player wants to know before choosing a scenario, as text."""
    letters = {v: k for k, v in MAP_LETTERS.items()}
    lines = [f"{scenario.title}" + (f" ({scenario.date})" if scenario.date else "")
             + f" — {scenario.name}",
             scenario.summary, "",
             f"Board {scenario.cols}x{scenario.rows}, {scenario.turn_limit} turns; "
             f"{scenario.sides[scenario.first].display_name} move first. When time runs out: "
             + time_out_text(scenario)]
    if scenario.options:
        lines.append("Options: " + ", ".join(
            f"{k} ({OPTIONS[k][0]})" + ("" if v is True else f" = {v}")
            for k, v in scenario.options.items()))
    for seat, side in enumerate(scenario.sides):
        lines += _describe_side(scenario, seat, side)
    lines += ["", "Map (north at the top):"]
    for row in range(scenario.rows):
        lines.append(("  " if row % 2 == 0 else "   ") + " ".join(
            letters[scenario.terrain_at((col, row))] for col in range(scenario.cols)))
    lines.append("  " + ", ".join(f"{k} {v}" for k, v in MAP_LETTERS.items()))
    if scenario.places:
        lines.append("  places: " + "; ".join(f"{_hex_text(h)} {n}"
                                              for h, n in scenario.places.items()))
    if scenario.special_rules:
        lines += ["", "Special rules:", *_wrap(scenario.special_rules)]
    lines += ["", "History:", *_wrap(scenario.history)]
    return "\n".join(lines)


def _describe_side(scenario: Scenario, seat: int, side: Side) -> list[str]:
    """A side in ``describe``: home edge, command AP, how it wins, its forces."""
    lines: list[str] = []
    lines += ["", f"Seat {seat}: {side.display_name} ({side.name}), home edge "
                  f"{' and '.join(side.home_edges)}"]
    ap = ", ".join(str(v) for v in side.command_ap)
    die = "" if side.action_die == (1, 2, 3) else \
        f"; action die 1/2/3 counts {'/'.join(str(v) for v in side.action_die)}"
    lines.append(f"  command AP {ap}" + (" (then the last repeats)"
                                         if len(side.command_ap) > 1 else "") + die)
    win = [f"wins at {side.vp_target} VP" if side.vp_target else "no VP target"]
    win += [f"{vp} VP for holding {_hex_text(h)}" + _place(scenario, h)
            for h, vp in side.objectives]
    if side.exit_hexes:
        win.append(f"{side.exit_vp[0]} VP per {side.exit_vp[1]} units exited from "
                   + ", ".join(_hex_text(h) for h in side.exit_hexes))
    lines.append("  " + "; ".join(win))
    kinds: dict[str, int] = {}
    for u in side.units:
        kinds[u.kind] = kinds.get(u.kind, 0) + 1
    lines.append("  units: " + ", ".join(f"{n} {TABLES.units[k].label}"
                                         for k, n in kinds.items()))
    if side.leaders:
        lines.append("  leaders: " + ", ".join(
            f"{ld.name} {ld.rating[0]}/{ld.rating[1]} at {_hex_text(ld.at)}"
            for ld in side.leaders))
    if side.vp_counters:
        lines.append("  VP counters: " + ", ".join(_hex_text(h) + _place(scenario, h)
                                                  for h in side.vp_counters))
    for r in side.reinforcements:
        lines.append(f"  turn {r.turn}: {len(r.units)} units and {len(r.leaders)} leaders "
                     "arrive")
    return lines


def _place(scenario: Scenario, h: Hex) -> str:
    return f" ({scenario.places[h]})" if h in scenario.places else ""


def _wrap(text: str) -> list[str]:
    import textwrap

    return textwrap.wrap(text, 96, initial_indent="  ", subsequent_indent="  ")


def scenario_option(args: Any) -> str | Scenario:
    """The ``scenario`` option of ``make_game`` from ``--scenario NAME`` (the tutorial by
    default) or ``--scenario-file FILE``: the command line is where a path may name a scenario."""
    from warboard.holdtheline.game import DEFAULT_SCENARIO

    if args.scenario_file:
        return load_scenario_file(args.scenario_file)
    name = args.scenario or DEFAULT_SCENARIO
    _named(name, "--scenario-file FILE")
    return name


def _named(name: str, file_option: str) -> Scenario:
    """``load_scenario`` for a command line: an unknown name says how to read a file instead."""
    try:
        return load_scenario(name)
    except ValueError as exc:
        raise ValueError(f"{exc} (a scenario file of your own: {file_option})") from None


def summary_json(scenario: Scenario) -> dict[str, Any]:
    """One line of the scenario list as data (``warboard scenarios --json``, the lobby)."""
    return {"name": scenario.name, "title": scenario.title, "summary": scenario.summary,
            "date": scenario.date or None, "turns": scenario.turn_limit,
            "first": scenario.first,
            "sides": [{"name": side.name, "label": side.display_name,
                       "home_edges": list(side.home_edges)} for side in scenario.sides]}


def details_json(scenario: Scenario) -> dict[str, Any]:
    """``warboard scenarios NAME --json``: the summary and what ``describe`` adds in words."""
    out = summary_json(scenario)
    for side, data in zip(scenario.sides, out["sides"], strict=True):
        data.update(vp_target=side.vp_target, units=len(side.units), leaders=len(side.leaders),
                    reinforcements=[{"turn": r.turn, "units": len(r.units),
                                     "leaders": len(r.leaders)} for r in side.reinforcements])
    out.update(cols=scenario.cols, rows=scenario.rows, time_out=time_out_text(scenario),
               options=scenario.options, special_rules=scenario.special_rules,
               history=scenario.history)
    return out


def run_scenarios(args: Any) -> int:
    """``warboard scenarios [NAME | --check FILE] [--json]``."""
    # a packaged scenario's words in other languages (translations imports this module)
    from warboard.holdtheline.lobby import scenario_summaries
    from warboard.holdtheline.translations import scenario_words

    if args.check or args.name:
        scenario = (load_scenario_file(args.check) if args.check
                    else _named(args.name, "--check FILE"))
        if args.json:
            words = {} if args.check else {"words": scenario_words(scenario)}
            print(json.dumps(details_json(scenario) | words, ensure_ascii=False))
        elif args.check:
            print(f"{args.check}: OK — {scenario.title}: {scenario.summary}\n\n"
                  f"{describe(scenario)}")
        else:
            print(describe(scenario))
        return 0
    if args.json:
        print(json.dumps({"scenarios": scenario_summaries()}, ensure_ascii=False))
        return 0
    rows = []
    for name in list_names():
        scenario = _packaged(name)
        a, b = scenario.sides
        first = "*"
        sides = (f"{a.display_name}{first if scenario.first == 0 else ''} v "
                 f"{b.display_name}{first if scenario.first == 1 else ''}")
        rows.append((name, scenario.title, str(scenario.turn_limit), sides, scenario.summary))
    print_columns(("name", "title", "turns", "sides (* moves first)", "summary"), rows)
    print("\n'warboard scenarios NAME' shows one; 'warboard play holdtheline --scenario NAME' "
          "plays it; 'warboard scenarios --check FILE' checks a file of your own.")
    return 0


def print_columns(head: tuple[str, ...], rows: Sequence[tuple[str, ...]]) -> None:
    """A list for the terminal: columns padded to their widest, the last one left ragged."""
    last = len(head) - 1
    widths = [max(len(r[i]) for r in (head, *rows)) for i in range(last)]
    for r in (head, *rows):
        print("  ".join(c.ljust(w) for c, w in zip(r[:last], widths, strict=True)) + "  "
              + r[last])
