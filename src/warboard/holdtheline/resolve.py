"""Resolving a pending activation (``Pending``): running its automatic stages until it waits
for a die or a decision, and taking that die or decision."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from warboard.core.errors import IllegalActionError
from warboard.holdtheline import activation, attack, retreat
from warboard.holdtheline.actions import Advance, Allocate, Displace, Escape, Evade, Retreat
from warboard.holdtheline.pending import Pending

if TYPE_CHECKING:
    from warboard.holdtheline.state import HtlState


def stage_done(state: HtlState, p: Pending) -> bool:
    state.pending = None
    return False


# stage -> its step: True when it waits for input (see ``Pending``)
STAGES: dict[str, Callable[[HtlState, Pending], bool]] = {
    "atk_morale": attack.stage_atk_morale,
    "evade": retreat.stage_evade,
    "after_evade": retreat.stage_after_evade,
    "morale_init": attack.stage_morale_init,
    "morale": attack.stage_morale,
    "attack": attack.stage_attack,
    "allocate": attack.stage_allocate,
    "elite": attack.stage_elite,
    "leader": attack.stage_leader,
    "retreat_init": retreat.stage_retreat_init,
    "retreat": retreat.stage_retreat,
    "displace": retreat.stage_displace,
    "escape_init": retreat.stage_escape_init,
    "escape": retreat.stage_escape,
    "advance": retreat.stage_advance,
    "fm": activation.stage_fm,
    "fatigue": activation.stage_fatigue,
    "done": stage_done,
}

# stage -> what its die does
ROLLS: dict[str, Callable[[HtlState, Pending, int], None]] = {
    "attack": attack.roll_attack,
    "morale": attack.roll_morale,
    "elite": attack.roll_elite,
    "leader": attack.roll_leader,
    "atk_morale": attack.roll_attacker_morale,
    "fm": activation.roll_force_march,
    "fatigue": activation.roll_fatigue,
}


def run(state: HtlState) -> None:
    """Advance the pending activation through its automatic steps until it needs a die or
    a decision, or is done."""
    while True:
        p = state.pending
        if p is None:
            state.end_turn_if_no_ap()
            return
        p.wait = None
        if STAGES[p.stage](state, p):
            return


def roll(state: HtlState, v: int) -> None:
    """The die the pending activation waits for shows ``v``."""
    p = state.pending
    assert p is not None
    handler = ROLLS.get(p.stage)
    if handler is None:  # pragma: no cover - guarded by current_player
        raise IllegalActionError("no die is to be rolled now")
    handler(state, p, v)
    run(state)


def decide(state: HtlState, a: Any) -> None:
    """The decision the pending activation waits for (a legal action)."""
    p = state.pending
    assert p is not None
    if isinstance(a, Evade):
        if a.yes:
            retreat.evade(state, p)
        else:
            p.stage = "morale_init"
    elif isinstance(a, Allocate):
        p.stage = "leader"
        attack.apply_hits(state, p, state.unit_index(a.unit))
    elif isinstance(a, Retreat):
        choice = next(c for c in p.choices if c[0] == a.to)
        p.stage = "retreat"
        retreat.retreat_to(state, p, state.unit_index(a.unit), choice)
        if p.wait == "decision" and p.stage == "displace":
            return
    elif isinstance(a, Displace):
        retreat.finish_displace(state, p, a.to)
    elif isinstance(a, Escape):
        p.escapes.pop(0)
        retreat.do_escape(state, state.leader(a.leader), a.to)
        p.current = None
    elif isinstance(a, Advance):
        p.stage = "done"
        if a.yes:
            retreat.advance(state, p)
    run(state)
