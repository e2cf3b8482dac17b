"""Lookups derived from where the pieces stand, for the searches of movement and fire: blocked
hexes, captures, enemy hexes, lines of sight. They live in ``state.derived`` (shared by clones
until either changes: ``HtlState._moved`` drops it)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from warboard.holdtheline.hexes import Hex, sight_blocked

if TYPE_CHECKING:
    from warboard.holdtheline.state import HtlState


def cache(state: HtlState) -> dict[Any, Any]:
    d = state.derived
    if d is None:
        d = state.derived = {}
    return d


def entry_blocked(state: HtlState, side: int, artillery: bool) -> list[bool]:
    """By hex index: may a combat unit of ``side`` (artillery or not) not enter or pass it?
    Impassable terrain, enemy units, a friendly unit of its own class (4.3, 6.2.6)."""
    d = cache(state)
    key = ("blk", side, artillery)
    out = d.get(key)
    if out is None:
        units = state.units
        index = state.board.index
        out = d[key] = state.board.impassable_i[:]
        for h, here in state.occupancy().items():
            if units[here[0]].side != side or any(
                    (units[i].kind == "artillery") == artillery for i in here):
                out[index[h]] = True
    return out


def leader_blocked(state: HtlState, side: int, enemy_leaders: bool) -> list[bool]:
    """By hex index: may a leader of ``side`` not enter it? Impassable, enemy units, and with
    ``enemy_leaders`` (an escape, 8.5.5) enemy leaders too."""
    d = cache(state)
    key = ("lblk", side, enemy_leaders)
    out = d.get(key)
    if out is None:
        units, leaders = state.units, state.leaders
        index = state.board.index
        out = d[key] = state.board.impassable_i[:]
        for h, here in state.occupancy().items():
            if units[here[0]].side != side:
                out[index[h]] = True
        if enemy_leaders:
            for h, li in state.leader_at().items():
                if leaders[li].side != side:
                    out[index[h]] = True
    return out


def lone_enemy_leaders(state: HtlState, side: int) -> dict[int, tuple[int | None, int | None]]:
    """``captures`` for a leader of ``side`` moving alone: the hexes of enemy leaders (it takes
    no VP counters; a leader with an enemy unit is behind a blocked hex anyway)."""
    return {i: (li, None) for i, (li, _) in captures(state, side).items() if li is not None}


def friendly_leaders(state: HtlState, side: int) -> frozenset[int]:
    d = cache(state)
    key = ("fl", side)
    out = d.get(key)
    if out is None:
        leaders = state.leaders
        index = state.board.index
        out = d[key] = frozenset(index[h] for h, li in state.leader_at().items()
                                 if leaders[li].side == side)
    return out


def captures(state: HtlState, side: int) -> dict[int, tuple[int | None, int | None]]:
    """Hex index -> (enemy leader index or None, enemy VP counter index or None) for every
    hex where a unit of ``side`` entering would take something (7.3, 3.4.8)."""
    d = cache(state)
    key = ("cap", side)
    out = d.get(key)
    if out is None:
        out = {}
        leaders = state.leaders
        index = state.board.index
        for h, li in state.leader_at().items():
            if leaders[li].side != side:
                out[index[h]] = (li, None)
        counters = state.counters
        for h, ci in state.counter_at().items():
            if counters[ci][1] != side:
                i = index[h]
                out[i] = (out[i][0] if i in out else None, ci)
        d[key] = out
    return out


def enemies(state: HtlState, side: int) -> list[tuple[int, Hex]]:
    """(hex index, hex) of the hexes holding combat units of the enemy of ``side``, in
    ``occupancy()`` order."""
    d = cache(state)
    key = ("enemy", side)
    out = d.get(key)
    if out is None:
        units = state.units
        index = state.board.index
        out = d[key] = [(index[h], h) for h, here in state.occupancy().items()
                        if units[here[0]].side != side]
    return out


def los_blocks(state: HtlState) -> list[bool]:
    """By hex index (and ``n`` for off the board): does it block a line of sight?"""
    d = cache(state)
    out = d.get("losblk")
    if out is None:
        index = state.board.index
        out = d["losblk"] = state.board.blocks_i[:]
        for h in state.occupancy():
            out[index[h]] = True
    return out


def los_i(state: HtlState, a: int, b: int) -> bool:
    """Does hex index ``a`` see ``b`` (``hexes.sight_blocked`` over blocking terrain and combat
    units)? Remembered both ways until a piece moves."""
    d = cache(state)
    key = ("los", a, b)
    seen = d.get(key)
    if seen is None:
        board = state.board
        seen = (board.dist_row(a)[b] <= 1
                or not sight_blocked(board.steps_i(a, b), los_blocks(state)))
        d[key] = d[("los", b, a)] = seen
    return seen
