"""The activations of the active side: moves (a leader alone, a unit with or without
its leader, a dragoon moving to fire, a force march with its roll and fatigue (11.8, 11.9)),
fire and close combat opened, rallies and exits.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from warboard.core.i18n import msg
from warboard.holdtheline.actions import Assault, Exit, Fire, Move, Rally
from warboard.holdtheline.attack import start_attack
from warboard.holdtheline.events import hex_text, log, unit_msg, with_leader
from warboard.holdtheline.pending import Pending, wait_die
from warboard.holdtheline.pieces import EXITED, enter, leader_enter
from warboard.holdtheline.tables import TABLES

if TYPE_CHECKING:
    from warboard.holdtheline.state import HtlState

COST = TABLES.ap


def move_cost(a: Move) -> int:
    """AP of a move: a leader alone, a dragoon moving and firing, or a unit, with a
    leader's bonus hex or a force march extra."""
    if a.unit is None:
        return COST["leader_move"]
    if a.fire is not None:
        return COST["dragoon_move_fire"]
    return COST["move"] + (COST["leader_bonus"] if a.bonus else 0) + (
        COST["force_march"] if a.force_march else 0)


def activate(state: HtlState, a: Any) -> None:
    """Carry out an activation of the active side (not ``End``); an attack or force march
    leaves ``state.pending`` for ``resolve.run``."""
    if isinstance(a, Move):
        _do_move(state, a)
    elif isinstance(a, Fire):
        start_attack(state, state.unit_index(a.unit), a.target, assault=False,
                     cost=COST["fire"])
    elif isinstance(a, Assault):
        start_attack(state, state.unit_index(a.unit), a.target, assault=True,
                     cost=COST["assault"] + (COST["leader_dice"] if a.leader_dice else 0),
                     leader_dice=a.leader_dice)
    elif isinstance(a, Rally):
        leader, u = state.leader(a.leader), state.unit(a.unit)
        state.ap -= COST["rally"]
        u.mp += 1
        u.acted = True
        leader.acted = True
        log(state, "rally", msg("log.htl.rally", leader=leader.name, unit=unit_msg(state, u),
                                mp=u.mp, ap=COST["rally"]),
            unit=u.id, leader=leader.id, mp=u.mp, ap=COST["rally"])
    elif isinstance(a, Exit):
        u = state.unit(a.unit)
        state.ap -= COST["exit"]
        u.acted = True
        u.status, u.at = EXITED, None
        state.exited[u.side] += 1
        state.pieces_moved()
        log(state, "exit", msg("log.htl.exit", unit=unit_msg(state, u),
                               out=state.exited[u.side]), unit=u.id, ap=COST["exit"])


def _do_move(state: HtlState, a: Move) -> None:
    if a.unit is None:
        _move_leader_alone(state, a)
    else:
        _move_unit(state, a, a.unit)


def _move_leader_alone(state: HtlState, a: Move) -> None:
    li = state.leader_index(a.leader)  # type: ignore[arg-type]
    leader = state.leaders[li]
    state.ap -= move_cost(a)
    leader.acted = True
    for h in a.path:
        leader_enter(state, li, h)
    log(state, "move", lambda: msg("log.htl.leaderMove", leader=leader.name,
                                   to=hex_text(leader.at), ap=COST["leader_move"]),
        leader=leader.id, path=[list(h) for h in a.path],
        ap=COST["leader_move"])


def _move_unit(state: HtlState, a: Move, uid: str) -> None:
    """A unit's move (with its leader), then the dragoon's fire or the force march's roll."""
    ui = state.unit_index(uid)
    u = state.units[ui]
    companion = state.leader(a.leader) if a.leader is not None else None
    cost = move_cost(a)
    state.ap -= cost
    u.acted = True
    u.moved = True
    start = u.at
    path = a.path[:-1] if a.force_march else a.path
    for h in path:
        enter(state, ui, h)
    if companion is not None:
        companion.acted = True
        companion.at = u.at
        state.pieces_moved()
    log(state, "move", lambda: msg("log.htl.move", unit=unit_msg(state, u),
                                   company=with_leader(companion), start=hex_text(start),
                                   to=hex_text(u.at), bonus=msg("log.htl.bonus") if a.bonus else "",
                                   ap=cost), unit=u.id, leader=a.leader,
        path=[list(h) for h in path], ap=cost)
    if a.fire is not None:
        start_attack(state, ui, a.fire, assault=False, cost=0)
    elif a.force_march:
        assert u.at is not None
        p = Pending("force_march", u.id, u.side, u.at, a.path[-1])
        p.stage = "fm"
        p.leader = a.leader
        p.path = a.path
        state.pending = p


def stage_fm(state: HtlState, p: Pending) -> bool:
    return wait_die(p)


def stage_fatigue(state: HtlState, p: Pending) -> bool:
    return wait_die(p)


def roll_force_march(state: HtlState, p: Pending, v: int) -> None:
    """A force march's morale roll (11.8): passing, the unit enters its last hex."""
    ui = state.unit_index(p.unit)
    u = state.units[ui]
    need = u.mp + (1 if u.kind == "elite" else 0)  # a morale roll: elite +1 (3.4.2)
    ok = v <= need
    log(state, "die", lambda: msg("log.htl.forceMarch", unit=unit_msg(state, u), value=v,
                                  need=need, basis=msg("log.htl.needElite" if need != u.mp
                                                       else "log.htl.needMp"),
                                  outcome=msg("log.htl.succeeds" if ok else "log.htl.fails")),
        roll="force_march", value=v,
        need=need, passed=ok, unit=u.id)
    if ok:
        enter(state, ui, p.target)
        if p.leader is not None:
            leader = state.leader(p.leader)
            leader.at = u.at
            state.pieces_moved()
        p.stage = "fatigue" if state.opts.march_fatigue else "done"
    else:
        p.stage = "done"


def roll_fatigue(state: HtlState, p: Pending, v: int) -> None:
    """March fatigue (11.9): 4 or more costs an MP (not below 1)."""
    u = state.unit(p.unit)
    tired = v >= 4 and u.mp > 1
    if tired:
        u.mp -= 1
        u.worn += 1  # not a combat loss: never rallied back (9.4)
    log(state, "die", lambda: msg("log.htl.fatigueLoss", unit=unit_msg(state, u), value=v,
                                  mp=u.mp) if tired
        else msg("log.htl.fatigueNone", unit=unit_msg(state, u), value=v), roll="fatigue",
        value=v, loss=tired, unit=u.id)
    p.stage = "done"
