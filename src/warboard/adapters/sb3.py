"""Stable-Baselines3's ``VecEnv`` over a native vector environment (``warboard.adapters.vector``).

SB3 (and sb3-contrib's ``MaskablePPO``) steps its own ``VecEnv`` type, not Gymnasium's vector
API. ``SB3VecEnv`` bridges the two: float32 observations (``as_float``, exactly the encoding's
observation vector), ``dones`` with the final observation in
``infos[i]["terminal_observation"]`` (SB3's autoreset is Gymnasium's SAME_STEP), and
``env_method("action_masks")`` for sb3-contrib's ``get_action_masks``.

Needs the ``rl-train`` extra (``pip install -e '.[rl,rl-train]'``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from stable_baselines3.common.vec_env import VecEnv

from warboard.adapters.vector import NativeVectorEnv

__all__ = ["SB3VecEnv"]


class SB3VecEnv(VecEnv):
    """``venv`` (``make_vector_env(...)``, usually against the random opponent) as an SB3
    VecEnv."""

    def __init__(self, venv: NativeVectorEnv) -> None:
        self.venv = venv
        size = venv.observation_denominators.size
        super().__init__(venv.num_envs, spaces.Box(0.0, 1.0, (size,), np.float32),
                         spaces.Discrete(int(venv.single_action_space.n)))
        self._actions: np.ndarray | None = None

    def reset(self) -> np.ndarray:
        seeds = [s for s in self._seeds if s is not None] or None  # model.set_random_seed's
        obs, _ = self.venv.reset(seed=seeds)
        self._reset_seeds()
        return self.venv.as_float(obs)

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = actions

    def step_wait(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[dict[str, Any]]]:
        obs, rewards, terminated, truncated, infos = self.venv.step(self._actions)
        dones = terminated | truncated
        out: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        for i in np.flatnonzero(dones):
            out[i]["terminal_observation"] = self.venv.as_float(infos["final_obs"][i][None])[0]
            out[i]["TimeLimit.truncated"] = bool(truncated[i] and not terminated[i])
        return self.venv.as_float(obs), rewards, dones, out

    def action_masks(self) -> np.ndarray:
        return self.venv.action_masks()

    def env_method(self, method_name: str, *method_args: Any, indices: Any = None,
                   **method_kwargs: Any) -> list[Any]:
        if method_name != "action_masks":
            raise AttributeError(f"{type(self).__name__} has no env method {method_name!r}")
        masks = self.venv.action_masks()
        return [masks[i] for i in self._get_indices(indices)]

    def has_attr(self, attr_name: str) -> bool:
        return attr_name in ("action_masks", "render_mode")

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        if attr_name == "render_mode":
            return [None for _ in self._get_indices(indices)]
        raise AttributeError(f"{type(self).__name__} has no env attribute {attr_name!r}")

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        raise AttributeError(f"{type(self).__name__}'s envs have no settable attributes")

    def env_is_wrapped(self, wrapper_class: type, indices: Any = None) -> list[bool]:
        return [False for _ in self._get_indices(indices)]

    def close(self) -> None:
        self.venv.close()
