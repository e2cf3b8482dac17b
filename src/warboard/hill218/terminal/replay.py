"""``warboard replay``: step through a saved record, one decision at a time.

A full record is rebuilt with ``replay_states`` and shown with both seats' cards, or, with
``--seat``, exported for that seat first. A seat record shows its stored frames. Either way the
screens are drawn from views (observations) only.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from typing import Any

from rich.console import Console
from rich.text import Text

from warboard.core.errors import RecordError
from warboard.core.record import Record, export_for_seat, replay_states
from warboard.hill218.game import CardGame
from warboard.hill218.names import result_text, seat_name
from warboard.hill218.narrate import LogEntry, log_lines, narrate
from warboard.hill218.terminal.render import make_console, screen
from warboard.hill218.view import CardView
from warboard.terminal.prompt import InputFn, Prompter
from warboard.terminal.replay import browse_steps


@dataclass(frozen=True)
class Replay:
    """A record turned into views: ``views[i]`` is the moment after the first ``i`` events,
    ``told[i]`` the log entries of event ``i``; ``seat`` is whose cards the views may show
    (``None``: both)."""

    record: Record
    rules: Any
    views: list[CardView]
    told: list[list[LogEntry]]
    seat: int | None

    @classmethod
    def load(cls, record: Record, seat: int | None = None) -> Replay:
        """Views of ``record``, as ``seat`` saw it when given (a full record is exported)."""
        if record.view is not None and seat not in (None, record.view):
            raise RecordError(f"this record holds only what seat {record.view} saw")
        if record.view is None and seat is not None:
            record = export_for_seat(record, seat)
        game = record.make_game()
        if not isinstance(game, CardGame):
            raise RecordError(f"a record of {record.game}, not of a card game")
        rules = game.rules
        if record.view is None:
            views = [CardView.of_state(s, (0, 1)) for s in replay_states(record)]
        else:
            views = [CardView.of_frame(f) for f in record.frames or []]
        told = [narrate(rules, views[i], views[i + 1], e) for i, e in enumerate(record.events)]
        return cls(record, rules, views, told, record.view)

    def steps(self) -> list[int]:
        """The moments worth a screen: the first decision point, then each decision followed by
        the chance events (draws) after it, so every screen shows who decides next."""
        events = self.record.events
        return [i for i in range(len(events) + 1)
                if i == len(events) or events[i].get("seat") is not None]

    def decision_before(self, moment: int) -> int | None:
        """The index of the last decision event before ``moment``."""
        events = self.record.events
        return next((i for i in range(moment - 1, -1, -1) if events[i].get("seat") is not None),
                    None)

    def draw(self, console: Console, step: int) -> None:
        """Print the screen of step number ``step`` (an index into ``steps()``)."""
        steps = self.steps()
        moment = steps[step]
        entries = [e for told in self.told[:moment] for e in told]
        title = (f"Step {step}/{len(steps) - 1} (event {moment}/{len(self.record.events)}): "
                 + self.describe(moment))
        console.print()
        console.print(screen(self.rules, self.views[moment], log_lines(self.rules, entries),
                             me=self.seat, title=title))
        if step == len(steps) - 1:
            console.print(Text(self.ending(), style="bold"))

    def describe(self, moment: int) -> str:
        """The decision that led to ``views[moment]``, in words."""
        i = self.decision_before(moment)
        if i is None:
            return "the start"
        lines = log_lines(self.rules, self.told[i], None)
        return lines[0] if lines else "a hidden decision"

    def ending(self) -> str:
        result = self.record.result or {}
        if result.get("abandoned"):
            return f"End of the record: abandoned — {seat_name(result['by'])} {result['how']}."
        if self.views[-1].result:
            return "End of the record: " + result_text(self.rules, self.views[-1].result)
        return "End of the record (the game was not finished)."


def run_replay(args: argparse.Namespace, input_fn: InputFn = input,
               console: Console | None = None, interactive: bool | None = None,
               record: Record | None = None) -> int:
    """Show a record (``record``, or the one in ``args.file``) as ``args`` asks (see ``warboard
    replay --help``); returns the exit code."""
    console = console or make_console(args.no_color)
    if interactive is None:
        interactive = input_fn is input and sys.stdin.isatty()
    replay = Replay.load(record or Record.load(args.file), args.seat)
    if args.all:
        for step in range(len(replay.steps())):
            replay.draw(console, step)
        return 0
    step_through(replay, console, Prompter(console, input_fn, interactive))
    return 0


def step_through(replay: Replay, console: Console, prompter: Prompter) -> None:
    """Enter for the next step, ``b`` back, a number to jump, ``q`` (or end of input) quits."""
    browse_steps(len(replay.steps()), lambda step: replay.draw(console, step), console, prompter)
