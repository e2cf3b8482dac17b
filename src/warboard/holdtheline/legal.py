"""The legal actions of a position (phase ``act``: the active side's activations, or the
decision a pending activation waits for) and the display facts of each (``action_hints``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

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
from warboard.holdtheline.hexes import Hex, sight_blocked
from warboard.holdtheline.movement import leader_paths, unit_paths
from warboard.holdtheline.pending import Pending
from warboard.holdtheline.pieces import ON
from warboard.holdtheline.tables import TABLES

if TYPE_CHECKING:
    from warboard.holdtheline.state import HtlState

UNITS = TABLES.units
COST = TABLES.ap


def compute_legal(st: HtlState) -> list[Any]:
    """The legal actions of a position in phase ``act``."""
    p = st.pending
    if p is not None:
        if p.wait != "decision":
            return []
        return decision_actions(st, p)
    out: list[Any] = []
    side, ap = st.active, st.ap
    opts = st.opts
    units, leaders = st.units, st.leaders
    lead = st.leader_at()
    occ = st.occupancy()
    board = st.board
    exits = st.scenario.sides[side].exit_hexes
    paths = _unit_paths
    new = tuple.__new__
    can_move = ap >= COST["move"]
    can_bonus = ap >= COST["move"] + COST["leader_bonus"]
    can_move_fire = ap >= COST["dragoon_move_fire"]
    can_march = opts.force_march and ap >= COST["move"] + COST["force_march"]
    can_fire = ap >= COST["fire"]
    can_assault = ap >= COST["assault"]
    can_leader_dice = opts.leader_ratings and ap >= COST["assault"] + COST["leader_dice"]
    can_exit = ap >= COST["exit"]
    for ui, u in enumerate(units):
        if u.side != side or u.status != ON or u.acted:
            continue
        uid = u.id
        ut = UNITS[u.kind]
        li = lead.get(u.at)
        L = leaders[li] if li is not None else None
        if L is not None and (L.side != side or L.acted or L.start_at != u.at):
            L = None
        if can_move:
            mv = ut.movement
            plain = paths(st, ui, mv, None)
            for path in plain:
                out.append(new(Move, (uid, None, path, False, None, False)))
            with_l: list[tuple[Hex, ...]] = []
            if L is not None:
                lid = L.id
                with_l = paths(st, ui, mv, li)
                for path in with_l:
                    out.append(new(Move, (uid, lid, path, False, None, False)))
                if can_bonus and u.kind != "artillery":
                    for path in paths(st, ui, mv + 1, li, mv + 1):
                        out.append(new(Move, (uid, lid, path, True, None, False)))
            if u.kind == "dragoon" and can_move_fire:
                for lid, lpaths in ((None, plain), (L.id if L else None, with_l)):
                    for path in lpaths:
                        end = path[-1]
                        if board.move[end] == WATER:
                            continue
                        for t in fire_targets(st, ui, end, path):
                            out.append(new(Move, (uid, lid, path, False, t, False)))
            if can_march and ut.infantry:
                ways: list[tuple[str | None, int | None]] = [(None, None)]
                if L is not None:
                    ways.append((L.id, li))
                for lid, lix in ways:
                    for path in paths(st, ui, mv + 1, lix, mv + 1, True):
                        if _fm_prefix_ok(st, ui, path, lix):
                            out.append(new(Move, (uid, lid, path, False, None, True)))
        if can_fire:
            for t in fire_targets(st, ui, u.at, ()):
                out.append(new(Fire, (uid, t)))
        if ut.close and can_assault:
            for n in board.nbrs[u.at]:
                here = occ.get(n)
                if here and units[here[0]].side != side:
                    out.append(new(Assault, (uid, n, False)))
                    if can_leader_dice and L is not None:
                        out.append(new(Assault, (uid, n, True)))
        if exits and can_exit and u.at in exits:
            out.append(Exit(uid))
    for li, L in enumerate(leaders):
        if L.side != side or L.status != ON or L.acted:
            continue
        if ap >= COST["leader_move"]:
            for path in _leader_paths(st, li):
                out.append(new(Move, (None, L.id, path, False, None, False)))
        if ap >= COST["rally"] and L.start_at == L.at:
            for ui in occ.get(L.at, ()):
                u = units[ui]
                if (u.side == side and not u.acted and u.kind != "artillery"
                        and u.mp + u.worn < u.start_mp
                        and not (opts.rally_unfired and u.fired_at)):
                    out.append(Rally(L.id, u.id))
    out.append(END)
    return out


def _unit_paths(st: HtlState, ui: int, allowance: int, leader: int | None, exact: int = 0,
                by_stop: bool = False) -> list[tuple[Hex, ...]]:
    """``movement.unit_paths`` (paths only), remembered until a piece moves."""
    d = cache(st)
    key = ("up", ui, allowance, leader, exact, by_stop)
    out = d.get(key)
    if out is None:
        out = d[key] = [p[0] for p in unit_paths(st, ui, allowance, leader, exact,
                                                 by_stop)]
    return out


def _leader_paths(st: HtlState, li: int) -> list[tuple[Hex, ...]]:
    d = cache(st)
    key = ("lp", li)
    out = d.get(key)
    if out is None:
        out = d[key] = leader_paths(st, li, TABLES.leader_movement)
    return out


def _fm_prefix_ok(st: HtlState, ui: int, path: tuple[Hex, ...], li: int | None) -> bool:
    """A force march may stop one hex short (a failed roll): that hex must be a legal end."""
    if len(path) < 2:
        return False
    stop = path[-2]
    if li is not None:
        other = st.leader_at().get(stop)
        if other is not None and st.leaders[other].side == st.units[ui].side:
            return False
    return True


def fire_targets(st: HtlState, ui: int, origin: Hex, path: tuple[Hex, ...]) -> list[Hex]:
    """Hexes of enemy combat units that unit ``ui`` may fire at from ``origin`` (after moving
    along ``path``), remembered until a piece moves."""
    d = cache(st)
    key = ("ft", ui, origin, bool(path))
    out = d.get(key)
    if out is None:
        out = d[key] = _find_fire_targets(st, ui, origin, path)
    return out


def _find_fire_targets(st: HtlState, ui: int, origin: Hex, path: tuple[Hex, ...]) -> list[Hex]:
    u = st.units[ui]
    ut = UNITS[u.kind]
    board = st.board
    rng = fire_range(ut, st.opts, board.terrain[origin] == "hill")
    o = board.index[origin]
    drow = board.dist_row(o)
    out = []
    for i, h in enemies(st, u.side):
        d = drow[i]
        if 1 <= d <= rng and (d == 1 or (los_i(st, o, i) if not path
                                         else _los_after_move(st, origin, h, u.at))):
            out.append(h)
    return out


def _los_after_move(st: HtlState, a: Hex, b: Hex, start: Hex | None) -> bool:
    """Line of sight for a dragoon that moved from ``start``: that hex no longer holds it (it
    never blocks its own line)."""
    blocks = st.board.blocks
    occ = st.occupancy()

    def blocked(h: Hex) -> bool:
        return blocks.get(h, False) or (h in occ and not (h == start and len(occ[h]) == 1))

    return not sight_blocked(sight_steps(a, b), blocked)


def decision_actions(st: HtlState, p: Pending) -> list[Any]:
    stage = p.stage
    if stage == "evade":
        return [Evade(True), Evade(False)]
    if stage == "allocate":
        return [Allocate(uid) for uid in p.choices]
    if stage == "retreat":
        return [Retreat(p.current, h) for h, _ in p.choices]
    if stage == "displace":
        return [Displace(p.displacing, h) for h, _ in p.choices]
    if stage == "escape":
        return [Escape(p.current, h) for h in p.choices]
    if stage == "advance":
        return [Advance(True), Advance(False)]
    return []


def action_hints(st: HtlState, action: Any) -> dict[str, Any]:
    """Display facts of a legal action (docs/holdtheline-engine.md, "Hints")."""
    hints: dict[str, Any] = {"ap": 0}
    if isinstance(action, Move):
        hints["ap"] = move_cost(action)
        hints["to"] = list(action.path[-1])
        if action.fire is not None and action.unit is not None:
            ui = st.unit_index(action.unit)
            prof = attack_profile(st, ui, action.path[-1], action.fire, False)
            hints.update(dice=prof.dice, hit_on=prof.natural, range=prof.dist, los=True,
                         target=list(action.fire))
    elif isinstance(action, Fire | Assault):
        ui = st.unit_index(action.unit)
        u = st.units[ui]
        assault = isinstance(action, Assault)
        ld = 0
        if assault and action.leader_dice:
            ld = st.leaders[st.leader_at()[u.at]].rating[0]
        prof = attack_profile(st, ui, u.at, action.target, assault, ld)
        hints["ap"] = (COST["assault"] + (COST["leader_dice"] if ld else 0) if assault
                       else COST["fire"])
        hints.update(dice=prof.dice, hit_on=prof.natural, range=prof.dist,
                     los=st.los(u.at, action.target))
        if prof.flank:
            hints["flank"] = True
    elif isinstance(action, Rally):
        hints["ap"] = COST["rally"]
    elif isinstance(action, Exit):
        hints["ap"] = COST["exit"]
    elif isinstance(action, Retreat | Displace | Escape):
        hints["to"] = list(action.to)
    return hints
