"""What one screen may show: observations only, so hidden cards cannot leak into the output.

A ``View`` holds the public observation of a moment and the private observations of the seats
whose secrets this screen may reveal (the player's own seat; both seats for a full replay; none
for a spectator). Everything in ``warboard.terminal`` renders and narrates from views, never from
engine states.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from warboard.core.protocol import State

Observation = dict[str, Any]


@dataclass(frozen=True)
class View:
    public: Observation
    private: Mapping[int, Observation] = field(default_factory=dict)

    @classmethod
    def of_state(cls, state: State, seats: Iterable[int] = ()) -> View:
        """The public view of ``state`` plus the private views of ``seats``."""
        return cls(state.observation(None), {s: state.observation(s) for s in seats})

    @classmethod
    def of_frame(cls, frame: Observation) -> View:
        """A frame of a seat record (``observation(seat)`` stored at the time)."""
        seat = frame.get("seat")
        return cls(frame, {} if seat is None else {seat: frame})

    # -- public facts, read the same way everywhere

    @property
    def phase(self) -> str:
        return self.public["phase"]

    @property
    def to_move(self) -> int | None:
        """The seat to decide now, or ``None`` (chance or the game is over)."""
        return self.public.get("to_move")

    @property
    def drawing(self) -> int | None:
        """The seat whose card is being drawn at a chance node, else ``None``."""
        return self.public.get("drawing")

    @property
    def turn(self) -> int:
        return int(self.public.get("turn", 0))

    @property
    def result(self) -> dict[str, Any] | None:
        return self.public.get("result")

    def board(self) -> dict[tuple[int, int], tuple[int, str]]:
        """Cell -> (seat, unit name)."""
        return {(u["x"], u["y"]): (u["seat"], u["unit"]) for u in self.public["board"]}

    def hand(self, seat: int) -> dict[str, int] | None:
        """``seat``'s hand by unit name, or ``None`` when this view may not show it."""
        obs = self.private.get(seat)
        return None if obs is None else dict(obs.get("hand", {}))
