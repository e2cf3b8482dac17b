"""What follows the hits of an attack: a dragoon's evasion (11.11), the retreats of units that
failed morale (8.5) with the displacement of a friendly unit in the way (8.5.3), the escape of
a leader left alone (8.5.5), and the attacker's advance into the emptied hex.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from warboard.core.i18n import msg
from warboard.holdtheline.attack import defending_units
from warboard.holdtheline.board import IMPASSABLE
from warboard.holdtheline.events import hex_text, log, unit_msg, with_leader
from warboard.holdtheline.hexes import Hex
from warboard.holdtheline.movement import leader_paths, retreat_choices
from warboard.holdtheline.pending import Pending, wait_decision
from warboard.holdtheline.pieces import ON, Leader, eliminate_leader, eliminate_unit, enter
from warboard.holdtheline.tables import TABLES

if TYPE_CHECKING:
    from warboard.holdtheline.state import HtlState


def evade(state: HtlState, p: Pending) -> None:
    """The defending dragoon evades the close combat (11.11): it retreats instead."""
    defenders = defending_units(state, p)
    drag = [i for i in defenders if state.units[i].kind == "dragoon"]
    log(state, "evade", lambda: msg("log.htl.evade", unit=unit_msg(state, state.units[drag[0]])),
        unit=state.units[drag[0]].id)
    p.retreats = [state.units[drag[0]].id]
    p.follow = lone_leader_follow(state, p, drag, defenders)
    p.after_retreat = "after_evade"
    p.current = None
    p.stage = "retreat"


def stage_evade(state: HtlState, p: Pending) -> bool:
    p.stage = "morale_init"
    if not state.opts.dragoon_evade:
        return False
    defenders = defending_units(state, p)
    drag = [i for i in defenders if state.units[i].kind == "dragoon"]
    if not drag:
        return False
    follow = lone_leader_follow(state, p, drag, defenders)
    if not retreat_choices(state, drag[0], p.origin, None, True, follow is not None):
        return False
    p.stage = "evade"
    return wait_decision(p, 1 - p.side, [])


def lone_leader_follow(state: HtlState, p: Pending, going: list[int],
                       defenders: list[int]) -> str | None:
    """The id of the defenders' leader in the target hex, which goes along with ``going`` when
    they are all the units there (it would be left alone), else None."""
    li = state.leader_at().get(p.target)
    if li is None or state.leaders[li].side == p.side or set(going) != set(defenders):
        return None
    return state.leaders[li].id


def stage_after_evade(state: HtlState, p: Pending) -> bool:
    # nobody left (the dragoon evaded, or was eliminated for want of a retreat hex): a
    # leader left alone escapes (8.5.5) before the attacker may advance
    p.stage = "morale_init" if defending_units(state, p) else "escape_init"
    return False


def stage_retreat_init(state: HtlState, p: Pending) -> bool:
    failed = [e[0] for e in p.morale if e[3]]
    going = [state.unit_index(uid) for uid in failed
             if state.unit(uid).status == ON and state.unit(uid).at == p.target]
    p.retreats = [state.units[i].id for i in going]
    p.follow = lone_leader_follow(state, p, going, defending_units(state, p)) if going else None
    p.after_retreat = "escape_init"
    p.current = None
    p.stage = "retreat"
    return False


def stage_retreat(state: HtlState, p: Pending) -> bool:
    while True:
        if p.current is None:
            while p.retreats and state.unit(p.retreats[0]).status != ON:
                p.retreats.pop(0)
            if not p.retreats:
                p.stage = p.after_retreat
                return False
            p.current = p.retreats.pop(0)
        ui = state.unit_index(p.current)
        u = state.units[ui]
        choices = retreat_choices(state, ui, p.origin, None, True, p.follow is not None)
        if not choices:
            eliminate_unit(state, ui, msg("log.htl.whyNoRetreat"))
            p.current = None
            continue
        if len(choices) == 1:
            if retreat_to(state, p, ui, choices[0]):
                return True
            continue
        p.stage = "retreat"
        return wait_decision(p, u.side, choices)


def retreat_to(state: HtlState, p: Pending, ui: int, choice: tuple[Hex, int | None]) -> bool:
    """Retreat unit ``ui`` to ``choice``; True when a displacement decision waits."""
    to, displaced = choice
    if displaced is None:
        _finish_retreat(state, p, ui, to)
        return False
    d = state.units[displaced]
    dchoices = retreat_choices(state, displaced, p.origin, p.target, False, False)
    u = state.units[ui]
    if not dchoices:
        log(state, "displace", msg("log.htl.noRoom", unit=unit_msg(state, d)), unit=d.id)
        eliminate_unit(state, ui, msg("log.htl.whyBlocked"))
        p.current = None
        return False
    p.displacing = d.id
    p.retreat_to = to
    if len(dchoices) == 1:
        finish_displace(state, p, dchoices[0][0])
        return False
    p.stage = "displace"
    wait_decision(p, u.side, dchoices)
    return True


def finish_displace(state: HtlState, p: Pending, to: Hex) -> None:
    di = state.unit_index(p.displacing)  # type: ignore[arg-type]
    d = state.units[di]
    frm = d.at
    enter(state, di, to)
    log(state, "displace", msg("log.htl.displaced", unit=unit_msg(state, d),
                               start=hex_text(frm), to=hex_text(to)), unit=d.id, to=list(to))
    ui = state.unit_index(p.current)  # type: ignore[arg-type]
    target = p.retreat_to
    p.displacing = None
    p.retreat_to = None
    p.stage = "retreat"
    _finish_retreat(state, p, ui, target)  # type: ignore[arg-type]


def _finish_retreat(state: HtlState, p: Pending, ui: int, to: Hex) -> None:
    u = state.units[ui]
    frm = u.at
    enter(state, ui, to)
    companion = None
    if p.follow is not None:
        leader = state.leader(p.follow)
        if leader.status == ON and leader.at == frm:
            leader.at = to
            state.pieces_moved()
            companion = leader
        p.follow = None
    log(state, "retreat", lambda: msg("log.htl.retreat", unit=unit_msg(state, u),
                                      company=with_leader(companion), start=hex_text(frm),
                                      to=hex_text(to)), unit=u.id, to=list(to))
    p.current = None


def stage_displace(state: HtlState, p: Pending) -> bool:
    p.wait = "decision"
    return True


def stage_escape_init(state: HtlState, p: Pending) -> bool:
    li = state.leader_at().get(p.target)
    p.escapes = []
    if li is not None and state.leaders[li].side != p.side and not defending_units(state, p):
        p.escapes = [state.leaders[li].id]
    p.current = None
    p.stage = "escape"
    return False


def stage_escape(state: HtlState, p: Pending) -> bool:
    while p.escapes:
        lid = p.escapes[0]
        li = state.leader_index(lid)
        leader = state.leaders[li]
        if leader.status != ON:
            p.escapes.pop(0)
            continue
        dests = [path[-1] for path in leader_paths(state, li, TABLES.leader_escape)]
        if not dests:
            p.escapes.pop(0)
            log(state, "escape", msg("log.htl.nowhere", leader=leader.name), leader=leader.id)
            eliminate_leader(state, li)
            continue
        if len(dests) == 1:
            p.escapes.pop(0)
            do_escape(state, leader, dests[0])
            continue
        p.current = lid
        return wait_decision(p, leader.side, dests)
    p.current = None
    p.stage = "advance"
    return False


def do_escape(state: HtlState, leader: Leader, to: Hex) -> None:
    frm = leader.at
    leader.at = to
    state.pieces_moved()
    log(state, "escape", msg("log.htl.escape", leader=leader.name, start=hex_text(frm),
                             to=hex_text(to)),
        leader=leader.id, to=list(to))


def stage_advance(state: HtlState, p: Pending) -> bool:
    p.stage = "done"
    ui = state.unit_index(p.unit)
    u = state.units[ui]
    if u.status != ON or u.at != p.origin or p.kind == "force_march":
        return False
    allowed = (p.kind == "assault" or (state.opts.fire_advance and p.eliminated
                                        and p.dist == 1))
    if not allowed or state.occupancy().get(p.target):
        return False
    if state.board.move[p.target] == IMPASSABLE:
        return False
    li = state.leader_at().get(p.target)
    if li is not None and state.leaders[li].side == p.side:
        return False
    p.stage = "advance"
    return wait_decision(p, p.side, [])


def advance(state: HtlState, p: Pending) -> None:
    """The attacker advances into the emptied target hex."""
    ui = state.unit_index(p.unit)
    u = state.units[ui]
    frm = u.at
    enter(state, ui, p.target)
    log(state, "advance", lambda: msg("log.htl.advance", unit=unit_msg(state, u),
                                      start=hex_text(frm), to=hex_text(p.target)),
        unit=u.id, to=list(p.target))
