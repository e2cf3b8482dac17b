"""Decisions and chance outcomes of the card games, with their JSON (contract §7) and text forms.

Text notation (terminal play):  ``inf 1,-1 x 1,0``  deploys infantry at (1,-1) hitting (1,0);
``ogr 1,0 x 1,1 x 1,1`` an Ogre hitting (1,1) twice; ``strike 0,1``; ``bury inf tnk``.
Units may be written by name, abbreviation or a unique prefix of the name, in any case. A word
that could name a unit always means the unit: a strike is written ``strike X,Y`` or with one of
the ruleset's other ``strike_words`` (``as 0,1`` in hill218, ``cm 0,1`` in ogre218).
"""

from __future__ import annotations

import re
from typing import Any, NamedTuple

from warboard.core.errors import IllegalActionError
from warboard.hill218.grid import PLAY_LIMIT
from warboard.hill218.ruleset import Ruleset

Cell = tuple[int, int]


class Deploy(NamedTuple):
    unit: str
    at: Cell
    attacks: tuple[Cell, ...] = ()


class Strike(NamedTuple):
    target: Cell


class Bury(NamedTuple):
    """Setup: put ``first`` under the deck, then ``second`` under it (the deck's last card)."""

    first: str
    second: str


class FirstPlayer(NamedTuple):
    """Chance: which seat takes the first turn."""

    seat: int


class Draw(NamedTuple):
    """Chance: the unit card drawn from the unordered part of a deck."""

    unit: str


Play = Deploy | Strike


def action_to_json(action: Any) -> dict[str, Any]:
    if isinstance(action, Deploy):
        return {"play": "deploy", "unit": action.unit, "at": list(action.at),
                "attacks": [list(t) for t in action.attacks]}
    if isinstance(action, Strike):
        return {"play": "strike", "target": list(action.target)}
    if isinstance(action, Bury):
        return {"play": "bury", "cards": [action.first, action.second]}
    if isinstance(action, FirstPlayer):
        return {"chance": "first_player", "seat": action.seat}
    if isinstance(action, Draw):
        return {"chance": "draw", "unit": action.unit}
    raise TypeError(f"not a card-game action: {action!r}")


def action_from_json(data: Any, rules: Ruleset) -> Any:
    """Parse an action; raises ``IllegalActionError`` naming what is wrong with it."""
    if not isinstance(data, dict):
        raise IllegalActionError(f"a play must be a JSON object, not {type(data).__name__}")
    kind = data.get("play", data.get("chance"))
    keys = set(data)
    if kind == "deploy":
        _only(keys, {"play", "unit", "at", "attacks"})
        attacks = data.get("attacks", [])
        if not isinstance(attacks, list):
            raise IllegalActionError("'attacks' must be a list of [x, y] cells")
        return Deploy(_unit(data.get("unit"), rules), _cell(data.get("at"), "at"),
                      tuple(_cell(t, "attacks") for t in attacks))
    if kind == "strike":
        _only(keys, {"play", "target"})
        return Strike(_cell(data.get("target"), "target"))
    if kind == "bury":
        _only(keys, {"play", "cards"})
        cards = data.get("cards")
        if not isinstance(cards, list) or len(cards) != 2:
            raise IllegalActionError("'cards' must list the two cards to put under the deck")
        return Bury(_unit(cards[0], rules), _unit(cards[1], rules))
    if kind == "first_player":
        _only(keys, {"chance", "seat"})
        seat = data.get("seat")
        if seat not in (0, 1) or isinstance(seat, bool):
            raise IllegalActionError("'seat' must be 0 or 1")
        return FirstPlayer(seat)
    if kind == "draw":
        _only(keys, {"chance", "unit"})
        return Draw(_unit(data.get("unit"), rules))
    raise IllegalActionError(
        "unknown play: expected \"play\": \"deploy\", \"strike\" or \"bury\"")


def _only(keys: set[str], allowed: set[str]) -> None:
    extra = sorted(keys - allowed)
    if extra:
        raise IllegalActionError(f"unexpected field {extra[0]!r} in the play")


def _unit(value: Any, rules: Ruleset) -> str:
    if not isinstance(value, str) or value not in rules.unit_ids:
        raise IllegalActionError(
            f"unknown unit {value!r} for {rules.name}; units: {', '.join(rules.unit_ids)}")
    return value


def _cell(value: Any, field: str) -> Cell:
    if (not isinstance(value, list) or len(value) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
        raise IllegalActionError(f"'{field}' must hold cells written as [x, y] whole numbers")
    if max(abs(value[0]), abs(value[1])) > PLAY_LIMIT:
        raise IllegalActionError(f"'{field}': cell {value} is off the playable grid")
    return (value[0], value[1])


# ----------------------------------------------------------------------------- text notation

def unit_label(rules: Ruleset, name: str) -> str:
    return rules.units[rules.unit_ids[name]].abbrev.lower()


def action_to_text(action: Any, rules: Ruleset) -> str:
    if isinstance(action, Deploy):
        hits = "".join(f" x {t[0]},{t[1]}" for t in action.attacks)
        return f"{unit_label(rules, action.unit)} {action.at[0]},{action.at[1]}{hits}"
    if isinstance(action, Strike):
        return f"strike {action.target[0]},{action.target[1]}"
    if isinstance(action, Bury):
        return f"bury {unit_label(rules, action.first)} {unit_label(rules, action.second)}"
    if isinstance(action, FirstPlayer):
        return f"seat {action.seat} plays first"
    if isinstance(action, Draw):
        return f"draw {action.unit}"
    raise TypeError(f"not a card-game action: {action!r}")


_CELL = r"(-?\d+)\s*,\s*(-?\d+)"


def _unit_word(word: str, rules: Ruleset) -> bool:
    """Could ``word`` be read as a unit (its name, abbreviation or the start of a name, even
    one shared by several units)?"""
    w = word.lower()
    return any(u.name.startswith(w) or w == u.abbrev.lower() for u in rules.units)


def strike_words(rules: Ruleset) -> tuple[str, ...]:
    """The words that announce a strike: ``strike``, the strike's initials (``as`` for Air
    Strike, ``cm`` for Cruise Missile) and its name (``air strike``, ``airstrike``). A word
    that could be read as a unit is left out, so a unit word always means the unit."""
    name = rules.strike_name.lower()
    candidates = ("strike", "".join(w[0] for w in name.split()), name, name.replace(" ", ""))
    return tuple(dict.fromkeys(w for w in candidates if not _unit_word(w.split()[0], rules)))


def resolve_unit(word: str, rules: Ruleset) -> str:
    """A unit from its name, abbreviation or a unique prefix of its name (any case)."""
    w = word.lower()
    for u in rules.units:
        if w in (u.name, u.abbrev.lower()):
            return u.name
    matches = [u.name for u in rules.units if u.name.startswith(w)]
    if len(matches) == 1:
        return matches[0]
    raise IllegalActionError(f"unknown unit {word!r}; units: "
                             + ", ".join(f"{u.abbrev.lower()} ({u.name})" for u in rules.units))


def notation_examples(rules: Ruleset) -> str:
    """Examples of each form, written with the ruleset's own abbreviations."""
    a, b = (unit_label(rules, u.name) for u in rules.units[:2])
    return f"'{a} 1,-1', '{a} 1,-1 x 1,0', 'strike 0,1' or 'bury {a} {b}'"


def action_from_text(text: str, rules: Ruleset) -> Any:
    """Parse the terminal notation (see the module docstring); raises ``IllegalActionError``
    with a hint when it cannot. Which units and strike words are known depends on ``rules``:
    a word that could name a unit is read as the unit, never as a strike."""
    t = text.strip().lower()
    words = "|".join(re.escape(w).replace(r"\ ", r"\s*") for w in strike_words(rules))
    m = re.fullmatch(rf"(?:{words})\s+" + _CELL, t)
    if m:
        return Strike((int(m[1]), int(m[2])))
    m = re.fullmatch(r"bury\s+(\S+)\s+(\S+)", t)
    if m:
        return Bury(resolve_unit(m[1], rules), resolve_unit(m[2], rules))
    m = re.fullmatch(r"(\S+)\s+" + _CELL + r"((?:\s*x\s*-?\d+\s*,\s*-?\d+)*)", t)
    if m:
        hits = tuple((int(a), int(b)) for a, b in re.findall(_CELL, m[4]))
        return Deploy(resolve_unit(m[1], rules), (int(m[2]), int(m[3])), hits)
    raise IllegalActionError(f"{text.strip()!r} is not a play; write e.g. "
                             + notation_examples(rules))
