"""The configuration of a self-play training run (``ai.training``), light enough for the
command line's parser to read its defaults."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class TrainConfig:
    game: str
    options: dict[str, Any]  # the game's
    params: dict[str, Any]  # the encoding's, the game's options among them
    generations: int = 10
    games: int = 40  # self-play games a generation
    iterations: int = 100  # search iterations a decision
    exploration: float = 0.5
    explore_decisions: int = 6  # each seat's first decisions drawn by the visits
    buffer: int = 4  # generations of samples learned from
    hidden: int = 128
    epochs: int = 4
    batch: int = 256
    learning_rate: float = 1e-3
    # Adam's L2 penalty: a self-play game's decisions share one result, so a value learnt with
    # little of it fits those games by heart and judges new positions no better than chance
    weight_decay: float = 1e-4
    # the share of each generation's samples (its newest games) the learner keeps out and
    # judges the model on after each epoch: what shows a value learning its games by heart
    holdout: float = 0.0
    eval_games: int = 20  # even: both seat orders
    keep_score: float = 0.55
    # the model's share of the search's value, beside the hand-written evaluation (1: the
    # model's alone, 0: its policy only)
    value_weight: float = 1.0
    seed: int = 1
    # search compiled where the game has it (about forty times faster on the card games); a run
    # is then the same function of its configuration and seed on every machine with the same
    # build, and another one without a C compiler
    compiled: bool = False

    def __post_init__(self) -> None:
        positive = ("generations", "games", "iterations", "buffer", "hidden", "epochs",
                    "batch", "eval_games")
        for name in positive:
            if getattr(self, name) < 1:
                raise ValueError(f"{name.replace('_', '-')} must be at least 1")
        if self.eval_games % 2:
            raise ValueError("eval-games must be even (both seat orders)")
        if not 0.0 < self.keep_score < 1.0:
            raise ValueError("keep-score must lie between 0 and 1")
        if not 0.0 <= self.holdout <= 0.5:
            raise ValueError("holdout must lie between 0 and 0.5")
        if self.weight_decay < 0.0:
            raise ValueError("weight-decay must not be negative")
        if not 0.0 <= self.value_weight <= 1.0:
            raise ValueError("value-weight must lie between 0 and 1")
