"""The path searches of movement (7, 9.1), retreat (8.5) and leader escape (8.5.5), and the
stacking limit (4.3). Pure functions of a state's pieces; no state changes."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from warboard.holdtheline import hexes
from warboard.holdtheline.board import IMPASSABLE
from warboard.holdtheline.derived import (
    captures,
    entry_blocked,
    friendly_leaders,
    leader_blocked,
    lone_enemy_leaders,
)
from warboard.holdtheline.hexes import Hex

if TYPE_CHECKING:
    from warboard.holdtheline.board import Board
    from warboard.holdtheline.state import HtlState

def stack_ok(kinds: Iterable[str]) -> bool:
    """4.3: at most one artillery and one other combat unit (infantry type or dragoon)."""
    art = other = 0
    for k in kinds:
        if k == "artillery":
            art += 1
        else:
            other += 1
    return art <= 1 and other <= 1


def conflicting(kinds_here: list[tuple[int, str]], kind: str) -> int | None:
    """The unit index (of ``kinds_here``) that stops ``kind`` from entering, if exactly that."""
    art = kind == "artillery"
    for i, k in kinds_here:
        if (k == "artillery") == art:
            return i
    return None


Path = tuple[Hex, ...]
Outcome = tuple[Path, frozenset[int], frozenset[int]]  # path, enemy leaders, counters taken


_Key = tuple[int, frozenset[int], frozenset[int]]  # hex index, leaders and counters taken


def unit_paths(state: HtlState, ui: int, allowance: int, leader: int | None,
               exact: int = 0, by_stop: bool = False) -> list[Outcome]:
    """Moves of unit ``ui`` of at most ``allowance`` hexes (exactly ``exact`` if given): one path
    per distinct outcome (destination, enemy lone leaders taken, enemy VP counters taken),
    breadth-first, neighbours in ``hexes.DIRECTIONS`` order. ``leader`` moves along (its end hex
    must hold no other leader). ``by_stop`` (a force march, with ``exact``): the hex before the
    last is part of the outcome too, as a failed roll stops the unit there.

    The search runs on hex indices (``Board.index``); a path never re-enters a hex it has been
    in, nor its start hex."""
    board = state.board
    u = state.units[ui]
    side = u.side
    start = board.index[u.at]  # type: ignore[index]
    # hexes it may not enter: impassable, enemy units, a friendly unit of its own class (4.3)
    blocked = entry_blocked(state, side, u.kind == "artillery")
    no_end = _NO_INDICES if leader is None else _no_end(state, side, leader)
    caps = captures(state, side)  # index -> (enemy leader index or None, enemy counter or None)
    if caps:
        dist = board.dist_row(start)
        if min(dist[i] for i in caps) <= allowance:
            return _paths_by_outcome(board, blocked, no_end, start, allowance, exact, by_stop,
                                     caps)
    # nothing to take within reach
    return _paths_by_end(board, blocked, no_end, start, allowance, exact, by_stop)


def _no_end(state: HtlState, side: int, leader: int) -> frozenset[int]:
    """With a leader along, a unit may not end where another friendly leader stands (4.3)."""
    no_end = friendly_leaders(state, side)
    own = state.leaders[leader].at
    if own is not None:
        i = state.board.index[own]
        if i in no_end:
            no_end = no_end - {i}
    return no_end


def _paths_by_end(board: Board, blk: list[bool], no_end: frozenset[int], start: int,
                  allowance: int, exact: int, by_stop: bool) -> list[Outcome]:
    """``unit_paths`` with nothing to take on the way: the outcome is the end hex alone (with
    ``by_stop``, also the hex before it). Every hex of a path is in ``seen``, so a path never
    re-enters a hex. ``blk``: may not enter or pass; ``no_end``: may pass, may not end there
    (by hex index)."""
    cells, nb, normal = board.cells, board.nb_i, board.normal_i
    empty = _EMPTY
    out: list[Outcome] = []
    seen = {start}
    frontier: list[tuple[int, Path]] = [(start, ())]
    last_ends: set[int] = set()
    stops: set[tuple[int, int]] = set()
    for depth in range(1, allowance + 1):
        nxt: list[tuple[int, Path]] = []
        emit = not exact or depth == exact
        last = by_stop and depth == exact
        for here, hpath in frontier:
            for n in nb[here]:
                if blk[n]:
                    continue
                if n in seen:
                    if last and n in last_ends and n not in no_end and (n, here) not in stops:
                        stops.add((n, here))
                        out.append(((*hpath, cells[n]), empty, empty))
                    continue
                seen.add(n)
                npath = (*hpath, cells[n])
                if last:
                    last_ends.add(n)
                    stops.add((n, here))
                if emit and n not in no_end:
                    out.append((npath, empty, empty))
                if normal[n]:
                    nxt.append((n, npath))
        frontier = nxt
    return out


def _paths_by_outcome(board: Board, blk: list[bool], no_end: frozenset[int], start: int,
                      allowance: int, exact: int, by_stop: bool,
                      caps: dict[int, tuple[int | None, int | None]]) -> list[Outcome]:
    """``unit_paths`` where something may be taken: the search state is (hex, leaders taken,
    counters taken), and a path only avoids the hexes it has been in itself."""
    cells, nb, normal = board.cells, board.nb_i, board.normal_i
    empty = _EMPTY
    out: list[Outcome] = []
    seen_outcome: set[_Key] = set()
    frontier: list[tuple[int, tuple[int, ...], frozenset[int], frozenset[int]]] = [
        (start, (), empty, empty)]
    seen_state: set[_Key] = {(start, empty, empty)}
    last_layer: set[_Key] = set()
    seen_stop: set[tuple[int, frozenset[int], frozenset[int], int]] = set()
    for depth in range(1, allowance + 1):
        nxt: list[tuple[int, tuple[int, ...], frozenset[int], frozenset[int]]] = []
        emit = not exact or depth == exact
        last = by_stop and depth == exact
        for here, path, caps_l, caps_c in frontier:
            for n in nb[here]:
                if blk[n] or n == start or n in path:
                    continue
                c = caps.get(n)
                if c is None:
                    cl, cc = caps_l, caps_c
                else:
                    li, ci = c
                    cl = caps_l | {li} if li is not None else caps_l
                    cc = caps_c | {ci} if ci is not None else caps_c
                key = (n, cl, cc)
                if key in seen_state:
                    if last and key in last_layer and n not in no_end:
                        # the same end through another hex before it: another outcome
                        skey = (n, cl, cc, here)
                        if skey not in seen_stop:
                            seen_stop.add(skey)
                            out.append((tuple([cells[i] for i in (*path, n)]), cl, cc))
                    continue
                seen_state.add(key)
                npath = (*path, n)
                end_ok = n not in no_end
                if last:
                    last_layer.add(key)
                    if end_ok:
                        seen_stop.add((n, cl, cc, here))
                if end_ok and emit and key not in seen_outcome:
                    seen_outcome.add(key)
                    out.append((tuple([cells[i] for i in npath]), cl, cc))
                if normal[n]:
                    nxt.append((n, npath, cl, cc))
        frontier = nxt
    return out


_EMPTY: frozenset[int] = frozenset()
_NO_INDICES: frozenset[int] = frozenset()


def leader_paths(state: HtlState, li: int, allowance: int, start: Hex | None = None,
                 take: bool = False) -> list[tuple[Hex, ...]]:
    """A leader alone (9.1) or escaping (8.5.5): never into a hex with an enemy combat unit, nor
    to end with another friendly leader; friendly units are passed freely; terrain stops
    apply. Escaping (``take`` False) it never enters an enemy leader's hex (contract §3);
    moving alone (``take``) it enters or passes a lone enemy leader's hex and takes that
    leader (§8.1, 7.3). One path per outcome (destination, enemy leaders taken),
    breadth-first."""
    board = state.board
    leader = state.leaders[li]
    side = leader.side
    start = start or leader.at
    assert start is not None
    s0 = board.index[start]
    blk = leader_blocked(state, side, not take)
    no_end = friendly_leaders(state, side)
    caps = lone_enemy_leaders(state, side) if take else {}
    if caps and min(board.dist_row(s0)[i] for i in caps) <= allowance:
        outcomes = _paths_by_outcome(board, blk, no_end, s0, allowance, 0, False, caps)
    else:
        outcomes = _paths_by_end(board, blk, no_end, s0, allowance, 0, False)
    return [path for path, _, _ in outcomes]


def retreat_choices(state: HtlState, ui: int, attacker: Hex, exclude: Hex | None,
                    allow_displace: bool, with_leader: bool) -> list[tuple[Hex, int | None]]:
    """Contract §3 "Retreat": the hexes of the first non-empty tier, each with the friendly unit
    it would displace (or None)."""
    board = state.board
    u = state.units[ui]
    here = u.at
    assert here is not None
    hd = board.home_dist[u.side]
    limit = hd[here]
    tier1: list[tuple[Hex, int | None]] = []
    tier2: list[tuple[Hex, int | None]] = []
    for n in board.nbrs[here]:
        if n == exclude or board.move[n] == IMPASSABLE or hd[n] > limit:
            continue
        may, displaced = _may_retreat_into(state, ui, n, allow_displace, with_leader)
        if may:
            (tier2 if hexes.distance(n, attacker) == 1 else tier1).append((n, displaced))
    return tier1 or tier2


def _may_retreat_into(state: HtlState, ui: int, h: Hex, allow_displace: bool,
                      with_leader: bool) -> tuple[bool, int | None]:
    """Whether unit ``ui`` may retreat into ``h`` for the pieces there (no enemy units, no
    friendly leader when its own goes along, room or a unit to displace), and the unit it
    would displace."""
    units = state.units
    u = units[ui]
    here_units = [j for j in state.occupancy().get(h, ()) if j != ui]
    if here_units and units[here_units[0]].side != u.side:
        return False, None
    li = state.leader_at().get(h)
    # a lone enemy leader is no obstacle: the retreat takes it (§8.2, 7.3)
    if li is not None and state.leaders[li].side == u.side and with_leader:
        return False, None
    if here_units and not stack_ok([units[j].kind for j in here_units] + [u.kind]):
        if not allow_displace:
            return False, None
        return True, conflicting([(j, units[j].kind) for j in here_units], u.kind)
    return True, None

