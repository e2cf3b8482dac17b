"""A game's log in words, each reader's told only from what that reader saw.

``Game.narrator()`` says how its log is told (``warboard.core.session`` keeps the logs). Either
each event is narrated for each reader from the reader's views before and after it, the event
as the reader learnt it (``warboard.core.replay.as_seen``), into that reader's ``Log``
(``narrates_events``); or the engine keeps its own log in every view, and a reader's log is read
from its current view (``lines``, ``messages``). The base class tells nothing.

Every line is also a message (``warboard.core.i18n``), for clients that say it in another
language; so are the engine's result and the sides' names (``result``, ``side``), for the words
of the end of a game (``warboard.core.results``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Protocol

from warboard.core.i18n import Msg, msg
from warboard.core.protocol import JSON
from warboard.core.view import View


class Log(Protocol):
    """One reader's log, kept as text lines (and their messages) as it grows."""

    lines: list[str]
    messages: list[Msg]

    def extend(self, entries: Iterable[Any]) -> None: ...


def plain(text: str) -> Msg:
    """A line that only has its English words."""
    return msg("log.plain", text=text)


class Lines:
    """A log whose entries are its lines."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.messages: list[Msg] = []

    def extend(self, entries: Iterable[Any]) -> None:
        for e in entries:
            self.lines.append(str(e))
            self.messages.append(plain(str(e)))


class Narrator:
    """How a game's log is told; this one tells nothing."""

    narrates_events = False  # True: narrate() each event for each reader into its new_log()
    family = "cards"  # the end texts' keys: end.<family>.* (how a side's win is said)

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

    def messages(self, observation: Mapping[str, JSON]) -> list[Msg]:
        """The messages of ``lines``, one each."""
        return [plain(line) for line in self.lines(observation)]

    def side(self, seat: int) -> Msg | str:
        """A seat's side, named."""
        return f"Seat {seat}"

    def result(self, summary: Mapping[str, Any]) -> Msg | None:
        """The engine's result summary in words (``None``: the game has none)."""
        return None
