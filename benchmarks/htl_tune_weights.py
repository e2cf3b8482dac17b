"""Tune the Hold the Line evaluation's weights by self-play (docs/ai.md, "Evaluation").

    python benchmarks/htl_tune_weights.py [--iterations 60] [--games 4] [--seed 11] [--start FILE]

SPSA: at each step every weight but the VP's (the unit the others are counted in) is moved by
the same factor, e^0.3, up or down at random, and the greedy agent (one play ahead) with the
weights moved one way plays the one with them moved the other way, ``--games`` games on each
battle with each seat order (the two games of a pair share their dice). Each weight then moves
(in log space, its sign kept) by 1.5 × (score − 0.5) in the direction that scored. It starts
from the hand-set weights (``HAND_SET``; ``--start``: a JSON object of weights), prints a line
per step (the score, then the weights as JSON) and the final weights; about 18 s a step on two
cores. ``--check WEIGHTS.json`` instead plays the greedy agent (``--level hard``: ``hard``'s
search, without time caps) with those weights against the same agent with the hand-set ones,
``--check-games`` games on each battle with each seat order, and prints its wins, draws, losses
and score with its 95% interval.
"""

from __future__ import annotations

import argparse
import json
import math
import random
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

from warboard.ai.agent import Agent
from warboard.ai.ismcts import ISMCTSAgent
from warboard.ai.levels import level_budget
from warboard.ai.match import play_out
from warboard.ai.ratings import score_interval
from warboard.ai.simple import GreedyAgent
from warboard.core.registry import make_game
from warboard.holdtheline.knowledge import KNOWLEDGE, TERMS, weighed_value
from warboard.holdtheline.scenario_file import list_names

# every battle of the rulebook, in the order the shipped weights' tuning played them
BATTLES = ("trenton", "princeton", "bemis_heights", "hobkirks_hill", "brandywine",
           "monmouth_morning", "monmouth_afternoon", "harlem_heights", "white_plains",
           "long_island", "kings_mountain", "eutaw_springs", "weitzels_mill")

# the weights before they were tuned (2026-12-07): where the tuning started
HAND_SET = {"vp": 1.0, "target": 4.0, "units": 0.3, "mp": 0.3, "leaders": 0.6,
            "leader_turns": 0.05, "lone_leaders": -0.4, "goal_distance": -0.15,
            "exit_distance": -0.04, "cover": 0.08, "ap": 0.01, "attack": 1.0}
STEP, LEARNING_RATE = 0.3, 1.5


def evaluation(weights: dict[str, float]) -> Callable[[Any, int], float]:
    """``evaluate_htl`` with ``weights``."""
    return partial(weighed_value, weights=[weights[name] for name in TERMS])


def agent(level: str, weights: dict[str, float]) -> Agent:
    """The greedy agent, or ``hard``'s search, reading the evaluation with ``weights``."""
    if level == "greedy":
        return GreedyAgent(evaluation(weights))
    knowledge = replace(KNOWLEDGE, evaluate=evaluation(weights))
    budget = {k: v for k, v in level_budget(level, "holdtheline").items()
              if k in ISMCTSAgent.SETTINGS}
    return ISMCTSAgent(**{**budget, "seconds": None}, knowledge=knowledge)


def play(a: dict[str, float], b: dict[str, float], index: int, tag: str,
         level: str = "greedy") -> float:
    """A's score in game ``index``: battle ``index // 2`` (cycling), A at seat ``index % 2``."""
    battle = BATTLES[(index // 2) % len(BATTLES)]
    rng = random.Random(f"{tag}:{index // 2}")
    a_seat = index % 2
    agents = {a_seat: agent(level, a), 1 - a_seat: agent(level, b)}
    state = play_out(make_game("holdtheline", {"scenario": battle}).new_initial_state(), agents,
                     rng)
    return (state.returns()[a_seat] + 1) / 2


def scores(pool: ProcessPoolExecutor, a: dict[str, float], b: dict[str, float], games: int,
           tag: str, level: str = "greedy") -> list[float]:
    n = games * 2 * len(BATTLES)
    return list(pool.map(play, [a] * n, [b] * n, range(n), [tag] * n, [level] * n,
                         chunksize=4))


def tune(pool: ProcessPoolExecutor, start: dict[str, float], iterations: int, games: int,
         seed: int) -> dict[str, float]:
    tuned = [name for name in TERMS if name != "vp"]
    log_w = {name: math.log(abs(start[name])) for name in TERMS}
    sign = {name: math.copysign(1.0, start[name]) for name in TERMS}
    rng = random.Random(seed)

    def weights(shift: dict[str, float]) -> dict[str, float]:
        return {n: sign[n] * math.exp(log_w[n] + shift.get(n, 0.0)) for n in TERMS}

    def shown(weights: dict[str, float]) -> dict[str, float]:
        return {name: round(w, 4) for name, w in weights.items()}

    for k in range(iterations):
        delta = {name: rng.choice((-1.0, 1.0)) for name in tuned}
        up = weights({n: STEP * d for n, d in delta.items()})
        down = weights({n: -STEP * d for n, d in delta.items()})
        played = scores(pool, up, down, games, f"spsa{k}")
        score = sum(played) / len(played)
        for name in tuned:
            log_w[name] += LEARNING_RATE * (score - 0.5) * delta[name]
        print(k, round(score, 3), json.dumps(shown(weights({}))), flush=True)
    return shown(weights({}))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--iterations", type=int, default=60, help="SPSA steps (default: 60)")
    parser.add_argument("--games", type=int, default=4,
                        help="games a battle and seat order at each step (default: 4)")
    parser.add_argument("--seed", type=int, default=11, help="seed (default: 11)")
    parser.add_argument("--start", type=Path, help="weights to start from (JSON)")
    parser.add_argument("--check", type=Path, help="weights (JSON) to play against the hand-set")
    parser.add_argument("--level", choices=["greedy", "hard"], default="greedy",
                        help="with --check: the agent both sides play (hard: its search without "
                             "time caps; default: greedy)")
    parser.add_argument("--check-games", type=int, default=10,
                        help="with --check: games a battle and seat order (default: 10)")
    parser.add_argument("--jobs", type=int, default=2, help="processes (default: 2)")
    args = parser.parse_args()
    assert set(BATTLES) == set(list_names()) - {"tutorial"}, "a battle was added or renamed"
    with ProcessPoolExecutor(args.jobs) as pool:
        if args.check:
            checked = json.loads(args.check.read_text())
            played = scores(pool, checked, HAND_SET, args.check_games, "check", args.level)
            mean, low, high = score_interval(played)
            wins, draws = played.count(1.0), played.count(0.5)
            print(json.dumps({"wins": wins, "draws": draws,
                              "losses": len(played) - wins - draws, "score": round(mean, 4),
                              "interval": [round(low, 4), round(high, 4)]}))
            return 0
        start = json.loads(args.start.read_text()) if args.start else HAND_SET
        print(json.dumps(tune(pool, start, args.iterations, args.games, args.seed)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
