"""``warboard bench hill218 --vector``: agent steps per second of ``warboard.hill218.vector``.

Three loops over one ``CardVectorEnv`` against the random opponent (each step is one decision of
the agent's seat, the opponent's plays inside it), on one core:

* ``steps_per_second``: ``step(None)`` (a random legal play chosen in C) with the observations,
  rewards and action masks returned as fresh arrays;
* ``given_steps_per_second``: the same with the action ids given from Python (the first legal
  id of each mask), as an agent passes them;
* ``bare_steps_per_second``: ``step_bare()``, random plays without observations or masks.

Each is timed in rounds and the fastest round counts: other processes on the core can only slow
a round down.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from functools import partial
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

from warboard.core.errors import WarboardError

ROUNDS = 5


def _rate(step: Callable[[], Any], num_envs: int, seconds: float,
          advance: Callable[[float], None]) -> float:
    """Agent steps per second of the fastest of ``ROUNDS`` rounds of ``seconds / ROUNDS``."""
    best = 0.0
    for _ in range(ROUNDS):
        calls, start = 0, time.perf_counter()
        while (elapsed := time.perf_counter() - start) < seconds / ROUNDS:
            step()
            calls += 1
        best = max(best, calls * num_envs / elapsed)
        advance(seconds / ROUNDS)
    return best


def run_vector_bench(args: argparse.Namespace) -> int:
    try:
        from warboard.hill218.vector import CardVectorEnv
    except ImportError as exc:
        raise WarboardError(f"--vector needs gymnasium, in the 'rl' extra "
                            f"(pip install -e '.[rl]'): {exc}") from None
    try:
        env = CardVectorEnv(args.game, args.envs)
    except RuntimeError as exc:
        raise WarboardError(str(exc)) from None
    env.reset(seed=args.seed)
    console = Console(stderr=True, quiet=args.json)

    def with_obs() -> None:
        env.step(None)
        env.action_masks()

    def given() -> None:
        env.step(env.action_masks().argmax(axis=1))

    rates = {}
    with Progress(TextColumn("{task.description}"), BarColumn(), TimeElapsedColumn(),
                  console=console, transient=True) as progress:
        for key, step in (("steps_per_second", with_obs), ("given_steps_per_second", given),
                          ("bare_steps_per_second", env.step_bare)):
            task = progress.add_task(f"{args.game}: {key.replace('_', ' ')}",
                                     total=args.seconds)
            env.reset(seed=args.seed)
            rates[key] = round(_rate(step, args.envs, args.seconds,
                                     partial(progress.advance, task)), 1)
    size, masks = env.observation_denominators.size, env.encoding.num_actions
    result = {
        "game": args.game,
        "engine": "native vector",
        "num_envs": args.envs,
        "opponent": "random",
        **rates,
        "observation_shape": [size],
        "observation_size": size,
        "observation_dtype": "uint8",
        "mask_size": masks,
        "mask_dtype": "bool",
        "seconds": args.seconds,
        "rounds": ROUNDS,
        "cores": 1,
    }
    if args.json:
        print(json.dumps(result))
        return 0
    out = Console()
    out.print(f"[bold]{args.game}[/] vector environment, {args.envs} games against random play, "
              f"one core (fastest of {ROUNDS} rounds)")
    for label, key in (("with observations and masks", "steps_per_second"),
                       ("... action ids given", "given_steps_per_second"),
                       ("bare (random plays in C)", "bare_steps_per_second")):
        out.print(f"  {label + ':':29} {rates[key]:12.1f} agent steps/s")
    out.print(f"  observation: {size} x uint8; mask: {masks} x bool")
    return 0
