"""Uniformly random complete plays without listing them all.

``random_play`` draws one of the plays that ``CardState.legal_plays`` would list, each with the
same probability, by counting instead of enumerating: a unit's plays are its deployment cells,
plus, for a cell with several hit sequences, one extra slot per extra sequence. Only cells within
reach of an enemy can have more than one sequence, so only those are examined, and the drop zone
is counted and sampled by its bounds without being built. Random games (benchmarks, rollouts)
use it; ``tests/test_properties.py`` checks it against the enumeration.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from warboard.hill218.grid import HILL, STRIDE
from warboard.hill218.state import BASES, BURY, OVER, PLAY, CardState

STRIKE = -1  # uid marker of a strike in the tuples below

# (uid, cell, hits) with packed cells; uid == STRIKE for a strike on ``cell``
Choice = tuple[int, int, tuple[int, ...]]


class _DropZone:
    """The empty cells of the drop zone (hill and enemy base excluded), counted from its bounds
    and sampled by rejection; ``extra`` holds the unit's supplied cells outside that set."""

    def __init__(self, state: CardState, seat: int, supplied: frozenset[int]) -> None:
        x0, x1, y0, y1 = state.drop_box()
        self.cells = state.cells
        self.x0, self.x1, self.y0, self.y1 = x0, x1, y0, y1
        self.enemy_base = BASES[1 - seat]
        occupied_or_excluded = len(self.cells) + 1 + (self.enemy_base not in self.cells)
        self.size = (x1 - x0 + 1) * (y1 - y0 + 1) - occupied_or_excluded
        self.extra = tuple(c for c in supplied if not self.in_zone(c))

    def in_zone(self, c: int) -> bool:
        x = (c + (STRIDE >> 1)) // STRIDE
        y = c - x * STRIDE
        return (self.x0 <= x <= self.x1 and self.y0 <= y <= self.y1 and c not in self.cells
                and c != HILL and c != self.enemy_base)

    def __len__(self) -> int:
        return self.size + len(self.extra)

    def __contains__(self, c: int) -> bool:
        return c in self.extra or self.in_zone(c)

    def pick(self, r: int, rng: random.Random) -> int:
        if r < len(self.extra):
            return self.extra[r]
        while True:
            c = rng.randint(self.x0, self.x1) * STRIDE + rng.randint(self.y0, self.y1)
            if c not in self.cells and c != HILL and c != self.enemy_base:
                return c


# (weight, uid, cells, multi): a unit's plays, where ``multi`` maps each cell with several hit
# sequences to their number
_Option = tuple[int, int, frozenset[int] | _DropZone, dict[int, int]]


def _options(state: CardState) -> tuple[list[_Option], int, list[int]]:
    """The playable units' options, the total number of plays and the enemy cells (the strike
    targets, counted in the total when the seat has a strike)."""
    seat = state.to_move
    enemy = 1 - seat
    units = state.rules.units
    tables = state.rules.seat[seat]
    enemy_base = BASES[enemy]
    enemies = [c for c, code in state.cells.items() if code & 1 == enemy]
    options: list[_Option] = []
    total = 0
    plays_left = state.plays_left
    for uid, n in enumerate(state.hands[seat]):
        if not n or units[uid].plays > plays_left:
            continue
        if units[uid].drop:
            cells: frozenset[int] | _DropZone = _DropZone(
                state, seat, state.supplied_deploy_cells(seat, uid))
        else:
            cells = state.deploy_cells(seat, uid)
            if not cells:
                continue
        hits = state.attack_reach(seat, tables.attack_group_of[uid])
        if units[uid].attacks == 1:
            multi = {c: k for c, k in hits.items() if k > 1 and c in cells and c != enemy_base}
        else:
            multi = {}
            for c in hits:
                if c in cells and c != enemy_base:
                    k = len(state.hit_sequences(seat, uid, c))
                    if k > 1:
                        multi[c] = k
        weight = len(cells) + sum(multi.values()) - len(multi)
        options.append((weight, uid, cells, multi))
        total += weight
    if state.strikes[seat]:
        total += len(enemies)
    return options, total, enemies


def random_play(state: CardState, rng: random.Random) -> Choice:
    seat = state.to_move
    units = state.rules.units
    enemy_base = BASES[1 - seat]
    options, total, enemies = _options(state)
    r = rng.randrange(total)
    for weight, uid, cells, multi in options:
        if r >= weight:
            r -= weight
            continue
        if r < len(cells):
            if isinstance(cells, _DropZone):
                c = cells.pick(r, rng)
            else:
                c = state.deploy_cell_list(seat, uid)[r]
        else:
            r -= len(cells)
            for c, k in multi.items():  # noqa: B007 - c is the answer when the loop breaks
                if r < k - 1:
                    break
                r -= k - 1
        if c == enemy_base:
            return (uid, c, ())
        if units[uid].attacks == 1 and c not in multi:
            found = state.targets(seat, uid, c)
            return (uid, c, (found[0],) if found else ())
        return (uid, c, rng.choice(state.hit_sequences(seat, uid, c)))
    return (STRIKE, enemies[r], ())


def count_plays(state: CardState) -> int:
    """How many plays ``random_play`` chooses among (equals ``len(state.legal_plays())``)."""
    return _options(state)[1]


def play_choice(state: CardState, choice: Choice) -> None:
    """Apply a choice from ``random_play`` (known legal: no checks)."""
    uid, cell, hits = choice
    if uid == STRIKE:
        state.strike_unchecked(state.to_move, cell)
    else:
        state.deploy_unchecked(state.to_move, uid, cell, hits)


def random_game(game: Any, rng: random.Random,
                before_play: Callable[[CardState], None] | None = None) -> tuple[CardState, int]:
    """Play one uniformly random game to the end; returns the final state and the plays made.

    Chance follows its probabilities; the setup burial is a uniform choice among the legal ones;
    every play is uniform among the complete legal plays. ``before_play`` sees the state at each
    play decision (benchmarks collect positions with it).
    """
    state = game.new_initial_state()
    plays = 0
    while True:
        phase = state.phase
        if phase == PLAY:
            if before_play is not None:
                before_play(state)
            play_choice(state, random_play(state, rng))
            plays += 1
        elif phase == BURY:
            state.apply(rng.choice(state.legal_actions()))
        elif phase == OVER:
            return state, plays
        else:
            state.apply(state.sample_chance_outcome(rng))
