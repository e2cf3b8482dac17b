"""``warboard analyse RECORD``: every decision of a record judged, with a progress bar, as a
table and each side's summary (or, with ``--json``, one JSON object a line)."""

from __future__ import annotations

import argparse
import json

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from warboard.ai.analysis import Judgement, analyse, searcher, summary
from warboard.core.record import Record


def run_analyse_command(args: argparse.Namespace) -> int:
    record = Record.load(args.file)
    agent = searcher(args.level, args.iterations)
    err = Console(stderr=True)  # the progress bar, also with --json
    with Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), console=err) as progress:
        task = progress.add_task(f"analysing {args.file}", total=None)
        judged = analyse(record, agent, args.seed,
                         lambda done, total: progress.update(task, completed=done, total=total))
    sides = summary(judged)
    if args.json:
        for judgement in judged:
            print(json.dumps({"type": "decision", **judgement.to_json()}))
        print(json.dumps({"type": "summary", "sides": {str(s): v for s, v in sides.items()}}),
              flush=True)
        return 0
    out = Console()
    out.print(decisions_table(judged, record.players))
    for seat, side in sides.items():
        worst = side["biggest_loss"]
        out.print(f"seat {seat} ({record.players[seat] or 'unnamed'}): accuracy "
                  f"{side['accuracy']}%, {side['inaccuracy']} inaccuracies, {side['mistake']} "
                  f"mistakes, {side['blunder']} blunders"
                  + ("" if worst is None or worst["loss"] == 0 else
                     f"; biggest loss {100 * worst['loss']:.0f}% at ply {worst['ply']}"),
                  markup=False, highlight=False)
    err.print(f"judged by {agent.name}, {agent.settings(record.game)['iterations']} "
                  f"iterations a decision, seed {args.seed}", markup=False)
    return 0


def decisions_table(judged: list[Judgement], players: list[str]) -> Table:
    table = Table(title="each decision: the win probability after it, for the seat that made it")
    for col in ("ply", "seat", "played", "win", "best", "best's win", "label"):
        table.add_column(col, justify="right" if col in ("ply", "win", "best's win") else "left")
    for j in judged:
        same = j.best == j.played
        table.add_row(str(j.ply), players[j.seat] or str(j.seat), j.played_text,
                      f"{100 * j.win_probability:.0f}%", "=" if same else j.best_text,
                      f"{100 * j.best_win_probability:.0f}%", j.label or "")
    return table
