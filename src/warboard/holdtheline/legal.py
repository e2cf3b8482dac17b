"""The legal actions of a position (phase ``act``: the active side's activations, or the
decision a pending activation waits for) and the display facts of each (``action_hints``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from warboard.holdtheline.actions import (
    END,
    Advance,
    Allocate,
    Assault,
    Displace,
    Escape,
    Evade,
    Exit,
    Fire,
    Move,
    Rally,
    Retreat,
)
from warboard.holdtheline.activation import move_cost
from warboard.holdtheline.attack import attack_profile
from warboard.holdtheline.board import WATER, sight_steps
from warboard.holdtheline.combat import fire_range
from warboard.holdtheline.derived import cache, enemies, los_i
from warboard.holdtheline.hexes import ByCall, Hex, sight_blocked
from warboard.holdtheline.movement import leader_paths, unit_paths
from warboard.holdtheline.pending import Pending
from warboard.holdtheline.pieces import ON, Leader, Unit
from warboard.holdtheline.tables import TABLES

if TYPE_CHECKING:
    from warboard.holdtheline.state import HtlState

UNITS = TABLES.units
COST = TABLES.ap


class _Affordable(NamedTuple):
    """Which activations the AP left (and the options) allow."""

    move: bool
    bonus: bool
    move_fire: bool
    march: bool
    fire: bool
    assault: bool
    leader_dice: bool
    exit: bool
    leader_move: bool
    rally: bool

    @classmethod
    def of(cls, state: HtlState) -> _Affordable:
        ap, opts = state.ap, state.opts
        return cls(ap >= COST["move"], ap >= COST["move"] + COST["leader_bonus"],
                   ap >= COST["dragoon_move_fire"],
                   opts.force_march and ap >= COST["move"] + COST["force_march"],
                   ap >= COST["fire"], ap >= COST["assault"],
                   opts.leader_ratings and ap >= COST["assault"] + COST["leader_dice"],
                   ap >= COST["exit"], ap >= COST["leader_move"], ap >= COST["rally"])


def compute_legal(state: HtlState) -> list[Any]:
    """The legal actions of a position in phase ``act``: the decision a pending activation
    waits for, or every unit's activations, then every leader's, then ``End``."""
    p = state.pending
    if p is not None:
        return decision_actions(state, p) if p.wait == "decision" else []
    out: list[Any] = []
    side = state.active
    can = _Affordable.of(state)
    exits = state.scenario.sides[side].exit_hexes if can.exit else ()
    lead, leaders = state.leader_at(), state.leaders
    for ui, u in enumerate(state.units):
        if u.side == side and u.status == ON and not u.acted:
            # the leader that may go along: friendly, in the hex since the turn began, idle
            li = lead.get(u.at)  # type: ignore[arg-type]
            if li is not None:
                leader = leaders[li]
                if leader.side != side or leader.acted or leader.start_at != u.at:
                    li = None
            _unit_actions(state, ui, u, li, can, exits, out)
    for li, leader in enumerate(state.leaders):
        if leader.side == side and leader.status == ON and not leader.acted:
            _leader_actions(state, li, leader, can, out)
    out.append(END)
    return out


def _unit_actions(state: HtlState, ui: int, u: Unit, li: int | None, can: _Affordable,
                  exits: tuple[Hex, ...], out: list[Any]) -> None:
    """Moves (with the leader ``li`` too), fire, close combat and exit (from one of
    ``exits``) of unit ``ui``, in that order."""
    at = u.at
    assert at is not None
    if can.move:
        _unit_moves(state, ui, u, li, can, out)
    if can.fire:
        for t in fire_targets(state, ui, at, ()):
            out.append(_new(Fire, (u.id, t)))
    if UNITS[u.kind].close and can.assault:
        occ, units = state.occupancy(), state.units
        for n in state.board.nbrs[at]:
            here = occ.get(n)
            if here and units[here[0]].side != u.side:
                out.append(_new(Assault, (u.id, n, False)))
                if can.leader_dice and li is not None:
                    out.append(_new(Assault, (u.id, n, True)))
    if at in exits:
        out.append(Exit(u.id))


def _unit_moves(state: HtlState, ui: int, u: Unit, li: int | None, can: _Affordable,
                out: list[Any]) -> None:
    """Plain moves, moves with the leader (and its bonus hex), a dragoon's moves to fire,
    force marches."""
    uid = u.id
    allowance = UNITS[u.kind].movement
    lid = state.leaders[li].id if li is not None else None
    plain = _unit_paths(state, ui, allowance, None)
    for path in plain:
        out.append(_new(Move, (uid, None, path, False, None, False)))
    with_leader: list[tuple[Hex, ...]] = []
    if li is not None:
        with_leader = _unit_paths(state, ui, allowance, li)
        for path in with_leader:
            out.append(_new(Move, (uid, lid, path, False, None, False)))
        if can.bonus and u.kind != "artillery":
            for path in _unit_paths(state, ui, allowance + 1, li, allowance + 1):
                out.append(_new(Move, (uid, lid, path, True, None, False)))
    if u.kind == "dragoon" and can.move_fire:
        _move_and_fire(state, ui, ((None, plain), (lid, with_leader)), out)
    if can.march and UNITS[u.kind].infantry:
        _force_marches(state, ui, allowance, li, out)


def _move_and_fire(state: HtlState, ui: int,
                   moves: tuple[tuple[str | None, list[tuple[Hex, ...]]], ...],
                   out: list[Any]) -> None:
    """A dragoon's moves then fire (6.2.3): each path (alone, then with its leader) that does
    not end in a waterway, with each target from its end."""
    uid = state.units[ui].id
    move_kind = state.board.move
    for leader_id, paths in moves:
        for path in paths:
            if move_kind[path[-1]] == WATER:
                continue
            for t in fire_targets(state, ui, path[-1], path):
                out.append(_new(Move, (uid, leader_id, path, False, t, False)))


def _force_marches(state: HtlState, ui: int, allowance: int, li: int | None,
                   out: list[Any]) -> None:
    """Force marches (11.8) of exactly one hex more than the allowance, alone then with the
    leader ``li``."""
    uid = state.units[ui].id
    ways: list[tuple[str | None, int | None]] = [(None, None)]
    if li is not None:
        ways.append((state.leaders[li].id, li))
    for leader_id, leader_ix in ways:
        for path in _unit_paths(state, ui, allowance + 1, leader_ix, allowance + 1, True):
            if _march_stop_ok(state, ui, path, leader_ix):
                out.append(_new(Move, (uid, leader_id, path, False, None, True)))


def _leader_actions(state: HtlState, li: int, leader: Leader, can: _Affordable,
                    out: list[Any]) -> None:
    """A leader's moves alone, then its rallies of the units in its hex."""
    if can.leader_move:
        for path in _leader_paths(state, li):
            out.append(_new(Move, (None, leader.id, path, False, None, False)))
    if can.rally and leader.start_at == leader.at:
        units, rally_unfired = state.units, state.opts.rally_unfired
        for ui in state.occupancy().get(leader.at, ()):  # type: ignore[arg-type]
            u = units[ui]
            if (u.side == leader.side and not u.acted and u.kind != "artillery"
                    and u.mp + u.worn < u.start_mp and not (rally_unfired and u.fired_at)):
                out.append(Rally(leader.id, u.id))


# actions are named tuples built by the thousand: skip their __new__'s argument handling
_new = tuple.__new__


def _unit_paths(state: HtlState, ui: int, allowance: int, leader: int | None, exact: int = 0,
                by_stop: bool = False) -> list[tuple[Hex, ...]]:
    """``movement.unit_paths`` (paths only), remembered until a piece moves."""
    d = cache(state)
    key = ("up", ui, allowance, leader, exact, by_stop)
    out = d.get(key)
    if out is None:
        out = d[key] = [p[0] for p in unit_paths(state, ui, allowance, leader, exact,
                                                 by_stop)]
    return out


def _leader_paths(state: HtlState, li: int) -> list[tuple[Hex, ...]]:
    d = cache(state)
    key = ("lp", li)
    out = d.get(key)
    if out is None:
        out = d[key] = leader_paths(state, li, TABLES.leader_movement, take=True)
    return out


def _march_stop_ok(state: HtlState, ui: int, path: tuple[Hex, ...], li: int | None) -> bool:
    """A force march may stop one hex short (a failed roll): that hex must be a legal end."""
    if len(path) < 2:
        return False
    stop = path[-2]
    if li is not None:
        other = state.leader_at().get(stop)
        if other is not None and state.leaders[other].side == state.units[ui].side:
            return False
    return True


def fire_targets(state: HtlState, ui: int, origin: Hex, path: tuple[Hex, ...]) -> list[Hex]:
    """Hexes of enemy combat units that unit ``ui`` may fire at from ``origin`` (after moving
    along ``path``), remembered until a piece moves."""
    d = cache(state)
    key = ("ft", ui, origin, bool(path))
    out = d.get(key)
    if out is None:
        out = d[key] = _find_fire_targets(state, ui, origin, path)
    return out


def _find_fire_targets(state: HtlState, ui: int, origin: Hex, path: tuple[Hex, ...]) -> list[Hex]:
    u = state.units[ui]
    ut = UNITS[u.kind]
    board = state.board
    rng = fire_range(ut, state.opts, board.terrain[origin] == "hill")
    o = board.index[origin]
    drow = board.dist_row(o)
    out = []
    for i, h in enemies(state, u.side):
        d = drow[i]
        if 1 <= d <= rng and (d == 1 or (los_i(state, o, i) if not path
                                         else _los_after_move(state, origin, h, u.at))):
            out.append(h)
    return out


def _los_after_move(state: HtlState, a: Hex, b: Hex, start: Hex | None) -> bool:
    """Line of sight for a dragoon that moved from ``start``: that hex no longer holds it (it
    never blocks its own line)."""
    blocks = state.board.blocks
    occ = state.occupancy()

    def blocked(h: Hex) -> bool:
        return blocks.get(h, False) or (h in occ and not (h == start and len(occ[h]) == 1))

    return not sight_blocked(sight_steps(a, b), ByCall(blocked))


def decision_actions(state: HtlState, p: Pending) -> list[Any]:
    stage = p.stage
    if stage == "evade":
        return [Evade(True), Evade(False)]
    if stage == "allocate":
        return [Allocate(uid) for uid in p.choices]
    if stage in ("retreat", "displace", "escape"):
        who = p.displacing if stage == "displace" else p.current
        assert who is not None
        if stage == "retreat":
            return [Retreat(who, h) for h, _ in p.choices]
        if stage == "displace":
            return [Displace(who, h) for h, _ in p.choices]
        return [Escape(who, h) for h in p.choices]
    if stage == "advance":
        return [Advance(True), Advance(False)]
    return []


def action_hints(state: HtlState, action: Any) -> dict[str, Any]:
    """Display facts of a legal action (docs/holdtheline-engine.md, "Hints")."""
    hints: dict[str, Any] = {"ap": 0}
    if isinstance(action, Move):
        hints["ap"] = move_cost(action)
        hints["to"] = list(action.path[-1])
        if action.fire is not None and action.unit is not None:
            ui = state.unit_index(action.unit)
            prof = attack_profile(state, ui, action.path[-1], action.fire, False)
            hints.update(dice=prof.dice, hit_on=prof.natural, range=prof.dist, los=True,
                         target=list(action.fire))
    elif isinstance(action, Fire | Assault):
        hints.update(_attack_hints(state, action))
    elif isinstance(action, Rally):
        hints["ap"] = COST["rally"]
    elif isinstance(action, Exit):
        hints["ap"] = COST["exit"]
    elif isinstance(action, Retreat | Displace | Escape):
        hints["to"] = list(action.to)
    return hints


def _attack_hints(state: HtlState, action: Fire | Assault) -> dict[str, Any]:
    ui = state.unit_index(action.unit)
    at = state.units[ui].at
    assert at is not None
    leader_dice = 0
    if isinstance(action, Assault) and action.leader_dice:
        leader_dice = state.leaders[state.leader_at()[at]].rating[0]
    assault = isinstance(action, Assault)
    prof = attack_profile(state, ui, at, action.target, assault, leader_dice)
    hints: dict[str, Any] = {
        "ap": (COST["assault"] + (COST["leader_dice"] if leader_dice else 0) if assault
               else COST["fire"]),
        "dice": prof.dice, "hit_on": prof.natural, "range": prof.dist,
        "los": state.los(at, action.target)}
    if prof.flank:
        hints["flank"] = True
    return hints
