"""The map of a game (``Board``): terrain looked up once per hex, by hex and by hex index, with
the geometry the searches need (neighbours, distances, sight steps). A board never changes
after it is made and is shared by every game on the same map."""

from __future__ import annotations

from typing import Any

from warboard.holdtheline import hexes
from warboard.holdtheline.hexes import Hex
from warboard.holdtheline.scenario import Scenario
from warboard.holdtheline.tables import Tables

# how terrain affects movement (tables.toml ``movement``); "stop" is any other kind
NORMAL, WATER, IMPASSABLE = "normal", "waterway", "impassable"

_STEPS: dict[tuple[Hex, Hex], list[tuple[Hex, ...]]] = {}
_BOARDS: dict[Any, Board] = {}
# (cols, rows) -> (distance rows by hex index, sight steps by index pair), shared by the boards
# of that size
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
    """Everything about the map that never changes during a game.

    By hex: ``terrain``, ``move`` (movement kind), ``combat`` and ``morale`` modifiers,
    ``blocks`` (line of sight), ``nbrs`` (on-board neighbours). By hex index (row * cols +
    col; ``cells[i]`` is the hex, ``index[h]`` its index, index ``n`` any hex off the board):
    ``nb_i``, ``normal_i``, ``impassable_i``, ``blocks_i``. ``home_dist[seat][h]``: distance
    to that side's home edge."""

    def __init__(self, scenario: Scenario, tables: Tables, hills_clear: bool) -> None:
        self.cols, self.rows = scenario.cols, scenario.rows
        cells = [(c, r) for r in range(scenario.rows) for c in range(scenario.cols)]
        self._read_terrain(scenario, tables, hills_clear, cells)
        self._index_cells(cells)
        # pure geometry of a board size, shared by every board of that size
        self._dist_rows, self._steps_i = _GEOMETRY.setdefault((scenario.cols, scenario.rows),
                                                              ({}, {}))
        self.home_dist = [self._home_distances(side.home_edges, cells) for side in scenario.sides]

    def _read_terrain(self, scenario: Scenario, tables: Tables, hills_clear: bool,
                      cells: list[Hex]) -> None:
        self.terrain: dict[Hex, str] = {}
        self.move: dict[Hex, str] = {}
        self.combat: dict[Hex, int] = {}
        self.morale: dict[Hex, int] = {}
        self.blocks: dict[Hex, bool] = {}
        self.nbrs: dict[Hex, tuple[Hex, ...]] = {}
        self.cube: dict[Hex, hexes.Cube] = {}
        for h in cells:
            self.cube[h] = hexes.to_cube(h)
            name = scenario.terrain_at(h)
            t = tables.terrain[name]
            self.terrain[h] = name
            self.move[h] = NORMAL if (hills_clear and name == "hill") else t.movement
            self.combat[h] = t.combat
            self.morale[h] = t.morale
            self.blocks[h] = t.blocks_los
            self.nbrs[h] = tuple(n for n in hexes.neighbours(h) if self.on_board(n))

    def _index_cells(self, cells: list[Hex]) -> None:
        self.n = len(cells)
        self.cells: list[Hex] = cells
        self.index: dict[Hex, int] = {h: i for i, h in enumerate(cells)}
        self.nb_i: list[tuple[int, ...]] = [tuple(self.index[x] for x in self.nbrs[h])
                                            for h in cells]
        self.normal_i: list[bool] = [self.move[h] == NORMAL for h in cells]
        self.impassable_i: list[bool] = [self.move[h] == IMPASSABLE for h in cells] + [True]
        self.blocks_i: list[bool] = [self.blocks[h] for h in cells] + [False]

    def _home_distances(self, edges: tuple[str, ...], cells: list[Hex]) -> dict[Hex, int]:
        cols, rows = self.cols, self.rows
        edge_hexes: list[Hex] = []
        for edge in edges:
            if edge == "north":
                edge_hexes += [(c, 0) for c in range(cols)]
            elif edge == "south":
                edge_hexes += [(c, rows - 1) for c in range(cols)]
            elif edge == "west":
                edge_hexes += [(0, r) for r in range(rows)]
            elif edge == "east":
                edge_hexes += [(cols - 1, r) for r in range(rows)]
        if not edge_hexes:
            return dict.fromkeys(cells, 0)
        return {h: min(hexes.distance(h, e) for e in edge_hexes) for h in cells}

    @classmethod
    def shared(cls, scenario: Scenario, tables: Tables, hills_clear: bool) -> Board:
        """The board of a scenario's map, made once per map (size, terrain, home edges) and
        shared: a board never changes after it is made (positions read back from JSON reuse
        it instead of measuring every hex again)."""
        key = (scenario.cols, scenario.rows, hills_clear, id(tables),
               tuple(sorted((h, t) for h, t in scenario.terrain.items() if t != "clear")),
               tuple(s.home_edges for s in scenario.sides))
        board = _BOARDS.get(key)
        if board is None:
            if len(_BOARDS) > 64:
                _BOARDS.clear()
            board = _BOARDS[key] = cls(scenario, tables, hills_clear)
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
