"""Contract §7 interchange of the card games: ``warboard rules legal|apply`` (see
``warboard.core.interchange``, which reads the lines and routes them here)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from warboard.core.errors import PositionError
from warboard.core.interchange import with_warnings
from warboard.hill218.actions import action_to_json
from warboard.hill218.game import parse_play
from warboard.hill218.serialize import position_to_json, read_position
from warboard.hill218.state import OVER

POSITION_HINT = 'a card-game position has "ruleset" ("hill218" or "ogre218")'
REQUEST_HINT = '{"position": P, "play": Q} for the card games'


def owns(position: Mapping[str, Any]) -> bool:
    return "ruleset" in position


def legal(position: Any, strict: bool = False) -> Any:
    """Every legal complete play of a position, as JSON (with warnings when the position is
    inconsistent; ``strict`` refuses such a position)."""
    state, warnings = read_position(position, strict=strict)
    return with_warnings([action_to_json(p) for p in state.legal_plays()], warnings)


def apply(request: Any, strict: bool = False) -> Any:
    """``{"position": P, "play": Q}`` -> the next decision point, or ``{"result": ...}``."""
    if not isinstance(request, dict) or set(request) != {"position", "play"}:
        raise PositionError('each line must be an object {"position": ..., "play": ...}')
    state, warnings = read_position(request["position"], strict=strict)
    state.apply(parse_play(state.game, request["play"]))
    answer = {"result": state.result} if state.phase == OVER else position_to_json(state)
    return with_warnings(answer, warnings)


QUERIES = {"legal": legal, "apply": apply}
