"""Screens drawn with rich: the grid, the seats' summary, a seat's private cards, the log.

Every function reads a ``CardView`` (observations), never an engine state. South (seat 0) units are
written in UPPER case, North (seat 1) in lower case, so the sides stay apart without colour too.
"""

from __future__ import annotations

import sys
from collections.abc import Collection, Sequence
from typing import IO

from rich import box
from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text

from warboard.hill218.names import (
    BASES,
    HILL,
    counts_text,
    seat_name,
    unit_abbrev,
)
from warboard.hill218.ruleset import Ruleset, unit_title
from warboard.hill218.view import CardView

Cell = tuple[int, int]

SEAT_STYLES = ("bold blue", "bold red")
CELL_WIDTH = 5  # characters inside a cell; one space separates cells
BASE_COLUMN_WIDTH = 7  # the bases' column, wide enough for a hit on a base: ">[inf]<"


def column_width(x: int) -> int:
    """Characters inside the cells of column ``x``."""
    return BASE_COLUMN_WIDTH if x == BASES[0][0] else CELL_WIDTH


def make_console(no_color: bool = False, file: IO[str] | None = None) -> Console:
    """A console for the game screens (plain text when ``no_color`` or not a terminal)."""
    out = file or sys.stdout
    width = None if out.isatty() else 100  # rich would assume 80 columns for pipes and files
    return Console(file=out, no_color=no_color, highlight=False, emoji=False, width=width)


# ----------------------------------------------------------------------------- the grid

def board_text(rules: Ruleset, view: CardView, legal: Collection[Cell] = (),
               targets: Collection[Cell] = ()) -> Text:
    """The grid, north at the top, with x across and y up; ``legal`` cells are marked ``+``
    and ``targets`` (enemy units that could be hit) are marked ``>unit<``."""
    board = view.board()
    shown = set(board) | {HILL, *BASES} | set(legal)
    x0, x1 = min(x for x, _ in shown) - 1, max(x for x, _ in shown) + 1
    y0, y1 = min(y for _, y in shown) - 1, max(y for _, y in shown) + 1
    columns = "    " + "".join(f" {x:^{column_width(x)}}" for x in range(x0, x1 + 1))
    out = Text()
    out.append(columns + "\n", style="dim")
    for y in range(y1, y0 - 1, -1):
        out.append(f"{y:>4}", style="dim")
        for x in range(x0, x1 + 1):
            label, style = _cell(rules, (x, y), board, legal, targets)
            out.append(" ")
            out.append(f"{label:^{column_width(x)}}", style=style)
        out.append(f"  {y}\n", style="dim")
    out.append(columns, style="dim")
    return out


def _cell(rules: Ruleset, cell: Cell, board: dict[Cell, tuple[int, str]],
          legal: Collection[Cell], targets: Collection[Cell]) -> tuple[str, str]:
    """A cell's label (at most ``column_width`` characters) and style."""
    if cell == HILL:
        return "(*)", "yellow"
    unit = board.get(cell)
    if unit is not None:
        seat, name = unit
        label = unit_abbrev(rules, name)
        label = label.upper() if seat == 0 else label.lower()
        if cell in BASES:
            label = f"[{label}]"
        if cell in targets:
            return f">{label}<", "bold reverse " + SEAT_STYLES[seat].split()[-1]
        return label, SEAT_STYLES[seat]
    if cell in legal:
        return ("[+]" if cell in BASES else "+"), "bold green"
    if cell in BASES:
        seat = BASES.index(cell)
        return f"[{'S' if seat == 0 else 'n'}]", "dim " + SEAT_STYLES[seat].split()[-1]
    return ".", "dim"


def legend(rules: Ruleset) -> Text:
    out = Text()
    out.append("SOUTH", style=SEAT_STYLES[0])
    out.append(f" = upper case, [S] its {rules.base_name} · ")
    out.append("north", style=SEAT_STYLES[1])
    out.append(f" = lower case, [n] its {rules.base_name} · ")
    out.append("(*)", style="yellow")
    out.append(f" = {rules.hill_name}")
    return out


# ----------------------------------------------------------------------------- panels

def status_line(rules: Ruleset, view: CardView) -> Text:
    """Whose turn it is and how many plays are left, who is drawing, or that the game is over
    (the result is told below the screen)."""
    phase, seat = view.phase, view.to_move
    if view.result:
        return Text("Game over", style="bold")
    if phase == "bury" and seat is not None:
        return Text(f"Setup — {seat_name(seat)} puts 2 cards under its deck", style="bold")
    if phase == "play" and seat is not None:
        n = view.public["plays_left"]
        text = Text(f"Turn {view.turn} — ")
        text.append(f"{seat_name(seat)} to play", style=SEAT_STYLES[seat])
        text.append(f", {n} play{'s' if n != 1 else ''} left")
        return text
    drawing = view.drawing
    if phase == "first" or drawing is None:
        return Text(f"Turn {view.turn} — cards are being dealt")
    return Text(f"Turn {view.turn} — {seat_name(drawing)} "
                + ("is being dealt cards" if phase == "deal" else "draws"))


def seats_table(rules: Ruleset, view: CardView, me: int | None = None) -> Table:
    """Hand, deck, strikes, units on the board and destroyed cards of both seats."""
    obs = view.public
    table = Table(box=box.SIMPLE, pad_edge=False, show_edge=False)
    for heading in ("", "hand", "deck", f"{rules.strike_name}s", "on board", "destroyed"):
        table.add_column(heading)
    weights = {u.name: u.counts_as for u in rules.units}
    for seat in (0, 1):
        units = [u["unit"] for u in obs["board"] if u["seat"] == seat]
        count = sum(weights[u] for u in units)
        on_board = str(len(units)) + (f" (counts {count})" if count != len(units) else "")
        lost = obs["destroyed"][seat]
        destroyed = ", ".join(f"{lost[u.name]} {u.abbrev}" for u in rules.units
                              if lost.get(u.name)) or "-"
        name = seat_name(seat) + (" (you)" if seat == me else "")
        table.add_row(Text(name, style=SEAT_STYLES[seat]), str(obs["hand_sizes"][seat]),
                      str(obs["deck_sizes"][seat]), str(obs["strikes"][seat]), on_board,
                      destroyed)
    return table


def private_lines(rules: Ruleset, view: CardView, seat: int) -> Text:
    """``seat``'s hand, the cards it put under its deck and its deck's contents."""
    obs = view.private[seat]
    who = seat_name(seat)
    out = Text()
    out.append(f"{who}'s hand: ", style=SEAT_STYLES[seat])
    hand = obs.get("hand", {})
    out.append(", ".join(f"{hand[u.name]} {unit_title(rules, u.name)} ({u.abbrev.lower()})"
                         for u in rules.units if hand.get(u.name)) or "empty")
    bottom = obs.get("bottom") or []
    if bottom:
        out.append(f"\nUnder {who}'s deck (drawn last, in this order): ")
        out.append(", ".join(unit_title(rules, c) for c in bottom))
    size = obs["deck_sizes"][seat]
    under = f"including the {len(bottom)} under it" if bottom else "unordered"
    out.append(f"\n{who}'s deck ({size} card{'s' if size != 1 else ''}, {under}): ")
    out.append(counts_text(rules, obs.get("deck", {}), empty="empty"))
    return out


def log_text(lines: Sequence[str], title: str = "Log") -> Text:
    out = Text()
    out.append(f"{title}:", style="bold")
    for line in lines or ["(nothing yet)"]:
        out.append("\n  " + line)
    return out


def screen(rules: Ruleset, view: CardView, log: Sequence[str] = (), me: int | None = None,
           legal: Collection[Cell] = (), targets: Collection[Cell] = (),
           title: str | None = None) -> RenderableType:
    """A whole screen: title, grid, legend, status, seats, the private cards the view holds,
    then the log."""
    parts: list[RenderableType] = []
    if title:
        parts.append(Text(title, style="bold underline"))
    parts += [board_text(rules, view, legal, targets), legend(rules), Text(""),
              status_line(rules, view), seats_table(rules, view, me)]
    parts += [private_lines(rules, view, s) for s in sorted(view.private)]
    if log:
        parts += [Text(""), log_text(log)]
    return Group(*parts)
