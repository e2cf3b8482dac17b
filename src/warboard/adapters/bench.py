"""``warboard bench GAME --env``: the Gymnasium environment's speed beside the engine's.

The engine plays uniformly random games: at each decision ``state.legal_actions()``, one of
them at random, ``apply``; chance drawn with ``sample_chance``. The environment
(``SingleSeatEnv``, flat layout, a seat drawn at each reset, the ``random`` opponent) is
stepped with a random id of ``action_masks()``; each step is the seat's decision and then the
opponent's until the seat is to act again. Both are counted in decisions: the ratio
``env_decisions_per_second / engine_steps_per_second`` is the speed of a decision through the
environment (mask, observation, the opponent asked through its view) against the engine's.
Five rounds of each, taking turns; one core; the game's parameters are the defaults but
``--scenario``.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Sequence
from typing import Any

import numpy as np

from warboard.adapters.encodings import Param, make_encoding
from warboard.ai.agent import make_agent
from warboard.core.protocol import CHANCE, Action, Game, sample_chance

ROUNDS = 5  # the engine and the environment take turns, so that a load felt by one is felt by both


class _EngineRun:
    def __init__(self, game: Game, seed: int) -> None:
        self.game, self.rng = game, random.Random(seed)
        self.games = self.steps = 0
        self.seconds = 0.0

    def run(self, seconds: float) -> None:
        """Whole random games until ``seconds`` have passed."""
        rng = self.rng
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            state = self.game.new_initial_state()
            while not state.is_terminal():
                if state.current_player() == CHANCE:
                    state.apply(sample_chance(state, rng))
                    continue
                legal = state.legal_actions()
                state.apply(legal[rng.randrange(len(legal))])
                self.steps += 1
            self.games += 1
        self.seconds += time.perf_counter() - start


class _Counted:
    """The random agent, counting its decisions."""

    name = "random"

    def __init__(self) -> None:
        self.inner = make_agent("random")
        self.decisions = 0

    def act(self, game: Game, view: dict[str, Any], legal: Sequence[Action],
            rng: random.Random) -> Action:
        self.decisions += 1
        return self.inner.act(game, view, legal, rng)


class _EnvRun:
    def __init__(self, game: str, params: dict[str, Any], seed: int) -> None:
        from warboard.adapters.gym_env import SingleSeatEnv

        self.opponent = _Counted()
        self.env = SingleSeatEnv(game, seat=None, opponent=self.opponent, **params)
        self.env.reset(seed=seed)
        self.rng = np.random.default_rng(seed)
        self.games = self.steps = 0
        self.seconds = 0.0

    def run(self, seconds: float) -> None:
        """Whole games, each step a random id of the mask, until ``seconds`` have passed."""
        env, rng = self.env, self.rng
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            done = False
            while not done:
                legal = np.flatnonzero(env.action_masks())
                _, _, done, _, _ = env.step(int(legal[rng.integers(len(legal))]))
                self.steps += 1
            env.reset()
            self.games += 1
        self.seconds += time.perf_counter() - start

    @property
    def decisions(self) -> int:
        return self.steps + self.opponent.decisions


def measure(game: str, params: dict[str, Param], seconds: float,
            seed: int) -> dict[str, Any]:
    """``seconds`` of each, in ``ROUNDS`` turns."""
    encoding = make_encoding(game, params)
    engine, env = _EngineRun(encoding.game, seed), _EnvRun(game, params, seed)
    for _ in range(ROUNDS):
        engine.run(seconds / ROUNDS)
        env.run(seconds / ROUNDS)
    engine_rate = engine.steps / engine.seconds
    return {
        "game": game,
        "params": encoding.params,
        "engine_steps_per_second": round(engine_rate, 1),
        "env_steps_per_second": round(env.steps / env.seconds, 1),
        "env_decisions_per_second": round(env.decisions / env.seconds, 1),
        "ratio": round(env.decisions / env.seconds / engine_rate, 3),
        "engine": {"games": engine.games, "steps": engine.steps,
                   "seconds": round(engine.seconds, 2)},
        "env": {"games": env.games, "steps": env.steps, "decisions": env.decisions,
                "seconds": round(env.seconds, 2)},
        "cores": 1,
    }


def run_env_bench(args: argparse.Namespace) -> int:
    params: dict[str, Param] = {}
    if getattr(args, "scenario", None):
        params["scenario"] = args.scenario
    result = measure(args.game, params, args.seconds, args.seed)
    if args.json:
        print(json.dumps(result))
        return 0
    print(f"{args.game}: random play on one core, {args.seconds:g} s each")
    print(f"  engine:      {result['engine_steps_per_second']:10.1f} decisions/s")
    print(f"  environment: {result['env_decisions_per_second']:10.1f} decisions/s "
          f"({result['env_steps_per_second']:.1f} steps/s, the opponent's decisions in them)")
    print(f"  ratio:       {result['ratio']:10.3f}")
    return 0
