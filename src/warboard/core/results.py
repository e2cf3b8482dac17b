"""The words of a game's end, as messages (``warboard.core.i18n``): its title for one reader
("You win!", "South wins!", "Draw") and why it ended ("South wins by taking North's base
(...).", "North wins on time.", "South resigned."), from the result a record keeps
(docs/records.md#result): the engine's, or one the server ruled (a flag, a claim, a resignation,
an expiry)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from warboard.core.i18n import Msg, english, msg
from warboard.core.narration import Narrator


def _said(message: Msg) -> dict[str, Any]:
    return {"text": english(message), "msg": message}


def end_words(narrator: Narrator, result: Mapping[str, Any] | None, seat: int | None,
              ruled: bool) -> dict[str, Any] | None:
    """``{"title", "outcome", "reason"}`` (each ``{"text", "msg"}``) of ``result`` told to
    ``seat`` (``None``: no seat of its own: a spectator, a hot seat; ``outcome`` is the title
    told so), ``ruled`` when the server ruled it; ``None`` while the game runs."""
    if result is None:
        return None
    if result.get("abandoned"):
        by = result.get("by")
        winner = None if by is None else 1 - by
        if by is None:
            reason = msg("end.common.expired" if result.get("how") == "expired"
                         else "end.common.ended")
        else:
            reason = msg("end.common.resigned", side=narrator.side(by))
        title = (msg("end.common.youResigned") if seat is not None and seat == by
                 else _title(narrator, winner, seat))
    else:
        summary = result.get("summary") or {}
        winner = summary.get("winner")
        title, reason = _title(narrator, winner, seat), _reason(narrator, summary, ruled)
    return {"title": _said(title), "outcome": _said(_title(narrator, winner, None)),
            "reason": _said(reason)}


def _title(narrator: Narrator, winner: int | None, seat: int | None) -> Msg:
    if winner is None:
        return msg("end.common.draw")
    if seat is None:
        return msg(f"end.{narrator.family}.wins", side=narrator.side(winner))
    return msg("end.common.win" if winner == seat else "end.common.loss")


def _reason(narrator: Narrator, summary: Mapping[str, Any], ruled: bool) -> Msg:
    winner = summary.get("winner")
    if ruled:
        if winner is None:
            return msg("end.common.claimDraw")
        how = "onTime" if summary.get("reason") == "time" else "claimed"
        return msg(f"end.{narrator.family}.{how}", side=narrator.side(winner))
    return narrator.result(summary) or msg("end.common.ended")
