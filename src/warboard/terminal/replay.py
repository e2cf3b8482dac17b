"""Stepping through the screens of a replay at the keyboard, for every game's ``warboard
replay``."""

from __future__ import annotations

from collections.abc import Callable

from rich.console import Console

from warboard.terminal.prompt import Prompter

NAV_PROMPT = "[Enter] next, b back, a step number, q quit> "


def browse_steps(count: int, draw: Callable[[int], None], console: Console,
                 prompter: Prompter) -> None:
    """Draw step 0 of ``count``, then read the navigation (Enter for the next step, ``b``
    back, a number to jump, ``q`` or end of input quits) and draw each step it goes to."""
    last = count - 1
    step = 0
    draw(step)
    while True:
        line = prompter.ask(NAV_PROMPT)
        if line is None or line.lower() in ("q", "quit", "exit"):
            return
        target = _navigate(line.lower(), step, last)
        if target is None:
            console.print(f"Type Enter, b, q or a step number from 0 to {last}.")
        elif not 0 <= target <= last:
            console.print(f"There are steps 0 to {last}.")
        elif target == step:
            console.print("(this is the last step; b goes back, q quits)" if step == last
                          else "(this is the first step)")
        else:
            step = target
            draw(step)


def _navigate(line: str, step: int, last: int) -> int | None:
    if line in ("", "n", "next"):
        return min(step + 1, last)
    if line in ("b", "back"):
        return max(step - 1, 0)
    return int(line) if line.isdigit() else None
