"""warboard's games as a PettingZoo AEC environment and a Gymnasium single-seat environment
(extra ``rl``).

``env(game, **params)`` is the AEC environment (agents ``player_0`` / ``player_1``,
seats 0 and 1), wrapped like PettingZoo's classic games: an illegal action ends the game with
-1 for the seat that took it. ``SingleSeatEnv(game, seat=0, opponent="random", **params)``
plays one seat against a warboard agent (``make_agent`` names: ``random``, ``greedy``, levels).

Observations are ``{"observation": float32 vector, "action_mask": int8 vector}``: the encoding's
planes and values (``adapters.base.flat_observation``) and a 1 for each legal action id of the
seat to act (all zeros for the other seat). Chance events (card draws) are resolved inside the
environment with a generator seeded from ``reset(seed=...)``: the same seed gives the same game
for the same actions. Parameters are the game's (``window``, ``quick_start``, ...); see
docs/adapters.md.
"""

from __future__ import annotations

import json
import random
from typing import Any, ClassVar

try:
    import gymnasium
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise ImportError("warboard.adapters.pettingzoo needs PettingZoo and Gymnasium: "
                      "pip install 'warboard[rl]'") from exc
import numpy as np

from warboard.adapters.base import flat_observation, legal_action_ids, observation_size
from warboard.adapters.encodings import Encoding, make_encoding
from warboard.ai.agent import Agent, decide, make_agent
from warboard.core.protocol import CHANCE, Action, sample_chance
from warboard.core.registry import default_game

AGENTS = ("player_0", "player_1")


class Match:
    """One game in progress: the engine state, chance resolved with a seeded generator."""

    def __init__(self, encoding: Encoding, seed: int) -> None:
        self.encoding = encoding
        self.rng = random.Random(seed)
        self.state = encoding.game.new_initial_state()
        self._legal: dict[int, Action] | None = None
        self._advance()

    def _advance(self) -> None:
        state = self.state
        while state.current_player() == CHANCE:
            state.apply(sample_chance(state, self.rng))
        self._legal = None

    def legal(self) -> dict[int, Action]:
        """The legal plays of the seat to act that have an id (none once the game is over)."""
        if self._legal is None:
            self._legal = legal_action_ids(self.encoding, self.state)
        return self._legal

    def apply(self, action: Action) -> None:
        self.state.apply(action)
        self._advance()

    def observe(self, seat: int) -> dict[str, np.ndarray]:
        mask = np.zeros(self.encoding.num_actions, np.int8)
        if self.state.current_player() == seat:
            mask[list(self.legal())] = 1
        return {"observation": flat_observation(self.encoding, self.state, seat),
                "action_mask": mask}

    def text(self) -> str:
        return json.dumps(self.state.observation(None), indent=1)


def observation_space(encoding: Encoding) -> spaces.Dict:
    return spaces.Dict({
        "observation": spaces.Box(0.0, 1.0, (observation_size(encoding),), np.float32),
        "action_mask": spaces.Box(0, 1, (encoding.num_actions,), np.int8),
    })


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

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"], "name": "warboard_v0",
                                          "is_parallelizable": False}

    def __init__(self, game: str | None = None, render_mode: str | None = None,
                 **params: Any) -> None:
        super().__init__()
        self.encoding = make_encoding(game or default_game(), params)
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        self.observation_spaces = {a: observation_space(self.encoding) for a in AGENTS}
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

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        assert self.match is not None, "call reset() first"
        return self.match.observe(AGENTS.index(agent))

    def step(self, action: int) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert self.match is not None
        play = self.match.legal().get(int(action))
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
        return None if self.match is None else self.match.text()

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


class SingleSeatEnv(gymnasium.Env):
    """One seat of a game against a warboard agent, as a Gymnasium environment.

    ``seat``: 0, 1, or ``None`` for a seat drawn at every reset. ``opponent``: an agent name for
    ``make_agent`` or an agent object. Rewards: the seat's result at the end (+1, 0, -1). An
    action outside the mask ends the game as a loss (``info["illegal_action"]``). The opponent
    is not limited to the window: it may make any legal play.
    """

    # gymnasium.Env declares ``metadata`` an instance variable (a ClassVar may not override it)
    metadata: dict[str, Any] = {"render_modes": ["ansi"]}  # noqa: RUF012

    def __init__(self, game: str | None = None, seat: int | None = 0,
                 opponent: str | Agent = "random", render_mode: str | None = None,
                 **params: Any) -> None:
        if seat not in (0, 1, None):
            raise ValueError(f"seat must be 0, 1 or None, not {seat!r}")
        self.encoding = make_encoding(game or default_game(), params)
        self.fixed_seat = seat
        self.seat = seat or 0
        self.opponent = make_agent(opponent) if isinstance(opponent, str) else opponent
        self.render_mode = render_mode
        self.observation_space = observation_space(self.encoding)
        self.action_space = spaces.Discrete(self.encoding.num_actions)
        self.match: Match | None = None
        self._opponent_rng = random.Random()

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, np.ndarray], dict]:
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(2**62))
        self.seat = self.fixed_seat if self.fixed_seat is not None else game_seed & 1
        self._opponent_rng = random.Random(game_seed ^ 0x5EED)
        self.match = Match(self.encoding, game_seed)
        self._opponent_moves()
        return self.match.observe(self.seat), {"seat": self.seat}

    def _opponent_moves(self) -> None:
        assert self.match is not None
        state = self.match.state
        while not state.is_terminal() and state.current_player() != self.seat:
            self.match.apply(decide(self.opponent, state, self._opponent_rng))

    def step(self, action: int) -> tuple[dict[str, np.ndarray], float, bool, bool, dict]:
        assert self.match is not None, "call reset() first"
        state = self.match.state
        if state.is_terminal():
            raise RuntimeError("the game is over: call reset()")
        play = self.match.legal().get(int(action))
        if play is None:
            return self.match.observe(self.seat), -1.0, True, False, {
                "seat": self.seat, "illegal_action": True}
        self.match.apply(play)
        self._opponent_moves()
        done = state.is_terminal()
        reward = float(state.returns()[self.seat]) if done else 0.0
        return self.match.observe(self.seat), reward, done, False, {"seat": self.seat}

    def render(self) -> str | None:
        return None if self.match is None or self.render_mode is None else self.match.text()
