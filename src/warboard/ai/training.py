"""Self-play training (``warboard train``, docs/ai.md "Self-play training").

A generation: the best model so far (at first none: the game's hand-written knowledge) plays
``games`` self-play games with the search in the loop (``ai.selfplay``); the learner
(``ai.learner``) goes on from the last generation's weights over the samples of the last
``buffer`` generations (the replay buffer); the new model then plays ``eval_games`` games
against the best, both seat orders, and is kept as the best when it scores at least
``keep_score``. Its Elo is the best's plus the Elo of that score (the hand-written knowledge's
is 0).

Everything lives in the run's folder, written as it is made:

    training.json         the configuration and each finished generation (the checkpoint)
    samples/gen-NNNN.npz  a generation's self-play samples
    models/gen-NNNN.npz   its model (float16, what plays); learner-NNNN.npz its float32 weights
    best.npz              the best model
    elo.png               Elo by generation (the ``plots`` extra)

A run is a function of its configuration, seed included: seeds are derived from it, results
are taken in the jobs' order, and an interrupted run resumed (``resume``) redoes the unfinished
generation from the files of the finished ones, so it ends where an uninterrupted one would.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from warboard.adapters.encodings import make_encoding
from warboard.ai.learner import LearnJob, learn, require_torch
from warboard.ai.model import LAYERS, PolicyValueModel, observation_size
from warboard.ai.parallel import map_jobs
from warboard.ai.ratings import elo_difference
from warboard.ai.selfplay import (
    DuelJob,
    Samples,
    SearchSpec,
    SelfPlayJob,
    play_duel,
    play_selfplay,
)
from warboard.ai.train_config import TrainConfig

CHECKPOINT = "training.json"


@dataclass
class Generation:
    generation: int
    samples: int
    policy_loss: float
    value_loss: float
    score: float  # against the best before it
    kept: bool
    elo: float
    seconds: float
    # the learner's judgement after each epoch on the samples it kept out (--holdout)
    held_out: list[dict[str, float]] = field(default_factory=list)


@dataclass
class Run:
    config: TrainConfig
    done: list[Generation] = field(default_factory=list)

    @property
    def best_elo(self) -> float:
        kept = [g.elo for g in self.done if g.kept]
        return kept[-1] if kept else 0.0

    @property
    def best_generation(self) -> int | None:
        kept = [g.generation for g in self.done if g.kept]
        return kept[-1] if kept else None

    def to_json(self) -> dict[str, Any]:
        return {"config": asdict(self.config), "generations": [asdict(g) for g in self.done],
                "best": self.best_generation}


def _seed(config: TrainConfig, generation: int, kind: int, index: int) -> int:
    return ((config.seed * 100_003 + generation) * 4 + kind) * 1_000_003 + index


class Trainer:
    def __init__(self, folder: Path, config: TrainConfig, workers: int = 1,
                 backend: str = "process",
                 progress: Callable[[str, int, int], None] | None = None) -> None:
        self.folder = folder
        self.run = Run(config)
        self.workers = workers
        self.backend = backend
        self.progress = progress  # (what, done, total)

    @classmethod
    def resume(cls, folder: Path, workers: int = 1, backend: str = "process",
               progress: Callable[[str, int, int], None] | None = None,
               generations: int | None = None) -> Trainer:
        """The run in ``folder``, to go on from its last finished generation (to
        ``generations`` in all, when given)."""
        try:
            data = json.loads((folder / CHECKPOINT).read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise ValueError(f"{folder / CHECKPOINT}: no training to resume ({exc})") from exc
        config = TrainConfig(**data["config"])
        if generations is not None:
            config = TrainConfig(**{**asdict(config), "generations": generations})
        trainer = cls(folder, config, workers, backend, progress)
        trainer.run.done = [Generation(**g) for g in data["generations"]]
        return trainer

    # -- files

    def model_path(self, generation: int) -> Path:
        return self.folder / "models" / f"gen-{generation:04d}.npz"

    def learner_path(self, generation: int) -> Path:
        return self.folder / "models" / f"learner-{generation:04d}.npz"

    def samples_path(self, generation: int) -> Path:
        return self.folder / "samples" / f"gen-{generation:04d}.npz"

    def _save_checkpoint(self) -> None:
        path = self.folder / CHECKPOINT
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(self.run.to_json(), indent=1), encoding="utf-8")
        os.replace(tmp, path)  # a crash leaves the old checkpoint or the new, never half

    def _best_model(self) -> bytes | None:
        best = self.run.best_generation
        return None if best is None else self.model_path(best).read_bytes()

    # -- the loop

    def train(self, on_generation: Callable[[Generation], None] | None = None) -> Run:
        if self.backend == "process":
            require_torch()  # before the first generation's games, not after them
        self.folder.mkdir(parents=True, exist_ok=True)
        self._save_checkpoint()
        while len(self.run.done) < self.run.config.generations:
            generation = self._generation(len(self.run.done) + 1)
            self.run.done.append(generation)
            if generation.kept:
                shutil.copyfile(self.model_path(generation.generation), self.folder / "best.npz")
            self._save_checkpoint()
            plot_elo(self.run, self.folder / "elo.png")
            if on_generation:
                on_generation(generation)
        return self.run

    def _generation(self, g: int) -> Generation:
        config = self.run.config
        start = time.perf_counter()
        best = SearchSpec(config.iterations, config.exploration, self._best_model(),
                          config.value_weight, config.compiled)
        jobs = [SelfPlayJob(config.game, config.options, config.params, best,
                            _seed(config, g, 0, i), config.explore_decisions)
                for i in range(config.games)]
        samples = Samples.join(self._map(play_selfplay, jobs, f"generation {g}: self-play"))
        path = self.samples_path(g)
        path.parent.mkdir(parents=True, exist_ok=True)
        np.savez_compressed(path, **samples.arrays())
        learned = self._learn(g)
        candidate = PolicyValueModel(learned.arrays, {
            "game": config.game, "params": config.params, "generation": g,
            "hidden": config.hidden, "seed": config.seed, "value_weight": config.value_weight})
        candidate.save(self.model_path(g))
        np.savez(self.learner_path(g), **learned.arrays)
        new = SearchSpec(config.iterations, config.exploration,
                         self.model_path(g).read_bytes(), config.value_weight, config.compiled)
        duels = [DuelJob(config.game, config.options, (new, best) if i % 2 == 0 else (best, new),
                         _seed(config, g, 1, i)) for i in range(config.eval_games)]
        returns = self._map(play_duel, duels, f"generation {g}: new model against the best")
        score = float(np.mean([(r[i % 2] + 1) / 2 for i, r in enumerate(returns)]))
        return Generation(g, len(samples), round(learned.policy_loss, 4),
                          round(learned.value_loss, 4), round(score, 4),
                          score >= config.keep_score,
                          round(self.run.best_elo + elo_difference(score, config.eval_games), 1),
                          round(time.perf_counter() - start, 1),
                          [asdict(h) for h in learned.held_out])

    def _learn(self, g: int) -> Any:
        config = self.run.config
        first = max(1, g - config.buffer + 1)
        parts = []
        for k in range(first, g + 1):
            with np.load(self.samples_path(k)) as data:
                parts.append(Samples(**{name: data[name] for name in data.files}))
        start = None
        if g > 1:
            with np.load(self.learner_path(g - 1)) as data:
                start = {name: data[name] for name in LAYERS}
        encoding = make_encoding(config.game, config.params)
        job = LearnJob(Samples.join(parts), start, observation_size(encoding),
                       encoding.num_actions, config.hidden, config.epochs, config.batch,
                       config.learning_rate, config.weight_decay, _seed(config, g, 2, 0),
                       config.holdout)
        return self._map(learn, [job], f"generation {g}: learning")[0]

    def _map(self, fn: Callable[[Any], Any], jobs: list[Any], what: str) -> list[Any]:
        done = [0]

        def advance(_: Any) -> None:
            done[0] += 1
            if self.progress:
                self.progress(what, done[0], len(jobs))

        if self.progress:
            self.progress(what, 0, len(jobs))
        # one job (the learner) runs in this process, unless on Ray: a task like the games
        return map_jobs(fn, jobs, self.workers, self.backend, advance)


def plot_elo(run: Run, path: Path) -> bool:
    """Elo by generation (kept models filled); ``False`` when matplotlib is missing."""
    from warboard.ai.arena import charts_available

    if not charts_available() or not run.done:
        return False
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 3.5))
    gens = [0] + [g.generation for g in run.done]
    ax.plot(gens, [0.0] + [g.elo for g in run.done], color="#446", lw=1.5)
    kept = [g for g in run.done if g.kept]
    ax.scatter([g.generation for g in kept], [g.elo for g in kept], color="#2a7", zorder=3,
               label="kept")
    ax.set_xlabel("generation")
    ax.set_ylabel("Elo (hand-written knowledge = 0)")
    ax.set_title(f"{run.config.game}: self-play training")
    ax.legend(loc="best")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return True
