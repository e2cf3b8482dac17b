"""Decisions and chance outcomes of Hold the Line, with their JSON and text forms.

JSON forms are those of docs/holdtheline-engine.md ("Actions"); hexes are ``[col, row]``.
Additions: ``{"type": "move", ..., "force_march": true}`` (option 11.8; ``path`` holds the extra
hex), ``{"type": "exit", "unit": "H3"}`` (a unit on one of its side's exit hexes leaves the
board, 1 AP), ``{"type": "evade", "yes": true}`` (option 11.11: the defending dragoon
retreats before close combat) and ``{"type": "assign_ratings", "ratings": {"greene": [1, 2],
"washington": [2, 2]}}`` (option 11.6, before turn 1: the side's leaders' ratings).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from warboard.core.errors import IllegalActionError
from warboard.holdtheline.hexes import Hex


class Move(NamedTuple):
    unit: str | None  # the combat unit moving (None: a leader alone)
    leader: str | None  # the leader moving with it, or alone
    path: tuple[Hex, ...]  # hexes entered, in order
    bonus: bool = False  # the leader's extra hex (6.2.4)
    fire: Hex | None = None  # dragoon move-then-fire target (6.2.3)
    force_march: bool = False  # option 11.8: the last hex of ``path`` is the extra one


class Fire(NamedTuple):
    unit: str
    target: Hex


class Assault(NamedTuple):
    unit: str
    target: Hex
    leader_dice: bool = False  # option 11.6


class Rally(NamedTuple):
    leader: str
    unit: str


class Exit(NamedTuple):
    unit: str


class End(NamedTuple):
    pass


class Allocate(NamedTuple):
    unit: str


class Retreat(NamedTuple):
    unit: str
    to: Hex


class Displace(NamedTuple):
    unit: str
    to: Hex


class Escape(NamedTuple):
    leader: str
    to: Hex


class Advance(NamedTuple):
    yes: bool


class Evade(NamedTuple):
    yes: bool


Rating = tuple[int, int]  # 11.6: combat value, hit value


class AssignRatings(NamedTuple):
    """Option 11.6: which of the side's leaders gets which of its scenario's ratings, as
    (leader id, rating) pairs sorted by id (so equal assignments compare equal)."""

    ratings: tuple[tuple[str, Rating], ...]


class Die(NamedTuple):
    """Chance: one die (1..6; the action die 1..3)."""

    value: int


END = End()


def _hex(h: Hex) -> list[int]:
    return [h[0], h[1]]


def action_to_json(a: Any) -> dict[str, Any]:
    write = _TO_JSON.get(type(a))
    if write is None:
        raise TypeError(f"not a Hold the Line action: {a!r}")
    return write(a)


def _move_json(a: Move) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "move"}
    if a.unit is not None:
        out["unit"] = a.unit
    if a.leader is not None:
        out["leader"] = a.leader
    out["path"] = [_hex(h) for h in a.path]
    if a.bonus:
        out["bonus"] = True
    if a.fire is not None:
        out["fire"] = _hex(a.fire)
    if a.force_march:
        out["force_march"] = True
    return out


def _assault_json(a: Assault) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "assault", "unit": a.unit, "target": _hex(a.target)}
    if a.leader_dice:
        out["leader_dice"] = True
    return out


_TO_JSON: dict[type, Callable[[Any], dict[str, Any]]] = {
    Die: lambda a: {"type": "die", "value": a.value},
    Move: _move_json,
    Fire: lambda a: {"type": "fire", "unit": a.unit, "target": _hex(a.target)},
    Assault: _assault_json,
    Rally: lambda a: {"type": "rally", "leader": a.leader, "unit": a.unit},
    Exit: lambda a: {"type": "exit", "unit": a.unit},
    End: lambda a: {"type": "end"},
    Allocate: lambda a: {"type": "allocate", "unit": a.unit},
    Retreat: lambda a: {"type": "retreat", "unit": a.unit, "to": _hex(a.to)},
    Displace: lambda a: {"type": "displace", "unit": a.unit, "to": _hex(a.to)},
    Escape: lambda a: {"type": "escape", "leader": a.leader, "to": _hex(a.to)},
    Advance: lambda a: {"type": "advance", "yes": a.yes},
    Evade: lambda a: {"type": "evade", "yes": a.yes},
    AssignRatings: lambda a: {"type": "assign_ratings",
                              "ratings": {lid: list(r) for lid, r in a.ratings}},
}


_KEYS: dict[str, set[str]] = {
    "die": {"value"}, "move": {"unit", "leader", "path", "bonus", "fire", "force_march"},
    "fire": {"unit", "target"}, "assault": {"unit", "target", "leader_dice"},
    "rally": {"leader", "unit"}, "exit": {"unit"}, "end": set(), "allocate": {"unit"},
    "retreat": {"unit", "to"}, "displace": {"unit", "to"}, "escape": {"leader", "to"},
    "advance": {"yes"}, "evade": {"yes"}, "assign_ratings": {"ratings"},
}


def parse_hex(value: Any, what: str) -> Hex:
    if (not isinstance(value, list | tuple) or len(value) != 2
            or not all(isinstance(n, int) and not isinstance(n, bool) for n in value)):
        raise IllegalActionError(f"{what!r} must be a hex [col, row], not {value!r}")
    return (int(value[0]), int(value[1]))


def _name(data: dict[str, Any], key: str) -> str:
    value = data.get(key)
    if not isinstance(value, str) or not value:
        raise IllegalActionError(f"{key!r} must be a non-empty string")
    return value


def _flag(data: dict[str, Any], key: str, default: bool | None = False) -> bool:
    value = data.get(key, default)
    if not isinstance(value, bool):
        raise IllegalActionError(f"{key!r} must be true or false")
    return value


def action_from_json(data: Any) -> Any:
    """Parse an action; raises ``IllegalActionError`` naming what is wrong with it."""
    if not isinstance(data, dict):
        raise IllegalActionError(f"an action must be a JSON object, not {type(data).__name__}")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in _KEYS:
        raise IllegalActionError(f"unknown action type {kind!r}; types: {', '.join(_KEYS)}")
    extra = set(data) - _KEYS[kind] - {"type"}
    if extra:
        raise IllegalActionError(f"unknown field {sorted(extra)[0]!r} in a {kind} action")
    return _PARSERS[kind](data)


def _die_from_json(data: dict[str, Any]) -> Die:
    v = data.get("value")
    if isinstance(v, bool) or not isinstance(v, int):
        raise IllegalActionError("'value' of a die must be a whole number")
    return Die(v)


def _move_from_json(data: dict[str, Any]) -> Move:
    path = data.get("path")
    if not isinstance(path, list) or not path:
        raise IllegalActionError("'path' must be a non-empty list of hexes")
    unit = _name(data, "unit") if "unit" in data else None
    leader = _name(data, "leader") if "leader" in data else None
    if unit is None and leader is None:
        raise IllegalActionError("a move names a 'unit', a 'leader' or both")
    fire = parse_hex(data["fire"], "fire") if data.get("fire") is not None else None
    return Move(unit, leader, tuple(parse_hex(h, "path") for h in path),
                _flag(data, "bonus"), fire, _flag(data, "force_march"))


def _ratings_from_json(data: dict[str, Any]) -> AssignRatings:
    table = data.get("ratings")
    if not isinstance(table, dict) or not table:
        raise IllegalActionError("'ratings' must be an object: leader id -> [combat, hits]")
    out = []
    for lid, r in table.items():
        if (not isinstance(r, list) or len(r) != 2
                or not all(isinstance(n, int) and not isinstance(n, bool) for n in r)):
            raise IllegalActionError(f"the rating of {lid!r} must be [combat, hits], not {r!r}")
        out.append((lid, (r[0], r[1])))
    return AssignRatings(tuple(sorted(out)))


_PARSERS: dict[str, Callable[[dict[str, Any]], Any]] = {
    "die": _die_from_json,
    "move": _move_from_json,
    "fire": lambda d: Fire(_name(d, "unit"), parse_hex(d.get("target"), "target")),
    "assault": lambda d: Assault(_name(d, "unit"), parse_hex(d.get("target"), "target"),
                                 _flag(d, "leader_dice")),
    "rally": lambda d: Rally(_name(d, "leader"), _name(d, "unit")),
    "exit": lambda d: Exit(_name(d, "unit")),
    "end": lambda d: END,
    "allocate": lambda d: Allocate(_name(d, "unit")),
    "retreat": lambda d: Retreat(_name(d, "unit"), parse_hex(d.get("to"), "to")),
    "displace": lambda d: Displace(_name(d, "unit"), parse_hex(d.get("to"), "to")),
    "escape": lambda d: Escape(_name(d, "leader"), parse_hex(d.get("to"), "to")),
    "advance": lambda d: Advance(_flag(d, "yes", None)),
    "evade": lambda d: Evade(_flag(d, "yes", None)),
    "assign_ratings": _ratings_from_json,
}


def _t(h: Hex) -> str:
    return f"{h[0]},{h[1]}"


def action_to_text(a: Any) -> str:
    """A short readable form, e.g. ``move A3 4,5 4,4`` or ``fire A3 at 5,4``."""
    write = _TO_TEXT.get(type(a))
    if write is None:
        raise TypeError(f"not a Hold the Line action: {a!r}")
    return write(a)


def _move_text(a: Move) -> str:
    who = " + ".join(x for x in (a.unit, a.leader) if x)
    text = f"move {who} {' '.join(_t(h) for h in a.path)}"
    if a.bonus:
        text += " (leader bonus)"
    if a.force_march:
        text += " (force march)"
    if a.fire is not None:
        text += f" then fire at {_t(a.fire)}"
    return text


_TO_TEXT: dict[type, Callable[[Any], str]] = {
    Die: lambda a: f"die {a.value}",
    Move: _move_text,
    Fire: lambda a: f"fire {a.unit} at {_t(a.target)}",
    Assault: lambda a: f"assault {a.unit} at {_t(a.target)}"
    + (" with leader dice" if a.leader_dice else ""),
    Rally: lambda a: f"rally {a.unit} by {a.leader}",
    Exit: lambda a: f"exit {a.unit}",
    End: lambda a: "end turn",
    Allocate: lambda a: f"hits to {a.unit}",
    Retreat: lambda a: f"retreat {a.unit} to {_t(a.to)}",
    Displace: lambda a: f"displace {a.unit} to {_t(a.to)}",
    Escape: lambda a: f"escape {a.leader} to {_t(a.to)}",
    Advance: lambda a: "advance" if a.yes else "do not advance",
    Evade: lambda a: "dragoons evade" if a.yes else "dragoons stand",
    AssignRatings: lambda a: "ratings " + ", ".join(f"{lid} {r[0]}/{r[1]}"
                                                    for lid, r in a.ratings),
}
