"""A Gymnasium vector environment for the card games, stepped in the native fast path
(``warboard.adapters.vector.make_vector_env`` finds it through the registry).

``CardVectorEnv`` runs ``num_envs`` games of ``hill218`` or ``ogre218`` in C
(``warboard.hill218._fastplay``, ``_fastplay_vector.c``) and returns NumPy arrays only:

* **observations**: ``uint8`` rows of :func:`~warboard.adapters.base.observation_size` values,
  the encoding's board planes (0/1) then the *numerators* of its public and private values;
  ``obs / env.observation_denominators`` (or :meth:`CardVectorEnv.as_float`) is exactly
  ``flat_observation`` of :class:`~warboard.hill218.encoding.CardEncoding` for the seat to act;
* **action masks** (:meth:`CardVectorEnv.action_masks`): ``bool`` rows over the encoding's
  action ids, the legal plays of the seat to act (``legal_action_ids``).

Seats: with ``opponent="random"`` the caller plays ``seat`` (``None``: env ``i`` plays seat
``i % 2``) and the other seat plays a uniformly random legal play (every complete play, as
``warboard``'s random agent) inside C; every step is one decision of the caller's seat and the
reward is its return when the game ends (+1 win, -1 loss, 0 draw, else 0). With
``opponent=None`` (self-play) each step is the decision of the seat to act. Either way
``infos["seat"]`` says whose observation (and mask) each row is, ``infos["acted"]`` whose
decision the step applied; the reward is that seat's return.

Autoreset is Gymnasium's ``SAME_STEP``: a game that ends is started again within the step; its
reward and ``terminated`` come with the new game's first observation, and its final observation
(for the seat the reward is for) is in ``infos["final_obs"]`` where ``infos["_final_obs"]``.
Games always end, so ``truncations`` are all False. Chance (first player, draws) and the random
opponent use each game's own random stream: ``reset(seed=s)`` seeds game ``i`` with ``s + i``.

:meth:`CardVectorEnv.step_bare` steps without writing observations or masks (rollouts).
There is no pure-Python implementation: without the built extension the constructor raises
``RuntimeError``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from warboard.adapters.base import WindowOverflowError, observation_size
from warboard.adapters.encodings import Param
from warboard.hill218 import fast
from warboard.hill218.encoding import make_encoding, parameters

__all__ = ["CardVectorEnv", "make_vector_env"]


class CardVectorEnv(VectorEnv):  # type: ignore[type-arg]
    """``num_envs`` games of ``name`` (``hill218``, ``ogre218``); ``params`` are the encoding's
    (``window``, ``quick_start``, ogre218's ``damaged_ogres_0`` / ``_1``, see
    ``warboard.hill218.encoding.parameters``). ``record=True`` keeps every game's events
    (:meth:`events`, for tests)."""

    def __init__(self, name: str = "hill218", num_envs: int = 64, *,
                 opponent: str | None = "random", seat: int | None = 0,
                 params: Mapping[str, Param] | None = None, record: bool = False) -> None:
        if opponent not in ("random", None):
            raise ValueError(f"opponent must be 'random' or None (self-play), not {opponent!r}")
        if seat not in (0, 1, None):
            raise ValueError(f"seat must be 0, 1 or None (alternating), not {seat!r}")
        full = parameters(name)
        unknown = set(params or {}) - set(full)
        if unknown:
            raise ValueError(f"{name} has no parameter {sorted(unknown)}; it has {sorted(full)}")
        full.update(params or {})
        self.metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}
        self.encoding = make_encoding(name, full)
        self.rules = fast.FastRules(self.encoding.game.rules, self.encoding.game.options)
        self.num_envs = num_envs
        self.opponent, self.seat = opponent, seat
        size = observation_size(self.encoding)
        public, private = self.encoding.denominators()
        n_board = size - len(public) - len(private)
        #: obs / observation_denominators is CardEncoding's flat_observation
        self.observation_denominators = np.array([1] * n_board + public + private, np.float64)
        high = np.full(size, 255, np.uint8)
        high[:n_board] = 1
        self.single_observation_space = spaces.Box(0, high, (size,), np.uint8)
        self.single_action_space = spaces.Discrete(self.encoding.num_actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._obs = np.zeros((num_envs, size), np.uint8)
        self._final_obs = np.zeros((num_envs, size), np.uint8)
        self._mask = np.zeros((num_envs, self.encoding.num_actions), np.bool_)
        self._rewards = np.zeros(num_envs, np.float32)
        self._terminated = np.zeros(num_envs, np.bool_)
        self._seats = np.zeros(num_envs, np.int8)
        self._truncated = np.zeros(num_envs, np.bool_)
        self._module = fast._module()
        agent = -1 if opponent is None else 2 if seat is None else seat  # 2: i % 2
        self._batch = self._module.batch_new(
            self.rules._handle, self.encoding.native_layout(), num_envs, agent, record,
            self._obs, self._final_obs, self._mask, self._rewards, self._terminated, self._seats)

    # ------------------------------------------------------------------ Gymnasium's API

    def reset(self, *, seed: int | Sequence[int] | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        """Fresh games in every env: env ``i`` seeded with ``seed + i`` (or ``seed[i]``); with
        no seed, seeds drawn from the env's generator (itself seeded by the last seeds given)."""
        if seed is None:
            seeds = [int(s) for s in self.np_random.integers(0, 2**63, self.num_envs)]
        elif isinstance(seed, int):
            self._np_random, self._np_random_seed = np.random.default_rng(seed), seed
            seeds = [seed + i for i in range(self.num_envs)]
        else:
            seeds = [int(s) for s in seed]
            self._np_random = np.random.default_rng(seeds)
        self._check(self._module.batch_reset(self._batch, seeds, True))
        return self._obs.copy(), self._infos()

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                                          dict[str, Any]]:
        """One decision in every env: ``actions`` are action ids (one per env; ``ValueError``
        before anything is applied when one is not legal), or ``None`` for a uniformly random
        legal play in each, chosen in C."""
        seats = self._seats.copy()
        self._check(self._module.batch_step(self._batch, self._ids(actions), True))
        infos = self._infos(seats)
        if self._terminated.any():
            final = np.empty(self.num_envs, object)
            for i in np.flatnonzero(self._terminated):
                final[i] = self._final_obs[i].copy()
            infos["final_obs"], infos["_final_obs"] = final, self._terminated.copy()
        return (self._obs.copy(), self._rewards.copy(), self._terminated.copy(),
                self._truncated.copy(), infos)

    def action_masks(self) -> np.ndarray:
        """The legal action ids of each env's seat to act, as ``(num_envs, num_actions)``
        booleans (what sb3-contrib's MaskablePPO asks for)."""
        return self._mask.copy()

    def close_extras(self, **kwargs: Any) -> None:
        self._batch = None

    # ------------------------------------------------------------------ beyond Gymnasium

    def step_bare(self, actions: Any = None) -> tuple[np.ndarray, np.ndarray]:
        """``step`` without observations and masks (they are left as they were): rewards and
        terminations only, for rollouts. ``actions=None``: random plays, chosen in C."""
        self._module.batch_step(self._batch, self._ids(actions), False)
        return self._rewards.copy(), self._terminated.copy()

    def as_float(self, obs: np.ndarray) -> np.ndarray:
        """Observations as CardEncoding's float32 ``flat_observation`` vectors."""
        return (obs / self.observation_denominators).astype(np.float32)

    def events(self, i: int, previous: bool = False) -> list[dict[str, Any]]:
        """Env ``i``'s game so far (``previous``: the game it finished last) as JSON actions,
        chance events included; empty unless made with ``record=True``."""
        flat = self._module.batch_trace(self._batch, i, previous)
        return fast._decode_events(flat, self.rules.names)

    def _ids(self, actions: Any) -> np.ndarray | None:
        if actions is None:
            return None
        ids = np.ascontiguousarray(actions, np.int64)
        if ids.shape != (self.num_envs,):
            raise ValueError(f"expected {self.num_envs} action ids, got shape {ids.shape}")
        return ids

    def _infos(self, acted: np.ndarray | None = None) -> dict[str, Any]:
        infos = {"seat": self._seats.copy()}
        if acted is not None:
            infos["acted"] = acted
        return infos

    def _check(self, overflow: int) -> None:
        if overflow >= 0:
            raise WindowOverflowError(
                f"{self.encoding.name}: env {overflow}'s seat to act has legal plays, none of "
                f"them inside the encoding's window (parameters {self.encoding.params}); use a "
                "larger window")


def make_vector_env(name: str, num_envs: int, **options: Any) -> CardVectorEnv:
    """The registry's entry point (``GameInfo.vector``)."""
    return CardVectorEnv(name, num_envs, **options)
