"""A game being played in the terminal, without any input or output: the recorder, chance,
the log as each reader may see it, undo within a turn and abandoning."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from warboard.core.protocol import CHANCE, Game, State, sample_chance
from warboard.core.record import Recorder
from warboard.terminal.narrate import LogEntry, log_lines, narrate
from warboard.terminal.view import View

Reader = int | None  # a seat, or None for the public (spectator) log


@dataclass(frozen=True)
class _Told:
    """What one event told each reader, and the turn it was played in (for undo)."""

    turn: int
    entries: dict[Reader, list[LogEntry]]


class Session:
    """Plays ``game`` through a ``Recorder``; chance is drawn from ``random.Random(seed)``.

    ``readers`` are the seats (and ``None`` for the public) whose log is kept; each log is
    narrated from that reader's own views only.
    """

    def __init__(self, game: Game, seed: int, players: Sequence[str],
                 readers: Sequence[Reader]) -> None:
        self.game = game
        self.rules: Any = game.rules  # type: ignore[attr-defined]
        self.seed = seed
        self.recorder = Recorder(game, seed, list(players))
        self.chance_rng = random.Random(seed)
        self.readers = tuple(readers)
        self._told: list[_Told] = []

    @property
    def state(self) -> State:
        return self.recorder.state

    @property
    def events(self) -> list[dict[str, Any]]:
        return self.recorder.record.events

    def view(self, reader: Reader) -> View:
        return View.of_state(self.state, () if reader is None else (reader,))

    def apply(self, action: Any) -> None:
        """Play a decision or chance outcome; ``IllegalActionError`` changes nothing."""
        before = {r: self.view(r) for r in self.readers}
        shown = {r: self._visible(action, r) for r in self.readers}
        turn = self.view(None).turn
        self.recorder.apply(action)
        event = self.events[-1]
        hidden = {"seat": event["seat"], "action": None, "hidden": True}
        self._told.append(_Told(turn, {
            r: narrate(self.rules, before[r], self.view(r), event if shown[r] else hidden)
            for r in self.readers}))

    def resolve_chance(self) -> None:
        """Apply chance outcomes until a seat must decide or the game is over."""
        while self.state.current_player() == CHANCE:
            self.apply(sample_chance(self.state, self.chance_rng))

    def log(self, reader: Reader, last: int | None = 10) -> list[str]:
        """The ``last`` lines of ``reader``'s log (every line when ``last`` is ``None``)."""
        entries = [e for told in self._told for e in told.entries.get(reader, [])]
        return log_lines(self.rules, entries, last)

    # ------------------------------------------------------------------ undo and abandoning

    def undo_refusal(self, seat: int) -> str | None:
        """Why ``seat`` may not take back its last decision now, or ``None`` when it may:
        only its own decision, only within its turn, only when nothing happened since."""
        if self.state.current_player() != seat:
            return "it is not your decision now"
        if (not self.events or self.events[-1].get("seat") != seat
                or self._told[-1].turn != self.view(None).turn):
            return ("you have made no play in this turn to take back (undo works only within "
                    "your own turn, before any draw or other player's decision)")
        return None

    def undo(self, seat: int) -> None:
        """Take back ``seat``'s last decision (check ``undo_refusal`` first)."""
        refusal = self.undo_refusal(seat)
        if refusal is not None:
            raise ValueError(refusal)
        n = len(self.events) - 1
        self.recorder.truncate(n)
        del self._told[n:]

    def abandon(self, seat: int, how: str) -> None:
        """Mark the record as abandoned by ``seat`` (``how``: "resigned", "quit", ...)."""
        self.recorder.record.result = {"abandoned": True, "by": seat, "how": how}

    def save(self, path: str) -> None:
        self.recorder.record.save(path)

    def _visible(self, action: Any, reader: Reader) -> bool:
        """May ``reader`` learn ``action``, about to be applied? (The public learns what both
        seats learn.)"""
        visible_to = getattr(self.game, "visible_to", None)
        if visible_to is None:
            return True
        seats = (0, 1) if reader is None else (reader,)
        return all(visible_to(self.state, action, s) for s in seats)
