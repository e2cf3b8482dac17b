"""One seat of a warboard game against a warboard agent, as a Gymnasium environment (extra
``rl``); registered as ``warboard/Hill218-v0`` and the others by ``adapters.gym_envs``."""

from __future__ import annotations

import random
from typing import Any

try:
    import gymnasium
    from gymnasium import spaces
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise ImportError("warboard.adapters.gym_env needs Gymnasium: pip install 'warboard[rl]'"
                      ) from exc
import numpy as np

from warboard.adapters.encodings import make_encoding
from warboard.adapters.layouts import Layout, Observation, arrange, check_layout, observation_space
from warboard.adapters.match import Match
from warboard.ai.agent import Agent, decide, make_agent
from warboard.core.registry import default_game


def env_name(game: str) -> str:
    """The environments' ``metadata["name"]`` of ``game``: ``warboard_hill218_v0``."""
    return f"warboard_{game}_v0"


class SingleSeatEnv(gymnasium.Env):
    """One seat of a game against a warboard agent.

    ``seat``: 0, 1, or ``None`` for a seat drawn at every reset (``info["seat"]``).
    ``opponent``: an agent name for ``make_agent`` or an agent object; it is not limited to the
    window: it may make any legal play. ``layout``: ``flat``, ``chw`` or ``dict``
    (``adapters.layouts``). ``action_masks()`` is the legal action ids of the seat as bools
    (sb3-contrib's ``MaskablePPO``). Rewards: the seat's result at the end (+1, 0, -1). An
    action outside the mask ends the game as a loss (``info["illegal_action"]``).
    ``params``: the game's parameters (``encodings.parameters(game)``).
    """

    # gymnasium.Env declares ``metadata`` an instance variable (a ClassVar may not override it)
    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 1}  # noqa: RUF012

    def __init__(self, game: str | None = None, seat: int | None = 0,
                 opponent: str | Agent = "random", layout: Layout = "flat",
                 render_mode: str | None = None, **params: Any) -> None:
        if seat not in (0, 1, None):
            raise ValueError(f"seat must be 0, 1 or None, not {seat!r}")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.encoding = make_encoding(game or default_game(), params)
        self.metadata = {**self.metadata, "name": env_name(self.encoding.name)}
        self.fixed_seat = seat
        self.seat = seat or 0
        self.opponent = make_agent(opponent) if isinstance(opponent, str) else opponent
        self.layout = check_layout(layout)
        self.render_mode = render_mode
        self.observation_space = observation_space(self.encoding, self.layout)
        self.action_space = spaces.Discrete(self.encoding.num_actions)
        self.match: Match | None = None
        self._opponent_rng = random.Random()

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[Observation, dict[str, Any]]:
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(2**62))
        self.seat = self.fixed_seat if self.fixed_seat is not None else game_seed & 1
        self._opponent_rng = random.Random(game_seed ^ 0x5EED)
        self.match = Match(self.encoding, game_seed)
        self._opponent_moves()
        return self._observe(self.match), {"seat": self.seat}

    def _opponent_moves(self) -> None:
        assert self.match is not None
        state = self.match.state
        while not state.is_terminal() and state.current_player() != self.seat:
            self.match.apply(decide(self.opponent, state, self._opponent_rng))

    def _observe(self, match: Match) -> Observation:
        return arrange(self.encoding, self.layout, match.observation(self.seat),
                       lambda: match.mask(self.seat))

    def step(self, action: int) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        assert self.match is not None, "call reset() first"
        state = self.match.state
        if state.is_terminal():
            raise RuntimeError("the game is over: call reset()")
        play = self.match.play(int(action))
        if play is None:
            return self._observe(self.match), -1.0, True, False, {
                "seat": self.seat, "illegal_action": True}
        self.match.apply(play)
        self._opponent_moves()
        done = state.is_terminal()
        reward = float(state.returns()[self.seat]) if done else 0.0
        return self._observe(self.match), reward, done, False, {"seat": self.seat}

    def action_masks(self) -> np.ndarray:
        """True for each legal action id of the seat (all False once the game is over)."""
        assert self.match is not None, "call reset() first"
        return self.match.mask(self.seat)

    def render(self) -> str | None:
        """``ansi``: the board as the seat sees it, as text."""
        if self.match is None or self.render_mode is None:
            return None
        return self.match.text(self.seat)
