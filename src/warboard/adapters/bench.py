"""``warboard bench GAME --env``: the Gymnasium environment's speed beside the engine's.

The engine plays uniformly random games: at each decision ``state.legal_actions()``, one of
them at random, ``apply``; chance drawn with ``sample_chance``. The environment
(``SingleSeatEnv``, flat layout, a seat drawn at each reset, the ``random`` opponent) is
stepped with a random id of ``action_masks()``; each step is the seat's decision and then the
opponent's until the seat is to act again. Both are counted in decisions: the ratio
``env_decisions_per_second / engine_steps_per_second`` is the speed of a decision through the
environment (mask, observation, the opponent's decisions) against the engine's.

Method: ``ROUNDS`` rounds, each the engine then the environment for the same time (the order
swapped every other round, so that a drift in the machine's load is felt by both), timed in
the process's CPU time (what other jobs on the machine take is not counted); one core; the
game's parameters are the defaults but ``--scenario``. ``ratio_by_round`` shows the spread.
For counts that do not depend on the load, ``run(decisions=N)`` plays exactly ``N``
decisions (``benchmarks/env_instructions.py`` counts their instructions).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Sequence
from typing import Any

import numpy as np

from warboard.adapters.encodings import Param, make_encoding
from warboard.ai.agent import Agent, make_agent
from warboard.core.protocol import CHANCE, Action, Game, sample_chance

ROUNDS = 5


class EngineRun:
    """Random games through the engine alone, one after another."""

    def __init__(self, game: str, params: dict[str, Param], seed: int) -> None:
        self.game = make_encoding(game, params).game
        self.rng = random.Random(seed)
        self.state = self.game.new_initial_state()
        self.games = self.decisions = 0
        self.seconds = 0.0

    def run(self, seconds: float = float("inf"), decisions: int | None = None) -> None:
        """Decisions until ``seconds`` have passed or ``decisions`` more are made."""
        rng, state = self.rng, self.state
        stop = self.decisions + decisions if decisions is not None else -1
        start, cpu = time.perf_counter(), time.process_time()
        while self.decisions != stop and time.perf_counter() - start < seconds:
            if state.is_terminal():
                state = self.state = self.game.new_initial_state()
                self.games += 1
            elif state.current_player() == CHANCE:
                state.apply(sample_chance(state, rng))
            else:
                legal = state.legal_actions()
                state.apply(legal[rng.randrange(len(legal))])
                self.decisions += 1
        self.seconds += time.process_time() - cpu


class _Counted(Agent):
    """The random agent, counting its decisions."""

    name = "random"
    reads_view = False

    def __init__(self) -> None:
        self.inner = make_agent("random")
        self.decisions = 0

    def act(self, game: Game, view: dict[str, Any], legal: Sequence[Action],
            rng: random.Random) -> Action:
        self.decisions += 1
        return self.inner.act(game, view, legal, rng)


class EnvRun:
    """Random games through ``SingleSeatEnv``: a random id of the mask at each step."""

    def __init__(self, game: str, params: dict[str, Any], seed: int) -> None:
        from warboard.adapters.gym_env import SingleSeatEnv

        self.opponent = _Counted()
        self.env = SingleSeatEnv(game, seat=None, opponent=self.opponent, **params)
        self.env.reset(seed=seed)
        self.rng = random.Random(seed)  # as the engine's choice (numpy's costs ~10× more a draw)
        self.games = self.steps = 0
        self.seconds = 0.0

    @property
    def decisions(self) -> int:
        return self.steps + self.opponent.decisions

    def run(self, seconds: float = float("inf"), decisions: int | None = None) -> None:
        """Steps until ``seconds`` have passed or ``decisions`` more are made (the last step
        may go past them by the opponent's replies)."""
        env, rng = self.env, self.rng
        stop = self.decisions + decisions if decisions is not None else None
        start, cpu = time.perf_counter(), time.process_time()
        while (stop is None or self.decisions < stop) and time.perf_counter() - start < seconds:
            legal = np.flatnonzero(env.action_masks())
            _, _, done, _, _ = env.step(int(legal[rng.randrange(len(legal))]))
            self.steps += 1
            if done:
                env.reset()
                self.games += 1
        self.seconds += time.process_time() - cpu


def measure(game: str, params: dict[str, Param], seconds: float,
            seed: int) -> dict[str, Any]:
    """``seconds`` of each, in ``ROUNDS`` rounds."""
    engine, env = EngineRun(game, params, seed), EnvRun(game, params, seed)
    ratios = []
    for k in range(ROUNDS):
        before = (engine.decisions, engine.seconds, env.decisions, env.seconds)
        for runner in (engine, env) if k % 2 == 0 else (env, engine):
            runner.run(seconds / ROUNDS)
        engine_rate = (engine.decisions - before[0]) / (engine.seconds - before[1])
        ratios.append((env.decisions - before[2]) / (env.seconds - before[3]) / engine_rate)
    engine_rate = engine.decisions / engine.seconds
    return {
        "game": game,
        "params": make_encoding(game, params).params,
        "engine_steps_per_second": round(engine_rate, 1),
        "env_steps_per_second": round(env.steps / env.seconds, 1),
        "env_decisions_per_second": round(env.decisions / env.seconds, 1),
        "ratio": round(env.decisions / env.seconds / engine_rate, 3),
        "ratio_by_round": [round(r, 3) for r in ratios],
        "ratio_median": round(statistics.median(ratios), 3),
        "engine": {"games": engine.games, "steps": engine.decisions,
                   "seconds": round(engine.seconds, 2)},
        "env": {"games": env.games, "steps": env.steps, "decisions": env.decisions,
                "seconds": round(env.seconds, 2)},
        "clock": "process CPU time",
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
    print(f"{args.game}: random play on one core, {args.seconds:g} s each (CPU time), "
          f"{ROUNDS} rounds in turn")
    print(f"  engine:      {result['engine_steps_per_second']:10.1f} decisions/s")
    print(f"  environment: {result['env_decisions_per_second']:10.1f} decisions/s "
          f"({result['env_steps_per_second']:.1f} steps/s, the opponent's decisions in them)")
    print(f"  ratio:       {result['ratio']:10.3f} (by round: "
          f"{', '.join(f'{r:.3f}' for r in result['ratio_by_round'])})")
    return 0
