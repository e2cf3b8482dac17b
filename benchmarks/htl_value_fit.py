"""How well the Hold the Line evaluation's terms predict who wins (docs/ai.md, "What the terms
know of the result").

    python benchmarks/htl_value_fit.py [--games 2600] [--epsilon 0.1] [--jobs 2] [--json]

Plays the greedy agent against itself ``--games`` times, the thirteen battles in turn, each
decision a random legal one with probability ``--epsilon`` (so that the positions vary), and
keeps every position between two actions (no attack or choice pending) with its terms
(``htl_terms``, for seat 0) and the game's result. Every fifth game is held out. Two logistic
models of "seat 0 wins" (a draw counts half) are fitted on the others, each with an intercept
for each battle (the battles are unequal, and a search compares positions of one battle
only), and scored on the held-out games by log loss and accuracy:

* ``tuned``: the shipped evaluation's weighted sum with one fitted slope; its calibrated
  ``SCALE`` (value = tanh(score / SCALE)) is 2 / slope;
* ``refit``: every term with a weight of its own, printed in the evaluation's units (VP = 1 for
  the shipped weights' scale).

About 9 minutes on two cores for the 2,600 games; the fit takes seconds.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import numpy as np

from htl_tune_weights import BATTLES, agent
from warboard.ai.agent import decide
from warboard.ai.match import sample_chance
from warboard.core.protocol import CHANCE
from warboard.core.registry import make_game
from warboard.holdtheline.knowledge import SCALE, TERMS, WEIGHTS, htl_terms

HELD_OUT = 5  # every fifth game


def positions(index: int, epsilon: float) -> tuple[list[list[float]], float]:
    """Game ``index`` (battle ``index`` modulo 13): the terms of each position between two
    actions, for seat 0, and seat 0's result."""
    battle = BATTLES[index % len(BATTLES)]
    rng = random.Random(f"value-fit:{index}")
    state = make_game("holdtheline", {"scenario": battle}).new_initial_state()
    greedy = agent("greedy", WEIGHTS)
    rows = []
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            state.apply(sample_chance(state, rng))
            continue
        if state.pending is None and state.phase == "act":
            rows.append(htl_terms(state, 0))
        if rng.random() < epsilon:
            state.apply(rng.choice(state.legal_actions()))
        else:
            state.apply(decide(greedy, state, rng))
    return rows, state.returns()[0]


def win_probability(inputs: np.ndarray, w: np.ndarray) -> np.ndarray:
    return 1 / (1 + np.exp(-inputs @ w))


def logistic(inputs: np.ndarray, wins: np.ndarray, l2: float = 1e-3) -> np.ndarray:
    """Weights (no intercept: the inputs carry their own) by Newton's method, an L2 penalty."""
    w = np.zeros(inputs.shape[1])
    for _ in range(50):
        p = win_probability(inputs, w)
        grad = inputs.T @ (p - wins) / len(wins) + l2 * w
        hess = (inputs * (p * (1 - p))[:, None]).T @ inputs / len(wins) + l2 * np.eye(len(w))
        w -= np.linalg.solve(hess, grad)
    return w


def scored(inputs: np.ndarray, wins: np.ndarray, w: np.ndarray) -> dict[str, float]:
    p = np.clip(win_probability(inputs, w), 1e-6, 1 - 1e-6)
    loss = -np.mean(wins * np.log(p) + (1 - wins) * np.log(1 - p))
    return {"log_loss": round(float(loss), 4),
            "accuracy": round(float(np.mean((p > 0.5) == (wins > 0.5))), 4)}


def fit(terms: np.ndarray, results: np.ndarray, games: np.ndarray) -> dict[str, Any]:
    battle = np.eye(len(BATTLES))[games % len(BATTLES)]
    wins = (results + 1) / 2
    test = games % HELD_OUT == 0
    tuned = np.array([WEIGHTS[name] for name in TERMS])
    report: dict[str, Any] = {"positions": len(results), "held_out": int(test.sum())}
    for name, inputs in (("tuned", np.hstack([(terms @ tuned)[:, None], battle])),
                         ("refit", np.hstack([terms, battle]))):
        # each position counted from both seats: the value is zero-sum
        train = np.vstack([inputs[~test], -inputs[~test]])
        w = logistic(train, np.concatenate([wins[~test], 1 - wins[~test]]))
        report[name] = scored(inputs[test], wins[test], w)
        if name == "tuned":
            report[name]["scale"] = round(float(2 / w[0]), 2)
        else:  # in VP: the logit's weights over the VP's
            report[name]["weights"] = {t: round(float(v / w[0]), 4)
                                       for t, v in zip(TERMS, w[:len(TERMS)], strict=True)}
    return report


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=2600, help="games (default: 2600)")
    parser.add_argument("--epsilon", type=float, default=0.1,
                        help="chance of a random decision (default: 0.1)")
    parser.add_argument("--jobs", type=int, default=2, help="processes (default: 2)")
    parser.add_argument("--json", action="store_true", help="print only the JSON report")
    args = parser.parse_args()
    start = time.perf_counter()
    terms: list[list[float]] = []
    results: list[float] = []
    games: list[int] = []
    with ProcessPoolExecutor(args.jobs) as pool:
        played = pool.map(positions, range(args.games), [args.epsilon] * args.games, chunksize=2)
        for index, (rows, result) in enumerate(played):
            terms += rows
            results += [result] * len(rows)
            games += [index] * len(rows)
            if not args.json and (index + 1) % 100 == 0:
                print(f"{index + 1} games, {len(terms)} positions, "
                      f"{time.perf_counter() - start:.0f} s", flush=True)
    report = fit(np.array(terms), np.array(results), np.array(games))
    report["shipped_scale"] = SCALE
    print(json.dumps(report, indent=None if args.json else 1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
