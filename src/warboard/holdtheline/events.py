"""The game's event log (docs/holdtheline-events.md): recording an event, and the names and hex
text its sentences use. An event says what happened as a message (``warboard.core.i18n``):
``msg``, and in English, ``text``."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from warboard.core.i18n import Msg, english, msg, named
from warboard.holdtheline.hexes import Hex

if TYPE_CHECKING:
    from warboard.holdtheline.pieces import Leader, Unit
    from warboard.holdtheline.state import HtlState


def log(state: HtlState, type: str, said: Msg | Callable[[], Msg], **fields: Any) -> None:
    """Record an event; ``said`` is its message, or makes it (called only when events are
    recorded).
    Without recording (``record_events`` False: states for search) only the last event is
    kept, without ``turn``, ``side``, ``text`` and ``msg``; it is a new object every time."""
    n = state.n_events
    state.n_events = n + 1
    if not state.record_events:
        fields["n"] = n
        fields["type"] = type
        state.events = [fields]
        return
    ev = {"n": n, "turn": state.turn, "side": state.active, "type": type}
    ev.update(fields)
    message = said if isinstance(said, dict) else said()
    ev["text"], ev["msg"] = english(message), message
    state.events.append(ev)


def side_label(name: str) -> Msg | str:
    """A side's name (``Side.display_name``): a catalogue's, or the scenario's own where no
    catalogue has it."""
    return named("names.holdtheline.label." + name.lower().replace(" ", "_"), name)


def side_msg(state: HtlState, seat: int) -> Msg | str:
    return side_label(state.side_name(seat))


def unit_msg(state: HtlState, u: Unit) -> Msg:
    """A unit in event sentences: side, type and id ("Americans regular infantry A3")."""
    return msg("log.htl.unit", side=side_msg(state, u.side),
               kind=msg(f"log.htl.kind.{u.kind}"), id=u.id)


def with_leader(leader: Leader | None) -> Msg | str:
    """" with Washington" after a unit's name, for a leader moving with it."""
    return "" if leader is None else msg("log.htl.with", leader=leader.name)


def hex_text(h: Hex | None) -> str:
    return "-" if h is None else f"{h[0]},{h[1]}"
