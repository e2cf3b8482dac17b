"""Hold the Line in the batch interchange (``warboard rules los|legal|apply``).

``los`` answers contract §7 line-of-sight queries; ``legal`` and ``apply`` take the position JSON
of ``docs/holdtheline-engine.md``. Each handler takes one parsed JSON line and returns the JSON
answer; ``warboard.core.interchange`` reads the lines, routes them here and turns errors into
``{"error": ...}`` lines.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from warboard.core.errors import PositionError
from warboard.holdtheline.hexes import Hex, line_of_sight, on_board
from warboard.holdtheline.tables import TABLES

LOS_FIELDS = {"cols", "rows", "terrain", "units", "from", "to"}
MAX_BOARD = 100


def _int(value: Any, where: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise PositionError(f"{where}: must be a whole number from {low} to {high}, not "
                            f"{value!r}")
    return value


def _hex(value: Any, where: str, cols: int, rows: int) -> Hex:
    if (not isinstance(value, list) or len(value) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
        raise PositionError(f"{where}: must be a hex [col, row], not {value!r}")
    h = (value[0], value[1])
    if not on_board(h, cols, rows):
        raise PositionError(f"{where}: hex [{h[0]}, {h[1]}] is off the {cols}x{rows} board")
    return h


def los(query: Any) -> dict[str, Any]:
    """Contract §7: ``{"cols", "rows", "terrain", "units", "from", "to"}`` -> ``{"los": bool}``.

    ``cols``/``rows`` default to 13 and 9; ``terrain`` lists ``{"at": [c, r], "terrain": name}``
    (unlisted hexes are clear); ``units`` lists the hexes holding a combat unit.
    """
    if not isinstance(query, dict):
        raise PositionError("a line-of-sight query must be a JSON object")
    unknown = sorted(set(query) - LOS_FIELDS)
    if unknown:
        raise PositionError(f"{unknown[0]}: not a field of a line-of-sight query (fields: "
                            f"{', '.join(sorted(LOS_FIELDS))})")
    for key in ("from", "to"):
        if key not in query:
            raise PositionError(f"{key}: is missing")
    cols = _int(query.get("cols", 13), "cols", 1, MAX_BOARD)
    rows = _int(query.get("rows", 9), "rows", 1, MAX_BOARD)
    terrain: dict[Hex, str] = {}
    entries = query.get("terrain", [])
    if not isinstance(entries, list):
        raise PositionError("terrain: must be a list of {\"at\": [col, row], \"terrain\": name}")
    for i, entry in enumerate(entries):
        where = f"terrain[{i}]"
        if not isinstance(entry, dict) or set(entry) != {"at", "terrain"}:
            raise PositionError(f"{where}: must be {{\"at\": [col, row], \"terrain\": name}}")
        h = _hex(entry["at"], f"{where}.at", cols, rows)
        name = entry["terrain"]
        if not isinstance(name, str) or name not in TABLES.terrain:
            raise PositionError(f"{where}.terrain: unknown terrain {name!r} (terrains: "
                                f"{', '.join(TABLES.terrain)})")
        if h in terrain and terrain[h] != name:
            raise PositionError(f"{where}: hex [{h[0]}, {h[1]}] already has terrain "
                                f"{terrain[h]}")
        terrain[h] = name
    units = query.get("units", [])
    if not isinstance(units, list):
        raise PositionError("units: must be a list of hexes [col, row]")
    occupied = {_hex(u, f"units[{i}]", cols, rows) for i, u in enumerate(units)}
    a = _hex(query["from"], "from", cols, rows)
    b = _hex(query["to"], "to", cols, rows)

    def blocks(h: Hex) -> bool:
        return h in occupied or TABLES.terrain[terrain.get(h, "clear")].blocks_los

    return {"los": line_of_sight(a, b, blocks)}


# ============================================================================ legal / apply

def _state(position: Any) -> Any:
    from warboard.holdtheline.serialize import state_from_json

    if not isinstance(position, dict):
        raise PositionError("a position must be a JSON object")
    return state_from_json(position, events=False)  # the log has no effect on the rules


def _position(state: Any) -> dict[str, Any]:
    data = state.to_json()
    data.pop("events", None)
    return data


def legal(position: Any, strict: bool = False) -> list[dict[str, Any]]:
    """Every legal action of a Hold the Line position, as JSON, in the engine's order. At a chance
    node (a die is to be rolled) the answer lists the die's faces as ``{"type": "die", ...}``.

    ``strict`` changes nothing: a position carries its own scenario, with no deck or order of
    battle that its pieces could exceed, so it is never inconsistent in the sense of hill218.md
    §7 (a malformed one is refused either way)."""
    from warboard.core.protocol import CHANCE

    state = _state(position)
    if state.is_terminal():
        raise PositionError("the game is over: no action is legal")
    if state.current_player() == CHANCE:
        return [state.game.action_to_json(a) for a, _ in state.chance_outcomes()]
    return [state.game.action_to_json(a) for a in state.legal_actions()]


APPLY_FIELDS = {"position", "action", "dice"}


def apply(request: Any, strict: bool = False) -> dict[str, Any]:
    """``{"position": P, "action": A, "dice": [d, ...]}`` -> ``{"position", "events", "result"}``.

    Applies ``action`` (a decision of the seat to move, or a die ``{"type": "die"}`` at a chance
    node; may be left out at a chance node), then feeds the listed ``dice`` to the chance nodes
    that follow, in order. It stops when the dice run out; the answer's position says who is to
    move next (``to_move`` -1: another die). A die left over when a decision is due, or the game
    is over, is an error. ``strict`` changes nothing, as for ``legal``.
    """
    from warboard.core.protocol import CHANCE
    from warboard.holdtheline.actions import Die

    if not isinstance(request, dict) or "position" not in request:
        raise PositionError('each line must be an object {"position": ..., "action": ..., '
                            '"dice": [...]}')
    unknown = sorted(set(request) - APPLY_FIELDS)
    if unknown:
        raise PositionError(f"{unknown[0]}: not a field of an apply request (fields: action, "
                            "dice, position)")
    dice = request.get("dice", [])
    if not isinstance(dice, list) or not all(
            isinstance(d, int) and not isinstance(d, bool) for d in dice):
        raise PositionError("dice: must be a list of whole numbers (die faces)")
    state = _state(request["position"])
    game = state.game
    if state.is_terminal():
        raise PositionError("the game is over: nothing can be applied")
    first_event = len(state.events)
    if "action" in request:
        state.apply(game.action_from_json(request["action"], state))
    elif state.current_player() != CHANCE:
        raise PositionError("action: is missing (the position waits for a decision of seat "
                            f"{state.current_player()})")
    elif not dice:
        raise PositionError("dice: a die is to be rolled; give at least one")
    for i, value in enumerate(dice):
        left = f"{len(dice) - i} {'die' if len(dice) - i == 1 else 'dice'} left over"
        if state.is_terminal():
            raise PositionError(f"dice[{i}]: the game is over; {left}")
        if state.current_player() != CHANCE:
            raise PositionError(f"dice[{i}]: no die is to be rolled now (seat "
                                f"{state.current_player()} decides); {left}")
        state.apply(Die(value))
    return {"position": _position(state), "events": state.events[first_event:],
            "result": state.result}


# ============================================================================ routing

POSITION_HINT = 'a Hold the Line position has "game": "holdtheline"'
REQUEST_HINT = '{"position": P, "action": A, "dice": [...]} for Hold the Line'
QUERIES = {"los": los, "legal": legal, "apply": apply}


def owns(position: Mapping[str, Any]) -> bool:
    return position.get("game") == "holdtheline"
