"""``warboard play``: a human against a built-in agent, or two humans at one keyboard."""

from __future__ import annotations

import argparse
import random
import sys
from typing import Any

from rich.console import Console
from rich.text import Text

from warboard.core.errors import IllegalActionError
from warboard.core.protocol import CHANCE, TERMINAL
from warboard.core.registry import make_game
from warboard.hill218.actions import resolve_unit
from warboard.terminal.agents import Agent, make_agent
from warboard.terminal.commands import (
    complete_hits,
    help_text,
    legal_listing,
    show_hand,
    show_unit,
)
from warboard.terminal.names import result_text, seat_name
from warboard.terminal.prompt import InputFn, Prompter
from warboard.terminal.render import make_console, screen
from warboard.terminal.session import Session

QUIT_WORDS = {"quit": "quit", "exit": "quit", "resign": "resigned"}


def run_play(args: argparse.Namespace, input_fn: InputFn = input, console: Console | None = None,
             interactive: bool | None = None) -> int:
    """Play one game as ``args`` (see ``warboard play --help``) asks; returns the exit code.

    ``input_fn`` reads a line (raising ``EOFError`` at the end) and ``console`` receives all
    output, so tests can script a game. ``interactive`` defaults to whether stdin is a terminal;
    only an interactive game asks where to save the record.
    """
    console = console or make_console(args.no_color)
    if interactive is None:
        interactive = input_fn is input and sys.stdin.isatty()
    options: dict[str, Any] = {"quick_start": bool(args.quick_start)}
    if args.damaged_ogres is not None:
        options["damaged_ogres"] = list(args.damaged_ogres)
    game = make_game(args.game, options)
    seed = args.seed if args.seed is not None else random.randrange(2**31)
    if args.opponent == "human":
        humans, agents = (0, 1), {}
        players, readers = ["human", "human"], (0, 1, None)
    else:
        them = 1 - args.seat
        agents = {them: make_agent(args.opponent, f"{seed}:{args.opponent}")}
        humans, readers = (args.seat,), (args.seat,)
        players = ["human", "human"]
        players[them] = args.opponent
    session = Session(game, seed, players, readers)
    game_loop = PlayLoop(session, humans, agents, console,
                         Prompter(console, input_fn, interactive))
    game_loop.run()
    game_loop.save(args.save)
    return 0


class PlayLoop:
    """Runs a session to its end: chance and agents on their own, humans at the prompt."""

    def __init__(self, session: Session, humans: tuple[int, ...], agents: dict[int, Agent],
                 console: Console, prompter: Prompter) -> None:
        self.session = session
        self.game: Any = session.game
        self.rules: Any = session.rules
        self.humans = humans
        self.agents = agents
        self.console = console
        self.prompter = prompter
        self.hot_seat = len(humans) == 2
        self.at_keyboard: int | None = None  # the seat that has been shown its cards
        self.stopped = False

    def run(self) -> None:
        rules, s = self.rules, self.session
        self.console.print(Text(rules.title, style="bold"), f"— seed {s.seed}. "
                           "Type 'help' for the notation and commands.")
        if not self.hot_seat:
            me = self.humans[0]
            self.console.print(f"You are {seat_name(me)}; {seat_name(1 - me)} is the "
                               f"'{self.agents[1 - me].name}' opponent.")
        while not self.stopped:
            s.resolve_chance()
            seat = s.state.current_player()
            if seat == TERMINAL:
                self._show_result()
                return
            if seat in self.agents:
                s.apply(self.agents[seat].choose(s.state))
            elif seat != CHANCE:
                self._human_decision(seat)

    # ------------------------------------------------------------------ a human's decision

    def _human_decision(self, seat: int) -> None:
        """Show the screen, then read commands until ``seat`` has decided (or stops)."""
        if self.hot_seat and self.at_keyboard != seat and not self._hand_over(seat):
            return
        self.at_keyboard = seat
        self._draw_screen(seat)
        events = len(self.session.events)
        while len(self.session.events) == events and not self.stopped:
            line = self.prompter.ask(self._prompt(seat))
            if line is None:
                self._stop(seat, "left (end of input)")
            else:
                self._command(seat, line)

    def _hand_over(self, seat: int) -> bool:
        """Clear the screen and wait for ``seat``'s player; False when input ended."""
        self.console.clear()
        other = seat_name(1 - seat)
        self.console.rule(f"{seat_name(seat)}'s turn")
        line = self.prompter.ask(f"Pass the keyboard to {seat_name(seat)} ({other}, look away) "
                                 "and press Enter: ")
        if line is None:
            self._stop(seat, "left (end of input)")
            return False
        return True

    def _prompt(self, seat: int) -> str:
        view = self.session.view(seat)
        if view.phase == "bury":
            return f"{seat_name(seat)} [setup: bury 2 cards]> "
        n = view.public["plays_left"]
        return f"{seat_name(seat)} [{n} play{'s' if n != 1 else ''} left]> "

    def _draw_screen(self, seat: int) -> None:
        s = self.session
        self.console.print()
        self.console.print(screen(self.rules, s.view(seat), s.log(seat), me=seat))

    def _command(self, seat: int, line: str) -> None:
        words = line.lower().split()
        word = words[0] if words else ""
        s = self.session
        plays = s.state.legal_actions()
        try:
            if not words:
                self.console.print("Type a play such as 'inf 1,-1', or 'help'.")
            elif word in ("help", "?"):
                self.console.print(help_text(self.rules))
            elif word == "legal":
                self.console.print(legal_listing(self.game, plays))
            elif word in ("board", "look"):
                self._draw_screen(seat)
            elif word == "log":
                self.console.print("\n".join(s.log(seat, last=None)) or "(nothing yet)")
            elif word == "undo":
                self._undo(seat)
            elif word in QUIT_WORDS:
                self._stop(seat, QUIT_WORDS[word])
            elif word == "show" and len(words) == 1:
                self.console.print(show_hand(self.game, s.view(seat), seat, plays))
            elif word == "show" or (len(words) == 1 and _is_unit(word, self.rules)):
                self.console.print(show_unit(self.game, s.view(seat), seat, plays, words[-1]))
            else:
                self._play(plays, line)
        except IllegalActionError as exc:
            self.console.print(Text(f"Not possible: {exc}", style="bold red"))

    def _play(self, plays: list[Any], line: str) -> None:
        action = self.game.action_from_text(line)
        completed = complete_hits(plays, action)
        if completed is not action:
            self.console.print(f"(the only possible hit: {self.game.action_to_text(completed)})")
        self.session.apply(completed)

    def _undo(self, seat: int) -> None:
        refusal = self.session.undo_refusal(seat)
        if refusal is not None:
            self.console.print(Text(f"Cannot undo: {refusal}.", style="bold red"))
            return
        self.session.undo(seat)
        self.console.print("Taken back.")
        self._draw_screen(seat)

    def _stop(self, seat: int, how: str) -> None:
        self.session.abandon(seat, how)
        self.stopped = True
        self.console.print(Text(f"{seat_name(seat)} {how}: the game is abandoned.",
                                style="bold"))
        self.console.print(f"Seed: {self.session.seed}")

    # ------------------------------------------------------------------ the end

    def _show_result(self) -> None:
        s = self.session
        reader = None if self.hot_seat else self.humans[0]
        if self.hot_seat:
            self.console.clear()
        self.console.print()
        self.console.print(screen(self.rules, s.view(reader), s.log(reader), me=reader))
        result = s.view(None).result or {}
        self.console.print(Text(result_text(self.rules, result), style="bold"))
        self.console.print(f"Seed: {s.seed}")

    def save(self, path: str | None) -> None:
        """Save the record to ``path``; without one, an interactive game asks for a file."""
        if path is None and self.prompter.interactive:
            path = self.prompter.ask("Save the game record to (file name, Enter to skip): ")
        if path:
            self.session.save(path)
            self.console.print(f"Record saved to {path} (see it again: warboard replay {path})")


def _is_unit(word: str, rules: Any) -> bool:
    try:
        resolve_unit(word, rules)
    except IllegalActionError:
        return False
    return True
