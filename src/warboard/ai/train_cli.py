"""``warboard train GAME``: self-play training with a progress bar (``ai.training``)."""

from __future__ import annotations

import argparse
import json
from dataclasses import asdict, fields
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from warboard.ai.arena_cli import game_options
from warboard.ai.train_config import TrainConfig
from warboard.ai.training import CHECKPOINT, Generation, Trainer
from warboard.core.registry import info

# the command's options that are TrainConfig's fields, by the same names (all but the
# game's and the encoding's)
CONFIG_OPTIONS = tuple(f.name for f in fields(TrainConfig))[3:]


def run_train_command(args: argparse.Namespace) -> int:
    folder = Path(args.out)
    console = Console(quiet=args.json, stderr=True)
    with Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), console=console) as bar:
        task = bar.add_task("training", total=None)

        def progress(what: str, done: int, total: int) -> None:
            bar.update(task, description=what, completed=done, total=total)

        if args.resume:
            changed = [k for k in CONFIG_OPTIONS if k != "generations"
                       and getattr(args, k) is not None]
            if changed:
                raise ValueError(f"a resumed run keeps its configuration: drop "
                                 f"--{changed[0].replace('_', '-')}")
            trainer = Trainer.resume(folder, args.jobs, args.backend, progress,
                                     args.generations)
            if trainer.run.config.game != args.game:
                raise ValueError(f"{folder / CHECKPOINT} trains {trainer.run.config.game}, "
                                 f"not {args.game}")
        else:
            if (folder / CHECKPOINT).exists():
                raise ValueError(f"{folder} holds a training already: --resume to go on, or "
                                 f"choose another --out")
            options = game_options(args)
            params = {**info(args.game).model_params, **options}
            given = {k: getattr(args, k) for k in CONFIG_OPTIONS if getattr(args, k) is not None}
            config = TrainConfig(args.game, options, params, **given)
            trainer = Trainer(folder, config, args.jobs, args.backend, progress)

        def report(g: Generation) -> None:
            if args.json:
                print(json.dumps(asdict(g)), flush=True)
                return
            bar.console.print(
                f"generation {g.generation}: {g.samples} samples, policy loss "
                f"{g.policy_loss:.3f}, value loss {g.value_loss:.3f}, "
                f"{100 * g.score:.0f}% against the best, "
                f"{'kept' if g.kept else 'not kept'}, Elo {g.elo:+.0f} ({g.seconds:.0f} s)",
                markup=False)
            for epoch, h in enumerate(g.held_out, 1):
                bar.console.print(
                    f"  held out, epoch {epoch}: policy loss {h['policy_loss']:.3f}, value "
                    f"loss {h['value_loss']:.3f}, value correlation "
                    f"{h['value_correlation']:+.2f}", markup=False)

        run = trainer.train(report)
    best = run.best_generation
    count = len(run.done)
    console.print(f"{folder}: {count} generation{'' if count == 1 else 's'}; best model: "
                  f"{'none kept yet' if best is None else folder / 'best.npz'}", markup=False)
    return 0
