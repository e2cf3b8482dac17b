"""One game in progress, as the environments play it: the engine state, chance resolved with a
seeded generator, and the legal action ids of each position listed once however often the
mask and the plays are asked for."""

from __future__ import annotations

import random

import numpy as np

from warboard.adapters.base import flat_observation, legal_action_ids
from warboard.adapters.encodings import Encoding
from warboard.core.protocol import CHANCE, Action, sample_chance


class Match:
    def __init__(self, encoding: Encoding, seed: int) -> None:
        self.encoding = encoding
        self.rng = random.Random(seed)
        self.state = encoding.game.new_initial_state()
        self._legal: dict[int, Action] | None = None
        self._plays: list[Action] | None = None  # state.legal_actions(), and their ids
        self._ids: list[int | None] = []
        self._valid: list[int] = []
        self._mask: np.ndarray | None = None
        self._advance()

    def _advance(self) -> None:
        state = self.state
        while state.current_player() == CHANCE:
            state.apply(sample_chance(state, self.rng))
        self._legal = self._mask = self._plays = None

    def legal(self) -> dict[int, Action]:
        """The legal plays of the seat to act that have an id (none once the game is over)."""
        if self._legal is None:
            self._legal = legal_action_ids(self.encoding, self.state)
        return self._legal

    def _numbered(self) -> tuple[list[Action], list[int | None]]:
        """The legal plays and their ids (``None``: no id), in the engine's order: what the
        mask and ``play`` need, without ``legal``'s dict and sort. Raises as
        ``legal_action_ids`` does (it is asked to, on a duplicate id or no id at all)."""
        if self._plays is None:
            plays = self.state.legal_actions()
            ids = self.encoding.action_ids(self.state, plays)
            valid: list[int] = ([i for i in ids if i is not None] if None in ids
                                else ids)  # type: ignore[assignment]
            if len(set(valid)) < len(valid) or (plays and not valid):
                legal_action_ids(self.encoding, self.state)  # raises
            self._plays, self._ids, self._valid = plays, ids, valid
        return self._plays, self._ids  # type: ignore[return-value]

    def play(self, action_id: int) -> Action | None:
        """The legal play of id ``action_id`` of the seat to act, ``None`` if there is none."""
        plays, ids = self._numbered()
        try:
            return plays[ids.index(action_id)]
        except ValueError:
            return None

    def mask(self, seat: int) -> np.ndarray:
        """True for each legal action id of ``seat``: all False when another seat is to act.
        Read-only and shared: each position's is made once (copying a mask of 10⁵ ids at each
        step would cost a good part of the step)."""
        if self.state.current_player() != seat:
            mask = np.zeros(self.encoding.num_actions, bool)
        elif self._mask is not None:
            return self._mask
        else:
            self._numbered()
            valid = self._valid
            mask = self._mask = np.zeros(self.encoding.num_actions, bool)
            mask[np.fromiter(valid, np.intp, len(valid))] = True
        mask.flags.writeable = False
        return mask

    def apply(self, action: Action) -> None:
        self.state.apply(action)
        self._advance()

    def observation(self, seat: int) -> np.ndarray:
        return flat_observation(self.encoding, self.state, seat)

    def text(self, seat: int | None) -> str:
        """The board as ``seat`` sees it (``None``: a spectator), for the ``ansi`` render."""
        return self.encoding.board_text(self.state.observation(seat))
