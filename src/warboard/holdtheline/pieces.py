"""The pieces (combat units and leaders) and the changes that move a unit into a hex or take a
piece off the board, with what they win the other side (7.3, 3.4.8, 10)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from warboard.core.i18n import Msg, msg
from warboard.holdtheline.events import log, side_msg, unit_msg
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


def enter(state: HtlState, ui: int, h: Hex) -> None:
    """Unit ``ui`` enters ``h``: a lone enemy leader there is eliminated (7.3), an enemy VP
    counter captured (3.4.8)."""
    u = state.units[ui]
    u.at = h
    state.pieces_moved()
    _take_lone_leader(state, u.side, h, lambda: unit_msg(state, u), unit=u.id)
    capture_counter(state, u, h)


def leader_enter(state: HtlState, li: int, h: Hex) -> None:
    """Leader ``li``, moving alone, enters ``h``: a lone enemy leader there is eliminated, as
    when a unit moves in (§8.1, 7.3). A leader takes no VP counters (3.4.8: combat units)."""
    leader = state.leaders[li]
    leader.at = h
    state.pieces_moved()
    _take_lone_leader(state, leader.side, h, lambda: leader.name, by_leader=leader.id)


def _take_lone_leader(state: HtlState, side: int, h: Hex, by: Callable[[], Msg | str],
                      **who: str) -> None:
    """An enemy leader in ``h`` (a mover of ``side`` has just entered it) is eliminated."""
    # not leader_at(): a leader moving in shares the hex with the enemy leader for now
    li = next((i for i, leader in enumerate(state.leaders)
               if leader.status == ON and leader.at == h and leader.side != side), None)
    if li is not None:
        leader = state.leaders[li]
        log(state, "capture", lambda: msg("log.htl.capture", leader=leader.name, by=by()),
            leader=leader.id, **who)
        eliminate_leader(state, li)


def capture_counter(state: HtlState, u: Unit, h: Hex) -> None:
    ci = state.counter_at().get(h)
    if ci is not None and state.counters[ci][1] != u.side:
        cid = state.counters[ci][0]
        state.counters = state.counters[:ci] + state.counters[ci + 1:]
        state.pieces_moved()
        state.vp_earned[u.side] += 1
        log(state, "counter", lambda: msg("log.htl.counter", unit=unit_msg(state, u), counter=cid,
                                          side=side_msg(state, u.side)),
            counter=cid, unit=u.id, vp_to=u.side)


def eliminate_unit(state: HtlState, ui: int, why: Msg) -> None:
    u = state.units[ui]
    u.status, u.at, u.mp = ELIMINATED, None, 0
    state.vp_earned[1 - u.side] += 1
    state.pieces_moved()
    if state.pending is not None:
        state.pending.eliminated = True
    log(state, "eliminated", lambda: msg("log.htl.eliminated", unit=unit_msg(state, u), why=why,
                                         side=side_msg(state, 1 - u.side)),
        unit=u.id, vp_to=1 - u.side)


def eliminate_leader(state: HtlState, li: int) -> None:
    leader = state.leaders[li]
    leader.status, leader.at = ELIMINATED, None
    state.leaders_lost[leader.side] += 1
    state.vp_earned[1 - leader.side] += 1
    state.pieces_moved()
    log(state, "leader_lost", lambda: msg("log.htl.leaderLost", leader=leader.name,
                                          side=side_msg(state, leader.side),
                                          other=side_msg(state, 1 - leader.side)),
        leader=leader.id, vp_to=1 - leader.side)
