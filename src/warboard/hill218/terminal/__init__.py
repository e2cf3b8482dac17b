"""The card games in the terminal (``GameInfo.terminal``): ``warboard play`` (``play``) and
``warboard replay`` (``replay``), drawn by ``render`` from views, with the prompt's commands
besides plays in ``commands``."""

from __future__ import annotations

import argparse

from warboard.core.record import Record


def play(args: argparse.Namespace) -> int:
    from warboard.hill218.terminal.play import run_play

    return run_play(args)


def replay(record: Record, args: argparse.Namespace) -> int:
    from warboard.hill218.terminal.replay import run_replay

    return run_replay(args, record=record)
