"""What follows the hits of an attack: a dragoon's evasion (11.11), the retreats of units that
failed morale (8.5) with the displacement of a friendly unit in the way (8.5.3), the escape of
a leader left alone (8.5.5), and the attacker's advance into the emptied hex.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from warboard.holdtheline.attack import defending_units
from warboard.holdtheline.board import IMPASSABLE
from warboard.holdtheline.events import hex_text, log
from warboard.holdtheline.hexes import Hex
from warboard.holdtheline.movement import leader_paths, retreat_choices
from warboard.holdtheline.pending import Pending, wait_decision
from warboard.holdtheline.pieces import ON, Leader, eliminate_leader, eliminate_unit, enter
from warboard.holdtheline.tables import TABLES

if TYPE_CHECKING:
    from warboard.holdtheline.state import HtlState


def evade(st: HtlState, p: Pending) -> None:
    """The defending dragoon evades the close combat (11.11): it retreats instead."""
    defenders = defending_units(st, p)
    drag = [i for i in defenders if st.units[i].kind == "dragoon"]
    log(st, "evade", lambda: f"{st.uname(st.units[drag[0]])} evades the close "
        "combat (11.11)", unit=st.units[drag[0]].id)
    p.retreats = [st.units[drag[0]].id]
    p.follow = lone_leader_follow(st, p, drag, defenders)
    p.after_retreat = "after_evade"
    p.current = None
    p.stage = "retreat"


def stage_evade(st: HtlState, p: Pending) -> bool:
    p.stage = "morale_init"
    if not st.opts.dragoon_evade:
        return False
    defenders = defending_units(st, p)
    drag = [i for i in defenders if st.units[i].kind == "dragoon"]
    if not drag:
        return False
    follow = lone_leader_follow(st, p, drag, defenders)
    if not retreat_choices(st, drag[0], p.origin, None, True, follow is not None):
        return False
    p.stage = "evade"
    return wait_decision(p, 1 - p.side, [])


def lone_leader_follow(st: HtlState, p: Pending, going: list[int],
                       defenders: list[int]) -> str | None:
    """The id of the defenders' leader in the target hex, which goes along with ``going`` when
    they are all the units there (it would be left alone), else None."""
    li = st.leader_at().get(p.target)
    if li is None or st.leaders[li].side == p.side or set(going) != set(defenders):
        return None
    return st.leaders[li].id


def stage_after_evade(st: HtlState, p: Pending) -> bool:
    # nobody left (the dragoon evaded, or was eliminated for want of a retreat hex): a
    # leader left alone escapes (8.5.5) before the attacker may advance
    p.stage = "morale_init" if defending_units(st, p) else "escape_init"
    return False


def stage_retreat_init(st: HtlState, p: Pending) -> bool:
    failed = [e[0] for e in p.morale if e[3]]
    going = [st.unit_index(uid) for uid in failed
             if st.unit(uid).status == ON and st.unit(uid).at == p.target]
    p.retreats = [st.units[i].id for i in going]
    p.follow = lone_leader_follow(st, p, going, defending_units(st, p)) if going else None
    p.after_retreat = "escape_init"
    p.current = None
    p.stage = "retreat"
    return False


def stage_retreat(st: HtlState, p: Pending) -> bool:
    while True:
        if p.current is None:
            while p.retreats and st.unit(p.retreats[0]).status != ON:
                p.retreats.pop(0)
            if not p.retreats:
                p.stage = p.after_retreat
                return False
            p.current = p.retreats.pop(0)
        ui = st.unit_index(p.current)
        u = st.units[ui]
        choices = retreat_choices(st, ui, p.origin, None, True, p.follow is not None)
        if not choices:
            eliminate_unit(st, ui, "no retreat (8.5.2)")
            p.current = None
            continue
        if len(choices) == 1:
            if retreat_to(st, p, ui, choices[0]):
                return True
            continue
        p.stage = "retreat"
        return wait_decision(p, u.side, choices)


def retreat_to(st: HtlState, p: Pending, ui: int, choice: tuple[Hex, int | None]) -> bool:
    """Retreat unit ``ui`` to ``choice``; True when a displacement decision waits."""
    to, displaced = choice
    if displaced is None:
        _finish_retreat(st, p, ui, to)
        return False
    d = st.units[displaced]
    dchoices = retreat_choices(st, displaced, p.origin, p.target, False, False)
    u = st.units[ui]
    if not dchoices:
        log(st, "displace", f"{st.uname(d)} cannot make room (a second displacement "
            "would be needed)", unit=d.id)
        eliminate_unit(st, ui, "retreat blocked (8.5.3)")
        p.current = None
        return False
    p.displacing = d.id
    p.retreat_to = to
    if len(dchoices) == 1:
        finish_displace(st, p, dchoices[0][0])
        return False
    p.stage = "displace"
    wait_decision(p, u.side, dchoices)
    return True


def finish_displace(st: HtlState, p: Pending, to: Hex) -> None:
    di = st.unit_index(p.displacing)  # type: ignore[arg-type]
    d = st.units[di]
    frm = d.at
    enter(st, di, to)
    log(st, "displace", f"{st.uname(d)} is displaced {hex_text(frm)} to {hex_text(to)} (8.5.3)",
        unit=d.id, to=list(to))
    ui = st.unit_index(p.current)  # type: ignore[arg-type]
    target = p.retreat_to
    p.displacing = None
    p.retreat_to = None
    p.stage = "retreat"
    _finish_retreat(st, p, ui, target)  # type: ignore[arg-type]


def _finish_retreat(st: HtlState, p: Pending, ui: int, to: Hex) -> None:
    u = st.units[ui]
    frm = u.at
    enter(st, ui, to)
    extra = ""
    if p.follow is not None:
        L = st.leader(p.follow)
        if L.status == ON and L.at == frm:
            L.at = to
            st._moved()
            extra = f" with {L.name}"
        p.follow = None
    log(st, "retreat", lambda: f"{st.uname(u)}{extra} retreats {hex_text(frm)} to {hex_text(to)}",
        unit=u.id, to=list(to))
    p.current = None


def stage_displace(st: HtlState, p: Pending) -> bool:
    p.wait = "decision"
    return True


def stage_escape_init(st: HtlState, p: Pending) -> bool:
    li = st.leader_at().get(p.target)
    p.escapes = []
    if li is not None and st.leaders[li].side != p.side and not defending_units(st, p):
        p.escapes = [st.leaders[li].id]
    p.current = None
    p.stage = "escape"
    return False


def stage_escape(st: HtlState, p: Pending) -> bool:
    while p.escapes:
        lid = p.escapes[0]
        li = st.leader_index(lid)
        L = st.leaders[li]
        if L.status != ON:
            p.escapes.pop(0)
            continue
        dests = [path[-1] for path in leader_paths(st, li, TABLES.leader_escape)]
        if not dests:
            p.escapes.pop(0)
            log(st, "escape", f"{L.name} has nowhere to go (8.5.5)", leader=L.id)
            eliminate_leader(st, li)
            continue
        if len(dests) == 1:
            p.escapes.pop(0)
            do_escape(st, L, dests[0])
            continue
        p.current = lid
        return wait_decision(p, L.side, dests)
    p.current = None
    p.stage = "advance"
    return False


def do_escape(st: HtlState, L: Leader, to: Hex) -> None:
    frm = L.at
    L.at = to
    st._moved()
    log(st, "escape", f"{L.name} escapes {hex_text(frm)} to {hex_text(to)} (8.5.5)", leader=L.id,
        to=list(to))


def stage_advance(st: HtlState, p: Pending) -> bool:
    p.stage = "done"
    ui = st.unit_index(p.unit)
    u = st.units[ui]
    if u.status != ON or u.at != p.origin or p.kind == "force_march":
        return False
    allowed = (p.kind == "assault" or (st.opts.fire_advance and p.eliminated
                                        and p.dist == 1))
    if not allowed or st.occupancy().get(p.target):
        return False
    if st.board.move[p.target] == IMPASSABLE:
        return False
    li = st.leader_at().get(p.target)
    if li is not None and st.leaders[li].side == p.side:
        return False
    p.stage = "advance"
    return wait_decision(p, p.side, [])


def advance(st: HtlState, p: Pending) -> None:
    """The attacker advances into the emptied target hex."""
    ui = st.unit_index(p.unit)
    u = st.units[ui]
    frm = u.at
    enter(st, ui, p.target)
    log(st, "advance", lambda: f"{st.uname(u)} advances {hex_text(frm)} to "
        f"{hex_text(p.target)}", unit=u.id, to=list(p.target))
