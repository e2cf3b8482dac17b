"""Train a small policy on a warboard card game through the PettingZoo environment.

    pip install -e '.[rl,train]'
    python examples/train_policy.py --game hill218 --seconds 180

A two-layer network reads the observation vector and scores every action id; illegal ids are
masked out. It plays one seat (alternating) against a uniformly random player and learns by
policy gradient with a learned baseline (actor-critic, whole-game returns). Every
``--eval-every`` seconds it plays ``--eval-games`` games against random, picking its most
likely action, and prints its score; at the end it draws the scores over training time into
``--plot``. A small window (``--window 11``) keeps the network small: plays outside it are not
available to the policy (docs/adapters.md).
"""

from __future__ import annotations

import argparse
import time

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import torch
from torch import nn

from warboard.adapters.pettingzoo import env as make_env


class Policy(nn.Module):
    def __init__(self, n_obs: int, n_actions: int, hidden: int = 128) -> None:
        super().__init__()
        self.body = nn.Sequential(nn.Linear(n_obs, hidden), nn.ReLU(),
                                  nn.Linear(hidden, hidden), nn.ReLU())
        self.logits = nn.Linear(hidden, n_actions)
        self.value = nn.Linear(hidden, 1)

    def forward(self, obs: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        h = self.body(obs)
        logits = self.logits(h).masked_fill(mask == 0, -1e9)
        return torch.distributions.Categorical(logits=logits).logits, self.value(h).squeeze(-1)


def play_game(env, policy: Policy, seat: int, rng: np.random.Generator, seed: int,
              greedy: bool = False) -> tuple[float, list[torch.Tensor], list[torch.Tensor]]:
    """One game, ``policy`` at ``seat`` and a random player at the other; returns the policy's
    result and, for each of its decisions, the log-probability of its action and its value."""
    env.reset(seed=seed)
    me = f"player_{seat}"
    logps: list[torch.Tensor] = []
    values: list[torch.Tensor] = []
    result = 0.0
    for agent in env.agent_iter():
        obs, reward, termination, truncation, _ = env.last()
        if termination or truncation:
            if agent == me:
                result = reward
            env.step(None)
            continue
        mask = obs["action_mask"]
        if agent != me:
            env.step(int(rng.choice(np.flatnonzero(mask))))
            continue
        logits, value = policy(torch.from_numpy(obs["observation"]),
                               torch.from_numpy(mask))
        action = int(logits.argmax()) if greedy else int(
            torch.distributions.Categorical(logits=logits).sample())
        logps.append(logits[action])
        values.append(value)
        env.step(action)
    return result, logps, values


def evaluate(env, policy: Policy, games: int, seed: int) -> float:
    """The policy's score against random (a draw counts half), both seats."""
    rng = np.random.default_rng(seed)
    with torch.no_grad():
        results = [play_game(env, policy, g % 2, rng, seed + g, greedy=True)[0]
                   for g in range(games)]
    return float(np.mean([(r + 1) / 2 for r in results]))


def train(args: argparse.Namespace) -> list[tuple[float, int, float]]:
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)  # a small network: threads only wait for each other
    env = make_env(game=args.game, window=args.window)
    env.reset(seed=args.seed)
    n_obs = env.observation_space("player_0")["observation"].shape[0]
    policy = Policy(n_obs, env.action_space("player_0").n)
    optimizer = torch.optim.Adam(policy.parameters(), lr=args.lr)
    rng = np.random.default_rng(args.seed)
    curve = [(0.0, 0, evaluate(env, policy, args.eval_games, 10**6))]
    print(f"{0:6.0f} s {0:6d} games  score vs random {100 * curve[-1][2]:5.1f}%")
    trained, games = 0.0, 0  # seconds spent training (evaluations excluded), games played
    while trained < args.seconds:
        start = time.perf_counter()
        loss = torch.zeros(())
        for _ in range(args.batch):
            result, logps, values = play_game(env, policy, games % 2, rng, args.seed + games)
            games += 1
            if not logps:
                continue
            value = torch.stack(values)
            advantage = result - value.detach()
            loss = loss + (-(torch.stack(logps) * advantage).sum()
                           + 0.5 * ((result - value) ** 2).sum())
        optimizer.zero_grad()
        (loss / args.batch).backward()
        optimizer.step()
        trained += time.perf_counter() - start
        if trained >= args.eval_every * len(curve) or trained >= args.seconds:
            curve.append((trained, games, evaluate(env, policy, args.eval_games, 10**6)))
            print(f"{trained:6.0f} s {games:6d} games  score vs random "
                  f"{100 * curve[-1][2]:5.1f}%", flush=True)
    return curve


def plot(curve: list[tuple[float, int, float]], args: argparse.Namespace) -> None:
    fig, ax = plt.subplots(figsize=(6, 3.5))
    ax.plot([t for t, _, _ in curve], [100 * s for _, _, s in curve], marker="o")
    ax.axhline(50, color="grey", linewidth=0.8, linestyle="--")
    ax.set_xlabel("training time (s, evaluations excluded)")
    ax.set_ylabel("score against random (%)")
    ax.set_title(f"{args.game}: policy gradient through the PettingZoo environment")
    fig.tight_layout()
    fig.savefig(args.plot, dpi=100)
    print(f"wrote {args.plot}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", choices=("hill218", "ogre218"), default="hill218")
    parser.add_argument("--seconds", type=float, default=180.0,
                        help="training time (default: 180)")
    parser.add_argument("--window", type=int, default=11,
                        help="the environment's window (default: 11)")
    parser.add_argument("--eval-every", type=float, default=30.0,
                        help="seconds of training between evaluations (default: 30)")
    parser.add_argument("--eval-games", type=int, default=100,
                        help="games per evaluation against random (default: 100)")
    parser.add_argument("--batch", type=int, default=8, help="games per update (default: 8)")
    parser.add_argument("--lr", type=float, default=1e-3, help="learning rate (default: 1e-3)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--plot", default="train_policy.png",
                        help="where to write the plot (default: train_policy.png)")
    args = parser.parse_args(argv)
    plot(train(args), args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
