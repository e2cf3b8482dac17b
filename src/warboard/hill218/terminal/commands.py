"""What the player may ask at the prompt besides a play: help, the legal plays, where a card
may go. Each function returns something to print; none of them changes the game."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.text import Text

from warboard.hill218.actions import Bury, Deploy, Strike, resolve_unit, strike_words
from warboard.hill218.names import BASES, cell_text, seat_name, unit_abbrev
from warboard.hill218.ruleset import Ruleset, unit_title
from warboard.hill218.terminal.render import board_text
from warboard.hill218.view import CardView


def help_text(rules: Ruleset) -> Text:
    """The notation and the commands, with examples written in this ruleset's own units."""
    first, second = rules.units[0], rules.units[1]
    a, b = first.abbrev.lower(), second.abbrev.lower()
    title_a, title_b = unit_title(rules, first.name), unit_title(rules, second.name)
    examples = [
        (f"{a} 1,-1", f"deploy {title_a} at (1,-1) (it hits nothing)"),
        (f"{a} 1,0 x 1,1", f"deploy {title_a} at (1,0) and hit the enemy unit at (1,1)"),
    ]
    double = next((u for u in rules.units if u.attacks > 1 and u.count), None)
    if double is not None:
        examples.append((f"{double.abbrev.lower()} 1,0 x 1,1 x 2,1",
                         f"deploy {unit_title(rules, double.name)} at (1,0), hit (1,1), then "
                         "(2,1): name each hit, in order"))
    words = strike_words(rules)
    examples.append(("strike 0,1", f"use one of your {rules.strike_name}s on the enemy unit at "
                                   "(0,1)"))
    others = [w for w in words if w != "strike"][:2]  # the initials and the name
    if others:
        examples.append(("", "(also written " + " or ".join(f"'{w} 0,1'" for w in others) + ")"))
    examples.append((f"bury {a} {b}", f"setup: put {title_a}, then {title_b} under your deck"))
    width = max(len(e) for e, _ in examples) + 2
    units = ", ".join(f"{u.abbrev.lower()} = {unit_title(rules, u.name)}" for u in rules.units)
    return Text("\n".join([
        f"Plays (x across, y up; South's {rules.base_name} is (0,-1), North's (0,1)):",
        *(f"  {e:<{width}}{what}" for e, what in examples),
        "A hit is mandatory when one is possible; when only one is possible you may leave it",
        "out. Units by abbreviation, name or the start of a name (a word that fits a unit",
        "always means that unit):",
        "  " + units,
        "Commands:",
        "  show UNIT (or just UNIT)  where that card may go and what it would hit",
        "  show       how many places each card in your hand has",
        "  legal      every legal play in notation",
        "  board      draw the screen again          log   the whole game log",
        "  undo       take back your last play of this turn",
        "  hint       the play the computer's strongest level would make (against it only)",
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


def show_unit(game: Any, view: CardView, seat: int, plays: Sequence[Any],
              word: str) -> RenderableType:
    """The board with the cells where the unit named by ``word`` may go and the enemy units it
    would hit, then those plays grouped by cell."""
    rules: Ruleset = game.rules
    unit = resolve_unit(word, rules)  # raises IllegalActionError with the unit list
    title = f"{unit_title(rules, unit)} ({unit_abbrev(rules, unit).lower()})"
    hand = view.hand(seat) or {}
    if not hand.get(unit):
        return Text(f"You have no {title} in your hand.")
    if view.phase == "bury":
        return Text(f"{title} can be placed on the board after the burial; now choose 2 cards "
                    f"to put under your deck, e.g. '{burial_example(game, plays)}'.")
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


def show_hand(game: Any, view: CardView, seat: int, plays: Sequence[Any]) -> Text:
    """How many places each card in the hand may go now, and the strikes; at setup, the hand
    and how to bury."""
    rules: Ruleset = game.rules
    hand = view.hand(seat) or {}
    setup = view.phase == "bury"
    out = Text()
    out.append("Your cards now:", style="bold")
    for u in rules.units:
        if hand.get(u.name):
            out.append(f"\n  {u.abbrev.lower():4} {unit_title(rules, u.name)} x{hand[u.name]}")
            if not setup:
                n = len({p.at for p in plays_of_unit(plays, u.name)})
                out.append(f": {n} place{'s' if n != 1 else ''}")
    strikes = strike_listing(game, plays)
    if strikes:
        out.append("\n  " + strikes)
    if setup:
        out.append("\nCards are placed on the board after the burial. Now choose 2 cards to "
                   f"put under your deck, e.g. '{burial_example(game, plays)}'.")
    return out


def burial_example(game: Any, plays: Sequence[Any]) -> str:
    """A legal burial from the hand, two different cards when the hand allows it."""
    burials = [p for p in plays if isinstance(p, Bury)]
    if not burials:
        return "bury " + " ".join(u.abbrev.lower() for u in game.rules.units[:2])
    return game.action_to_text(next((b for b in burials if b.first != b.second), burials[0]))


def strike_listing(game: Any, plays: Sequence[Any]) -> str:
    """The strikes that may be made now, in notation ("" when none)."""
    strikes = [p for p in plays if isinstance(p, Strike)]
    if not strikes:
        return ""
    return f"{game.rules.strike_name}: " + "  ".join(game.action_to_text(p) for p in strikes)


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


# ----------------------------------------------------------------------------- refusals

PLACES_LISTED = 12  # a refusal lists at most this many cells


def explain_illegal(game: Any, view: CardView, seat: int, plays: Sequence[Any], action: Any,
                    engine_text: str) -> str:
    """Why ``action`` (refused by the engine with ``engine_text``) is not possible, in the
    player's words: cells as ``x,y`` and, where it helps, what is possible instead."""
    rules: Ruleset = game.rules
    setup = view.phase == "bury"
    if setup and not isinstance(action, Bury):
        return f"first put 2 cards under your deck, e.g. '{burial_example(game, plays)}'."
    if not setup and isinstance(action, Bury):
        article = "an" if rules.strike_name[0].lower() in "aeiou" else "a"
        return ("cards are put under the deck only at setup; now deploy a card or use "
                f"{article} {rules.strike_name}.")
    hand = view.hand(seat) or {}
    if isinstance(action, Bury):
        first, second = (unit_title(rules, c) for c in action)
        if action.first == action.second:
            return f"you do not hold two {first} cards to put under your deck."
        return f"you do not hold both {first} and {second}."
    if isinstance(action, Strike):
        strikes = [p.target for p in plays if isinstance(p, Strike)]
        if not view.public["strikes"][seat]:
            return f"you have no {rules.strike_name} left."
        return (f"no enemy unit at {cell_text(action.target)} to strike; "
                + (f"enemy units are at {_cells(strikes)}." if strikes
                   else "there is no enemy unit on the board."))
    if not isinstance(action, Deploy):
        return engine_words(rules, engine_text)
    unit = rules.units[rules.unit_ids[action.unit]]
    title = f"{unit_title(rules, unit.name)} ({unit.abbrev.lower()})"
    if not hand.get(unit.name):
        return f"you have no {title} in your hand."
    if unit.plays > view.public["plays_left"]:
        return (f"{title} uses {unit.plays} plays, so it can only be the first play of a "
                f"{unit.plays}-play turn.")
    mine = plays_of_unit(plays, unit.name)
    here = [p for p in mine if p.at == action.at]
    if not here:
        m = re.search(r"cannot be deployed at \[[^\]]*\]: (.*)", engine_text)
        why = f": {engine_words(rules, m[1])}" if m else ""
        places = sorted({p.at for p in mine}, key=lambda c: (-c[1], c[0]))
        if not places:
            return f"{title} cannot go at {cell_text(action.at)}{why}; it has no legal place now."
        shown = _cells(places[:PLACES_LISTED])
        more = (f" and {len(places) - PLACES_LISTED} more ('show {unit.abbrev.lower()}' draws "
                "them)" if len(places) > PLACES_LISTED else "")
        return (f"{title} cannot go at {cell_text(action.at)}{why}. It may go at "
                f"{shown}{more}.")
    if len(here) == 1 and not here[0].attacks:
        what = ("takes the enemy " + rules.base_name if action.at == BASES[1 - seat]
                else "can hit nothing there")
        return f"{title} at {cell_text(action.at)} {what}: write '{game.action_to_text(here[0])}'."
    n = max(len(p.attacks) for p in here)
    firsts = sorted({p.attacks[0] for p in here if p.attacks}, key=lambda c: (-c[1], c[0]))
    where = f"{title} at {cell_text(action.at)}"
    text = (f"{where} must hit (a hit is mandatory when one is possible); it may hit "
            f"{_cells(firsts)}" if n == 1 else
            f"{where} makes {n} hits, each mandatory when one is possible; the first may be at "
            f"{_cells(firsts)}")
    if len(here) <= 6:
        text += ". The plays there: " + " | ".join(game.action_to_text(p) for p in here)
    return text + "."


def _cells(cells: Sequence[tuple[int, int]]) -> str:
    return "  ".join(f"{x},{y}" for x, y in cells)


def engine_words(rules: Ruleset, text: str) -> str:
    """The engine's refusal in the terminal's words: ``South`` for ``seat 0 (South)``, cells
    as ``x,y`` rather than ``[x, y]``, units by their titles."""
    text = re.sub(r"seat \d \((\w+)\)", r"\1", text)
    text = re.sub(r"\[(-?\d+), (-?\d+)\]", r"\1,\2", text)
    text = re.sub(r"\[((?:-?\d+,-?\d+(?:, )?)*)\]",
                  lambda m: m[1].replace(", ", "  ") or "none", text)
    for u in rules.units:
        text = re.sub(rf"\b{u.name}\b", unit_title(rules, u.name), text)
    return text
