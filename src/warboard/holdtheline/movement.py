"""The board of a game (terrain looked up once) and the path searches of movement (7, 9.1),
retreat (8.5) and leader escape (8.5.5). Pure functions of a state's pieces; no state changes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from warboard.holdtheline import hexes
from warboard.holdtheline.derived import (
    captures,
    entry_blocked,
    friendly_leaders,
    leader_blocked,
    leader_indices,
)
from warboard.holdtheline.hexes import Hex
from warboard.holdtheline.scenario import Scenario
from warboard.holdtheline.tables import Tables

if TYPE_CHECKING:
    from warboard.holdtheline.state import HtlState

NORMAL, STOP, WATER, IMPASSABLE = "normal", "stop", "waterway", "impassable"

_STEPS: dict[tuple[Hex, Hex], list[tuple[Hex, ...]]] = {}
# (cols, rows) -> (distance rows by hex index, sight steps by index pair): see ``Board``
_BOARDS: dict[Any, Board] = {}
_GEOMETRY: dict[tuple[int, int], tuple[dict[int, list[int]],
                                       dict[int, tuple[tuple[int, ...], ...]]]] = {}


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
        # The same by hex index (row * cols + col), for the searches: ``cells[i]`` is the hex,
        # ``index[h]`` its index; index ``n`` (= cols * rows) stands for any hex off the board.
        n = len(cells)
        self.n = n
        self.cells: list[Hex] = cells
        self.index: dict[Hex, int] = {h: i for i, h in enumerate(cells)}
        self.nb_i: list[tuple[int, ...]] = [tuple(self.index[x] for x in self.nbrs[h])
                                            for h in cells]
        self.normal_i: list[bool] = [self.move[h] == NORMAL for h in cells]
        self.impassable_i: list[bool] = [self.move[h] == IMPASSABLE for h in cells] + [True]
        self.blocks_i: list[bool] = [self.blocks[h] for h in cells] + [False]
        # pure geometry of a board size, shared by every board of that size
        self._dist_rows, self._steps_i = _GEOMETRY.setdefault((sc.cols, sc.rows), ({}, {}))
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

    @classmethod
    def shared(cls, sc: Scenario, tables: Tables, hills_clear: bool) -> Board:
        """The board of a scenario's map, made once per map (size, terrain, home edges) and
        shared: a board never changes after it is made (positions read back from JSON reuse
        it instead of measuring every hex again)."""
        key = (sc.cols, sc.rows, hills_clear, id(tables),
               tuple(sorted((h, t) for h, t in sc.terrain.items() if t != "clear")),
               tuple(s.home_edges for s in sc.sides))
        board = _BOARDS.get(key)
        if board is None:
            if len(_BOARDS) > 64:
                _BOARDS.clear()
            board = _BOARDS[key] = cls(sc, tables, hills_clear)
        return board

    def on_board(self, h: Hex) -> bool:
        return 0 <= h[0] < self.cols and 0 <= h[1] < self.rows

    def dist_row(self, i: int) -> list[int]:
        """Distances from hex index ``i`` to every hex index."""
        row = self._dist_rows.get(i)
        if row is None:
            x, y, z = self.cube[self.cells[i]]
            row = self._dist_rows[i] = [max(abs(x - cx), abs(y - cy), abs(z - cz))
                                        for cx, cy, cz in (self.cube[h] for h in self.cells)]
        return row

    def steps_i(self, a: int, b: int) -> tuple[tuple[int, ...], ...]:
        """``hexes.sight_steps`` between two hex indices, as indices (``n``: off the board)."""
        key = a * self.n + b
        steps = self._steps_i.get(key)
        if steps is None:
            index, n = self.index, self.n
            steps = self._steps_i[key] = tuple(
                tuple(index.get(h, n) for h in step)
                for step in sight_steps(self.cells[a], self.cells[b]))
        return steps


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
               exact: int = 0, by_stop: bool = False,
               ) -> list[tuple[tuple[Hex, ...], frozenset[int], frozenset[int]]]:
    """Moves of unit ``ui`` of at most ``allowance`` hexes (exactly ``exact`` if given): one path
    per distinct outcome (destination, enemy lone leaders taken, enemy VP counters taken),
    breadth-first, neighbours in ``hexes.DIRECTIONS`` order. ``leader`` moves along (its end hex
    must hold no other leader). ``by_stop`` (a force march, with ``exact``): the hex before the
    last is part of the outcome too, as a failed roll stops the unit there.

    The search runs on hex indices (``Board.index``); a path never re-enters a hex it has been
    in, nor its start hex."""
    board = st.board
    u = st.units[ui]
    side = u.side
    # hexes it may not enter: impassable, enemy units, a friendly unit of its own class (4.3)
    blk = entry_blocked(st, side, u.kind == "artillery")
    caps = captures(st, side)  # index -> (enemy leader index or None, enemy counter or None)
    # with a leader along, it may not end where another friendly leader stands (4.3)
    no_end = friendly_leaders(st, side) if leader is not None else _NO_INDICES
    index = board.index
    if leader is not None:
        own = st.leaders[leader].at
        if own is not None and index[own] in no_end:
            no_end = no_end - {index[own]}
    cells = board.cells
    start = index[u.at]  # type: ignore[index]
    nb = board.nb_i
    normal = board.normal_i
    out: list[tuple[tuple[Hex, ...], frozenset[int], frozenset[int]]] = []
    empty = _EMPTY
    if caps:
        drow = board.dist_row(start)
        if min(drow[i] for i in caps) > allowance:
            caps = {}  # nothing to take within reach
    if not caps:
        # nothing to take on the way: the outcome is the end hex alone. Every hex of a path
        # is in ``seen``, so a path never re-enters a hex.
        seen = {start}
        flat: list[tuple[int, tuple[Hex, ...]]] = [(start, ())]
        last_ends: set[int] = set()
        stops: set[tuple[int, int]] = set()
        for depth in range(1, allowance + 1):
            nxt_flat: list[tuple[int, tuple[Hex, ...]]] = []
            emit = not exact or depth == exact
            last = by_stop and depth == exact
            for here, hpath in flat:
                for n in nb[here]:
                    if blk[n]:
                        continue
                    if n in seen:
                        if last and n in last_ends and n not in no_end and (
                                n, here) not in stops:
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
                        nxt_flat.append((n, npath))
            flat = nxt_flat
        return out
    seen_outcome: set[tuple[int, frozenset[int], frozenset[int]]] = set()
    frontier: list[tuple[int, tuple[int, ...], frozenset[int], frozenset[int]]] = [
        (start, (), empty, empty)]
    seen_state = {(start, empty, empty)}
    last_layer: set[tuple[int, frozenset[int], frozenset[int]]] = set()
    seen_stop: set[tuple[int, frozenset[int], frozenset[int], int]] = set()
    for depth in range(1, allowance + 1):
        nxt = []
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


def leader_paths(st: HtlState, li: int, allowance: int, start: Hex | None = None,
                 ) -> list[tuple[Hex, ...]]:
    """A leader alone (9.1) or escaping (8.5.5): one path per destination, breadth-first. Never
    into a hex with an enemy combat unit or enemy leader, nor to end with another leader;
    friendly units are passed freely; terrain stops apply."""
    board = st.board
    L = st.leaders[li]
    blk = leader_blocked(st, L.side)  # impassable, enemy units, enemy leaders
    with_leader = leader_indices(st)
    start = start or L.at
    assert start is not None
    cells = board.cells
    nb = board.nb_i
    normal = board.normal_i
    s0 = board.index[start]
    out: list[tuple[Hex, ...]] = []
    seen = {s0}
    frontier: list[tuple[int, tuple[Hex, ...]]] = [(s0, ())]
    for _ in range(allowance):
        nxt = []
        for here, path in frontier:
            for n in nb[here]:
                if n in seen or blk[n]:
                    continue
                seen.add(n)
                npath = (*path, cells[n])
                if n not in with_leader:
                    out.append(npath)
                if normal[n]:
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
