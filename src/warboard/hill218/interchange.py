"""Contract §7 batch interchange: one JSON document in, one JSON line out, errors per line."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any

from warboard.core.errors import WarboardError
from warboard.hill218.actions import action_to_json
from warboard.hill218.game import parse_play
from warboard.hill218.serialize import position_from_json, position_to_json
from warboard.hill218.state import OVER


def legal(position: Any) -> list[dict[str, Any]]:
    """Every legal complete play of a position, as JSON."""
    state = position_from_json(position)
    return [action_to_json(p) for p in state.legal_plays()]


def apply(request: Any) -> dict[str, Any]:
    """``{"position": P, "play": Q}`` -> the next decision point, or ``{"result": ...}``."""
    if not isinstance(request, dict) or set(request) != {"position", "play"}:
        raise WarboardError('each line must be an object {"position": ..., "play": ...}')
    state = position_from_json(request["position"])
    state.apply(parse_play(state.game, request["play"]))
    if state.phase == OVER:
        return {"result": state.result}
    return position_to_json(state)


def run_batch(lines: Iterable[str], handler: Any) -> Iterator[str]:
    """Answer each non-blank line with ``handler``'s JSON, or ``{"error": ...}``."""
    for line in lines:
        if not line.strip():
            continue
        try:
            answer = handler(json.loads(line.strip()))
        except json.JSONDecodeError as exc:
            answer = {"error": f"not valid JSON: {exc}"}
        except (WarboardError, ValueError) as exc:
            answer = {"error": str(exc)}
        yield json.dumps(answer, separators=(",", ":"))
