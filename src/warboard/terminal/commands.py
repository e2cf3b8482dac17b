"""What the player may ask at the prompt besides a play: help, the legal plays, where a card
may go. Each function returns something to print; none of them changes the game."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.text import Text

from warboard.hill218.actions import Bury, Deploy, Strike, resolve_unit
from warboard.hill218.ruleset import Ruleset
from warboard.terminal.names import BASES, cell_text, seat_name, unit_abbrev, unit_title
from warboard.terminal.render import board_text
from warboard.terminal.view import View


def help_text(rules: Ruleset) -> Text:
    units = ", ".join(f"{u.abbrev.lower()} = {unit_title(rules, u.name)}" for u in rules.units)
    return Text("\n".join([
        "Plays (x across, y up; South's base is (0,-1), North's (0,1)):",
        "  inf 1,-1           deploy Infantry at (1,-1) (it hits nothing)",
        "  inf 1,0 x 1,1      deploy Infantry at (1,0) and hit the enemy unit at (1,1)",
        "  ogr 1,0 x 1,1 x 2,1  a unit with two attacks names both hits, in order",
        f"  strike 0,1         use one of your {rules.strike_name}s on the enemy unit at (0,1)",
        "  bury inf tnk       setup: put Infantry, then Tank under your deck",
        "A hit is mandatory when one is possible; when only one is possible you may leave it",
        "out. Units by abbreviation, name or the start of a name:",
        "  " + units,
        "Commands:",
        "  show UNIT (or just UNIT)  where that card may go and what it would hit",
        "  show       how many places each card in your hand has",
        "  legal      every legal play in notation",
        "  board      draw the screen again          log   the whole game log",
        "  undo       take back your last play of this turn",
        "  resign / quit   stop here (the record is saved as abandoned)",
        "  help       this text",
    ]))


def legal_listing(game: Any, plays: Sequence[Any]) -> RenderableType:
    """Every legal play in notation, in columns."""
    texts = [game.action_to_text(p) for p in plays]
    return Group(Text(f"Legal plays ({len(texts)}):", style="bold"),
                 Columns(texts, padding=(0, 3)))


def plays_of_unit(plays: Sequence[Any], unit: str) -> list[Deploy]:
    return [p for p in plays if isinstance(p, Deploy) and p.unit == unit]


def show_unit(game: Any, view: View, seat: int, plays: Sequence[Any], word: str) -> RenderableType:
    """The board with the cells where the unit named by ``word`` may go and the enemy units it
    would hit, then those plays grouped by cell."""
    rules: Ruleset = game.rules
    unit = resolve_unit(word, rules)  # raises IllegalActionError with the unit list
    title = f"{unit_title(rules, unit)} ({unit_abbrev(rules, unit).lower()})"
    hand = view.hand(seat) or {}
    if not hand.get(unit):
        return Text(f"You have no {title} in your hand.")
    mine = plays_of_unit(plays, unit)
    if not mine:
        needs = rules.units[rules.unit_ids[unit]].plays
        why = (f" (it uses {needs} plays, so it can only be the first play of a 2-play turn)"
               if needs > 1 else "")
        return Text(f"{title} has no legal place now{why}.")
    by_cell: dict[tuple[int, int], list[Deploy]] = defaultdict(list)
    for p in mine:
        by_cell[p.at].append(p)
    targets = {t for p in mine for t in p.attacks}
    lines = [Text(f"{title}: {len(by_cell)} place(s), {len(mine)} play(s); "
                  "+ = may go there, >x< = could be hit", style="bold"),
             board_text(rules, view, legal=by_cell, targets=targets)]
    quiet = [c for c, ps in by_cell.items() if not ps[0].attacks]
    enemy_base = BASES[1 - seat]
    board = view.board()
    for cell in sorted(by_cell, key=lambda c: (-c[1], c[0])):
        if cell == enemy_base:
            lines.append(Text(f"  {game.action_to_text(by_cell[cell][0])}   takes "
                              f"{seat_name(1 - seat)}'s {rules.base_name}: you win"))
        elif cell not in quiet:
            options = " | ".join(game.action_to_text(p) for p in by_cell[cell])
            hits = ", ".join(sorted({_unit_at(rules, board, t) for p in by_cell[cell]
                                     for t in p.attacks}))
            lines.append(Text(f"  {options}   (can hit {hits})"))
    quiet = [c for c in quiet if c != enemy_base]
    if quiet:
        cells = "  ".join(f"{x},{y}" for x, y in sorted(quiet, key=lambda c: (-c[1], c[0])))
        lines.append(Text(f"  hitting nothing at: {cells}"))
    return Group(*lines)


def show_hand(game: Any, view: View, seat: int, plays: Sequence[Any]) -> Text:
    """How many places each card in the hand may go now, and the strikes."""
    rules: Ruleset = game.rules
    hand = view.hand(seat) or {}
    out = Text()
    out.append("Your cards now:", style="bold")
    for u in rules.units:
        if hand.get(u.name):
            n = len({p.at for p in plays_of_unit(plays, u.name)})
            out.append(f"\n  {u.abbrev.lower():4} {unit_title(rules, u.name)} x{hand[u.name]}: "
                       f"{n} place(s)")
    strikes = [p for p in plays if isinstance(p, Strike)]
    if strikes:
        out.append(f"\n  {rules.strike_name}: " + "  ".join(
            game.action_to_text(p) for p in strikes))
    if any(isinstance(p, Bury) for p in plays):
        out.append("\n  Setup: choose 2 cards to put under your deck, e.g. "
                   + game.action_to_text(plays[0]))
    return out


def _unit_at(rules: Ruleset, board: dict[tuple[int, int], tuple[int, str]],
             cell: tuple[int, int]) -> str:
    seat, name = board[cell]
    return f"{seat_name(seat)} {unit_title(rules, name)} at {cell_text(cell)}"


def complete_hits(plays: Sequence[Any], action: Any) -> Any:
    """``action`` with its hits filled in when it names none and exactly one legal play has
    the same unit and cell; otherwise ``action`` unchanged."""
    if not isinstance(action, Deploy) or action.attacks or action in plays:
        return action
    same = [p for p in plays_of_unit(plays, action.unit) if p.at == action.at]
    return same[0] if len(same) == 1 else action

