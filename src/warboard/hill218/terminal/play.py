"""``warboard play`` of the card games: a human against a built-in agent, or two humans at one
keyboard."""

from __future__ import annotations

import argparse
import random
import sys
from typing import Any

from rich.console import Console
from rich.text import Text

from warboard.core.errors import IllegalActionError
from warboard.core.i18n import english
from warboard.core.session import Session
from warboard.hill218.actions import resolve_unit, strike_words
from warboard.hill218.game import CardGame, make_game
from warboard.hill218.names import result_text, seat_name
from warboard.hill218.terminal.commands import (
    burial_example,
    complete_hits,
    explain_illegal,
    help_text,
    legal_listing,
    show_hand,
    show_unit,
    strike_listing,
)
from warboard.hill218.terminal.render import make_console, screen
from warboard.hill218.view import CardView
from warboard.terminal.agents import ComputerPlayer, make_agent
from warboard.terminal.loop import QUIT_WORDS, PromptLoop
from warboard.terminal.prompt import InputFn, Prompter

# clear the screen and the terminal's scrollback (3J), so that the next player of a hot-seat
# game cannot scroll back to the previous player's cards
CLEAR_ALL = "\x1b[H\x1b[2J\x1b[3J"


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
    game = _make_game(args)
    seed = args.seed if args.seed is not None else random.randrange(2**31)
    humans, agents = _seating(args, seed)
    players = ["human" if seat in humans else agents[seat].name for seat in (0, 1)]
    readers = (0, 1, None) if len(humans) == 2 else humans
    session = Session(game, seed, players, readers)
    game_loop = PlayLoop(session, humans, agents, console,
                         Prompter(console, input_fn, interactive))
    game_loop.run()
    return 0 if game_loop.save(args.save) else 1


def _make_game(args: argparse.Namespace) -> CardGame:
    """The game ``args`` asks for; a bad ``--damaged-ogres`` is a ``ValueError`` in the
    option's own terms (the engine words it as the JSON option)."""
    options: dict[str, Any] = {"quick_start": bool(args.quick_start)}
    if args.damaged_ogres is None:
        return make_game(args.game, options)
    options["damaged_ogres"] = list(args.damaged_ogres)
    try:
        return make_game(args.game, options)
    except ValueError:
        rules = make_game(args.game).rules
        handicap = rules.handicap
        if not handicap or handicap[0] != "damaged_ogres":
            raise ValueError(f"--damaged-ogres is an ogre218 option; {args.game} has no "
                             "Ogres") from None
        limit = rules.units[rules.unit_ids[handicap[1]]].count
        given = ",".join(str(n) for n in args.damaged_ogres)
        raise ValueError(f"--damaged-ogres {given}: write it as N0,N1 with each 0-{limit} "
                         "(Ogres that start damaged in South's and North's decks), e.g. 1,0"
                         ) from None


def _seating(args: argparse.Namespace,
             seed: int) -> tuple[tuple[int, ...], dict[int, ComputerPlayer]]:
    """The human seats and the agents playing the other seats (``--ai`` picks a level)."""
    level = args.ai
    if level and args.opponent != "ai":
        raise ValueError(f"--ai {level} plays against the computer; leave out "
                         f"--opponent {args.opponent}")
    if args.opponent == "human":
        return (0, 1), {}
    opponent = (level or "medium") if args.opponent == "ai" else args.opponent
    them = 1 - args.seat
    return (args.seat,), {them: make_agent(opponent, f"{seed}:{opponent}")}


class PlayLoop(PromptLoop):
    """Runs a session to its end: chance and agents on their own, humans at the prompt."""

    def __init__(self, session: Session, humans: tuple[int, ...], agents: dict[int, ComputerPlayer],
                 console: Console, prompter: Prompter) -> None:
        super().__init__(session, humans, agents, console, prompter)
        self.rules: Any = self.game.rules
        self.hot_seat = len(humans) == 2
        self.at_keyboard: int | None = None  # the seat that has been shown its cards

    def run(self) -> None:
        self._opening_line()
        if not self.hot_seat:
            me = self.humans[0]
            self.console.print(f"You are {seat_name(me)}; {seat_name(1 - me)} is the "
                               f"'{self.agents[1 - me].name}' opponent.")
        self._play_out()

    def _view(self, reader: int | None) -> CardView:
        view = self.session.view(reader)
        return CardView(view.public, view.private)

    def _who(self, seat: int) -> str:
        return seat_name(seat)

    # ------------------------------------------------------------------ a human's decision

    def _human_decision(self, seat: int) -> None:
        """Show the screen, then read commands until the record changes (a play or an undo)
        or the player stops."""
        if self.hot_seat and self.at_keyboard != seat and not self._hand_over(seat):
            return
        self.at_keyboard = seat
        self._draw_screen(seat)
        self._read_commands(seat)

    def _opening_line(self) -> None:
        self.console.print(Text(self.rules.title, style="bold"), f"— seed {self.session.seed}. "
                           "Type 'help' for the notation and commands.")

    def _clear(self) -> None:
        """Clear the screen and the scrollback at a terminal, then show the opening line again
        (the seed stays in view). Piped input has nobody to hide anything from."""
        if not self.prompter.interactive:
            return
        self.console.file.write(CLEAR_ALL)
        self.console.file.flush()
        self._opening_line()

    def _hand_over(self, seat: int) -> bool:
        """Clear the screen and wait for ``seat``'s player; False when the game stopped."""
        self._clear()
        other = seat_name(1 - seat)
        self.console.rule(f"{seat_name(seat)}'s turn")
        while not self.stopped:
            line = self.prompter.ask(f"Pass the keyboard to {seat_name(seat)} ({other}, look "
                                     "away) and press Enter: ")
            if line is not None:
                return True
            self._input_ended(seat)
        return False

    def _prompt(self, seat: int) -> str:
        view = self._view(seat)
        if view.phase == "bury":
            return f"{seat_name(seat)} [setup: bury 2 cards]> "
        n = view.public["plays_left"]
        return f"{seat_name(seat)} [{n} play{'s' if n != 1 else ''} left]> "

    def _draw_screen(self, seat: int) -> None:
        s = self.session
        view = self._view(seat)
        self.console.print()
        self.console.print(screen(self.rules, view, s.log(seat), me=seat))
        if view.phase == "bury":
            example = burial_example(self.game, s.state.legal_actions())
            self.console.print(f"Choose 2 cards to put under your deck, e.g. '{example}': the "
                               "first goes under the deck, the second under it (drawn last).")

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
            elif word == "hint":
                self._hint(seat)
            elif word in QUIT_WORDS:
                self._quit_command(seat, word)
            elif word == "show" and len(words) == 1:
                self.console.print(show_hand(self.game, self._view(seat), seat, plays))
            elif word == "show" or (len(words) == 1 and _is_unit(word, self.rules)):
                unit = words[1] if word == "show" else word
                self.console.print(show_unit(self.game, self._view(seat), seat, plays, unit))
            elif len(words) == 1 and word in strike_words(self.rules):
                self.console.print(strike_listing(self.game, plays)
                                   or f"No {self.rules.strike_name} is possible now.")
            else:
                self._play(seat, plays, line)
        except IllegalActionError as exc:  # a unit word that names no unit
            self._error(f"Cannot read: {exc}")

    def _play(self, seat: int, plays: list[Any], line: str) -> None:
        try:
            action = self.game.action_from_text(line)
        except IllegalActionError as exc:
            self._error(f"Cannot read: {exc}")
            return
        completed = complete_hits(plays, action)
        if completed is not action:
            self.console.print(f"(the only possible hit: {self.game.action_to_text(completed)})")
        try:
            self.session.apply(completed)
        except IllegalActionError as exc:
            why = explain_illegal(self.game, self._view(seat), seat, plays, completed,
                                  str(exc))
            self._error(f"Not possible: {why}")

    def _undo(self, seat: int) -> None:
        refusal = self.session.undo_refusal(seat)
        if refusal is not None:
            self._error(f"Cannot undo: {english(refusal)}.")
            return
        self.session.undo(seat)
        self.console.print("Taken back.")  # the screen is drawn again for the same decision

    # ------------------------------------------------------------------ the end

    def _show_result(self) -> None:
        s = self.session
        reader = None if self.hot_seat else self.humans[0]
        if self.hot_seat:
            self._clear()
        self.console.print()
        self.console.print(screen(self.rules, self._view(reader), s.log(reader), me=reader))
        result = self._view(None).result or {}
        self.console.print(Text(result_text(self.rules, result), style="bold"))
        self.console.print(f"Seed: {s.seed}")


def _is_unit(word: str, rules: Any) -> bool:
    try:
        resolve_unit(word, rules)
    except IllegalActionError:
        return False
    return True
