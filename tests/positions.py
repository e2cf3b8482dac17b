"""Small builders for contract §7 positions and plays, shared by the rules tests.

Also holds the §2 card tables of the rules contract (../shared/rules/hill218.md), written out
independently of the ruleset data files, so tests can check the data and the engine against them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, NamedTuple

from warboard.hill218.interchange import legal

Cell = tuple[int, int]
HILL: Cell = (0, 0)
BASE: tuple[Cell, Cell] = ((0, -1), (0, 1))

# the same role in each ruleset (contract §2: "the six standard units mirror their Hill 218
# counterparts")
ROLES = {
    "hill218": {"inf": "infantry", "hw": "heavy_weapons", "sf": "special_forces",
                "tank": "tank", "art": "artillery", "drop": "paratroopers"},
    "ogre218": {"inf": "infantry", "hw": "missile_tank", "sf": "gev",
                "tank": "heavy_tank", "art": "howitzer", "drop": "light_gev"},
}
BOTH = ("hill218", "ogre218")


# ----------------------------------------------------------------------------- positions

def u(x: int, y: int, seat: int, unit: str) -> dict[str, Any]:
    """One board entry."""
    return {"x": x, "y": y, "seat": seat, "unit": unit}


def position(ruleset: str = "hill218", board: Iterable[dict[str, Any]] = (),
             hands: Sequence[Mapping[str, int]] = ({}, {}), *, to_move: int = 0,
             plays_left: int = 2, strikes: Sequence[int] = (2, 2),
             decks: Sequence[Sequence[str]] = ((), ()),
             destroyed: Sequence[Mapping[str, int]] | None = None) -> dict[str, Any]:
    """A contract §7 position (a fresh dict every call)."""
    pos: dict[str, Any] = {
        "ruleset": ruleset,
        "to_move": to_move,
        "plays_left": plays_left,
        "board": [dict(e) for e in board],
        "hands": [dict(hands[0]), dict(hands[1])],
        "strikes": list(strikes),
        "decks": [list(decks[0]), list(decks[1])],
    }
    if destroyed is not None:
        pos["destroyed"] = [dict(destroyed[0]), dict(destroyed[1])]
    return pos


def board_map(pos: Mapping[str, Any]) -> dict[Cell, tuple[int, str]]:
    """{(x, y): (seat, unit)} of a position's board."""
    return {(e["x"], e["y"]): (e["seat"], e["unit"]) for e in pos["board"]}


def nonzero(counts: Mapping[str, int]) -> dict[str, int]:
    return {k: v for k, v in counts.items() if v}


# ----------------------------------------------------------------------------- plays

def deploy(unit: str, at: Cell, *attacks: Cell) -> dict[str, Any]:
    return {"play": "deploy", "unit": unit, "at": list(at), "attacks": [list(t) for t in attacks]}


def strike(target: Cell) -> dict[str, Any]:
    return {"play": "strike", "target": list(target)}


class Key(NamedTuple):
    """A play as a hashable value: ("deploy", unit, at, attacks) or ("strike", None, target, ())."""

    kind: str
    unit: str | None
    at: Cell
    attacks: tuple[Cell, ...]


def key(play: Mapping[str, Any]) -> Key:
    if play["play"] == "strike":
        return Key("strike", None, tuple(play["target"]), ())
    return Key("deploy", play["unit"], tuple(play["at"]),
               tuple(tuple(t) for t in play.get("attacks", [])))


def keys(plays: Iterable[Mapping[str, Any]]) -> list[Key]:
    return [key(p) for p in plays]


def legal_keys(pos: Mapping[str, Any]) -> set[Key]:
    """The legal plays of a position as a set (asserting that none is listed twice)."""
    ks = keys(legal(pos))
    assert len(ks) == len(set(ks)), "a legal play is listed twice"
    return set(ks)


def cells_for(plays: Iterable[Key], unit: str) -> set[Cell]:
    """Cells where ``unit`` may be deployed."""
    return {k.at for k in plays if k.kind == "deploy" and k.unit == unit}


def hits_for(plays: Iterable[Key], unit: str, at: Cell) -> set[tuple[Cell, ...]]:
    """Every legal attack sequence of ``unit`` deployed at ``at``."""
    return {k.attacks for k in plays if k.kind == "deploy" and k.unit == unit and k.at == at}


def strike_targets(plays: Iterable[Key]) -> set[Cell]:
    return {k.at for k in plays if k.kind == "strike"}


# ----------------------------------------------------------------------------- contract §2

ORTH: tuple[Cell, ...] = ((0, 1), (1, 0), (0, -1), (-1, 0))
DIAG: tuple[Cell, ...] = ((1, 1), (1, -1), (-1, 1), (-1, -1))
ALL8: tuple[Cell, ...] = ORTH + DIAG
ARTILLERY: tuple[Cell, ...] = ((-1, 2), (0, 2), (1, 2), (0, 3))


class Card(NamedTuple):
    """One row of a contract §2 table; diagrams in the owner's frame."""

    count: int
    supply: tuple[Cell, ...]
    attack: tuple[Cell, ...]
    individual: bool          # attack kind: individual (no support needed) or combined
    support: tuple[Cell, ...]
    attacks: int = 1
    counts_as: int = 1
    plays: int = 1
    drop: bool = False
    hit_becomes: str | None = None


CONTRACT: dict[str, dict[str, Any]] = {
    "hill218": {
        "supply_model": "pull",
        "strikes": 2,
        "units": {
            "infantry": Card(7, ORTH, ORTH, False, ORTH),
            "heavy_weapons": Card(5, ORTH, DIAG, False, ALL8),
            "special_forces": Card(3, DIAG, ORTH, False, ORTH),
            "tank": Card(3, ORTH, ORTH, True, ORTH),
            "artillery": Card(3, ORTH, ARTILLERY, True, ORTH),
            "paratroopers": Card(3, ORTH, ORTH, False, ORTH, drop=True),
        },
    },
    "ogre218": {
        "supply_model": "push",
        "strikes": 2,
        "units": {
            "infantry": Card(7, ORTH, ORTH, False, ORTH),
            "missile_tank": Card(5, ORTH, DIAG, False, ALL8),
            "gev": Card(3, DIAG, ORTH, False, ORTH),
            "heavy_tank": Card(3, ORTH, ORTH, True, ORTH),
            "howitzer": Card(3, ORTH, ARTILLERY, True, ORTH),
            "light_gev": Card(3, ORTH, ORTH, False, ORTH, drop=True),
            "ogre": Card(2, ALL8, ALL8, True, ALL8, attacks=2, counts_as=2, plays=2,
                         hit_becomes="damaged_ogre"),
            "damaged_ogre": Card(0, ORTH, ORTH, True, ORTH, attacks=2, counts_as=1, plays=2),
        },
    },
}


def full_deck(ruleset: str) -> list[str]:
    """Every card of one seat's deck (contract §2 counts), in table order."""
    return [name for name, card in CONTRACT[ruleset]["units"].items() for _ in range(card.count)]


def turned(off: Cell, seat: int) -> Cell:
    """A diagram offset on the board (contract §1: seat 1's card is turned half a circle)."""
    return off if seat == 0 else (-off[0], -off[1])


def plus(c: Cell, d: Cell) -> Cell:
    return (c[0] + d[0], c[1] + d[1])
