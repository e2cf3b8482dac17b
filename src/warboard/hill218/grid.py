"""Cells of the unbounded card grid packed into single ints (fast to add, hash and compare).

A cell ``(x, y)`` is ``x * STRIDE + y``; an offset ``(dx, dy)`` packs the same way, so
``cell + offset`` is the cell moved by the offset. Valid for ``|y| < STRIDE // 2`` (positions are
checked against ``COORD_LIMIT`` when read).
"""

from __future__ import annotations

STRIDE = 1 << 20
_HALF = STRIDE >> 1
COORD_LIMIT = 1000  # positions farther out than this are rejected as malformed
PLAY_LIMIT = 2 * COORD_LIMIT  # cells named in plays (a legal play lies near the units)

HILL = 0  # (0, 0)


def pack(x: int, y: int) -> int:
    return x * STRIDE + y


def unpack(cell: int) -> tuple[int, int]:
    x = (cell + _HALF) >> 20
    return x, cell - x * STRIDE


def base_cell(seat: int) -> int:
    """Seat 0's base is (0, -1), seat 1's is (0, 1)."""
    return pack(0, -1 if seat == 0 else 1)


def orient(dx: int, dy: int, seat: int) -> int:
    """A diagram offset in the owner's frame as a packed board offset (seat 1 turns it round)."""
    return pack(dx, dy) if seat == 0 else pack(-dx, -dy)
