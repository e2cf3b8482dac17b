"""warboard's games as PettingZoo AEC environments (extra ``rl``).

``env(game, **params)`` is the AEC environment (agents ``player_0`` / ``player_1``,
seats 0 and 1), wrapped like PettingZoo's classic games: an illegal action ends the game with
-1 for the seat that took it. Its ``metadata["name"]`` is ``warboard_GAME_v0``, GAME the
game's name.

Observations are ``{"observation": float32 vector, "action_mask": int8 vector}``: the encoding's
planes and values (``adapters.base.flat_observation``) and a 1 for each legal action id of the
seat to act (all zeros for the other seat). Chance events (card draws) are resolved inside the
environment with a generator seeded from ``reset(seed=...)``: the same seed gives the same game
for the same actions. Parameters are the game's (``window``, ``quick_start``, ...); see
docs/adapters.md. The Gymnasium single-seat environment is ``adapters.gym_env.SingleSeatEnv``.
"""

from __future__ import annotations

import random
from typing import Any

try:
    import gymnasium
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise ImportError("warboard.adapters.pettingzoo needs PettingZoo and Gymnasium: "
                      "pip install 'warboard[rl]'") from exc

from warboard.adapters.encodings import make_encoding
from warboard.adapters.gym_env import SingleSeatEnv as SingleSeatEnv  # where it was before
from warboard.adapters.gym_env import env_name
from warboard.adapters.layouts import Observation, arrange, observation_space
from warboard.adapters.match import Match
from warboard.core.registry import default_game

AGENTS = ("player_0", "player_1")


class _Seeds:
    """Game seeds: drawn from ``reset(seed)`` when given, else from the last one (or the OS)."""

    def __init__(self) -> None:
        self.rng = random.Random()

    def next(self, seed: int | None) -> int:
        if seed is not None:
            self.rng = random.Random(seed)
        return self.rng.getrandbits(63)


class raw_env(AECEnv):
    """The AEC environment without PettingZoo's wrappers (``env()`` adds them)."""

    # an instance's metadata adds its name (warboard_GAME_v0)
    metadata: dict[str, Any] = {"render_modes": ["ansi"], "is_parallelizable": False}  # noqa: RUF012

    def __init__(self, game: str | None = None, render_mode: str | None = None,
                 **params: Any) -> None:
        super().__init__()
        self.encoding = make_encoding(game or default_game(), params)
        self.metadata = {**self.metadata, "name": env_name(self.encoding.name)}
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        self.observation_spaces = {a: observation_space(self.encoding, "dict") for a in AGENTS}
        self.action_spaces = {a: spaces.Discrete(self.encoding.num_actions) for a in AGENTS}
        self._seeds = _Seeds()
        self.match: Match | None = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.match = Match(self.encoding, self._seeds.next(seed))
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0.0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in AGENTS}
        self._select()

    def _select(self) -> None:
        assert self.match is not None
        state = self.match.state
        if state.is_terminal():
            self.rewards = dict(zip(AGENTS, map(float, state.returns()), strict=True))
            self.terminations = dict.fromkeys(AGENTS, True)
        else:
            self.agent_selection = AGENTS[state.current_player()]

    def observe(self, agent: str) -> Observation:
        match = self.match
        assert match is not None, "call reset() first"
        seat = AGENTS.index(agent)
        return arrange(self.encoding, "dict", match.observation(seat),
                       lambda: match.mask(seat))

    def step(self, action: int) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert self.match is not None
        play = self.match.play(int(action))
        if play is None:
            raise ValueError(f"action {action} is not legal for {agent}")
        self._cumulative_rewards[agent] = 0.0
        self.match.apply(play)
        self._select()
        self._accumulate_rewards()
        if self.render_mode == "ansi":
            self.render()

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode")
            return None
        return None if self.match is None else self.match.text(None)

    def close(self) -> None:
        pass


def env(game: str | None = None, **params: Any) -> AECEnv:
    """The AEC environment of ``game`` (any game with an encoding; by default the registry's
    first); ``params``: the game's parameters (``encodings.parameters(game)``, docs/adapters.md),
    ``render_mode``."""
    wrapped: AECEnv = raw_env(game, **params)
    wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)
