"""Lookups derived from where the pieces stand, for the searches of movement and fire: blocked
hexes, captures, enemy hexes, lines of sight. They live in ``st._derived`` (shared by clones
until either changes: ``HtlState._moved`` drops it)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from warboard.holdtheline.hexes import Hex, sight_blocked

if TYPE_CHECKING:
    from warboard.holdtheline.state import HtlState


def cache(st: HtlState) -> dict[Any, Any]:
    d = st._derived
    if d is None:
        d = st._derived = {}
    return d


def entry_blocked(st: HtlState, side: int, artillery: bool) -> list[bool]:
    """By hex index: may a combat unit of ``side`` (artillery or not) not enter or pass it?
    Impassable terrain, enemy units, a friendly unit of its own class (4.3, 6.2.6)."""
    d = cache(st)
    key = ("blk", side, artillery)
    out = d.get(key)
    if out is None:
        units = st.units
        index = st.board.index
        out = d[key] = st.board.impassable_i[:]
        for h, here in st.occupancy().items():
            if units[here[0]].side != side or any(
                    (units[i].kind == "artillery") == artillery for i in here):
                out[index[h]] = True
    return out


def leader_blocked(st: HtlState, side: int) -> list[bool]:
    """By hex index: may a leader of ``side`` moving alone not enter it? Impassable, enemy
    units, enemy leaders."""
    d = cache(st)
    key = ("lblk", side)
    out = d.get(key)
    if out is None:
        units, leaders = st.units, st.leaders
        index = st.board.index
        out = d[key] = st.board.impassable_i[:]
        for h, here in st.occupancy().items():
            if units[here[0]].side != side:
                out[index[h]] = True
        for h, li in st.leader_at().items():
            if leaders[li].side != side:
                out[index[h]] = True
    return out


def leader_indices(st: HtlState) -> frozenset[int]:
    d = cache(st)
    out = d.get("lidx")
    if out is None:
        index = st.board.index
        out = d["lidx"] = frozenset(index[h] for h in st.leader_at())
    return out


def friendly_leaders(st: HtlState, side: int) -> frozenset[int]:
    d = cache(st)
    key = ("fl", side)
    out = d.get(key)
    if out is None:
        leaders = st.leaders
        index = st.board.index
        out = d[key] = frozenset(index[h] for h, li in st.leader_at().items()
                                 if leaders[li].side == side)
    return out


def captures(st: HtlState, side: int) -> dict[int, tuple[int | None, int | None]]:
    """Hex index -> (enemy leader index or None, enemy VP counter index or None) for every
    hex where a unit of ``side`` entering would take something (7.3, 3.4.8)."""
    d = cache(st)
    key = ("cap", side)
    out = d.get(key)
    if out is None:
        out = {}
        leaders = st.leaders
        index = st.board.index
        for h, li in st.leader_at().items():
            if leaders[li].side != side:
                out[index[h]] = (li, None)
        counters = st.counters
        for h, ci in st.counter_at().items():
            if counters[ci][1] != side:
                i = index[h]
                out[i] = (out[i][0] if i in out else None, ci)
        d[key] = out
    return out


def enemies(st: HtlState, side: int) -> list[tuple[int, Hex]]:
    """(hex index, hex) of the hexes holding combat units of the enemy of ``side``, in
    ``occupancy()`` order."""
    d = cache(st)
    key = ("enemy", side)
    out = d.get(key)
    if out is None:
        units = st.units
        index = st.board.index
        out = d[key] = [(index[h], h) for h, here in st.occupancy().items()
                        if units[here[0]].side != side]
    return out


def los_blocks(st: HtlState) -> list[bool]:
    """By hex index (and ``n`` for off the board): does it block a line of sight?"""
    d = cache(st)
    out = d.get("losblk")
    if out is None:
        index = st.board.index
        out = d["losblk"] = st.board.blocks_i[:]
        for h in st.occupancy():
            out[index[h]] = True
    return out


def los_i(st: HtlState, a: int, b: int) -> bool:
    """Does hex index ``a`` see ``b`` (``hexes.sight_blocked`` over blocking terrain and combat
    units)? Remembered both ways until a piece moves."""
    d = cache(st)
    key = ("los", a, b)
    seen = d.get(key)
    if seen is None:
        board = st.board
        seen = (board.dist_row(a)[b] <= 1
                or not sight_blocked(board.steps_i(a, b), los_blocks(st).__getitem__))
        d[key] = d[("los", b, a)] = seen
    return seen
