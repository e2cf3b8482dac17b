"""A game's log in words, each reader's told only from what that reader saw.

``Game.narrator()`` says how its log is told (``warboard.core.session`` keeps the logs). Either
each event is narrated for each reader from the reader's views before and after it, the event
as the reader learnt it (``warboard.core.replay.as_seen``), into that reader's ``Log``
(``narrates_events``); or the engine keeps its own log in every view, and a reader's log is read
from its current view (``lines``). The base class tells nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Protocol

from warboard.core.protocol import JSON
from warboard.core.view import View


class Log(Protocol):
    """One reader's log, kept as text lines as it grows."""

    lines: list[str]

    def extend(self, entries: Iterable[Any]) -> None: ...


class Lines:
    """A log whose entries are its lines."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def extend(self, entries: Iterable[Any]) -> None:
        self.lines.extend(str(e) for e in entries)


class Narrator:
    """How a game's log is told; this one tells nothing."""

    narrates_events = False  # True: narrate() each event for each reader into its new_log()

    def narrate(self, before: View, after: View, event: Mapping[str, JSON]) -> list[Any]:
        """The log entries of ``event`` (as the reader learnt it), which turned the reader's
        view ``before`` into ``after``."""
        return []

    def new_log(self) -> Log:
        """An empty log, for the entries of ``narrate``."""
        return Lines()

    def lines(self, observation: Mapping[str, JSON]) -> list[str]:
        """The log the engine keeps in a reader's view (when it does not narrate events)."""
        return []
