"""Game knowledge for the agents (docs/ai.md): an evaluation, a cheap action prior, a fast
rollout policy and optionally a search horizon. Each game's package provides its own
``Knowledge`` (``GameInfo.knowledge``); ``knowledge_for(game)`` looks it up, and a game without
any gets the neutral one: 0 until the end, no prior, uniformly random rollouts, no horizon.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from warboard.core.protocol import Game, State
from warboard.core.registry import info

Evaluator = Callable[[State, int], float]
Prior = Callable[[State, Any], float]
Policy = Callable[[State, random.Random], None]
Horizon = Callable[[State], Callable[[State], bool]]
PlayPriors = Callable[[State, Sequence[Any]], list[float]]


@dataclass(frozen=True)
class RootStats:
    """What a search found at its root: for each play it tried, its visits, mean value (in
    [-1, 1], for the seat to act) and prior; and how many iterations it ran."""

    plays: dict[Any, tuple[int, float, float]]
    iterations: int


# (game, view, legal plays, the search's settings, rng, a play always tried or None, the
# determinizations to draw from or None: redeal at random) -> the root's statistics, or None
# where the native search does not apply (that position or those settings): the Python search
# runs.
NativeSearch = Callable[[Game, Mapping[str, Any], Sequence[Any], Mapping[str, Any],
                         random.Random, Any, Sequence[State] | None], RootStats | None]
# (game, view, an opponent model, rng) -> determinizations of the view drawn by how well they
# explain the opponent's observed plays under that model (the search draws each iteration's
# from them), or None where nothing is to be learnt (the search deals at random)
Beliefs = Callable[[Game, Mapping[str, Any], PlayPriors, random.Random],
                   Sequence[State] | None]
# (a trained model, its value's share) -> the compiled search reading that model, or None
NativeModelSearch = Callable[[Any, float], NativeSearch | None]


def final_result(state: State, seat: int) -> float:
    return state.returns()[seat] if state.is_terminal() else 0.0


def no_prior(state: State, action: Any) -> float:
    return 0.0


def uniform_rollout(state: State, rng: random.Random) -> None:
    state.apply(rng.choice(state.legal_actions()))


@dataclass(frozen=True)
class Knowledge:
    """What a game tells its search: ``evaluate(state, seat)`` in [-1, 1] for ``seat``,
    ``action_prior(state, action)`` (higher: try it first), ``rollout_policy(state, rng)``
    (plays one step of a rollout) and ``horizon``: given the root state, a test of whether a
    state met in the search lies beyond it (search then scores it as a leaf), or ``None``.
    ``play_priors(state, legal)``, when given (a trained model's policy), weighs all the legal
    plays at once and stands in for both of the search's priors: the evaluation of each play's
    result at the root and ``action_prior`` below it. ``native_search``, when given, is the
    same search with this same knowledge compiled (``ISMCTSAgent`` uses it where it applies);
    knowledge derived from this one with other parts must leave it out.
    ``native_model_search(model, value_weight)``, when given, is the compiled search reading a
    trained model (``ai.model.model_knowledge`` uses it). ``beliefs``, when given, weighs
    determinizations by an opponent model (a search with ``beliefs`` on and a model's
    ``play_priors`` uses it)."""

    evaluate: Evaluator = final_result
    action_prior: Prior = no_prior
    rollout_policy: Policy = uniform_rollout
    horizon: Horizon | None = None
    play_priors: PlayPriors | None = None
    native_search: NativeSearch | None = None
    native_model_search: NativeModelSearch | None = None
    beliefs: Beliefs | None = None


NEUTRAL = Knowledge()


def knowledge_for(game: Game) -> Knowledge:
    try:
        module = info(game.name).knowledge
    except ValueError:  # a game made without the registry
        return NEUTRAL
    if module is None:
        return NEUTRAL
    knowledge: Knowledge = importlib.import_module(module).KNOWLEDGE
    return knowledge


def evaluator_for(game: Game) -> Evaluator:
    return knowledge_for(game).evaluate


def action_prior_for(game: Game) -> Prior:
    return knowledge_for(game).action_prior


def horizon_for(game: Game) -> Horizon | None:
    return knowledge_for(game).horizon


def rollout_policy_for(game: Game) -> Policy:
    return knowledge_for(game).rollout_policy
