"""Hold the Line hex geometry and line of sight (contract §1 and §3 "Line of sight", rule 8.3).

Offset ``(col, row)`` in the odd-r layout, cube coordinates inside; LOS drawn twice with nudged
endpoints, a hex-side pair blocking only when both of its hexes block, adjacent hexes always in
sight, symmetric. Leaders and VP counters never block (the engine's ``blocks`` predicate only
looks at terrain and combat units; here the predicate is built the same way).
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from warboard.holdtheline.hexes import (
    DIRECTIONS,
    distance,
    line_of_sight,
    neighbours,
    on_board,
    sight_steps,
    to_cube,
    to_offset,
)

COLS, ROWS = 13, 9
BLOCKING_TERRAIN = {"forest", "hill", "town", "entrenchment"}

board_hexes = st.tuples(st.integers(0, COLS - 1), st.integers(0, ROWS - 1))
any_hexes = st.tuples(st.integers(-30, 30), st.integers(-30, 30))


def blocker(terrain: dict | None = None, units: set | None = None, leaders: set | None = None,
            vp_counters: set | None = None):
    """A ``blocks`` predicate as the engine builds it: blocking terrain or a combat unit.
    Leaders and VP counters are deliberately ignored (contract §3)."""
    terrain = terrain or {}
    units = units or set()
    del leaders, vp_counters  # present on the board, never blocking

    def blocks(h):
        return terrain.get(h, "clear") in BLOCKING_TERRAIN or h in units

    return blocks


# ============================================================================ geometry

@given(any_hexes)
def test_offset_cube_round_trip(h):
    c = to_cube(h)
    assert sum(c) == 0
    assert to_offset(c) == h


@given(st.tuples(st.integers(-30, 30), st.integers(-30, 30)))
def test_cube_offset_round_trip(xz):
    x, z = xz
    c = (x, -x - z, z)
    assert to_cube(to_offset(c)) == c


def test_odd_rows_are_shifted_right():
    # (0,0)'s neighbours in row 1 are (0,1) only to its south-east; (0,1)'s in row 0 are
    # (0,0) and (1,0): odd rows sit half a hex to the right.
    assert set(neighbours((0, 0))) == {(1, 0), (0, -1), (-1, -1), (-1, 0), (-1, 1), (0, 1)}
    assert set(neighbours((0, 1))) == {(1, 1), (1, 0), (0, 0), (-1, 1), (0, 2), (1, 2)}
    assert set(neighbours((4, 4))) == {(5, 4), (4, 3), (3, 3), (3, 4), (3, 5), (4, 5)}
    assert set(neighbours((4, 3))) == {(5, 3), (5, 2), (4, 2), (3, 3), (4, 4), (5, 4)}


def test_neighbours_follow_directions_order():
    # east, north-east, north-west, west, south-west, south-east
    assert neighbours((4, 4)) == [(5, 4), (4, 3), (3, 3), (3, 4), (3, 5), (4, 5)]
    assert neighbours((4, 3)) == [(5, 3), (5, 2), (4, 2), (3, 3), (4, 4), (5, 4)]
    assert len(set(DIRECTIONS)) == 6 and all(sum(d) == 0 for d in DIRECTIONS)


@given(any_hexes)
def test_neighbours_are_at_distance_one_and_mutual(h):
    around = neighbours(h)
    assert len(set(around)) == 6
    for n in around:
        assert distance(h, n) == 1
        assert h in neighbours(n)


@given(any_hexes, any_hexes, any_hexes)
def test_distance_is_a_metric(a, b, c):
    assert distance(a, b) == distance(b, a) >= 0
    assert (distance(a, b) == 0) == (a == b)
    assert distance(a, c) <= distance(a, b) + distance(b, c)


def test_distances_on_the_board():
    assert distance((0, 0), (12, 0)) == 12
    assert distance((0, 0), (0, 8)) == 8
    assert distance((0, 0), (12, 8)) == 16  # 8 rows give 4 columns for free
    assert distance((6, 4), (6, 2)) == 2
    assert distance((6, 4), (6, 3)) == 1  # row 4 is even: its northern neighbours are
    assert distance((6, 4), (5, 3)) == 1  # (5,3) and (6,3)
    assert distance((6, 4), (7, 3)) == 2
    assert distance((6, 3), (7, 4)) == 1  # row 3 is odd: (6,4) and (7,4)
    assert distance((6, 3), (5, 4)) == 2


def test_on_board():
    assert on_board((0, 0), COLS, ROWS) and on_board((12, 8), COLS, ROWS)
    assert not on_board((13, 0), COLS, ROWS) and not on_board((0, 9), COLS, ROWS)
    assert not on_board((-1, 4), COLS, ROWS) and not on_board((4, -1), COLS, ROWS)


# ============================================================================ sight steps

@given(board_hexes, board_hexes)
def test_sight_steps_walk_from_one_end_to_the_other(a, b):
    steps = sight_steps(a, b)
    n = distance(a, b)
    assert len(steps) == max(0, n - 1)
    for i, step in enumerate(steps, start=1):
        assert 1 <= len(step) <= 2
        for h in step:
            assert distance(a, h) == i and distance(h, b) == n - i
        if len(step) == 2:
            # a pair is the two hexes either side of one hex side
            assert distance(step[0], step[1]) == 1


@given(board_hexes, board_hexes)
def test_sight_steps_are_symmetric(a, b):
    forward = [frozenset(s) for s in sight_steps(a, b)]
    backward = [frozenset(s) for s in sight_steps(b, a)]
    assert forward == backward[::-1]


def test_straight_row_has_single_hexes():
    assert sight_steps((2, 3), (8, 3)) == [((3, 3),), ((4, 3),), ((5, 3),), ((6, 3),), ((7, 3),)]


def test_line_along_a_hex_side_gives_pairs():
    # straight "north" (same column, two rows up) runs along the side of (3,3) and (4,3)
    steps = sight_steps((4, 4), (4, 2))
    assert len(steps) == 1 and set(steps[0]) == {(3, 3), (4, 3)}
    # longer: (2,4) to (2,0) runs along sides at the odd steps, through a centre between
    steps = sight_steps((2, 4), (2, 0))
    assert [len(s) for s in steps] == [2, 1, 2]
    assert set(steps[0]) == {(1, 3), (2, 3)}
    assert steps[1] == ((2, 2),)
    assert set(steps[2]) == {(1, 1), (2, 1)}
    # and the same reading east-west lines at a slant: (6,4) to (6,2)
    assert set(sight_steps((6, 4), (6, 2))[0]) == {(5, 3), (6, 3)}


def test_diagonal_lines_through_centres_have_no_pairs():
    # along a cube axis every point is a hex centre
    assert sight_steps((2, 2), (4, 6)) == [((2, 3),), ((3, 4),), ((3, 5),)]
    assert all(len(s) == 1 for s in sight_steps((0, 0), (12, 0)))


# ============================================================================ line of sight

@given(board_hexes, board_hexes,
       st.sets(board_hexes, max_size=40), st.sets(board_hexes, max_size=10))
def test_los_is_symmetric(a, b, blocking_terrain, units):
    blocks = blocker({h: "forest" for h in blocking_terrain}, units)
    assert line_of_sight(a, b, blocks) == line_of_sight(b, a, blocks)


@given(board_hexes, st.integers(0, 5))
def test_adjacent_hexes_always_see_each_other(a, direction):
    b = neighbours(a)[direction]
    assert line_of_sight(a, b, lambda h: True)
    assert line_of_sight(a, a, lambda h: True)


@given(board_hexes, board_hexes)
def test_empty_board_is_always_clear(a, b):
    assert line_of_sight(a, b, blocker())


@given(board_hexes, board_hexes)
def test_blocking_everything_between_blocks_beyond_adjacent(a, b):
    assert line_of_sight(a, b, lambda h: True) == (distance(a, b) <= 1)


@given(board_hexes, board_hexes)
def test_ends_never_block_their_own_line(a, b):
    # the firer's and the target's hexes are not steps: blocking terrain there is irrelevant
    blocks = blocker({a: "forest", b: "town"}, {a, b})
    assert line_of_sight(a, b, blocks)


def test_hex_side_pair_blocks_only_when_both_block():
    a, b = (4, 4), (4, 2)
    assert not line_of_sight(a, b, blocker({(3, 3): "forest", (4, 3): "hill"}))
    assert line_of_sight(a, b, blocker({(3, 3): "forest"}))
    assert line_of_sight(a, b, blocker({(4, 3): "town"}))
    assert not line_of_sight(a, b, blocker({(3, 3): "entrenchment"}, {(4, 3)}))
    assert not line_of_sight(a, b, blocker(units={(3, 3), (4, 3)}))
    assert line_of_sight(a, b, blocker(units={(4, 3)}))
    # a line along a centre is blocked by one hex
    assert not line_of_sight((4, 4), (5, 2), blocker({(4, 3): "forest"}))
    # over four hexes: one pair half blocked, the centre clear, the other pair half blocked
    long = blocker({(1, 3): "forest", (2, 1): "forest"})
    assert line_of_sight((2, 4), (2, 0), long)
    assert not line_of_sight((2, 4), (2, 0), blocker({(1, 1): "hill", (2, 1): "forest"}))


def test_only_blocking_terrain_blocks():
    a, b = (2, 3), (8, 3)
    for terrain in ("forest", "hill", "town", "entrenchment"):
        assert not line_of_sight(a, b, blocker({(5, 3): terrain})), terrain
    for terrain in ("clear", "swamp", "waterway", "bridge", "ford", "fence"):
        assert line_of_sight(a, b, blocker({(5, 3): terrain})), terrain


def test_units_block_leaders_and_vp_counters_do_not():
    a, b = (2, 3), (8, 3)
    assert not line_of_sight(a, b, blocker(units={(6, 3)}))
    assert line_of_sight(a, b, blocker(leaders={(6, 3)}, vp_counters={(5, 3)}))


def test_contract_example_query():
    """Contract §7: forest (4,3), hill (5,3), a unit at (6,4); from (2,3) to (8,3): blocked."""
    blocks = blocker({(4, 3): "forest", (5, 3): "hill"}, {(6, 4)})
    assert not line_of_sight((2, 3), (8, 3), blocks)
    # the unit at (6,4) is off that line; without the forest and the hill it is clear
    assert line_of_sight((2, 3), (8, 3), blocker(units={(6, 4)}))
    # the unit at (6,4) lies on the line (2,4)-(8,4)
    assert not line_of_sight((2, 4), (8, 4), blocks)


def test_concrete_cases_on_the_13x9_board():
    town = {(6, 4): "town", (6, 3): "town", (7, 4): "town"}
    blocks = blocker(town)
    # across the town along row 4: blocked
    assert not line_of_sight((3, 4), (9, 4), blocks)
    # along row 2, north of the town: clear
    assert line_of_sight((3, 2), (9, 2), blocks)
    # firing into the town from next door: adjacent, always clear
    assert line_of_sight((5, 4), (6, 4), blocks)
    # into the town hex itself from range 2: the target's own hex does not block
    assert line_of_sight((4, 4), (6, 4), blocks)
    # past the corner of the town: (4,2) to (8,4) crosses (6,3)
    assert sight_steps((4, 2), (8, 4)) == [((5, 2),), ((5, 3),), ((6, 3),), ((7, 4),)]
    assert not line_of_sight((4, 2), (8, 4), blocks)
    assert line_of_sight((4, 1), (8, 1), blocks)
    # a hill in the middle of the board hides a whole row behind it
    hill = blocker({(6, 4): "hill"})
    assert not line_of_sight((4, 4), (8, 4), hill)
    assert line_of_sight((4, 4), (8, 3), hill) == all(
        not all(hill(h) for h in s) for s in sight_steps((4, 4), (8, 3)))
