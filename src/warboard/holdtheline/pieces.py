"""The pieces (combat units and leaders) and the changes that move a unit into a hex or take a
piece off the board, with what they win the other side (7.3, 3.4.8, 10)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from warboard.holdtheline.events import log
from warboard.holdtheline.hexes import Hex

if TYPE_CHECKING:
    from warboard.holdtheline.state import HtlState

ON, ELIMINATED, EXITED, WAITING = "board", "eliminated", "exited", "waiting"


@dataclass(frozen=True)
class Roster:
    """Which pieces a position holds and in what order (``units[i]`` has ``unit_index[id] ==
    i``), and the setup hex where each piece still to arrive enters (tried before its entry
    hexes). A game's roster follows its scenario; a position read from JSON has its own. It
    never changes once made."""

    unit_index: Mapping[str, int]
    leader_index: Mapping[str, int]
    unit_arrival: Mapping[str, Hex]
    leader_arrival: Mapping[str, Hex]


class Unit:
    __slots__ = ("acted", "arrive", "at", "entry", "fired_at", "id", "kind", "moved", "mp",
                 "side", "start_mp", "status", "worn")

    def __init__(self, id: str, side: int, kind: str, mp: int, start_mp: int, at: Hex | None,
                 status: str = ON, arrive: int = 0, entry: tuple[Hex, ...] = ()) -> None:
        self.id, self.side, self.kind, self.mp, self.start_mp = id, side, kind, mp, start_mp
        self.at, self.status, self.arrive, self.entry = at, status, arrive, entry
        self.acted = False
        self.moved = False
        self.fired_at = False
        self.worn = 0  # MP lost to force-march fatigue (11.9): not rallied back (9.4)

    def copy(self) -> Unit:
        c = Unit.__new__(Unit)
        c.id, c.side, c.kind, c.mp, c.start_mp = self.id, self.side, self.kind, self.mp, \
            self.start_mp
        c.at, c.status, c.arrive, c.entry = self.at, self.status, self.arrive, self.entry
        c.acted, c.moved, c.fired_at, c.worn = self.acted, self.moved, self.fired_at, self.worn
        return c


class Leader:
    __slots__ = ("acted", "arrive", "at", "entry", "hits", "id", "name", "rating", "side",
                 "start_at", "status")

    def __init__(self, id: str, name: str, side: int, at: Hex | None, rating: tuple[int, int],
                 status: str = ON, arrive: int = 0, entry: tuple[Hex, ...] = ()) -> None:
        self.id, self.name, self.side, self.at, self.rating = id, name, side, at, rating
        self.status, self.arrive, self.entry = status, arrive, entry
        self.hits = 0
        self.acted = False
        self.start_at = at

    def copy(self) -> Leader:
        c = Leader.__new__(Leader)
        c.id, c.name, c.side, c.at, c.rating = self.id, self.name, self.side, self.at, \
            self.rating
        c.status, c.arrive, c.entry, c.hits = self.status, self.arrive, self.entry, self.hits
        c.acted, c.start_at = self.acted, self.start_at
        return c


def enter(st: HtlState, ui: int, h: Hex) -> None:
    """Unit ``ui`` enters ``h``: a lone enemy leader there is eliminated (7.3), an enemy VP
    counter captured (3.4.8)."""
    u = st.units[ui]
    u.at = h
    st._moved()
    li = st.leader_at().get(h)
    if li is not None and st.leaders[li].side != u.side:
        L = st.leaders[li]
        log(st, "capture", lambda: f"{L.name}, alone, is taken by {st.uname(u)}",
            leader=L.id, unit=u.id)
        eliminate_leader(st, li)
    capture_counter(st, u, h)


def capture_counter(st: HtlState, u: Unit, h: Hex) -> None:
    ci = st.counter_at().get(h)
    if ci is not None and st.counters[ci][1] != u.side:
        cid = st.counters[ci][0]
        st.counters = st.counters[:ci] + st.counters[ci + 1:]
        st._moved()
        st.vp_earned[u.side] += 1
        log(st, "counter", lambda: f"{st.uname(u)} captures VP counter {cid} (+1 VP "
            f"{st.side_name(u.side)})", counter=cid, unit=u.id, vp_to=u.side)


def eliminate_unit(st: HtlState, ui: int, why: str) -> None:
    u = st.units[ui]
    u.status, u.at, u.mp = ELIMINATED, None, 0
    st.vp_earned[1 - u.side] += 1
    st._moved()
    if st.pending is not None:
        st.pending.eliminated = True
    log(st, "eliminated", lambda: f"{st.uname(u)} is eliminated ({why}; +1 VP "
        f"{st.side_name(1 - u.side)})", unit=u.id, vp_to=1 - u.side)


def eliminate_leader(st: HtlState, li: int) -> None:
    L = st.leaders[li]
    L.status, L.at = ELIMINATED, None
    st.leaders_lost[L.side] += 1
    st.vp_earned[1 - L.side] += 1
    st._moved()
    log(st, "leader_lost", lambda: f"{L.name} is lost (-1 command AP for "
        f"{st.side_name(L.side)}, +1 VP {st.side_name(1 - L.side)})",
        leader=L.id, vp_to=1 - L.side)
