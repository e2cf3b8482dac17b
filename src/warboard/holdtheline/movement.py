"""The board of a game (terrain looked up once) and the path searches of movement (7, 9.1),
retreat (8.5) and leader escape (8.5.5). Pure functions of a state's pieces; no state changes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from warboard.holdtheline import hexes
from warboard.holdtheline.hexes import Hex
from warboard.holdtheline.scenario import Scenario
from warboard.holdtheline.tables import Tables

if TYPE_CHECKING:
    from warboard.holdtheline.state import HtlState

NORMAL, STOP, WATER, IMPASSABLE = "normal", "stop", "waterway", "impassable"

_STEPS: dict[tuple[Hex, Hex], list[tuple[Hex, ...]]] = {}


def sight_steps(a: Hex, b: Hex) -> list[tuple[Hex, ...]]:
    """``hexes.sight_steps``, memoised (pure geometry)."""
    key = (a, b)
    steps = _STEPS.get(key)
    if steps is None:
        if len(_STEPS) > 200_000:
            _STEPS.clear()
        steps = _STEPS[key] = hexes.sight_steps(a, b)
    return steps


class Board:
    """Everything about the map that never changes during a game."""

    def __init__(self, sc: Scenario, tables: Tables, hills_clear: bool) -> None:
        self.cols, self.rows = sc.cols, sc.rows
        self.terrain: dict[Hex, str] = {}
        self.move: dict[Hex, str] = {}
        self.combat: dict[Hex, int] = {}
        self.morale: dict[Hex, int] = {}
        self.blocks: dict[Hex, bool] = {}
        self.nbrs: dict[Hex, tuple[Hex, ...]] = {}
        self.cube: dict[Hex, hexes.Cube] = {}
        cells = [(c, r) for r in range(sc.rows) for c in range(sc.cols)]
        for h in cells:
            self.cube[h] = hexes.to_cube(h)
            name = sc.terrain_at(h)
            t = tables.terrain[name]
            self.terrain[h] = name
            self.move[h] = NORMAL if (hills_clear and name == "hill") else t.movement
            self.combat[h] = t.combat
            self.morale[h] = t.morale
            self.blocks[h] = t.blocks_los
            self.nbrs[h] = tuple(n for n in hexes.neighbours(h)
                                 if 0 <= n[0] < sc.cols and 0 <= n[1] < sc.rows)
        self.home_dist: list[dict[Hex, int]] = []
        for side in sc.sides:
            edge_hexes: list[Hex] = []
            for edge in side.home_edges:
                if edge == "north":
                    edge_hexes += [(c, 0) for c in range(sc.cols)]
                elif edge == "south":
                    edge_hexes += [(c, sc.rows - 1) for c in range(sc.cols)]
                elif edge == "west":
                    edge_hexes += [(0, r) for r in range(sc.rows)]
                elif edge == "east":
                    edge_hexes += [(sc.cols - 1, r) for r in range(sc.rows)]
            if edge_hexes:
                self.home_dist.append({h: min(hexes.distance(h, e) for e in edge_hexes)
                                       for h in cells})
            else:
                self.home_dist.append(dict.fromkeys(cells, 0))

    def on_board(self, h: Hex) -> bool:
        return 0 <= h[0] < self.cols and 0 <= h[1] < self.rows


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


Outcome = tuple[tuple[Hex, ...], Hex]


def unit_paths(st: HtlState, ui: int, allowance: int, leader: int | None,
               exact: int = 0) -> list[tuple[tuple[Hex, ...], frozenset[int], frozenset[int]]]:
    """Moves of unit ``ui`` of at most ``allowance`` hexes (exactly ``exact`` if given): one path
    per distinct outcome (destination, enemy lone leaders taken, enemy VP counters taken),
    breadth-first, neighbours in ``hexes.DIRECTIONS`` order. ``leader`` moves along (its end hex
    must hold no other leader)."""
    board = st.board
    u = st.units[ui]
    side, kind = u.side, u.kind
    occ = st.occupancy()
    lead = st.leader_at()
    counters = st.counter_at()
    start = u.at
    out: list[tuple[tuple[Hex, ...], frozenset[int], frozenset[int]]] = []
    seen_outcome: set[tuple[Hex, frozenset[int], frozenset[int]]] = set()
    empty: frozenset[int] = frozenset()
    frontier: list[tuple[Hex, tuple[Hex, ...], frozenset[int], frozenset[int]]] = [
        (start, (), empty, empty)]
    seen_state = {(start, empty, empty)}
    units = st.units
    leaders = st.leaders
    move = board.move
    for depth in range(1, allowance + 1):
        nxt = []
        for here, path, caps_l, caps_c in frontier:
            for n in board.nbrs[here]:
                mk = move[n]
                if mk == IMPASSABLE or n == start or n in path:
                    continue
                here_units = occ.get(n)
                if here_units:
                    if units[here_units[0]].side != side:
                        continue
                    if not stack_ok([units[j].kind for j in here_units] + [kind]):
                        continue
                cl, cc = caps_l, caps_c
                li = lead.get(n)
                if li is not None and leaders[li].side != side:
                    cl = caps_l | {li}
                ci = counters.get(n)
                if ci is not None and st.counters[ci][1] != side:
                    cc = caps_c | {ci}
                key = (n, cl, cc)
                if key in seen_state:
                    continue
                seen_state.add(key)
                npath = (*path, n)
                end_ok = leader is None or li is None or li == leader or leaders[li].side != side
                if end_ok and (not exact or depth == exact) and key not in seen_outcome:
                    seen_outcome.add(key)
                    out.append((npath, cl, cc))
                if mk == NORMAL:
                    nxt.append((n, npath, cl, cc))
        frontier = nxt
    return out


def leader_paths(st: HtlState, li: int, allowance: int, start: Hex | None = None,
                 ) -> list[tuple[Hex, ...]]:
    """A leader alone (9.1) or escaping (8.5.5): one path per destination, breadth-first. Never
    into a hex with an enemy combat unit or enemy leader, nor to end with another leader;
    friendly units are passed freely; terrain stops apply."""
    board = st.board
    L = st.leaders[li]
    side = L.side
    occ = st.occupancy()
    lead = st.leader_at()
    units = st.units
    start = start or L.at
    assert start is not None
    out: list[tuple[Hex, ...]] = []
    seen = {start}
    frontier: list[tuple[Hex, tuple[Hex, ...]]] = [(start, ())]
    for _ in range(allowance):
        nxt = []
        for here, path in frontier:
            for n in board.nbrs[here]:
                if n in seen:
                    continue
                mk = board.move[n]
                if mk == IMPASSABLE:
                    continue
                here_units = occ.get(n)
                if here_units and units[here_units[0]].side != side:
                    continue
                other = lead.get(n)
                if other is not None and st.leaders[other].side != side:
                    continue
                seen.add(n)
                npath = (*path, n)
                if other is None:
                    out.append(npath)
                if mk == NORMAL:
                    nxt.append((n, npath))
        frontier = nxt
    return out


def retreat_choices(st: HtlState, ui: int, attacker: Hex, exclude: Hex | None,
                    allow_displace: bool, with_leader: bool) -> list[tuple[Hex, int | None]]:
    """Contract §3 "Retreat": the hexes of the first non-empty tier, each with the friendly unit
    it would displace (or None)."""
    board = st.board
    u = st.units[ui]
    here = u.at
    assert here is not None
    hd = board.home_dist[u.side]
    limit = hd[here]
    occ = st.occupancy()
    lead = st.leader_at()
    units = st.units
    tier1: list[tuple[Hex, int | None]] = []
    tier2: list[tuple[Hex, int | None]] = []
    for n in board.nbrs[here]:
        if n == exclude or board.move[n] == IMPASSABLE or hd[n] > limit:
            continue
        here_units = [j for j in occ.get(n, ()) if j != ui]
        if here_units and units[here_units[0]].side != u.side:
            continue
        li = lead.get(n)
        if li is not None and (st.leaders[li].side != u.side or with_leader):
            continue
        displaced = None
        if here_units and not stack_ok([units[j].kind for j in here_units] + [u.kind]):
            if not allow_displace:
                continue
            displaced = conflicting([(j, units[j].kind) for j in here_units], u.kind)
        (tier2 if hexes.distance(n, attacker) == 1 else tier1).append((n, displaced))
    return tier1 or tier2


def first(items: Iterable[Hex], ok: Callable[[Hex], bool]) -> Hex | None:
    for h in items:
        if ok(h):
            return h
    return None
