"""Option 11.6's assignment of leader ratings: "players decide which of their leaders to assign
the values to in a scenario". Before turn 1 (phase ``assign``) seat 0, then seat 1, gives the
ratings its side's leaders have in the scenario (on the board and still to arrive) to those
leaders, in any order. The scenario's own assignment is the first choice; a side with only one
possible assignment (one leader, or equal ratings) is not asked. Assignments are public
(docs/rules-decisions.md).
"""

from __future__ import annotations

from itertools import permutations
from typing import TYPE_CHECKING

from warboard.core.i18n import joined, msg
from warboard.holdtheline.actions import AssignRatings, Rating
from warboard.holdtheline.events import log, side_msg
from warboard.holdtheline.pieces import ELIMINATED, EXITED

if TYPE_CHECKING:
    from warboard.holdtheline.state import HtlState

ASSIGN = "assign"


def side_leaders(state: HtlState, seat: int) -> list[int]:
    """The indices of ``seat``'s leaders that take part: on the board or still to arrive."""
    return [i for i, leader in enumerate(state.leaders)
            if leader.side == seat and leader.status not in (ELIMINATED, EXITED)]


def assignments(state: HtlState, seat: int) -> list[AssignRatings]:
    """Every distinct assignment of ``seat``'s leaders' ratings to them: the present one (the
    scenario's) first, then the others in order of their ratings in leader order."""
    lis = side_leaders(state, seat)
    ids = [state.leaders[i].id for i in lis]
    now: tuple[Rating, ...] = tuple(state.leaders[i].rating for i in lis)
    orders = sorted(set(permutations(now)) - {now})
    return [AssignRatings(tuple(sorted(zip(ids, order, strict=True))))
            for order in (now, *orders)]


def rating_task(state: HtlState, seat: int) -> str:
    """What ``seat`` has to do, e.g. "the Americans give Knox, Greene the ratings 2/2, 1/1, one
    each (11.6)"."""
    lis = side_leaders(state, seat)
    names = ", ".join(state.leaders[i].name for i in lis)
    values = ", ".join(f"{r[0]}/{r[1]}" for r in (state.leaders[i].rating for i in lis))
    return f"the {state.side_name(seat)} give {names} the ratings {values}, one each (11.6)"


def next_to_assign(state: HtlState, seat: int) -> int | None:
    """The first seat from ``seat`` on with a choice to make, or None."""
    for s in range(seat, 2):
        if len(assignments(state, s)) > 1:
            return s
    return None


def assign(state: HtlState, a: AssignRatings) -> None:
    """The assigning side's (``state.active``'s) leaders take the ratings of ``a``."""
    seat = state.active
    for lid, rating in a.ratings:
        state.leader(lid).rating = rating
    log(state, "ratings", lambda: msg("log.htl.ratings", side=side_msg(state, seat), ratings=joined(
        [f"{state.leader(lid).name} {r[0]}/{r[1]}" for lid, r in a.ratings])),
        ratings={lid: list(r) for lid, r in a.ratings})
