"""Fire and close combat: the attack's numbers, opening it, and its stages up to the leader
casualty checks (attacker morale (11.1), defender morale, the attack dice, allocating hits,
elite survival rolls (3.4.2), leader casualty checks) with the dice each of them rolls. What
follows (evasion, retreats, escapes, the advance) is in ``retreat``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from warboard.core.i18n import msg
from warboard.holdtheline import hexes
from warboard.holdtheline.combat import (
    Profile,
    dice_count,
    die_hits,
    fire_hit_number,
    natural_hit_on,
    terrain_mod,
)
from warboard.holdtheline.events import hex_text, log, unit_msg
from warboard.holdtheline.hexes import Hex
from warboard.holdtheline.pending import Pending, wait_decision, wait_die
from warboard.holdtheline.pieces import ON, eliminate_leader, eliminate_unit
from warboard.holdtheline.tables import TABLES

if TYPE_CHECKING:
    from warboard.holdtheline.state import HtlState

UNITS = TABLES.units


def attack_profile(state: HtlState, ui: int, origin: Hex, target: Hex, assault: bool,
                   leader_dice: int = 0) -> Profile:
    """Dice, hit number and die modifier of an attack by unit ``ui`` from ``origin``."""
    u = state.units[ui]
    ut = UNITS[u.kind]
    board = state.board
    dist = hexes.distance(origin, target)
    hit_on = ut.close if assault else fire_hit_number(ut, dist)
    mod = terrain_mod(board.combat[target], board.terrain[target], ut, state.opts)
    flank = state.opts.flank_attacks and _flanked(state, u.side, origin, target)
    if flank:
        mod += 1
    return Profile(dice_count(ut, u.mp, state.opts, leader_dice), hit_on, mod, dist, flank)


def _flanked(state: HtlState, side: int, origin: Hex, target: Hex) -> bool:
    """11.14 (§8.4): the attack from ``origin`` and an earlier attack on ``target`` this turn
    from a hex now holding a friendly unit lie on one straight hex line through the target, on
    opposite sides of it, at any range."""
    ray = _ray(origin, target)
    if ray is None:
        return False
    opposite = (-ray[0], -ray[1], -ray[2])
    occ, units = state.occupancy(), state.units
    for h in state.attacks.get(target, ()):
        if _ray(h, target) == opposite:
            here = occ.get(h)
            if here is not None and units[here[0]].side == side:
                return True
    return False


def _ray(h: Hex, target: Hex) -> hexes.Cube | None:
    """The hex direction from ``target`` to ``h`` when ``h`` is on one of the six straight hex
    lines through it (a cube offset with a zero coordinate), else None."""
    (hx, hy, hz), (tx, ty, tz) = hexes.to_cube(h), hexes.to_cube(target)
    off = (hx - tx, hy - ty, hz - tz)
    n = max(map(abs, off))
    if n == 0 or 0 not in off:
        return None
    return (off[0] // n, off[1] // n, off[2] // n)


def _fired_on(state: HtlState, p: Pending) -> None:
    """11.2: the units in the target hex are fired on (fire combat only, contract §8.3)."""
    for i in defending_units(state, p):
        state.units[i].fired_at = True


def defending_units(state: HtlState, p: Pending) -> list[int]:
    here = state.occupancy().get(p.target, ())
    return [i for i in here if state.units[i].side != p.side]


def start_attack(state: HtlState, ui: int, target: Hex, assault: bool, cost: int,
                 leader_dice: bool = False) -> None:
    u = state.units[ui]
    origin = u.at
    assert origin is not None
    state.ap -= cost
    u.acted = True
    kind = "assault" if assault else "fire"
    p = Pending(kind, u.id, u.side, origin, target)
    ld = 0
    if leader_dice:
        li = state.leader_at()[origin]
        leader = state.leaders[li]
        leader.acted = True
        p.leader = leader.id
        ld = leader.rating[0]
    prof = attack_profile(state, ui, origin, target, assault, ld)
    p.n_dice, p.hit_on, p.mod, p.dist, p.flank = prof.dice, prof.hit_on, prof.mod, \
        prof.dist, prof.flank
    state.attacks[target] = (*state.attacks.get(target, ()), origin)
    if not assault:
        _fired_on(state, p)
    nat = natural_hit_on(p.hit_on, p.mod)
    what = ("log.htl.assault" if assault else "log.htl.fire") + ("Ap" if cost else "")
    log(state, kind, lambda: msg(what, unit=unit_msg(state, u), target=hex_text(target),
                                 range=p.dist, dice=p.n_dice,
                                 hitOn=nat if nat <= 6 else msg("log.htl.nothing"),
                                 flank=msg("log.htl.flank") if p.flank else "",
                                 **({"ap": cost} if cost else {})),
        unit=u.id, target=list(target), dice=p.n_dice, hit_on=nat, ap=cost)
    if assault:
        p.stage = "atk_morale" if state.opts.attacker_morale else "evade"
    else:
        p.stage = "attack"
    state.pending = p


def stage_atk_morale(state: HtlState, p: Pending) -> bool:
    return wait_die(p)


def stage_morale_init(state: HtlState, p: Pending) -> bool:
    defenders = defending_units(state, p)
    defenders.sort(key=lambda i: state.units[i].kind == "artillery")
    lead = state.leader_at().get(p.target)
    has_leader = lead is not None and state.leaders[lead].side != p.side
    p.morale = []
    for i in defenders:
        u = state.units[i]
        need = (u.mp + (1 if has_leader else 0) + state.board.morale[p.target]
                + (1 if u.kind == "elite" else 0) - (1 if p.flank else 0))
        p.morale.append([u.id, None, need, None])
    p.mi = 0
    p.stage = "morale"
    return False


def stage_morale(state: HtlState, p: Pending) -> bool:
    while p.mi < len(p.morale):
        entry = p.morale[p.mi]
        u = state.unit(entry[0])
        if u.kind == "artillery" and any(
                e[3] is False and UNITS[state.unit(e[0]).kind].infantry
                for e in p.morale[:p.mi]):
            entry[3] = False
            log(state, "morale", msg("log.htl.moraleStacked", unit=unit_msg(state, u)),
                unit=u.id, passed=True)
            p.mi += 1
            continue
        return wait_die(p)
    p.stage = "attack"
    return False


def stage_attack(state: HtlState, p: Pending) -> bool:
    if len(p.dice) < p.n_dice:
        return wait_die(p)
    p.hits = sum(1 for d in p.dice if die_hits(d, p.hit_on, p.mod))
    p.ones = sum(1 for d in p.dice if d == 1)
    log(state, "hits", lambda: msg("log.htl.hits", count=p.hits,
                                   dice=", ".join(map(str, p.dice))), unit=p.unit, hits=p.hits,
        dice=p.dice[:])
    li = state.leader_at().get(p.target)
    checks: list[str] = []
    if p.ones:
        if li is not None and state.leaders[li].side != p.side:
            did = state.leaders[li].id
            checks += [did] * (p.ones if p.kind == "assault" else 1)
        if p.leader is not None and p.kind == "assault":
            checks += [p.leader] * p.ones
    p.checks = checks
    p.stage = "allocate"
    return False


def stage_allocate(state: HtlState, p: Pending) -> bool:
    p.stage = "leader"
    if p.hits <= 0:
        return False
    defenders = defending_units(state, p)
    if not defenders:
        return False
    if len(defenders) == 1:
        apply_hits(state, p, defenders[0])
        return False
    a, b = (state.units[i] for i in defenders[:2])
    if a.mp != b.mp:
        apply_hits(state, p, defenders[0] if a.mp > b.mp else defenders[1])
        return False
    p.stage = "allocate"
    return wait_decision(p, 1 - p.side, [a.id, b.id])


def apply_hits(state: HtlState, p: Pending, vi: int) -> None:
    v = state.units[vi]
    p.victim = v.id
    hits = p.hits
    if v.kind == "elite" and hits >= v.mp:
        p.elite_left = hits - (v.mp - 1)
        v.mp = 1
        log(state, "damage", msg("log.htl.damageElite", unit=unit_msg(state, v),
                                 hits=msg("log.htl.hitCount", count=hits),
                                 rolls=msg("log.htl.survivalRolls", count=p.elite_left)),
            unit=v.id, hits=hits, mp=1)
        p.stage = "elite"
        return
    v.mp -= hits
    if v.mp < 1:
        eliminate_unit(state, vi, msg("log.htl.hitCount", count=hits))
    else:
        log(state, "damage", msg("log.htl.damage", unit=unit_msg(state, v),
                                 hits=msg("log.htl.hitCount", count=hits), mp=v.mp),
            unit=v.id, hits=hits, mp=v.mp)


def stage_elite(state: HtlState, p: Pending) -> bool:
    v = state.unit(p.victim) if p.victim else None
    if p.elite_left > 0 and v is not None and v.status == ON:
        return wait_die(p)
    p.stage = "leader"
    return False


def stage_leader(state: HtlState, p: Pending) -> bool:
    while p.checks and state.leader(p.checks[0]).status != ON:
        p.checks.pop(0)
    if p.checks:
        return wait_die(p)
    p.stage = "retreat_init" if p.kind == "assault" else "escape_init"
    return False


def roll_attacker_morale(state: HtlState, p: Pending, v: int) -> None:
    """The attacker's morale before a close combat (11.1): failing, it fires instead."""
    ui = state.unit_index(p.unit)
    u = state.units[ui]
    li = state.leader_at().get(p.origin)
    has_leader = li is not None and state.leaders[li].side == p.side
    need = u.mp + (1 if has_leader else 0) + (1 if u.kind == "elite" else 0)
    failed = v == 6 or v > need
    log(state, "die", lambda: msg("log.htl.attackerMorale", unit=unit_msg(state, u), value=v,
                                  need=need, outcome=msg("log.htl.firesInstead" if failed
                                                         else "log.htl.passes")),
        roll="attacker_morale", value=v, need=need, passed=not failed,
        unit=u.id)
    if failed:
        p.kind = "fire"
        p.converted = True
        p.leader = None
        prof = attack_profile(state, ui, p.origin, p.target, False)
        p.n_dice, p.hit_on, p.mod = prof.dice, prof.hit_on, prof.mod
        _fired_on(state, p)  # the close combat became a fire
        p.stage = "attack"
    else:
        p.stage = "evade"


def roll_morale(state: HtlState, p: Pending, v: int) -> None:
    """A defender's morale die: a 6, or above the need, fails."""
    entry = p.morale[p.mi]
    entry[1] = v
    failed = v == 6 or v > entry[2]
    entry[3] = failed
    u = state.unit(entry[0])
    log(state, "die", lambda: msg("log.htl.morale", unit=unit_msg(state, u), value=v,
                                  need=entry[2], outcome=msg("log.htl.willRetreat" if failed
                                                             else "log.htl.holds"),
                                  six=msg("log.htl.sixFails") if v == 6 and v <= entry[2]
                                  else ""),
        roll="morale", value=v, need=entry[2], passed=not failed, unit=u.id)
    p.mi += 1


def roll_attack(state: HtlState, p: Pending, v: int) -> None:
    """An attack die; a 1 may call for a leader casualty check."""
    p.dice.append(v)
    hit = die_hits(v, p.hit_on, p.mod)
    li = state.leader_at().get(p.target)
    check = v == 1 and ((li is not None and state.leaders[li].side != p.side)
                        or (p.leader is not None and p.kind == "assault"))
    mod = msg("log.htl.modified", mod=f"{p.mod:+d}", total=v + p.mod) if p.mod else ""
    log(state, "die", lambda: msg("log.htl.attackDie", n=len(p.dice), value=v, mod=mod,
                                  need=p.hit_on,
                                  outcome=msg("log.htl.hit" if hit else "log.htl.miss"),
                                  check=msg("log.htl.casualtyCheck") if check else ""),
        roll="attack", value=v, modified=v + p.mod, need=p.hit_on, hit=hit,
        unit=p.unit)


def roll_elite(state: HtlState, p: Pending, v: int) -> None:
    """An elite unit's survival roll (3.4.2): 4 or more, the hit is taken."""
    v_unit = state.unit(p.victim)  # type: ignore[arg-type]
    if v >= 4:
        log(state, "die", lambda: msg("log.htl.eliteTaken", unit=unit_msg(state, v_unit),
                                      value=v), roll="elite", value=v, survived=False,
            unit=v_unit.id)
        p.elite_left = 0
        eliminate_unit(state, state.unit_index(v_unit.id), msg("log.htl.whyElite"))
    else:
        p.elite_left -= 1
        log(state, "die", lambda: msg("log.htl.eliteSurvives", unit=unit_msg(state, v_unit),
                                      value=v), roll="elite", value=v, survived=True,
            unit=v_unit.id)


def roll_leader(state: HtlState, p: Pending, v: int) -> None:
    """A leader casualty check: a 1 is a hit."""
    lid = p.checks.pop(0)
    li = state.leader_index(lid)
    leader = state.leaders[li]
    hit = v == 1
    cap = leader.rating[1] if state.opts.leader_ratings else 1
    log(state, "die", lambda: msg("log.htl.casualty", leader=leader.name, value=v,
                                  outcome=msg("log.htl.hit" if hit else "log.htl.unhurt")),
        roll="leader", value=v, hit=hit,
        leader=leader.id)
    if hit:
        leader.hits += 1
        if leader.hits >= cap:
            eliminate_leader(state, li)
        else:
            log(state, "leader_hit",
                lambda: msg("log.htl.wounded", leader=leader.name, hits=leader.hits, cap=cap),
                leader=leader.id)


