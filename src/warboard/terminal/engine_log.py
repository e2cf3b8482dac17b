"""Game logs that the engine tells itself: the per-game narration hook of ``Session``.

The card games are narrated from views, event by event (``warboard.terminal.narrate``), so each
reader learns only what it may. Hold the Line hides nothing and keeps its own log: every
observation carries the engine's ``events`` (``{"n", "turn", "side", "type", "text", ...}``, one
per thing that happened: an action, each die with what it did, a retreat, a capture, the end of
a turn), so the log of any reader is the texts of those events.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

TOLD_BY_ENGINE = frozenset({"holdtheline"})  # games whose observations carry their own log


def told_by_engine(game: Any) -> bool:
    """Does ``game`` tell its own log (instead of being narrated from views)?"""
    return getattr(game, "name", None) in TOLD_BY_ENGINE


def engine_lines(observation: Mapping[str, Any]) -> list[str]:
    """The log lines of an observation that carries the engine's ``events``."""
    return [str(e["text"]) for e in observation.get("events") or () if e.get("text")]
