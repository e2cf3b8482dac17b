"""Hex geometry of the Hold the Line board (contract §1, §3 "Line of sight").

People and files name a hex ``(col, row)`` in the "odd-r" offset layout: pointy-top hexes in
rows, odd rows shifted half a hex right, ``(0, 0)`` at the top-left. Geometry is done in cube
coordinates ``(x, y, z)`` with ``x + y + z == 0`` (x grows to the east, z to the south).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Generic, Protocol, TypeVar

Hex = tuple[int, int]  # (col, row)
T = TypeVar("T")
T_contra = TypeVar("T_contra", contravariant=True)
Cube = tuple[int, int, int]

# Cube directions: east, then counter-clockwise as drawn (north-east, north-west, ...).
DIRECTIONS: tuple[Cube, ...] = ((1, -1, 0), (1, 0, -1), (0, 1, -1),
                                (-1, 1, 0), (-1, 0, 1), (0, -1, 1))
_NUDGE = (1e-6, 2e-6, -3e-6)


def to_cube(h: Hex) -> Cube:
    col, row = h
    x = col - (row - (row & 1)) // 2
    z = row
    return (x, -x - z, z)


def to_offset(c: Cube) -> Hex:
    x, _, z = c
    return (x + (z - (z & 1)) // 2, z)


def distance(a: Hex, b: Hex) -> int:
    ax, ay, az = to_cube(a)
    bx, by, bz = to_cube(b)
    return max(abs(ax - bx), abs(ay - by), abs(az - bz))


def neighbours(h: Hex) -> list[Hex]:
    """The six hexes around ``h`` (some may be off the board), from east counter-clockwise."""
    x, y, z = to_cube(h)
    return [to_offset((x + dx, y + dy, z + dz)) for dx, dy, dz in DIRECTIONS]


def on_board(h: Hex, cols: int, rows: int) -> bool:
    return 0 <= h[0] < cols and 0 <= h[1] < rows


def _round(fx: float, fy: float, fz: float) -> Cube:
    rx, ry, rz = round(fx), round(fy), round(fz)
    dx, dy, dz = abs(rx - fx), abs(ry - fy), abs(rz - fz)
    if dx > dy and dx > dz:
        rx = -ry - rz
    elif dy > dz:
        ry = -rx - rz
    else:
        rz = -rx - ry
    return (rx, ry, rz)


def _line(a: Cube, b: Cube, n: int, sign: int) -> list[Cube]:
    ex, ey, ez = (sign * e for e in _NUDGE)
    ax, ay, az = a[0] + ex, a[1] + ey, a[2] + ez
    bx, by, bz = b[0] + ex, b[1] + ey, b[2] + ez
    return [_round(ax + (bx - ax) * i / n, ay + (by - ay) * i / n, az + (bz - az) * i / n)
            for i in range(1, n)]


def sight_steps(a: Hex, b: Hex) -> list[tuple[Hex, ...]]:
    """The hexes strictly between ``a`` and ``b``, step by step: one hex per step, or two where
    the line runs along a hex side (the two nudged lines disagree)."""
    ca, cb = to_cube(a), to_cube(b)
    n = distance(a, b)
    steps: list[tuple[Hex, ...]] = []
    for plus, minus in zip(_line(ca, cb, n, 1), _line(ca, cb, n, -1), strict=True):
        steps.append((to_offset(plus),) if plus == minus else (to_offset(plus), to_offset(minus)))
    return steps


class Lookup(Protocol[T_contra]):
    def __getitem__(self, key: T_contra, /) -> bool: ...


def sight_blocked(steps: Iterable[Sequence[T]], blocked: Lookup[T]) -> bool:
    """The rule of line of sight (8.3, contract §3) over a line's ``sight_steps`` (as hexes or
    hex indices): a step blocks when its hex blocks, a step of two hexes (along a hex side)
    only when both do. ``blocked[h]`` says whether ``h`` blocks (a list by hex index in the
    searches)."""
    for step in steps:  # noqa: SIM110 - a plain loop: this runs for every line looked at
        if blocked[step[0]] and (len(step) == 1 or blocked[step[1]]):
            return True
    return False


class ByCall(Generic[T]):
    """``blocks(h)`` as a ``Lookup`` (``blocked[h]``)."""

    __slots__ = ("blocks",)

    def __init__(self, blocks: Callable[[T], bool]) -> None:
        self.blocks = blocks

    def __getitem__(self, key: T) -> bool:
        return self.blocks(key)


def line_of_sight(a: Hex, b: Hex, blocks: Callable[[Hex], bool]) -> bool:
    """True when ``a`` sees ``b``: adjacent hexes always do; otherwise ``sight_blocked``."""
    if distance(a, b) <= 1:
        return True
    return not sight_blocked(sight_steps(a, b), ByCall(blocks))
