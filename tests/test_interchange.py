"""Contract §7 interchange: `legal`, `apply`, the `warboard rules` batch command line, and the
errors for malformed positions and illegal plays.

The oracle test replays random games through `legal`/`apply` and checks every decision point
against a small independent implementation of contract §1–§5 written from the §2 tables
(``positions.CONTRACT``), and against the §1 symmetry of the two seats.
"""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys
from typing import Any

import pytest

from positions import (
    BASE,
    CONTRACT,
    HILL,
    Key,
    board_map,
    deploy,
    full_deck,
    key,
    keys,
    legal_keys,
    nonzero,
    plus,
    position,
    strike,
    turned,
    u,
)
from warboard.core.errors import IllegalActionError, PositionError, WarboardError
from warboard.hill218 import Bury, Deploy, Strike
from warboard.hill218.interchange import apply, legal
from warboard.hill218.serialize import position_from_json

EXAMPLE = {
    "ruleset": "hill218",
    "to_move": 0, "plays_left": 2,
    "board": [{"x": 0, "y": -1, "seat": 0, "unit": "infantry"},
              {"x": 0, "y": 1, "seat": 1, "unit": "tank"}],
    "hands": [{"infantry": 2, "tank": 1}, {"paratroopers": 1, "artillery": 2}],
    "strikes": [2, 1],
    "decks": [["tank", "infantry"], ["heavy_weapons"]],
}


def example() -> dict[str, Any]:
    return copy.deepcopy(EXAMPLE)


# ============================================================================ §7 the example

def test_s7_example_position_legal_plays():
    """§7: the contract's example position: infantry or tank onto the three supplied cells next
    to the base (nothing in reach to attack), or an Air Strike on the enemy tank."""
    expected = {Key("deploy", unit, at, ()) for unit in ("infantry", "tank")
                for at in ((-1, -1), (1, -1), (0, -2))}
    expected.add(Key("strike", None, (0, 1), ()))
    plays = legal(example())
    assert len(plays) == 7
    assert set(keys(plays)) == expected
    for p in plays:
        assert p["play"] in ("deploy", "strike")
        if p["play"] == "deploy":
            assert set(p) <= {"play", "unit", "at", "attacks"}
            assert p.get("attacks", []) == []
        else:
            assert set(p) == {"play", "target"}
    json.dumps(plays)


def test_s7_example_apply_to_the_next_turn():
    """§7: `apply` returns the next decision point: the same seat while plays remain, then the
    other seat after drawing from the top of its deck (here its only card)."""
    pos = example()
    first = apply({"position": pos, "play": deploy("infantry", (1, -1))})
    assert pos == EXAMPLE  # the input is not changed
    assert set(first) - {"destroyed"} == set(EXAMPLE)
    assert (first["to_move"], first["plays_left"]) == (0, 1)
    assert first["hands"][0] == {"infantry": 1, "tank": 1}
    assert board_map(first)[(1, -1)] == (0, "infantry")
    # `attacks` may be omitted when nothing can be hit
    second = apply({"position": first,
                    "play": {"play": "deploy", "unit": "tank", "at": [-1, -1]}})
    assert (second["to_move"], second["plays_left"]) == (1, 2)
    assert nonzero(second["hands"][1]) == {"paratroopers": 1, "artillery": 2,
                                           "heavy_weapons": 1}
    assert second["decks"] == [["tank", "infantry"], []]
    assert second["strikes"] == [2, 1]
    assert len(second["board"]) == 4
    json.dumps(second)
    assert legal(second)  # a decision point again


def test_s7_strike_result_and_destroyed_counts():
    """§7: `destroyed` is counted by card name per seat and carried from position to position."""
    pos = example()
    pos["destroyed"] = [{"artillery": 1}, {"infantry": 2}]
    after = apply({"position": pos, "play": strike((0, 1))})
    assert nonzero(after["destroyed"][0]) == {"artillery": 1}
    assert nonzero(after["destroyed"][1]) == {"infantry": 2, "tank": 1}
    assert after["strikes"] == [1, 1]


def test_s7_result_shape_at_the_end():
    """§7: the finished game is {"result": {"winner", "reason", "units"}}."""
    pos = position(board=[u(0, -1, 0, "infantry"), u(1, -1, 0, "infantry"),
                          u(1, 0, 0, "infantry"), u(1, 1, 0, "infantry")],
                   hands=[{"tank": 1}, {}], strikes=(0, 0))
    out = apply({"position": pos, "play": deploy("tank", BASE[1])})
    assert out == {"result": {"winner": 0, "reason": "base", "units": [5, 0]}}


# ============================================================================ §7 oracle

ORIGIN = {r: {c.hit_becomes: n for n, c in CONTRACT[r]["units"].items() if c.hit_becomes}
          for r in CONTRACT}


class Reference:
    """Contract §1–§5 on a §7 position, written plainly from the §2 tables."""

    def __init__(self, pos: dict[str, Any]) -> None:
        self.ruleset = pos["ruleset"]
        self.units = CONTRACT[self.ruleset]["units"]
        self.pull = CONTRACT[self.ruleset]["supply_model"] == "pull"
        self.board = board_map(pos)
        self.hands = [dict(h) for h in pos["hands"]]
        self.decks = [list(d) for d in pos["decks"]]
        self.strikes = list(pos["strikes"])
        self.destroyed = [dict(d) for d in pos.get("destroyed", [{}, {}])]
        self.to_move = pos["to_move"]
        self.plays_left = pos["plays_left"]

    # ---- §4 supply
    def supplied(self, seat: int) -> set[tuple[int, int]]:
        b = BASE[seat]
        if self.board.get(b, (None,))[0] != seat:
            return set()
        sup = {b}
        changed = True
        while changed:
            changed = False
            for c, (s, name) in self.board.items():
                if s != seat or c in sup:
                    continue
                if self.pull:
                    ok = any(plus(c, turned(d, seat)) in sup for d in self.units[name].supply)
                else:
                    ok = any(plus(p, turned(d, seat)) == c for p in sup
                             for d in self.units[self.board[p][1]].supply)
                if ok:
                    sup.add(c)
                    changed = True
        return sup

    def free(self, c: tuple[int, int]) -> bool:
        return c not in self.board and c != HILL

    def deploy_cells(self, seat: int, name: str) -> set[tuple[int, int]]:
        out: set[tuple[int, int]] = set()
        b = BASE[seat]
        if b not in self.board:
            out.add(b)
        elif self.board[b][0] == seat:
            sup = self.supplied(seat)
            if self.pull:
                cand = {(p[0] - turned(d, seat)[0], p[1] - turned(d, seat)[1])
                        for p in sup for d in self.units[name].supply}
            else:
                cand = {plus(p, turned(d, seat)) for p in sup
                        for d in self.units[self.board[p][1]].supply}
            out |= {c for c in cand if self.free(c)}
        if self.units[name].drop:
            cells = [HILL, *self.board]
            xs, ys = [c[0] for c in cells], [c[1] for c in cells]
            out |= {(x, y) for x in range(min(xs) - 2, max(xs) + 3)
                    for y in range(min(ys) - 2, max(ys) + 3)
                    if self.free((x, y)) and (x, y) != BASE[1 - seat]}
        return out

    # ---- §4 attacks
    def targets(self, board, seat, name, at):
        card = self.units[name]
        out = []
        for d in card.attack:
            t = plus(at, turned(d, seat))
            if t in board and board[t][0] != seat and (
                    card.individual or self.supported(board, seat, t, at)):
                out.append(t)
        return out

    def supported(self, board, seat, t, at) -> bool:
        return any(s == seat and c != at
                   and t in {plus(c, turned(d, seat)) for d in self.units[n].support}
                   for c, (s, n) in board.items())

    def hit(self, board, t, destroyed=None) -> None:
        s, n = board[t]
        becomes = self.units[n].hit_becomes
        if becomes:
            board[t] = (s, becomes)
            return
        del board[t]
        if destroyed is not None:
            destroyed[s][n] = destroyed[s].get(n, 0) + 1
            if n in ORIGIN[self.ruleset]:
                o = ORIGIN[self.ruleset][n]
                destroyed[s][o] = destroyed[s].get(o, 0) + 1

    def sequences(self, board, seat, name, at, n):
        ts = self.targets(board, seat, name, at)
        if n == 0 or not ts:
            return [()]
        out = []
        for t in ts:
            b2 = dict(board)
            self.hit(b2, t)
            out += [(t, *rest) for rest in self.sequences(b2, seat, name, at, n - 1)]
        return out

    # ---- §4 plays
    def legal(self, seat: int, plays_left: int) -> list[Key]:
        out = []
        for name, n in self.hands[seat].items():
            card = self.units[name]
            if not n or card.plays > plays_left:
                continue
            for c in self.deploy_cells(seat, name):
                if c == BASE[1 - seat]:
                    out.append(Key("deploy", name, c, ()))
                    continue
                b2 = dict(self.board)
                b2[c] = (seat, name)
                out += [Key("deploy", name, c, seq)
                        for seq in self.sequences(b2, seat, name, c, card.attacks)]
        if self.strikes[seat]:
            out += [Key("strike", None, c, ()) for c, (s, _) in self.board.items() if s != seat]
        return out

    def has_legal(self, seat: int, plays_left: int) -> bool:
        if self.strikes[seat] and any(s != seat for s, _ in self.board.values()):
            return True
        return any(n and self.units[name].plays <= plays_left and self.deploy_cells(seat, name)
                   for name, n in self.hands[seat].items())

    def count(self, seat: int) -> int:
        return sum(self.units[n].counts_as for s, n in self.board.values() if s == seat)

    # ---- §4/§5 apply and the turn procedure
    def apply(self, play: Key) -> dict[str, Any]:
        seat = self.to_move
        if play.kind == "strike":
            self.strikes[seat] -= 1
            self.hit(self.board, play.at, self.destroyed)
            plays_left = self.plays_left - 1
        else:
            self.hands[seat][play.unit] -= 1
            self.board[play.at] = (seat, play.unit)
            if play.at == BASE[1 - seat]:
                return self.result(seat, "base")
            for t in play.attacks:
                self.hit(self.board, t, self.destroyed)
            plays_left = self.plays_left - self.units[play.unit].plays
        while True:
            if plays_left > 0 and self.has_legal(seat, plays_left):
                return self.position(seat, plays_left)
            if (not self.decks[0] and not self.decks[1]
                    and not self.has_legal(0, 2) and not self.has_legal(1, 2)):
                a, b = self.count(0), self.count(1)
                return self.result(None if a == b else (0 if a > b else 1), "count")
            seat = 1 - seat
            for _ in range(min(2, len(self.decks[seat]))):
                card = self.decks[seat].pop(0)
                self.hands[seat][card] = self.hands[seat].get(card, 0) + 1
            plays_left = 2

    def result(self, winner, reason) -> dict[str, Any]:
        return {"result": {"winner": winner, "reason": reason,
                           "units": [self.count(0), self.count(1)]}}

    def position(self, seat, plays_left) -> dict[str, Any]:
        return {"to_move": seat, "plays_left": plays_left, "board": self.board,
                "hands": [nonzero(h) for h in self.hands], "strikes": self.strikes,
                "decks": self.decks, "destroyed": [nonzero(d) for d in self.destroyed]}


def normal(out: dict[str, Any]) -> dict[str, Any]:
    """An engine answer in the reference's shape."""
    if "result" in out:
        return out
    return {"to_move": out["to_move"], "plays_left": out["plays_left"],
            "board": board_map(out), "hands": [nonzero(h) for h in out["hands"]],
            "strikes": out["strikes"], "decks": out["decks"],
            "destroyed": [nonzero(d) for d in out.get("destroyed", [{}, {}])]}


def mirror(pos: dict[str, Any]) -> dict[str, Any]:
    """§1: the same position with the seats swapped and the board turned half a circle."""
    m = copy.deepcopy(pos)
    m["to_move"] = 1 - pos["to_move"]
    m["board"] = [u(-e["x"], -e["y"], 1 - e["seat"], e["unit"]) for e in pos["board"]]
    for k in ("hands", "strikes", "decks", "destroyed"):
        if k in m:
            m[k] = m[k][::-1]
    return m


def mirror_key(k: Key) -> Key:
    return Key(k.kind, k.unit, (-k.at[0], -k.at[1]), tuple((-x, -y) for x, y in k.attacks))


def random_start(ruleset: str, rng: random.Random, damaged: int = 0) -> dict[str, Any]:
    decks = []
    for seat in (0, 1):
        deck = full_deck(ruleset)
        for _ in range(damaged if seat == 1 else 0):
            deck[deck.index("ogre")] = "damaged_ogre"
        rng.shuffle(deck)
        decks.append(deck)
    hands = [{}, {}]
    for seat, n in ((0, 4), (1, 3)):
        for card in decks[seat][:n]:
            hands[seat][card] = hands[seat].get(card, 0) + 1
        decks[seat] = decks[seat][n:]
    return position(ruleset, hands=hands, plays_left=1, decks=decks)


def choose(plays: list[dict[str, Any]], rng: random.Random,
           forward_seat: int | None = None) -> dict[str, Any]:
    """Random, but often a supplied deployment (so games grow chains, not only drops); with
    ``forward_seat``, often the deployment nearest that seat's enemy base (so games end on it)."""
    deploys = [p for p in plays if p["play"] == "deploy"]
    if forward_seat is not None and deploys and rng.random() < 0.6:
        enemy = BASE[1 - forward_seat]
        return min(deploys, key=lambda p: (abs(p["at"][0] - enemy[0])
                                           + abs(p["at"][1] - enemy[1])))
    attacking = [p for p in plays if p.get("attacks")]
    if attacking and rng.random() < 0.5:
        return rng.choice(attacking)
    near = [p for p in plays if p["play"] == "deploy" and abs(p["at"][0]) <= 3]
    if near and rng.random() < 0.7:
        return rng.choice(near)
    return rng.choice(plays)


@pytest.mark.parametrize(("ruleset", "seed", "damaged", "forward"), [
    ("hill218", 1, 0, False), ("hill218", 2, 0, False), ("hill218", 3, 0, True),
    ("hill218", 4, 0, True),
    ("ogre218", 1, 0, False), ("ogre218", 2, 0, False), ("ogre218", 3, 1, False),
    ("ogre218", 4, 0, True), ("ogre218", 5, 2, True),
])
def test_s7_legal_and_apply_match_the_contract_on_random_games(ruleset, seed, damaged,
                                                                forward):
    """§1–§5, §7: along random games, `legal` lists exactly every distinct complete play of
    an independent reading of the contract, each once; the seat-swapped, turned-round position
    has exactly the turned plays (§1 frames); and `apply` gives exactly the next decision
    point (draws from the top of `decks`, forfeited turns skipped) or the result."""
    rng = random.Random(seed)
    pos = random_start(ruleset, rng, damaged)
    steps = 0
    while True:
        plays = legal(pos)
        got = keys(plays)
        assert len(got) == len(set(got)), f"duplicate plays at {pos}"
        ref = Reference(pos).legal(pos["to_move"], pos["plays_left"])
        assert len(ref) == len(set(ref))
        missing, extra = set(ref) - set(got), set(got) - set(ref)
        assert not missing and not extra, (
            f"at {json.dumps(pos)}\nmissing {sorted(missing)[:5]}\nextra {sorted(extra)[:5]}")
        assert set(keys(legal(mirror(pos)))) == {mirror_key(k) for k in got}
        play = choose(plays, rng, pos["to_move"] if forward else None)
        out = apply({"position": pos, "play": play})
        expected = Reference(pos).apply(key(play))
        assert normal(out) == expected, f"apply {play} at {json.dumps(pos)}"
        steps += 1
        if "result" in out:
            break
        pos = out
    assert steps >= 5


# ============================================================================ errors: positions

def without(k: str):
    def mutate(p):
        del p[k]
    return mutate


def setter(path: tuple, value: Any):
    def mutate(p):
        target = p
        for step in path[:-1]:
            target = target[step]
        target[path[-1]] = value
    return mutate


def add_board(*entries):
    def mutate(p):
        p["board"].extend(entries)
    return mutate


BAD_POSITIONS = [
    # (case id, mutation of the example, text the message must contain)
    *[(f"missing {k}", without(k), k)
      for k in ("ruleset", "to_move", "plays_left", "board", "hands", "strikes", "decks")],
    ("extra field", setter(("turn",), 3), "turn"),
    ("unknown ruleset", setter(("ruleset",), "chess"), "ruleset"),
    ("seat to move 2", setter(("to_move",), 2), "to_move"),
    ("seat to move bool", setter(("to_move",), True), "to_move"),
    ("seat to move text", setter(("to_move",), "0"), "to_move"),
    ("plays_left 0", setter(("plays_left",), 0), "plays_left"),
    ("plays_left 3", setter(("plays_left",), 3), "plays_left"),
    ("board not a list", setter(("board",), {}), "board"),
    ("board entry missing unit", setter(("board", 0), {"x": 0, "y": -1, "seat": 0}),
     "board[0]"),
    ("board entry extra key", setter(("board", 0, "hp"), 2), "board[0]"),
    ("unit on the hill", add_board(u(0, 0, 0, "tank")), "board[2]"),
    ("two units on one cell", add_board(u(0, 1, 1, "infantry")), "board[2]"),
    ("unknown unit on board", setter(("board", 0, "unit"), "ogre"), "board[0].unit"),
    ("unknown unit in hand", setter(("hands", 1, "ogre"), 1), "hands[1]"),
    ("unknown unit in deck", setter(("decks", 1, 0), "gev"), "decks[1][0]"),
    ("bad board seat", setter(("board", 1, "seat"), 2), "seat"),
    ("bad board seat bool", setter(("board", 1, "seat"), False), "seat"),
    ("coordinate not a number", setter(("board", 0, "x"), "0"), "board[0].x"),
    ("coordinate far out", setter(("board", 1, "y"), 10**6), "board[1].y"),
    ("negative hand count", setter(("hands", 0, "tank"), -1), "hands[0].tank"),
    ("hands not per seat", setter(("hands",), [{}]), "hands"),
    ("strikes above the ruleset's", setter(("strikes",), [3, 0]), "strikes[0]"),
    ("decks not lists", setter(("decks",), [{}, []]), "decks[0]"),
    ("destroyed not per seat", setter(("destroyed",), [{}]), "destroyed"),
    ("seat to move a float", setter(("to_move",), 0.0), "to_move"),
    ("plays_left a float", setter(("plays_left",), 2.0), "plays_left"),
    ("board seat a float", setter(("board", 1, "seat"), 1.0), "board[1].seat"),
    ("ruleset a list", setter(("ruleset",), ["hill218"]), "ruleset"),
    ("game already over", setter(("board", 0, "seat"), 1), "over"),
]

INCONSISTENT_POSITIONS = [
    ("more infantry than the deck holds", setter(("hands", 0, "infantry"), 7), "infantry"),
    ("more tanks than the deck holds", setter(("decks", 1), ["tank"] * 3), "tank"),
    ("destroyed cards count too", setter(("destroyed",), [{"tank": 3}, {}]), "tank"),
    ("eight tanks on the board", add_board(*(u(x, -2, 0, "tank") for x in range(-4, 4))),
     "seat 0 has 10 tank cards"),
]


@pytest.mark.parametrize(("mutate", "fragment"), [(m, f) for _, m, f in BAD_POSITIONS],
                         ids=[c for c, _, _ in BAD_POSITIONS])
def test_s7_malformed_position_is_rejected_naming_the_problem(mutate, fragment):
    """§7: a malformed or impossible position is an error (legal and apply both), with a
    message naming the field or the problem."""
    pos = example()
    mutate(pos)
    for call in (lambda: legal(pos),
                 lambda: apply({"position": pos, "play": deploy("infantry", (1, -1))})):
        with pytest.raises(PositionError) as info:
            call()
        assert fragment in str(info.value)


@pytest.mark.parametrize(("mutate", "fragment"), [(m, f) for _, m, f in INCONSISTENT_POSITIONS],
                         ids=[c for c, _, _ in INCONSISTENT_POSITIONS])
def test_s7_unreachable_position_is_answered_with_warnings_or_refused_when_strict(mutate,
                                                                                  fragment):
    """§7: a position need not be reachable (more cards than the deck holds): it is answered by
    the rules as written, wrapped with "warnings" naming what is inconsistent; strict checking
    refuses it."""
    pos = example()
    mutate(pos)
    answer = legal(copy.deepcopy(pos))
    assert set(answer) == {"answer", "warnings"}
    assert any(fragment in w for w in answer["warnings"])
    assert answer["answer"] and all(p["play"] in ("deploy", "strike") for p in answer["answer"])
    play = answer["answer"][0]
    applied = apply({"position": copy.deepcopy(pos), "play": play})
    assert applied["warnings"] == answer["warnings"]
    assert applied["answer"]["to_move"] in (0, 1)
    for call in (lambda: legal(pos, strict=True),
                 lambda: apply({"position": pos, "play": play}, strict=True),
                 lambda: position_from_json(pos)):
        with pytest.raises(PositionError) as info:
            call()
        assert fragment in str(info.value)


def test_s7_position_not_an_object():
    with pytest.raises(PositionError):
        legal([EXAMPLE])
    with pytest.raises(WarboardError):
        apply({"position": example()})
    with pytest.raises(WarboardError):
        apply({"position": example(), "play": strike((0, 1)), "extra": 1})


def test_s7_ogre_cards_counted_as_a_family():
    """§7: a damaged Ogre on the board is one of the seat's 2 Ogre cards (too many is an error);
    a destroyed damaged Ogre counts its ogre card as well."""
    ok = position("ogre218", board=[u(0, -1, 0, "damaged_ogre"), u(0, 1, 1, "infantry")],
                  hands=[{"ogre": 1}, {}])
    legal(ok)
    too_many = position("ogre218", board=[u(0, -1, 0, "damaged_ogre"), u(0, 1, 1, "infantry")],
                        hands=[{"ogre": 2}, {}])
    with pytest.raises(PositionError, match="ogre"):
        legal(too_many, strict=True)
    assert legal(too_many)["warnings"] == [
        "seat 0 has 3 ogre cards across board, hand, deck and destroyed; the deck has only 2"]
    dead = position("ogre218", board=[u(0, -1, 0, "infantry"), u(0, 1, 1, "infantry")],
                    hands=[{"ogre": 1}, {}], destroyed=[{"ogre": 1, "damaged_ogre": 1}, {}])
    assert isinstance(legal(dead, strict=True), list)
    dead["hands"][0]["ogre"] = 2
    with pytest.raises(PositionError, match="ogre"):
        legal(dead, strict=True)
    dead["destroyed"][0]["ogre"] = 2
    assert len(legal(dead)["warnings"]) == 2  # the destroyed pair too: one warning each


@pytest.mark.parametrize("ruleset", ["hill218", "ogre218"])
def test_s7_not_a_decision_point_is_an_error(ruleset):
    """§7: positions given to legal/apply are decision points: the seat to move has a legal
    play. No hand, no strike (or no enemy unit to strike): an error, not an empty list."""
    pos = position(ruleset, board=[u(0, -1, 0, "infantry")], hands=[{}, {"infantry": 1}],
                   strikes=(2, 2))
    for call in (lambda: legal(pos), lambda: apply({"position": pos, "play": strike((0, 1))})):
        with pytest.raises(PositionError, match="decision point"):
            call()


# ============================================================================ errors: plays

RICH = position(board=[u(0, -1, 0, "infantry"), u(1, -1, 0, "infantry"),
                       u(0, 1, 1, "infantry"), u(2, 0, 1, "tank"), u(3, 3, 1, "infantry")],
                hands=[{"infantry": 1, "tank": 1}, {"infantry": 1}], strikes=(0, 2),
                decks=[["artillery"], ["tank"]])
STRIKER = position(board=[u(0, -1, 0, "infantry"), u(1, -1, 0, "infantry"),
                          u(0, 1, 1, "infantry")],
                   hands=[{"infantry": 1}, {"infantry": 1}], strikes=(1, 2))
OGRE_SECOND = position("ogre218", board=[u(0, -1, 0, "infantry"), u(0, 1, 1, "infantry")],
                       hands=[{"ogre": 1, "infantry": 2}, {}], plays_left=1)

ILLEGAL_PLAYS = [
    ("unit not in hand", RICH, Deploy("artillery", (-1, -1))),
    ("unit of the other ruleset", RICH, Deploy("ogre", (-1, -1))),
    ("occupied cell", RICH, Deploy("infantry", (1, -1))),
    ("unsupplied cell", RICH, Deploy("infantry", (5, 5))),
    ("unsupplied cell diagonal", RICH, Deploy("infantry", (2, -2))),
    ("the hill", RICH, Deploy("infantry", (0, 0))),
    ("attack out of reach", RICH, Deploy("tank", (2, -1), ((3, 3),))),
    ("attack on a friend", RICH, Deploy("tank", (2, -1), ((1, -1),))),
    ("attack on an empty cell", RICH, Deploy("tank", (2, -1), ((2, -2),))),
    ("mandatory attack missing", RICH, Deploy("tank", (2, -1), ())),
    ("unsupported attack", RICH, Deploy("infantry", (2, -1), ((2, 0),))),
    ("attack where none is possible", RICH, Deploy("infantry", (-1, -1), ((2, 0),))),
    ("one attack too many", RICH, Deploy("tank", (2, -1), ((2, 0), (2, 0)))),
    ("strike with none left", RICH, Strike((0, 1))),
    ("strike on an empty cell", STRIKER, Strike((5, 5))),
    ("strike on a friendly unit", STRIKER, Strike((1, -1))),
    ("strike on the hill", STRIKER, Strike((0, 0))),
    ("ogre as the second play", OGRE_SECOND, Deploy("ogre", (1, -1))),
    ("a burial is not a play", RICH, Bury("infantry", "tank")),
]


@pytest.mark.parametrize(("pos", "play"), [(p, a) for _, p, a in ILLEGAL_PLAYS],
                         ids=[c for c, _, _ in ILLEGAL_PLAYS])
def test_s4_illegal_play_is_refused_and_changes_nothing(pos, play):
    """§4/§7: an illegal play raises IllegalActionError and leaves the state exactly as it was
    (state.to_json() equal before and after; the state still plays on)."""
    state = position_from_json(copy.deepcopy(pos))
    before = state.to_json()
    legal_before = state.legal_plays()
    assert play not in legal_before
    with pytest.raises(IllegalActionError):
        state.apply(play)
    assert state.to_json() == before
    assert state.legal_plays() == legal_before
    state.apply(legal_before[0])


@pytest.mark.parametrize(("pos", "play"), [
    (p, a) for _, p, a in ILLEGAL_PLAYS if not isinstance(a, Bury)
], ids=[c for c, _, a in ILLEGAL_PLAYS if not isinstance(a, Bury)])
def test_s7_illegal_play_through_apply(pos, play):
    """§7: the same illegal plays through the JSON `apply`: an error, the input untouched."""
    given = copy.deepcopy(pos)
    data = (strike(play.target) if isinstance(play, Strike)
            else deploy(play.unit, play.at, *play.attacks))
    with pytest.raises(IllegalActionError):
        apply({"position": given, "play": data})
    assert given == pos


@pytest.mark.parametrize("play", [
    {"play": "pass"},
    {"play": "deploy", "unit": "tank", "at": [2, -1], "attacks": [[2, 0]], "x": 1},
    {"play": "deploy", "unit": "tank", "at": "2,-1", "attacks": [[2, 0]]},
    {"play": "deploy", "unit": "tank", "at": [2], "attacks": [[2, 0]]},
    {"play": "deploy", "unit": "tank", "at": [True, -1], "attacks": [[2, 0]]},
    {"play": "deploy", "unit": "tank", "at": [2, -1], "attacks": [2, 0]},
    {"play": "deploy", "unit": "tank", "at": [2, -1], "attacks": "2,0"},
    {"play": "deploy", "unit": "TNK", "at": [2, -1], "attacks": [[2, 0]]},
    {"play": "deploy", "at": [2, -1]},
    {"play": "strike"},
    {"play": "bury", "cards": ["infantry", "tank"]},
    {"chance": "draw", "unit": "tank"},
    ["deploy", "tank", [2, -1]],
])
def test_s7_malformed_play_is_an_error(play):
    """§7 plays: only {"play": "deploy", unit, at, attacks} and {"play": "strike", target}."""
    with pytest.raises(IllegalActionError):
        apply({"position": copy.deepcopy(RICH), "play": play})


def test_s7_rich_position_legal_sanity():
    """The fixture of the illegal-play tests has the plays the cases assume."""
    ks = legal_keys(RICH)
    assert Key("deploy", "tank", (2, -1), ((2, 0),)) in ks
    assert Key("deploy", "infantry", (2, -1), ()) in ks
    assert not any(k.kind == "strike" for k in ks)


# ============================================================================ the command line

def run_cli(query: str, lines: list[str]) -> list[Any]:
    proc = subprocess.run([sys.executable, "-m", "warboard.cli", "rules", query],
                          input="".join(line + "\n" for line in lines), capture_output=True,
                          text=True, timeout=60, check=False)
    assert proc.returncode == 0, proc.stderr
    return [json.loads(line) for line in proc.stdout.splitlines()]


def test_s7_cli_legal_batch_answers_every_line_and_goes_on_after_errors():
    """§7: `warboard rules legal` answers one JSON line per input line; a bad line gets
    {"error": ...} and the batch goes on."""
    over = example()
    over["board"][0]["seat"] = 1
    out = run_cli("legal", [json.dumps(EXAMPLE), "{not json", json.dumps(over),
                            json.dumps({**EXAMPLE, "turn": 1}), json.dumps(EXAMPLE)])
    assert len(out) == 5
    assert out[0] == legal(example()) == out[4]
    for bad in out[1:4]:
        assert set(bad) == {"error"} and isinstance(bad["error"], str) and bad["error"]


def test_s7_cli_apply_batch():
    """§7: `warboard rules apply` reads {"position", "play"} lines; errors per line."""
    good = {"position": EXAMPLE, "play": deploy("infantry", (1, -1))}
    illegal = {"position": EXAMPLE, "play": deploy("infantry", (5, 5))}
    nondecision = {"position": {**EXAMPLE, "plays_left": 0}, "play": strike((0, 1))}
    win = {"position": position(board=[u(0, -1, 0, "infantry"), u(1, -1, 0, "infantry"),
                                       u(1, 0, 0, "infantry"), u(1, 1, 0, "infantry")],
                                hands=[{"tank": 1}, {}], strikes=(0, 0)),
           "play": deploy("tank", BASE[1])}
    out = run_cli("apply", [json.dumps(good), json.dumps(illegal), "[1, 2", json.dumps(nondecision),
                            json.dumps({"position": EXAMPLE}), json.dumps(win)])
    assert len(out) == 6
    assert out[0] == apply(copy.deepcopy(good))
    for bad in out[1:5]:
        assert set(bad) == {"error"}
    assert out[5] == {"result": {"winner": 0, "reason": "base", "units": [5, 0]}}


def test_s7_one_process_answers_tens_of_thousands_of_lines():
    """Issue 2, req. 4: one `rules apply` process handles 20,000 lines, errors included, with
    one answer per line in order."""
    good = json.dumps({"position": EXAMPLE, "play": deploy("infantry", (1, -1))})
    illegal = json.dumps({"position": EXAMPLE, "play": deploy("infantry", (5, 5))})
    lines = [good if i % 10 else illegal for i in range(20_000)]
    out = run_cli("apply", lines)
    assert len(out) == 20_000
    assert all(("error" in answer) == (i % 10 == 0) for i, answer in enumerate(out))
    assert out[1] == out[19_999] == apply({"position": copy.deepcopy(EXAMPLE),
                                           "play": deploy("infantry", (1, -1))})
