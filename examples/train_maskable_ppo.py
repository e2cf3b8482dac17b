"""Train sb3-contrib's MaskablePPO on a card game through the native vector environment.

    pip install -e '.[rl,rl-train]'
    python examples/train_maskable_ppo.py --game hill218 --minutes 5 --out runs/ppo

``--envs`` games run in C (``warboard.adapters.vector.make_vector_env``, env ``i`` playing seat
``i % 2`` against a uniformly random player), bridged to Stable-Baselines3 by
``warboard.adapters.sb3.SB3VecEnv``; illegal action ids are masked out. Every
``--eval-every`` seconds of training the policy plays ``--eval-games`` games against random
(half in each seat, its most likely legal action) and its score (wins, a draw counting half) is
printed; at the end ``OUT/scores.json`` holds the scores over training time and
``OUT/scores.png`` draws them. A small window (``--window 11``) keeps the network small: plays
outside it are not available to the policy (docs/adapters.md).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback

from warboard.adapters.sb3 import SB3VecEnv
from warboard.adapters.vector import NativeVectorEnv, make_vector_env


def score_vs_random(model: MaskablePPO, venv: NativeVectorEnv, games: int, seed: int) -> float:
    """The policy's score against random over ``games`` games (``venv`` plays seat i % 2)."""
    obs, _ = venv.reset(seed=seed)
    points, done = 0.0, 0
    while done < games:
        actions, _ = model.predict(venv.as_float(obs), action_masks=venv.action_masks(),
                                   deterministic=True)
        obs, rewards, terminated, _, _ = venv.step(actions)
        for i in np.flatnonzero(terminated)[:games - done]:
            points += (float(rewards[i]) + 1) / 2
            done += 1
    return points / games


class Evaluate(BaseCallback):
    """Stops after ``seconds`` of training; scores the policy every ``every`` seconds of it
    (evaluation time is not counted)."""

    def __init__(self, seconds: float, every: float, venv: NativeVectorEnv, games: int,
                 seed: int) -> None:
        super().__init__()
        self.seconds, self.every, self.venv, self.games, self.seed = (
            seconds, every, venv, games, seed)
        self.trained = 0.0
        self.curve: list[dict[str, float]] = []

    def evaluate(self) -> None:
        score = score_vs_random(self.model, self.venv, self.games, self.seed)
        self.curve.append({"seconds": round(self.trained, 1), "timesteps": self.num_timesteps,
                           "score": score})
        print(f"{self.trained:7.0f} s {self.num_timesteps:9d} steps  score vs random "
              f"{100 * score:5.1f}%", flush=True)

    def _on_training_start(self) -> None:
        self.evaluate()
        self.since = time.perf_counter()
        self.last = 0.0

    def _on_step(self) -> bool:
        self.trained += time.perf_counter() - self.since
        if self.trained - self.last >= self.every or self.trained >= self.seconds:
            self.last = self.trained
            self.evaluate()
        self.since = time.perf_counter()
        return self.trained < self.seconds


def plot(curve: list[dict[str, Any]], game: str, path: Path) -> None:
    fig, ax = plt.subplots(figsize=(6, 3.5))
    ax.plot([p["seconds"] for p in curve], [100 * p["score"] for p in curve], marker="o")
    ax.axhline(50, color="grey", linestyle="--", linewidth=1)
    ax.set_xlabel("training time (s)")
    ax.set_ylabel("score against random (%)")
    ax.set_title(f"MaskablePPO on {game}, native vector env")
    ax.set_ylim(0, 100)
    fig.tight_layout()
    fig.savefig(path, dpi=100)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=("hill218", "ogre218"), default="hill218")
    parser.add_argument("--minutes", type=float, default=5.0, help="training time")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=Path("runs/maskable_ppo"),
                        help="folder for scores.json and scores.png")
    parser.add_argument("--envs", type=int, default=16, help="games stepped together")
    parser.add_argument("--window", type=int, default=11, help="the encoding's window (odd)")
    parser.add_argument("--n-steps", type=int, default=128, help="PPO steps per env per update")
    parser.add_argument("--eval-every", type=float, default=30.0, help="seconds of training")
    parser.add_argument("--eval-games", type=int, default=100)
    args = parser.parse_args()
    torch.set_num_threads(1)  # one core: the games step in C on it too
    # checking every (envs x actions) distribution costs more than the step itself
    torch.distributions.Distribution.set_default_validate_args(False)

    params = {"window": args.window}
    train = SB3VecEnv(make_vector_env(args.game, args.envs, seat=None, params=params))
    evaluation = make_vector_env(args.game, 2 * ((args.eval_games + 1) // 2), seat=None,
                               params=params)
    model = MaskablePPO("MlpPolicy", train, n_steps=args.n_steps, batch_size=256,
                        seed=args.seed, verbose=0)
    callback = Evaluate(60 * args.minutes, args.eval_every, evaluation, args.eval_games,
                        args.seed + 1)
    model.learn(total_timesteps=10**12, callback=callback)
    args.out.mkdir(parents=True, exist_ok=True)
    report = {"game": args.game, "envs": args.envs, "window": args.window, "seed": args.seed,
              "eval_games": args.eval_games, "curve": callback.curve}
    (args.out / "scores.json").write_text(json.dumps(report, indent=1) + "\n")
    plot(callback.curve, args.game, args.out / "scores.png")
    print(f"wrote {args.out / 'scores.json'} and {args.out / 'scores.png'}")


if __name__ == "__main__":
    main()
