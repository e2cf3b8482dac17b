"""Hold the Line in the terminal (``GameInfo.terminal``): ``warboard play`` and ``warboard
replay`` (``play``), the board and panels (``render``), reading actions (``commands``)."""

from __future__ import annotations

import argparse

from warboard.core.record import Record


def play(args: argparse.Namespace) -> int:
    from warboard.holdtheline.terminal.play import run_htl_play

    return run_htl_play(args)


def replay(record: Record, args: argparse.Namespace) -> int:
    from warboard.holdtheline.terminal.play import run_htl_replay

    return run_htl_replay(record, args)
