"""What one reader may see of a moment: observations only, so hidden cards cannot leak.

A ``View`` holds the public observation of a moment and the private observations of the seats
whose secrets it may reveal (the player's own seat; both seats for a full replay; none for a
spectator). Game logs are narrated from views (``warboard.core.narration``), and the terminal
draws from them, never from engine states.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Self

from warboard.core.protocol import State

Observation = dict[str, Any]


@dataclass(frozen=True)
class View:
    public: Observation
    private: Mapping[int, Observation] = field(default_factory=dict)

    @classmethod
    def of_state(cls, state: State, seats: Iterable[int] = ()) -> Self:
        """The public view of ``state`` plus the private views of ``seats``."""
        return cls(state.observation(None), {s: state.observation(s) for s in seats})

    @classmethod
    def of_frame(cls, frame: Observation) -> Self:
        """A frame of a seat record (``observation(seat)`` stored at the time)."""
        seat = frame.get("seat")
        return cls(frame, {} if seat is None else {seat: frame})
