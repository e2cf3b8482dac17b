"""Random games for the tests: the decision points met along the way."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from warboard.core.protocol import CHANCE


def random_decision_points(game: Any, seed: int, every: int = 1, *, clone: bool = False,
                           skip_forced: bool = False) -> Iterator[Any]:
    """Play a random game of ``game`` (chance and plays from ``random.Random(seed)``) and yield
    every ``every``-th decision point: the live state (the game goes on from it when the caller
    asks for the next), or a copy with ``clone``. ``skip_forced`` passes over the points that
    have only one legal action (they still count for ``every``)."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    n = 0
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            state.apply(state.sample_chance_outcome(rng))
            continue
        if n % every == 0 and (not skip_forced or len(state.legal_actions()) > 1):
            yield state.clone() if clone else state
        n += 1
        state.apply(rng.choice(state.legal_actions()))
