"""A ``Scenario`` written back as data: the TOML text of a scenario file and the editor's model.

``scenario_to_toml`` writes the packaged files' format (docs/scenarios.md) — the terrain as a
``map`` picture, units and leaders as inline tables — so that ``parse_scenario`` reads it back
to the same ``Scenario`` (its name aside: the caller gives that). ``scenario_to_model`` is the
same data as JSON for the web editor: the terrain as a ``terrain`` table by name instead of the
picture, the date as a string; ``model_data`` turns it back into what the validator reads, so a
model is checked by the very same validator as a file.
"""

from __future__ import annotations

import contextlib
import datetime
import json
import re
from collections.abc import Mapping
from typing import Any

from warboard.holdtheline.hexes import Hex
from warboard.holdtheline.scenario import LeaderSetup, Reinforcement, Scenario, Side, UnitSetup
from warboard.holdtheline.scenario_file import MAP_LETTERS

LETTERS = {terrain: letter for letter, terrain in MAP_LETTERS.items()}
BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")
DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def hex_text(h: Hex) -> str:
    return f"{h[0]},{h[1]}"


# ============================================================================ the data

def _unit(u: UnitSetup) -> dict[str, Any]:
    return {"id": u.id, "kind": u.kind, "mp": u.mp, "at": hex_text(u.at)}


def _leader(ld: LeaderSetup) -> dict[str, Any]:
    return {"id": ld.id, "name": ld.name, "at": hex_text(ld.at), "rating": list(ld.rating)}


def _reinforcement(r: Reinforcement) -> dict[str, Any]:
    return {"turn": r.turn, "entry": [hex_text(h) for h in r.entry],
            "units": [_unit(u) for u in r.units], "leaders": [_leader(ld) for ld in r.leaders]}


def _side(side: Side) -> dict[str, Any]:
    out: dict[str, Any] = {"label": side.label, "home": list(side.home_edges),
                           "command_ap": (side.command_ap[0] if len(side.command_ap) == 1
                                          else list(side.command_ap))}
    if side.action_die != (1, 2, 3):
        out["action_die"] = list(side.action_die)
    if side.vp_target is not None:
        out["vp_target"] = side.vp_target
    out["vp_counters"] = [hex_text(h) for h in side.vp_counters]
    out["objectives"] = [{"at": hex_text(h), "vp": vp} for h, vp in side.objectives]
    out["exits"] = [hex_text(h) for h in side.exit_hexes]
    if side.exit_hexes:
        out["exit_vp"] = list(side.exit_vp)
    out["units"] = [_unit(u) for u in side.units]
    out["leaders"] = [_leader(ld) for ld in side.leaders]
    out["reinforcements"] = [_reinforcement(r) for r in side.reinforcements]
    return out


def _time_out(s: Scenario) -> str:
    if s.time_out_by_vp:
        return "vp"
    return "draw" if s.time_out_winner is None else s.sides[s.time_out_winner].name


def _top(s: Scenario) -> dict[str, Any]:
    out: dict[str, Any] = {"title": s.title, "summary": s.summary, "history": s.history}
    if s.special_rules:
        out["special_rules"] = s.special_rules
    if s.date:
        out["date"] = s.date
    out.update(cols=s.cols, rows=s.rows, first=s.sides[s.first].name, turn_limit=s.turn_limit,
               time_out=_time_out(s), options=dict(s.options))
    return out


def scenario_to_model(s: Scenario) -> dict[str, Any]:
    """The editor's JSON model of ``s``: the scenario file's fields, terrain by name."""
    terrain: dict[str, list[str]] = {}
    for h, t in sorted(s.terrain.items(), key=lambda item: (item[0][1], item[0][0])):
        if t != "clear":
            terrain.setdefault(t, []).append(hex_text(h))
    return {**_top(s), "terrain": terrain,
            "places": {hex_text(h): name for h, name in s.places.items()},
            "sides": {side.name: _side(side) for side in s.sides}}


def model_data(model: Mapping[str, Any]) -> dict[str, Any]:
    """A model as the validator reads a file: the same tables, the date as a TOML date."""
    data = dict(model)
    date = data.get("date")
    if isinstance(date, str) and DATE.match(date):
        with contextlib.suppress(ValueError):  # left a string: the validator names the field
            data["date"] = datetime.date.fromisoformat(date)
    elif date == "":
        data.pop("date")
    return data


# ============================================================================ TOML text

def _string(v: str) -> str:
    """A TOML basic string: JSON's escapes are TOML's, and TOML refuses DEL unescaped too."""
    return json.dumps(v, ensure_ascii=False).replace("\x7f", "\\u007f")


def _key(key: str) -> str:
    return key if BARE_KEY.match(key) else _string(key)


def _value(v: Any) -> str:
    """One TOML value; JSON's string escapes are TOML's."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        return _string(v)
    if isinstance(v, list | tuple):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    if isinstance(v, Mapping):
        return "{" + ", ".join(f"{_key(k)} = {_value(x)}" for k, x in v.items()) + "}"
    raise TypeError(f"no TOML value for {type(v).__name__}")


LINE = 96  # the width a long text is wrapped to
AFTER_SPACES = re.compile(r"(?<= )(?=\S)")


def _long_text(v: str) -> str:
    """A long text as a multi-line string, wrapped after spaces with line-ending backslashes
    (TOML drops the backslash, the newline and the next line's leading spaces: the wrap is
    always after the last space, so none is lost); escapes as in ``_value``."""
    lines = [""]
    for word in AFTER_SPACES.split(_string(v)[1:-1]):
        if lines[-1] and len(lines[-1]) + len(word) > LINE:
            lines[-1] += "\\"
            lines.append("")
        lines[-1] += word
    return '"""\n' + "\n".join(lines) + '"""'


def _assign(key: str, v: Any) -> list[str]:
    """``key = value``; a list of tables one per line (the packaged files' units)."""
    if isinstance(v, list) and v and all(isinstance(x, Mapping) for x in v):
        return [f"{_key(key)} = [", *(f"  {_value(x)}," for x in v), "]"]
    return [f"{_key(key)} = {_value(v)}"]


def _map(s: Scenario) -> list[str]:
    lines = ['map = """']
    for row in range(s.rows):
        letters = " ".join(LETTERS[s.terrain_at((col, row))] for col in range(s.cols))
        lines.append((" " if row % 2 else "") + letters)  # odd rows sit half a hex east
    return [*lines, '"""']


def scenario_to_toml(s: Scenario) -> str:
    """``s`` as a scenario file in the packaged files' format."""
    lines = ["# Hold the Line scenario. Format: docs/scenarios.md."]
    for key, v in _top(s).items():
        if key == "date":
            lines.append(f"date = {v}")  # a TOML date, unquoted
        elif key in ("history", "special_rules"):
            lines.append(f"{key} = {_long_text(v)}")
        elif key != "options" or v:
            lines += _assign(key, v)
    lines += ["", "# . clear  f forest  h hill  t town  s swamp  w waterway  b bridge  d ford  "
                  "n fence  e entrenchment", *_map(s)]
    if s.places:
        lines += ["", "[places]", *(f"{_value(hex_text(h))} = {_value(n)}"
                                    for h, n in s.places.items())]
    for side in s.sides:
        data = _side(side)
        reinforcements = data.pop("reinforcements")
        lines += ["", f"[sides.{side.name}]"]
        for table in (data, *(r for r in reinforcements)):
            if table is not data:
                lines += ["", f"[[sides.{side.name}.reinforcements]]"]
            lines += [line for key, v in table.items() if v not in ([], "")
                      for line in _assign(key, v)]
    return "\n".join(lines) + "\n"
