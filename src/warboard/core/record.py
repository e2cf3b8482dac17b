"""Game records: every decision and chance outcome of a game, enough to replay it exactly.

A *full* record holds everything (hidden cards included) and replays to the very same states.
A record *exported for a seat* holds only what that seat could know: the events it could not see
are marked hidden, the seed is dropped, and the seat's view after every event is stored so the
game can still be stepped through. See docs/records.md for the format.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from warboard.core.errors import RecordError
from warboard.core.protocol import CHANCE, Game, State
from warboard.core.registry import make_game
from warboard.core.replay import replay, steps_as_seen

FORMAT = "warboard-record"
VERSION = 1


@dataclass
class Record:
    game: str
    options: dict[str, Any] = field(default_factory=dict)
    seed: int | None = None
    players: list[str] = field(default_factory=lambda: ["", ""])
    events: list[dict[str, Any]] = field(default_factory=list)
    result: dict[str, Any] | None = None
    view: int | None = None  # None: full record; 0/1: exported for that seat
    frames: list[dict[str, Any]] | None = None  # seat records: the seat's view after each event
    created: str = field(default_factory=lambda: datetime.now(UTC).isoformat(timespec="seconds"))

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "format": FORMAT, "version": VERSION, "game": self.game, "options": self.options,
            "created": self.created, "players": self.players, "view": self.view,
            "seed": self.seed, "events": self.events, "result": self.result,
        }
        if self.frames is not None:
            data["frames"] = self.frames
        return data

    @classmethod
    def from_json(cls, data: Any) -> Record:
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise RecordError(f"not a warboard record (expected \"format\": \"{FORMAT}\")")
        if data.get("version") != VERSION:
            raise RecordError(f"record version {data.get('version')!r} is not supported "
                              f"(this warboard reads version {VERSION})")
        events = data.get("events")
        if not isinstance(events, list) or not all(isinstance(e, dict) for e in events):
            raise RecordError("events: must be a list of objects")
        view = data.get("view")
        if view not in (None, 0, 1):
            raise RecordError("view: must be null, 0 or 1")
        frames = data.get("frames")
        if view is not None and (not isinstance(frames, list) or len(frames) != len(events) + 1):
            raise RecordError("frames: a seat record needs one view per event, plus the start")
        return cls(game=str(data.get("game")), options=dict(data.get("options") or {}),
                   seed=data.get("seed"), players=list(data.get("players") or ["", ""]),
                   events=events, result=data.get("result"), view=view, frames=frames,
                   created=str(data.get("created", "")))

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_json(), indent=1) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path) -> Record:
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except OSError as exc:
            raise RecordError(f"{path}: cannot be read: {exc.strerror or exc}") from exc
        except json.JSONDecodeError as exc:
            raise RecordError(f"{path}: not JSON: {exc}") from exc
        return cls.from_json(data)

    def make_game(self) -> Game:
        try:
            return make_game(self.game, self.options)
        except ValueError as exc:
            raise RecordError(str(exc)) from exc


class Recorder:
    """Applies actions to a state and writes each one into a full record."""

    def __init__(self, game: Game, seed: int | None = None,
                 players: list[str] | None = None) -> None:
        self.game = game
        self.state: State = game.new_initial_state()
        self.record = Record(game=game.name, options=dict(game.options), seed=seed,
                             players=list(players or ["", ""]))

    def apply(self, action: Any) -> None:
        seat = self.state.current_player()
        event = {"seat": None if seat == CHANCE else seat,
                 "action": self.game.action_to_json(action)}
        self.state.apply(action)  # raises (and records nothing) when illegal
        self.record.events.append(event)
        self.record.result = self.result_json(self.state)

    def truncate(self, n_events: int) -> None:
        """Go back to the state after the first ``n_events`` events (for undo)."""
        self.record.events = self.record.events[:n_events]
        self.state = replay_state(self.record, self.game)
        self.record.result = self.result_json(self.state)

    @staticmethod
    def result_json(state: State) -> dict[str, Any] | None:
        if not state.is_terminal():
            return None
        summary = state.observation(None).get("result")
        return {"returns": list(state.returns()), "summary": summary}


def replay_states(record: Record, game: Game | None = None) -> Iterator[State]:
    """The state before the first event, then after each event (full records only)."""
    if record.view is not None:
        raise RecordError("a record exported for one seat cannot rebuild the full game; "
                          "step through its frames instead")
    game = game or record.make_game()
    state = game.new_initial_state()
    yield state.clone()
    for _ in replay(game, state, record.events):
        yield state.clone()


def replay_state(record: Record, game: Game | None = None) -> State:
    """The state at the end of a full record."""
    *_, last = replay_states(record, game)
    return last


def export_for_seat(record: Record, seat: int) -> Record:
    """The record as ``seat`` saw it: hidden events blanked, the seat's view after each event."""
    if record.view is not None:
        raise RecordError(f"this record was already exported for seat {record.view}; "
                          "export from the full record")
    start, steps = steps_as_seen(record.make_game(), record.events, seat)
    return Record(game=record.game, options=record.options, seed=None, players=record.players,
                  events=[event for event, _ in steps], result=record.result, view=seat,
                  frames=[start, *(view for _, view in steps)], created=record.created)
