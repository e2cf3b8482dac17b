"""How seats, units, cells and results are written for people."""

from __future__ import annotations

from typing import Any

from warboard.hill218.ruleset import Ruleset, unit_title

SEAT_NAMES = ("South", "North")
HILL = (0, 0)
BASES = ((0, -1), (0, 1))  # each seat's base (Ogre: command post), contract §1


def seat_name(seat: int) -> str:
    return SEAT_NAMES[seat]


def cell_text(cell: tuple[int, int] | list[int]) -> str:
    return f"({cell[0]},{cell[1]})"


def unit_abbrev(rules: Ruleset, name: str) -> str:
    return rules.units[rules.unit_ids[name]].abbrev


def counts_text(rules: Ruleset, counts: dict[str, int], empty: str = "none") -> str:
    """``{"infantry": 2, "tank": 1}`` -> ``2 Infantry, 1 Tank`` in ruleset order."""
    parts = [f"{counts[u.name]} {unit_title(rules, u.name)}"
             for u in rules.units if counts.get(u.name)]
    return ", ".join(parts) or empty


def result_text(rules: Ruleset, result: dict[str, Any]) -> str:
    """One sentence: who won and why, with the §5 unit counts."""
    units = result.get("units") or [0, 0]
    counts = f"units on the board: South {units[0]}, North {units[1]}"
    winner = result.get("winner")
    if winner is None:
        return f"Draw — equal counts ({counts})."
    if result.get("reason") == "base":
        loser = seat_name(1 - winner)
        return f"{seat_name(winner)} wins by taking {loser}'s {rules.base_name} ({counts})."
    return f"{seat_name(winner)} wins on the unit count ({counts})."
