"""Hold the Line's log: the engine tells it itself.

It hides nothing, and every observation carries the engine's ``events`` (``{"n", "turn",
"side", "type", "text", "msg", ...}``, one per thing that happened: an action, each die with
what it did, a retreat, a capture, the end of a turn), so the log of any reader is the texts
(and messages) of those events.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from warboard.core.i18n import Msg
from warboard.core.narration import Narrator, plain
from warboard.holdtheline.events import side_label
from warboard.holdtheline.scenario import Scenario


def _told(observation: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    return [e for e in observation.get("events") or () if e.get("text")]


def engine_lines(observation: Mapping[str, Any]) -> list[str]:
    """The log lines of an observation that carries the engine's ``events``."""
    return [str(e["text"]) for e in _told(observation)]


class HtlNarrator(Narrator):
    """The log in every view, as the engine keeps it."""

    family = "htl"

    def __init__(self, scenario: Scenario) -> None:
        self.scenario = scenario

    def lines(self, observation: Mapping[str, Any]) -> list[str]:
        return engine_lines(observation)

    def messages(self, observation: Mapping[str, Any]) -> list[Msg]:
        # an event of a position stored before events had messages has its text only
        return [e.get("msg") or plain(str(e["text"])) for e in _told(observation)]

    def side(self, seat: int) -> Msg | str:
        return side_label(self.scenario.sides[seat].display_name)

    def result(self, summary: Mapping[str, Any]) -> Msg | None:
        return summary.get("msg")
