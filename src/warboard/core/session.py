"""A game being played, without any input or output: the recorder, chance, the log as each
reader may see it, undo and abandoning. The terminal and the server both play through it."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any

from warboard.core.i18n import Msg, english, msg
from warboard.core.narration import Log
from warboard.core.protocol import CHANCE, Game, State, sample_chance
from warboard.core.record import Recorder
from warboard.core.replay import Reader, as_seen, replay, seen_by
from warboard.core.view import Observation, View

Told = dict[Reader, list[Any]]  # what one event told each followed reader (log entries)


class Session:
    """Plays ``game`` through a ``Recorder``; chance is drawn from ``random.Random(seed)``.

    The log of each *followed* reader (a seat, or ``None`` for the public) is narrated from that
    reader's own views only, event by event (``game.narrator()``), and kept as text lines.
    ``readers`` are followed from the start; any other reader is followed from the first time
    its log is asked for (its log is then narrated by replaying the game), until ``unfollow``.
    The observations of the current state are made once and kept until the next event.
    """

    def __init__(self, game: Game, seed: int, players: Sequence[str],
                 readers: Sequence[Reader]) -> None:
        self.game = game
        self.narrator = game.narrator()
        self.seed = seed
        self.recorder = Recorder(game, seed, list(players))
        self.chance_rng = random.Random(seed)
        self._told: list[Told] = []
        self._logs: dict[Reader, Log] = {r: self.narrator.new_log() for r in readers}
        self._observations: dict[Reader, Observation] = {}  # of the current state

    @property
    def state(self) -> State:
        return self.recorder.state

    @property
    def events(self) -> list[dict[str, Any]]:
        return self.recorder.record.events

    @property
    def readers(self) -> tuple[Reader, ...]:
        """The readers whose logs are kept now."""
        return tuple(self._logs)

    def observation(self, reader: Reader) -> Observation:
        """``state.observation(reader)`` of the current state (made once per state; do not
        change it)."""
        if reader not in self._observations:
            self._observations[reader] = self.state.observation(reader)
        return self._observations[reader]

    def view(self, reader: Reader) -> View:
        if reader is None:
            return View(self.observation(None))
        return View(self.observation(None), {reader: self.observation(reader)})

    def apply(self, action: Any) -> None:
        """Play a decision or chance outcome; ``IllegalActionError`` changes nothing."""
        readers = self.readers if self.narrator.narrates_events else ()
        before = {r: self.view(r) for r in readers}
        shown = seen_by(self.game, self.state, action, readers)
        self.recorder.apply(action)
        self._observations = {}
        event = self.events[-1]
        told = {r: self.narrator.narrate(before[r], self.view(r), as_seen(event, shown[r]))
                for r in readers}
        self._told.append(told)
        for reader, entries in told.items():
            self._logs[reader].extend(entries)

    def resolve_chance(self) -> None:
        """Apply chance outcomes until a seat must decide or the game is over."""
        while self.state.current_player() == CHANCE:
            self.apply(sample_chance(self.state, self.chance_rng))

    def log(self, reader: Reader, last: int | None = 10) -> list[str]:
        """The ``last`` lines of ``reader``'s log (every line when ``last`` is ``None``)."""
        if not self.narrator.narrates_events:
            told = self.narrator.lines(self.observation(reader))
            return told[-last:] if last is not None else told
        lines = self._kept(reader).lines
        return lines[-last:] if last is not None else list(lines)

    def log_messages(self, reader: Reader) -> list[Msg]:
        """The messages of ``reader``'s whole log, one for each of its lines."""
        if not self.narrator.narrates_events:
            return self.narrator.messages(self.observation(reader))
        return list(self._kept(reader).messages)

    def _kept(self, reader: Reader) -> Log:
        if reader not in self._logs:
            self._follow(reader)
        return self._logs[reader]

    def unfollow(self, reader: Reader) -> None:
        """Stop keeping ``reader``'s log (it is narrated again when it is asked for)."""
        if self._logs.pop(reader, None) is not None:
            for told in self._told:
                told.pop(reader, None)

    def _follow(self, reader: Reader) -> None:
        """Keep ``reader``'s log from now on, narrating the events so far by replaying them."""
        state = self.game.new_initial_state()
        before = View.of_state(state, _seats(reader))
        for told, step in zip(self._told, replay(self.game, state, self.events, (reader,)),
                              strict=True):
            after = View.of_state(state, _seats(reader))
            told[reader] = self.narrator.narrate(before, after,
                                                 as_seen(step.event, step.shown[reader]))
            before = after
        self._logs[reader] = self._log_of(reader)

    def _log_of(self, reader: Reader) -> Log:
        log = self.narrator.new_log()
        log.extend(e for told in self._told for e in told.get(reader, []))
        return log

    # ------------------------------------------------------------------ undo and abandoning

    def undo_refusal(self, seat: int) -> Msg | None:
        """Why ``seat``, at the keyboard, may not take back its last decision now, or ``None``
        when it may: the game's rule (``Game.undo_refusal``) while it is the seat's turn."""
        if self.state.current_player() != seat:
            return msg("rules.undo.notYourDecision")
        return self.game.undo_refusal(self.state, self.events, seat)

    def undo(self, seat: int) -> None:
        """Take back ``seat``'s last decision (check ``undo_refusal`` first)."""
        refusal = self.undo_refusal(seat)
        if refusal is not None:
            raise ValueError(english(refusal))
        n = len(self.events) - 1
        self.recorder.truncate(n)
        self._observations = {}
        del self._told[n:]
        self._logs = {r: self._log_of(r) for r in self._logs}

    def abandon(self, seat: int, how: str) -> None:
        """Mark the record as abandoned by ``seat`` (``how``: "resigned", "quit", ...)."""
        self.recorder.record.result = {"abandoned": True, "by": seat, "how": how}

    def save(self, path: str) -> None:
        self.recorder.record.save(path)


def _seats(reader: Reader) -> Iterable[int]:
    return () if reader is None else (reader,)
