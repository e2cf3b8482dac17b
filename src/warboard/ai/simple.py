"""The baseline agents: uniformly random, and greedy one play ahead."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any

from warboard.ai.agent import Agent, view_seat
from warboard.ai.knowledge import Evaluator, evaluator_for
from warboard.core.protocol import Action, Game


class RandomAgent(Agent):
    """A uniformly random legal action."""

    name = "random"
    reads_view = False

    def act(self, game: Game, view: dict[str, Any], legal: Sequence[Action],
            rng: random.Random) -> Action:
        return rng.choice(list(legal))


class GreedyAgent(Agent):
    """The action whose immediate result the evaluation (the game's, or ``evaluate``) likes best
    (ties broken at random).

    The result of an own action depends only on what the seat knows, so it is computed on one
    state drawn from the seat's information set.
    """

    name = "greedy"

    def __init__(self, evaluate: Evaluator | None = None) -> None:
        self.evaluate = evaluate  # None: the game's own evaluation

    def act(self, game: Game, view: dict[str, Any], legal: Sequence[Action],
            rng: random.Random) -> Action:
        if len(legal) == 1:
            return legal[0]
        evaluate = self.evaluate or evaluator_for(game)
        seat = view_seat(view)
        base = game.sample_state(view, rng)
        best: list[Action] = []
        best_value = -math.inf
        for action in legal:
            after = base.clone()
            after.apply(action)
            value = evaluate(after, seat)
            if value > best_value + 1e-12:
                best, best_value = [action], value
            elif abs(value - best_value) <= 1e-12:
                best.append(action)
        return rng.choice(best)

