"""Scores and Elo ratings from game results, with 95% intervals."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

# one game: (agent a, agent b, a's score: 1 win, 0.5 draw, 0 loss)
Game = tuple[str, str, float]


def score_interval(scores: Sequence[float]) -> tuple[float, float, float]:
    """Mean score and its 95% interval (Wilson's, with a draw as half a win), which stays
    sensible when every game went one way."""
    n = len(scores)
    if n == 0:
        return (0.5, 0.0, 1.0)
    mean = sum(scores) / n
    z2 = 1.96**2
    centre = (mean + z2 / (2 * n)) / (1 + z2 / n)
    half = 1.96 * math.sqrt(mean * (1 - mean) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return (mean, max(0.0, centre - half), min(1.0, centre + half))


def elo_difference(score: float, games: int) -> float:
    """The Elo difference a mean score over ``games`` games means (kept finite: at most half a
    game from all or none)."""
    s = min(max(score, 0.5 / games), 1 - 0.5 / games)
    return 400 * math.log10(s / (1 - s))


def elo(games: Sequence[Game], agents: Sequence[str], iterations: int = 400) -> dict[str, float]:
    """Maximum-likelihood Elo ratings (Bradley-Terry with draws as half points), mean 1500.

    A tiny prior (one draw against a virtual 1500 player each) keeps ratings finite when an
    agent wins or loses every game.
    """
    index = {a: i for i, a in enumerate(agents)}
    n = len(agents)
    r = [0.0] * n  # natural-log strengths
    pairs: dict[tuple[int, int], list[float]] = {}
    for a, b, s in games:
        i, j = index[a], index[b]
        key = (i, j) if i < j else (j, i)
        entry = pairs.setdefault(key, [0.0, 0.0])
        entry[0] += s if i < j else 1 - s  # score of the lower index
        entry[1] += 1
    for _ in range(iterations):  # minorization-maximization updates
        new = []
        for i in range(n):
            won = 0.5  # prior: half a point against the virtual player
            denom = 1.0 / (1.0 + math.exp(r[i]))  # against strength 0
            for (p, q), (score_p, count) in pairs.items():
                if i not in (p, q):
                    continue
                other = q if i == p else p
                my_score = score_p if i == p else count - score_p
                won += my_score
                denom += count / (math.exp(r[i]) + math.exp(r[other]))
            new.append(math.log(max(won, 1e-9) / denom))
        mean = sum(new) / n
        r = [v - mean for v in new]
    scale = 400 / math.log(10)
    return {a: 1500 + scale * r[index[a]] for a in agents}


def elo_intervals(games: Sequence[Game], agents: Sequence[str], samples: int = 200,
                  seed: int = 0) -> dict[str, tuple[float, float]]:
    """95% intervals of each rating by bootstrap over the games."""
    rng = random.Random(seed)
    draws: dict[str, list[float]] = {a: [] for a in agents}
    for _ in range(samples):
        resample = [games[rng.randrange(len(games))] for _ in games]
        for a, v in elo(resample, agents, iterations=150).items():
            draws[a].append(v)
    out = {}
    for a, values in draws.items():
        values.sort()
        out[a] = (values[int(0.025 * len(values))], values[int(0.975 * len(values)) - 1])
    return out
