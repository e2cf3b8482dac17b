"""Reading the player's lines: a prompt that survives piped input and end of input."""

from __future__ import annotations

from collections.abc import Callable

from rich.console import Console

InputFn = Callable[[str], str]


class Prompter:
    """Asks ``input_fn`` for lines, printing the prompt on ``console``.

    When the session is not interactive (piped input, tests) the line read is echoed so the
    transcript reads like a session. ``ask`` returns ``None`` at end of input (Ctrl-D) or on
    Ctrl-C; ``interrupted`` tells which one ended the last question.
    """

    def __init__(self, console: Console, input_fn: InputFn = input,
                 interactive: bool = False) -> None:
        self.console = console
        self.input_fn = input_fn
        self.interactive = interactive
        self.interrupted = False

    def ask(self, prompt: str) -> str | None:
        self.console.print(prompt, end="", markup=False)
        self.console.file.flush()
        self.interrupted = False
        try:
            line = self.input_fn("")
        except EOFError:  # Ctrl-D or the end of piped input
            self.console.print()
            return None
        except KeyboardInterrupt:  # Ctrl-C: the caller decides what it means
            self.interrupted = True
            self.console.print("^C" if not self.interactive else "")
            return None
        if not self.interactive:
            self.console.print(line, markup=False)
        return line.strip()
