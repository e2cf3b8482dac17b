"""Replaying events, and what each reader learnt of them: the one place that decides it.

A *reader* is a seat, or ``None`` for the public (a spectator), who learns an event only when
both seats do (``Game.visible_to``). Records exported for a seat, the server's replays and
last-move notices, the game logs and the OpenSpiel histories all ask ``seen_by``; whoever
rebuilds a game from its events steps through ``replay``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from warboard.core.errors import IllegalActionError, RecordError, WarboardError
from warboard.core.protocol import CHANCE, JSON, Action, Game, State

Reader = int | None
Event = Mapping[str, JSON]  # {"seat": seat or None for chance, "action": the action's JSON}


def seen_by(game: Game, state: State, action: Action,
            readers: Iterable[Reader]) -> dict[Reader, bool]:
    """Whether each reader learns ``action``, about to be applied to ``state``."""
    seats: dict[int, bool] = {}
    shown: dict[Reader, bool] = {}
    for reader in readers:
        for seat in range(game.num_seats) if reader is None else (reader,):
            if seat not in seats:
                seats[seat] = game.visible_to(state, action, seat)
        shown[reader] = all(seats.values()) if reader is None else seats[reader]
    return shown


def as_seen(event: Event, shown: bool) -> dict[str, JSON]:
    """``event`` as a reader who did (``shown``) or did not learn it is told it: the seat that
    acted, and the action or ``"hidden": true``."""
    if shown:
        return {"seat": event.get("seat"), "action": event.get("action")}
    return {"seat": event.get("seat"), "action": None, "hidden": True}


@dataclass(frozen=True)
class Step:
    """One replayed event: the event, its action, and which readers learnt it."""

    index: int
    event: Event
    action: Action
    shown: Mapping[Reader, bool]


def replay(game: Game, state: State, events: Iterable[Event],
           readers: Sequence[Reader] = ()) -> Iterator[Step]:
    """Apply ``events`` to ``state`` one by one, yielding each once applied (read ``state``
    then for the position after it). An event that is not the acting seat's, or that does not
    apply, raises ``RecordError`` naming it."""
    for i, event in enumerate(events):
        try:
            action = game.action_from_json(event.get("action"), state)
            seat = state.current_player()
            expected = None if seat == CHANCE else seat
            if event.get("seat") != expected:
                raise RecordError(f"event {i}: recorded for seat {event.get('seat')!r} but "
                                  f"{'chance' if expected is None else f'seat {expected}'} "
                                  "acts there")
            shown = seen_by(game, state, action, readers)
            state.apply(action)
        except (IllegalActionError, WarboardError) as exc:
            if isinstance(exc, RecordError):
                raise
            raise RecordError(f"event {i} does not replay: {exc}") from exc
        yield Step(i, event, action, shown)


def steps_as_seen(game: Game, events: Sequence[Event], reader: Reader,
                  ) -> tuple[dict[str, Any], list[tuple[dict[str, JSON], dict[str, Any]]]]:
    """``reader``'s view at the start, then for each event: the event as it was told to
    ``reader`` (``as_seen``) and ``reader``'s view after it."""
    state = game.new_initial_state()
    start = state.observation(reader)
    steps = [(as_seen(step.event, step.shown[reader]), state.observation(reader))
             for step in replay(game, state, events, (reader,))]
    return start, steps
