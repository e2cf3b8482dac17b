"""A card game's view: the facts of its observations, read the same way everywhere."""

from __future__ import annotations

from typing import Any

from warboard.core.view import View


class CardView(View):
    """A ``View`` of a card game (``hill218``, ``ogre218``)."""

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
