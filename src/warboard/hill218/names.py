"""How seats, units, cells and results are written for people."""

from __future__ import annotations

from typing import Any

from warboard.core.i18n import Msg, english, msg, named
from warboard.hill218.ruleset import Ruleset, unit_title

SEAT_NAMES = ("South", "North")
HILL = (0, 0)
BASES = ((0, -1), (0, 1))  # each seat's base (Ogre: command post), contract §1


def seat_name(seat: int) -> str:
    return SEAT_NAMES[seat]


def seat_msg(rules: Ruleset, seat: int) -> Msg | str:
    return named(f"names.{rules.name}.side.{seat}", seat_name(seat))


def unit_msg(rules: Ruleset, name: str) -> Msg | str:
    return named(f"names.{rules.name}.unit.{name}", unit_title(rules, name))


def base_msg(rules: Ruleset) -> Msg | str:
    return named(f"names.{rules.name}.base", rules.base_name)


def strike_msg(rules: Ruleset) -> Msg | str:
    return named(f"names.{rules.name}.strike", rules.strike_name)


def cell_text(cell: tuple[int, int] | list[int]) -> str:
    return f"({cell[0]},{cell[1]})"


def unit_abbrev(rules: Ruleset, name: str) -> str:
    return rules.units[rules.unit_ids[name]].abbrev


def counts_text(rules: Ruleset, counts: dict[str, int], empty: str = "none") -> str:
    """``{"infantry": 2, "tank": 1}`` -> ``2 Infantry, 1 Tank`` in ruleset order."""
    parts = [f"{counts[u.name]} {unit_title(rules, u.name)}"
             for u in rules.units if counts.get(u.name)]
    return ", ".join(parts) or empty


def result_msg(rules: Ruleset, result: dict[str, Any]) -> Msg:
    """One sentence: who won and why, with the §5 unit counts."""
    units = result.get("units") or [0, 0]
    counts = msg("end.cards.units", south=units[0], north=units[1])
    winner = result.get("winner")
    if winner is None:
        return msg("end.cards.draw", counts=counts)
    if result.get("reason") == "base":
        return msg("end.cards.base", winner=seat_msg(rules, winner),
                   loser=seat_msg(rules, 1 - winner), base=base_msg(rules), counts=counts)
    return msg("end.cards.count", winner=seat_msg(rules, winner), counts=counts)


def result_text(rules: Ruleset, result: dict[str, Any]) -> str:
    return english(result_msg(rules, result))
