"""The game log in words, told from views so that each reader learns only what it may know.

``narrate`` turns one record event (with the views before and after it) into log entries:
"South deploys Tank at (1,-1), destroys North Infantry at (1,0)". Draws are found from the deck
sizes, not from chance events: every card from the unordered part of a deck is a chance event
(even when only one kind is left), but the two cards put under a deck at setup are drawn by the
engine on its own, within whichever event reaches them. Adjacent draws of one seat in one turn
are merged ("North draws 2 cards"); the cards are named only when the view holds the drawing
seat's hand. Each entry is a message (``warboard.core.i18n``), told in English for the text
lines.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from warboard.core.i18n import Msg, english, joined, msg
from warboard.core.narration import Narrator
from warboard.core.protocol import JSON
from warboard.core.view import View
from warboard.hill218.names import (
    BASES,
    base_msg,
    cell_text,
    result_msg,
    seat_msg,
    strike_msg,
    unit_msg,
)
from warboard.hill218.ruleset import Ruleset
from warboard.hill218.view import CardView

CHANCE_PHASES = ("first", "deal", "draw")
BURIED = 2  # cards a seat puts under its deck at setup (contract §3)


@dataclass(frozen=True)
class LogEntry:
    """One line of the log. Draw entries keep their parts so adjacent ones can be merged."""

    turn: int
    said: Msg | None = None  # what it says, but for draw entries
    drawer: int | None = None  # set on draw entries
    count: int = 0
    cards: tuple[str, ...] | None = None  # the drawn cards, when the reader may know them


def narrate(rules: Ruleset, before: CardView, after: CardView,
            event: Mapping[str, Any]) -> list[LogEntry]:
    """The log entries of ``event``, which turned ``before`` into ``after``."""
    action = event.get("action")
    seat = event.get("seat")
    entries: list[LogEntry] = []
    if action is not None or seat is not None:
        said = _decision_msg(rules, before, seat, action)
        if said:
            entries.append(LogEntry(before.turn, said))
    entries.extend(_forfeits(rules, before, after, seat, action))
    entries.extend(_draws(rules, before, after, seat, action))
    if after.result and not before.result:
        entries.append(LogEntry(after.turn, msg("log.cards.over",
                                                result=result_msg(rules, after.result))))
    return entries


def _merged(last: LogEntry, entry: LogEntry) -> LogEntry | None:
    """``last`` and ``entry`` as one entry when both are draws of one seat in one turn."""
    if entry.drawer is None or last.drawer != entry.drawer or last.turn != entry.turn:
        return None
    cards = None if last.cards is None or entry.cards is None else last.cards + entry.cards
    return LogEntry(entry.turn, drawer=entry.drawer, count=last.count + entry.count, cards=cards)


def merge_draws(entries: Iterable[LogEntry]) -> list[LogEntry]:
    """Adjacent draws of one seat in one turn become one entry ("North draws 2 cards")."""
    out: list[LogEntry] = []
    for e in entries:
        merged = _merged(out[-1], e) if out else None
        if merged is None:
            out.append(e)
        else:
            out[-1] = merged
    return out


def entry_msg(rules: Ruleset, entry: LogEntry) -> Msg:
    if entry.drawer is None:
        assert entry.said is not None
        return entry.said
    who = seat_msg(rules, entry.drawer)
    if entry.cards:
        return msg("log.cards.drawsCards", side=who,
                   cards=joined([unit_msg(rules, c) for c in entry.cards]))
    return msg("log.cards.draws", side=who, count=entry.count)


def entry_text(rules: Ruleset, entry: LogEntry) -> str:
    return english(entry_msg(rules, entry))


def log_lines(rules: Ruleset, entries: Iterable[LogEntry], last: int | None = 10) -> list[str]:
    """The log as text lines, draws merged; only the ``last`` ones when given."""
    merged = merge_draws(entries)
    if last is not None:
        merged = merged[-last:]
    return [entry_text(rules, e) for e in merged]


class CardNarrator(Narrator):
    """The log of a card game, narrated event by event from each reader's views."""

    narrates_events = True

    def __init__(self, rules: Ruleset) -> None:
        self.rules = rules

    def narrate(self, before: View, after: View, event: Mapping[str, JSON]) -> list[LogEntry]:
        return narrate(self.rules, CardView(before.public, before.private),
                       CardView(after.public, after.private), event)

    def new_log(self) -> LogText:
        return LogText(self.rules)

    def side(self, seat: int) -> Msg | str:
        return seat_msg(self.rules, seat)

    def result(self, summary: Mapping[str, Any]) -> Msg:
        return result_msg(self.rules, dict(summary))


class LogText:
    """A log kept as text lines (and their messages) as it grows: each entry added at the end is
    merged with the last one or told as a new line, so the lines equal ``log_lines`` of all the
    entries."""

    def __init__(self, rules: Ruleset) -> None:
        self.rules = rules
        self.lines: list[str] = []
        self.messages: list[Msg] = []
        self._last: LogEntry | None = None

    def extend(self, entries: Iterable[LogEntry]) -> None:
        for e in entries:
            merged = _merged(self._last, e) if self._last is not None else None
            said = entry_msg(self.rules, e if merged is None else merged)
            if merged is None:
                self.lines.append(english(said))
                self.messages.append(said)
                self._last = e
            else:
                self.lines[-1], self.messages[-1] = english(said), said
                self._last = merged


# ----------------------------------------------------------------------------- decisions

def _decision_msg(rules: Ruleset, before: CardView, seat: int | None,
                  action: dict[str, Any] | None) -> Msg | None:
    if action is None:  # a hidden event of a seat record
        if seat is not None and before.phase == "bury":
            return msg("log.cards.buriesHidden", side=seat_msg(rules, seat))
        return None
    kind = action.get("play", action.get("chance"))
    if kind == "first_player":
        return msg("log.cards.first", side=seat_msg(rules, action["seat"]))
    if seat is None:
        return None
    who = seat_msg(rules, seat)
    if kind == "bury":
        first, second = (unit_msg(rules, c) for c in action["cards"])
        return msg("log.cards.buries", side=who, first=first, second=second)
    if kind == "strike":
        return msg("log.cards.strike", side=who, strike=strike_msg(rules),
                   hits=_hits(rules, before, [action["target"]]))
    if kind == "deploy":
        unit, at = unit_msg(rules, action["unit"]), tuple(action["at"])
        said = {"side": who, "unit": unit, "cell": cell_text(at)}
        if at in BASES:
            said["base"] = base_msg(rules)
        if at == BASES[1 - seat]:
            return msg("log.cards.deployEnemyBase", enemy=seat_msg(rules, 1 - seat), **said)
        where = "deployBase" if at == BASES[seat] else "deploy"
        attacks = action.get("attacks") or []
        if attacks:
            return msg(f"log.cards.{where}Attacks", hits=_hits(rules, before, attacks), **said)
        return msg(f"log.cards.{where}", **said)
    return None


def _hits(rules: Ruleset, before: CardView, targets: list[list[int]]) -> Msg:
    """"destroys North Infantry at (1,0)", following each hit on a copy of the board."""
    board = before.board()
    parts = []
    for t in targets:
        cell = (t[0], t[1])
        owner, name = board[cell]
        becomes = rules.units[rules.unit_ids[name]].hit_becomes
        verb = "damages" if becomes else "destroys"
        parts.append(msg(f"log.cards.{verb}", side=seat_msg(rules, owner),
                         unit=unit_msg(rules, name), cell=cell_text(cell)))
        if becomes:
            board[cell] = (owner, becomes)
        else:
            del board[cell]
    return joined(parts, "log.and")


# ----------------------------------------------------------------------------- lost plays

def _forfeits(rules: Ruleset, before: CardView, after: CardView, seat: int | None,
              action: dict[str, Any] | None) -> list[LogEntry]:
    """The plays lost for want of a legal one (contract §4) between ``before`` and ``after``:
    the rest of the turn just played in, and any whole turn passed over."""
    if after.result or after.turn == before.turn:
        return []
    out = []
    kind = action.get("play") if action else None
    if seat is not None and action and kind in ("deploy", "strike"):
        used = rules.units[rules.unit_ids[action["unit"]]].plays if kind == "deploy" else 1
        if before.public["plays_left"] > used:
            out.append(LogEntry(before.turn, msg("log.cards.noPlayLeft",
                                                 side=seat_msg(rules, seat))))
    # a turn whose draw was under way when ``before`` was taken had no play yet
    lost = before.turn if seat is None and before.phase == "draw" else before.turn + 1
    for turn in range(max(lost, 1), after.turn):
        who = _turn_seat(before, after, seat, turn)
        name = msg("log.cards.sideToMove") if who is None else seat_msg(rules, who)
        out.append(LogEntry(turn, msg("log.cards.turnPasses", side=name, turn=turn)))
    return out


def _turn_seat(before: CardView, after: CardView, seat: int | None, turn: int) -> int | None:
    """Who plays ``turn``: turns alternate, so one known (turn, seat) pair tells."""
    if seat is not None and before.phase == "play":
        anchor = (before.turn, seat)
    elif after.phase == "play" and after.to_move is not None:
        anchor = (after.turn, after.to_move)
    elif before.public.get("first_player") in (0, 1):
        anchor = (1, before.public["first_player"])
    else:
        return None
    return anchor[1] if (turn - anchor[0]) % 2 == 0 else 1 - anchor[1]


# ----------------------------------------------------------------------------- draws

def _draws(rules: Ruleset, before: CardView, after: CardView, seat: int | None,
           action: dict[str, Any] | None) -> list[LogEntry]:
    """The cards each seat drew, found from its deck size (a burial puts 2 back first)."""
    out = []
    for s in (0, 1):
        used = _cards_used(action) if seat == s else []
        buried = BURIED if seat == s and before.phase == "bury" else 0
        n = before.public["deck_sizes"][s] - after.public["deck_sizes"][s] + buried
        if n <= 0:
            continue
        cards = None
        hand_before, hand_after = before.hand(s), after.hand(s)
        if hand_before is not None and hand_after is not None:
            gained = Counter(hand_after)
            gained.update(used)
            gained.subtract(hand_before)
            cards = tuple(sorted(gained.elements(), key=rules.unit_ids.__getitem__))
        # a chance draw belongs to the turn being dealt; a play's own draws to the next turn
        turn = before.turn if seat is None and before.phase in CHANCE_PHASES else after.turn
        out.append(LogEntry(turn, drawer=s, count=n, cards=cards))
    return out


def _cards_used(action: dict[str, Any] | None) -> list[str]:
    """The cards a decision takes out of the hand."""
    if action is None:
        return []
    if action.get("play") == "deploy":
        return [action["unit"]]
    if action.get("play") == "bury":
        return list(action["cards"])
    return []
