"""Game knowledge for the agents, one module per game: an evaluation, a cheap action prior, a
fast rollout policy and optionally a search horizon each (docs/ai.md). ``evaluator_for(game)``,
``action_prior_for(game)``, ``rollout_policy_for(game)`` and ``horizon_for(game)`` pick them by
the game's name; a game without knowledge gets a neutral evaluation (0 until the end), no prior,
uniformly random rollouts and no horizon.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from warboard.core.protocol import State

Evaluator = Callable[[State, int], float]
Prior = Callable[[State, Any], float]
Policy = Callable[[State, random.Random], None]

CARD_GAMES = ("hill218", "ogre218")


def evaluator_for(game: Any) -> Evaluator:
    if game.name in CARD_GAMES:
        from warboard.ai.knowledge.cards import evaluate_cards

        return evaluate_cards
    if game.name == "holdtheline":
        from warboard.ai.knowledge.holdtheline import evaluate_htl

        return evaluate_htl
    return lambda state, seat: state.returns()[seat] if state.is_terminal() else 0.0


def action_prior_for(game: Any) -> Prior:
    if game.name in CARD_GAMES:
        from warboard.ai.knowledge.cards import card_action_prior

        return card_action_prior
    if game.name == "holdtheline":
        from warboard.ai.knowledge.holdtheline import htl_action_prior

        return htl_action_prior
    return lambda state, action: 0.0


def horizon_for(game: Any) -> Callable[[State], Callable[[State], bool]] | None:
    """The game's search horizon, or None: given the root state, a test of whether a state met
    in the search lies beyond it (search then scores it as a leaf)."""
    if game.name == "holdtheline":
        from warboard.ai.knowledge.holdtheline import htl_horizon

        return htl_horizon
    return None


def rollout_policy_for(game: Any) -> Policy:
    if game.name in CARD_GAMES:
        from warboard.ai.knowledge.cards import card_rollout_policy

        return card_rollout_policy
    if game.name == "holdtheline":
        from warboard.ai.knowledge.holdtheline import htl_rollout_policy

        return htl_rollout_policy

    def uniform(state: State, rng: random.Random) -> None:
        state.apply(rng.choice(state.legal_actions()))

    return uniform
