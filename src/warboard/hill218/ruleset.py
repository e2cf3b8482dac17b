"""Ruleset data files (rulesets/*.toml): loading, validation, and the per-seat tables the engine
uses."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from warboard.core.datafile import Fields, load_packaged_toml, load_toml, type_name
from warboard.core.errors import DataFileError
from warboard.hill218.grid import orient

RULESETS = ("hill218", "ogre218")
SUPPLY_MODELS = ("pull", "push")
STRIKE_ICONS = ("airplane", "missile")  # the pictures the web table draws for a strike card


@dataclass(frozen=True)
class UnitType:
    """One unit card as printed: diagrams in the owner's frame."""

    name: str
    abbrev: str
    count: int
    supply: tuple[tuple[int, int], ...]
    attack: tuple[tuple[tuple[int, int], bool], ...]  # (offset, individual?)
    support: tuple[tuple[int, int], ...]
    attacks: int = 1
    counts_as: int = 1
    plays: int = 1
    drop: bool = False
    hit_becomes: str | None = None


@dataclass(frozen=True)
class SeatTables:
    """A ruleset's diagrams turned to one seat's board frame, as packed offsets, by unit id."""

    supply: tuple[tuple[int, ...], ...]
    supply_sets: tuple[frozenset[int], ...]
    supply_union: tuple[int, ...]
    attack: tuple[tuple[tuple[int, bool], ...], ...]
    support_sets: tuple[frozenset[int], ...]
    support_union: tuple[int, ...]
    # distinct attack diagrams as (combined offsets, individual offsets), and each unit's index
    attack_groups: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]
    attack_group_of: tuple[int, ...]


@dataclass(frozen=True)
class Ruleset:
    name: str
    title: str
    path: str
    supply_model: str
    strike_name: str
    strike_icon: str
    strikes: int
    hill_name: str
    base_name: str
    support_name: str
    units: tuple[UnitType, ...]
    handicap: tuple[str, str, str] | None  # (option name, unit, becomes)

    def __post_init__(self) -> None:
        ids = {u.name: i for i, u in enumerate(self.units)}
        object.__setattr__(self, "unit_ids", ids)
        object.__setattr__(self, "seat", tuple(self._seat_tables(s) for s in (0, 1)))
        becomes = tuple(ids[u.hit_becomes] if u.hit_becomes else -1 for u in self.units)
        object.__setattr__(self, "hit_becomes", becomes)
        # the card a hit-changed unit replaced: both count as destroyed with it (contract §7)
        origin = [-1] * len(self.units)
        for i, b in enumerate(becomes):
            if b >= 0:
                origin[b] = i
        object.__setattr__(self, "origin", tuple(origin))
        hits = []
        for i in range(len(self.units)):
            n, j = 1, i
            while becomes[j] >= 0:
                n, j = n + 1, becomes[j]
            hits.append(n)
        object.__setattr__(self, "hits_to_destroy", tuple(hits))
        object.__setattr__(self, "plays_cache", {})

    # derived in __post_init__
    unit_ids: dict[str, int] = field(init=False)
    seat: tuple[SeatTables, SeatTables] = field(init=False)
    hit_becomes: tuple[int, ...] = field(init=False)
    origin: tuple[int, ...] = field(init=False)
    hits_to_destroy: tuple[int, ...] = field(init=False)
    # legal plays by board, filled by the engine (CardState._board_plays)
    plays_cache: dict[Any, Any] = field(init=False, compare=False, repr=False)

    def unit_id(self, name: str) -> int:
        return self.unit_ids[name]

    def deck_counts(self) -> list[int]:
        return [u.count for u in self.units]

    def _seat_tables(self, seat: int) -> SeatTables:
        def pack_all(offsets: tuple[tuple[int, int], ...]) -> tuple[int, ...]:
            return tuple(orient(dx, dy, seat) for dx, dy in offsets)

        supply = tuple(pack_all(u.supply) for u in self.units)
        support = tuple(pack_all(u.support) for u in self.units)
        groups: list[tuple[tuple[int, ...], tuple[int, ...]]] = []
        group_of = []
        for u in self.units:
            group = (pack_all(tuple(o for o, ind in u.attack if not ind)),
                     pack_all(tuple(o for o, ind in u.attack if ind)))
            if group not in groups:
                groups.append(group)
            group_of.append(groups.index(group))
        return SeatTables(
            supply=supply,
            supply_sets=tuple(frozenset(s) for s in supply),
            supply_union=tuple(sorted({d for s in supply for d in s})),
            attack=tuple(
                tuple((orient(dx, dy, seat), ind) for (dx, dy), ind in u.attack)
                for u in self.units
            ),
            support_sets=tuple(frozenset(s) for s in support),
            support_union=tuple(sorted({d for s in support for d in s})),
            attack_groups=tuple(groups),
            attack_group_of=tuple(group_of),
        )


def unit_title(rules: Ruleset, name: str) -> str:
    """``heavy_weapons`` -> ``Heavy Weapons``; a word that is some unit's abbreviation stays
    upper case (``light_gev`` -> ``Light GEV``)."""
    abbrevs = {u.abbrev.lower() for u in rules.units}
    return " ".join(w.upper() if w in abbrevs else w.capitalize() for w in name.split("_"))


@cache
def load_ruleset(name: str) -> Ruleset:
    """A packaged ruleset by name (``hill218`` or ``ogre218``)."""
    if name not in RULESETS:
        raise ValueError(f"unknown ruleset {name!r}; choose one of {', '.join(RULESETS)}")
    path, data = load_packaged_toml("warboard.hill218.rulesets", f"{name}.toml")
    return parse_ruleset(path, data)


def load_ruleset_file(path: str | Path) -> Ruleset:
    name, data = load_toml(path)
    return parse_ruleset(name, data)


def parse_ruleset(path: str, data: dict[str, Any]) -> Ruleset:
    top = Fields(path, "", data)
    shapes = _parse_shapes(top.sub("shapes", {}))
    units_table = top.sub("units")
    if not units_table.table:
        raise DataFileError(path, "units", "must define at least one unit")
    units = []
    for name in units_table.table:
        units_table.seen.add(name)
        units.append(_parse_unit(units_table.sub(name), name, shapes))
    names = {u.name for u in units}
    abbrevs: dict[str, str] = {}
    for u in units:
        if u.hit_becomes is not None and u.hit_becomes not in names:
            raise DataFileError(path, f"units.{u.name}.hit_becomes",
                                f"names no unit of this ruleset: {u.hit_becomes!r}")
        if u.hit_becomes == u.name:
            raise DataFileError(path, f"units.{u.name}.hit_becomes", "cannot be the unit itself")
        if u.abbrev in abbrevs:
            raise DataFileError(path, f"units.{u.name}.abbrev",
                                f"{u.abbrev!r} is already used by {abbrevs[u.abbrev]}")
        abbrevs[u.abbrev] = u.name
    _check_no_hit_cycle(path, units)
    handicap = None
    if top.has("handicap"):
        h = top.sub("handicap")
        handicap = (h.str("option"), h.str("unit"), h.str("becomes"))
        h.finish()
        for key, unit in (("unit", handicap[1]), ("becomes", handicap[2])):
            if unit not in names:
                raise DataFileError(path, f"handicap.{key}", f"names no unit: {unit!r}")
    if sum(u.count for u in units) == 0:
        raise DataFileError(path, "units", "the deck would be empty (every count is 0)")
    ruleset = Ruleset(
        name=top.str("name"),
        title=top.str("title"),
        path=path,
        supply_model=top.str("supply_model", choices=SUPPLY_MODELS),
        strike_name=top.str("strike_name"),
        strike_icon=top.str("strike_icon", "airplane", choices=STRIKE_ICONS),
        strikes=top.int("strikes", minimum=0, maximum=9),
        hill_name=top.str("hill_name", "hill"),
        base_name=top.str("base_name", "base"),
        support_name=top.str("support_name", "support"),
        units=tuple(units),
        handicap=handicap,
    )
    top.finish()
    return ruleset


def _parse_shapes(table: Fields) -> dict[str, tuple[tuple[int, int], ...]]:
    shapes: dict[str, tuple[tuple[int, int], ...]] = {}
    for name, value in table.table.items():
        table.seen.add(name)
        shapes[name] = _parse_diagram(table.path, table.field(name), value, shapes)
    return shapes


def _parse_diagram(path: str, field: str, value: Any,
                   shapes: dict[str, tuple[tuple[int, int], ...]]) -> tuple[tuple[int, int], ...]:
    """A shape name, a list of shape names, or a list of [dx, dy] pairs (may be mixed)."""
    items = [value] if isinstance(value, str) else value
    if not isinstance(items, list):
        raise DataFileError(path, field, f"must be a shape name or a list of [dx, dy], "
                                         f"not {type_name(value)}")
    offsets: list[tuple[int, int]] = []
    for item in items:
        if isinstance(item, str):
            if item not in shapes:
                known = ", ".join(sorted(shapes)) or "none defined"
                raise DataFileError(path, field, f"unknown shape {item!r} (known: {known})")
            offsets.extend(shapes[item])
        elif (isinstance(item, list) and len(item) == 2
              and all(isinstance(v, int) and not isinstance(v, bool) for v in item)):
            if item == [0, 0]:
                raise DataFileError(path, field, "[0, 0] is the unit's own square")
            offsets.append((item[0], item[1]))
        else:
            raise DataFileError(path, field, f"{item!r} is not a shape name or an [dx, dy] "
                                             "pair of whole numbers")
    if len(set(offsets)) != len(offsets):
        raise DataFileError(path, field, "lists a square twice")
    return tuple(offsets)


def _parse_unit(f: Fields, name: str,
                shapes: dict[str, tuple[tuple[int, int], ...]]) -> UnitType:
    attack_f = f.sub("attack")
    combined = _parse_diagram(f.path, attack_f.field("combined"),
                              attack_f.raw("combined", []), shapes)
    individual = _parse_diagram(f.path, attack_f.field("individual"),
                                attack_f.raw("individual", []), shapes)
    attack_f.finish()
    both = set(combined) & set(individual)
    if both:
        raise attack_f.error("individual", f"square {sorted(both)[0]} is also combined")
    unit = UnitType(
        name=name,
        abbrev=f.str("abbrev"),
        count=f.int("count", minimum=0, maximum=99),
        supply=_parse_diagram(f.path, f.field("supply"), f.raw("supply"), shapes),
        attack=tuple((o, False) for o in combined) + tuple((o, True) for o in individual),
        support=_parse_diagram(f.path, f.field("support"), f.raw("support"), shapes),
        attacks=f.int("attacks", 1, minimum=1, maximum=4),
        counts_as=f.int("counts_as", 1, minimum=0, maximum=9),
        plays=f.int("plays", 1, minimum=1, maximum=2),
        drop=f.bool("drop", False),
        hit_becomes=f.str("hit_becomes") if f.has("hit_becomes") else None,
    )
    if len(unit.abbrev) > 4:
        raise f.error("abbrev", f"must be at most 4 characters, not {unit.abbrev!r}")
    f.finish()
    return unit


def _check_no_hit_cycle(path: str, units: list[UnitType]) -> None:
    by_name = {u.name: u for u in units}
    for u in units:
        seen = {u.name}
        cur = u
        while cur.hit_becomes:
            if cur.hit_becomes in seen:
                raise DataFileError(path, f"units.{u.name}.hit_becomes",
                                    "forms a cycle: a hit must eventually destroy the unit")
            seen.add(cur.hit_becomes)
            cur = by_name[cur.hit_becomes]
