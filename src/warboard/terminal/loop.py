"""What the play loops of ``warboard play`` share (each game's terminal front end has one):
chance and agents on their own, humans at the prompt, quitting, confirmations and saving the
record."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.text import Text

from warboard.ai.levels import hint_level
from warboard.core.protocol import TERMINAL
from warboard.core.session import Session
from warboard.terminal.agents import ComputerPlayer
from warboard.terminal.prompt import Prompter

QUIT_WORDS = {"quit": "quit", "exit": "quit", "resign": "resigned"}


class PromptLoop:
    """Runs a session to its end: chance and agents on their own, humans at the prompt.

    A subclass says how chance is resolved (``_resolve_chance``), how a human decides
    (``_human_decision``, reading lines with ``_read_commands``), what a prompt and a command
    are (``_prompt``, ``_command``), who a seat is (``_who``) and how the result is shown."""

    def __init__(self, session: Session, humans: tuple[int, ...],
                 agents: dict[int, ComputerPlayer], console: Console,
                 prompter: Prompter) -> None:
        self.session = session
        self.game: Any = session.game
        self.humans = humans
        self.agents = agents
        self.console = console
        self.prompter = prompter
        self.stopped = False
        self._hinter: ComputerPlayer | None = None  # made at the first hint

    def _play_out(self) -> None:
        s = self.session
        while not self.stopped:
            self._resolve_chance()
            seat = s.state.current_player()
            if seat == TERMINAL:
                self._show_result()
                return
            if seat in self.agents:
                s.apply(self.agents[seat].choose(s.state))
            else:
                self._human_decision(seat)

    def _resolve_chance(self) -> None:
        self.session.resolve_chance()

    def _read_commands(self, seat: int) -> None:
        """Read commands until the record changes (a play or an undo) or the player stops."""
        events = len(self.session.events)
        while len(self.session.events) == events and not self.stopped:
            line = self.prompter.ask(self._prompt(seat))
            if line is None:
                self._input_ended(seat)
            else:
                self._command(seat, line)

    def _input_ended(self, seat: int) -> None:
        """A question got no line: Ctrl-C asks whether to quit, end of input quits."""
        if not self.prompter.interrupted:
            self._stop(seat, "quit", " (end of input)")
        elif self._confirm("Ctrl-C: really quit? The game will be abandoned (y/N): "):
            self._stop(seat, "quit", " (Ctrl-C)")

    def _quit_command(self, seat: int, word: str) -> None:
        """``word`` is one of ``QUIT_WORDS``: confirm, then stop."""
        if self._confirm(f"Really {word}? The game will be abandoned (y/N): "):
            self._stop(seat, QUIT_WORDS[word])

    def _hint(self, seat: int) -> None:
        """Show the play the computer at ``hint_level`` would make for ``seat`` now, decided
        from that seat's view only; only in a game against the computer (at one keyboard a
        hint would be the other player's too)."""
        if not self.agents:
            self._error("Hints are only for games against the computer.")
            return
        level = hint_level(self.game.name)
        if self._hinter is None:
            self._hinter = ComputerPlayer(level, f"{self.session.seed}:hint:{seat}")
        action = self._hinter.choose(self.session.state)
        self.console.print(f"Hint ({level}): {self.game.action_to_text(action)}")

    def _error(self, message: str) -> None:
        self.console.print(Text(message, style="bold red"))

    def _confirm(self, question: str) -> bool:
        """Ask a yes/no question in an interactive game (others need no confirmation)."""
        if not self.prompter.interactive:
            return True
        answer = self.prompter.ask(question)
        return answer is None or answer.lower() in ("y", "yes")

    def _stop(self, seat: int, how: str, note: str = "") -> None:
        """Abandon the game; ``how`` is "resigned" or "quit" (docs/records.md)."""
        self.session.abandon(seat, how)
        self.stopped = True
        self.console.print(Text(f"{self._who(seat)} {how}{note}: the game is abandoned.",
                                style="bold"))
        self.console.print(f"Seed: {self.session.seed}")

    def save(self, path: str | None) -> bool:
        """Save the record to ``path``; without one, an interactive game asks for a file.
        False when the file could not be written."""
        if path is None and self.prompter.interactive:
            path = self.prompter.ask("Save the game record to (file name, Enter to skip): ")
        if not path:
            return True
        try:
            self.session.save(path)
        except OSError as exc:
            self._error(f"Could not save the record to {path}: {exc}")
            return False
        self.console.print(f"Record saved to {path} (see it again: warboard replay {path})")
        return True

    # ------------------------------------------------------------------ for a subclass

    def _who(self, seat: int) -> str:
        raise NotImplementedError

    def _prompt(self, seat: int) -> str:
        raise NotImplementedError

    def _command(self, seat: int, line: str) -> None:
        raise NotImplementedError

    def _human_decision(self, seat: int) -> None:
        raise NotImplementedError

    def _show_result(self) -> None:
        raise NotImplementedError
