"""Victory (10): a side's VP (eliminations, VP counters, objectives held, units exited) and the
end of the game at the end of a side's turn (a VP target reached, or time run out)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from warboard.core.i18n import Msg, msg
from warboard.holdtheline.events import side_msg

if TYPE_CHECKING:
    from warboard.holdtheline.state import HtlState


def vp_total(state: HtlState, seat: int) -> int:
    """VP earned (eliminations, counters) + objectives held now + exits (10, contract §5)."""
    side = state.scenario.sides[seat]
    total = state.vp_earned[seat]
    if side.objectives:
        occ = state.occupancy()
        for h, vp in side.objectives:
            here = occ.get(h)
            if here and state.units[here[0]].side == seat:
                total += vp
    if side.exit_vp[1] > 0:
        total += (state.exited[seat] // side.exit_vp[1]) * side.exit_vp[0]
    return total


def turn_end_result(state: HtlState, side: int) -> tuple[int | None, str, Msg] | None:
    """(winner or None for a draw, reason, what it says) when the game ends as ``side`` ends
    its turn: a side (``side`` first) reaches its VP target, or the second side ends the last
    turn."""
    for s in (side, 1 - side):
        target = state.scenario.sides[s].vp_target
        vp = vp_total(state, s)
        if target is not None and vp >= target:
            return s, "vp", msg("end.htl.vp", side=side_msg(state, s), vp=vp, target=target)
    if side != state.scenario.first and state.turn >= state.scenario.turn_limit:
        w = state.scenario.time_out_winner
        if state.scenario.time_out_by_vp:
            totals = (vp_total(state, 0), vp_total(state, 1))
            w = None if totals[0] == totals[1] else int(totals[1] > totals[0])
            if w is not None:
                return w, "time", msg("end.htl.timeVp", side=side_msg(state, w), vp=totals[w],
                                      other=totals[1 - w])
        if w is None:
            return w, "time", msg("end.htl.timeDraw")
        return w, "time", msg("end.htl.time", side=side_msg(state, w))
    return None
