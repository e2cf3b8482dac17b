"""Hold the Line's log: the engine tells it itself.

It hides nothing, and every observation carries the engine's ``events`` (``{"n", "turn",
"side", "type", "text", ...}``, one per thing that happened: an action, each die with what it
did, a retreat, a capture, the end of a turn), so the log of any reader is the texts of those
events.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from warboard.core.narration import Narrator


def engine_lines(observation: Mapping[str, Any]) -> list[str]:
    """The log lines of an observation that carries the engine's ``events``."""
    return [str(e["text"]) for e in observation.get("events") or () if e.get("text")]


class HtlNarrator(Narrator):
    """The log in every view, as the engine keeps it."""

    def lines(self, observation: Mapping[str, Any]) -> list[str]:
        return engine_lines(observation)
