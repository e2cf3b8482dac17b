"""Native vector environments: many games stepped at once by a game's own fast path.

A game that has one names it in the registry (``GameInfo.vector``); ``make_vector_env`` builds
it. It is a ``gymnasium.vector.VectorEnv`` in the game's encoding (``warboard.adapters.encodings``)
that also offers what :class:`NativeVectorEnv` lists: action masks, compact observations with
the denominators that turn them into the encoding's floats, and bare steps for rollouts
(docs/adapters.md, "Vector environment").
"""

from __future__ import annotations

import importlib
from typing import Any, Protocol

import numpy as np
from gymnasium import spaces

from warboard.core import registry

__all__ = ["NativeVectorEnv", "game_names", "gym_vector_env", "make_vector_env"]


class NativeVectorEnv(Protocol):
    """What a native vector environment offers beyond Gymnasium's ``VectorEnv``."""

    num_envs: int
    single_action_space: spaces.Discrete
    #: ``obs / observation_denominators`` is the encoding's float observation
    observation_denominators: np.ndarray

    def reset(self, *, seed: Any = None, options: Any = None) -> tuple[np.ndarray, dict[str, Any]]:
        ...

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                                          dict[str, Any]]:
        ...

    def action_masks(self) -> np.ndarray:
        """The legal action ids of each env's seat to act, ``(num_envs, num_actions)`` bool."""
        ...

    def as_float(self, obs: np.ndarray) -> np.ndarray:
        ...

    def step_bare(self, actions: Any = None) -> tuple[np.ndarray, np.ndarray]:
        ...

    def close(self, **kwargs: Any) -> None:
        ...


def game_names() -> list[str]:
    """The games with a native vector environment."""
    return [g.name for g in registry.games() if g.vector is not None]


def make_vector_env(name: str, num_envs: int = 64, **options: Any) -> Any:
    """``num_envs`` games of ``name`` in its native vector environment; ``options`` are the
    game's (its module's ``make_vector_env``)."""
    module = registry.info(name).vector if name in registry.game_names() else None
    if module is None:
        raise ValueError(f"no native vector environment for game {name!r}; games: "
                         f"{', '.join(game_names())}")
    return importlib.import_module(module).make_vector_env(name, num_envs, **options)


def gym_vector_env(num_envs: int, game: str, seat: int | None = 0,
                   opponent: str | None = "random", **params: Any) -> Any:
    """``gymnasium.make_vec``'s ``vector_entry_point`` for the registered ids
    (``warboard.adapters.gym_envs``): the single environment's keywords that the native one
    has — ``seat``, ``opponent`` (``"random"``, or ``None`` for self-play) and the game's
    parameters."""
    return make_vector_env(game, num_envs, seat=seat, opponent=opponent, params=params)
