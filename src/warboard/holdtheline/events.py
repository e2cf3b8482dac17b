"""The game's event log (docs/holdtheline-events.md): recording an event, and the hex text its
sentences use."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from warboard.holdtheline.hexes import Hex

if TYPE_CHECKING:
    from warboard.holdtheline.state import HtlState


def log(state: HtlState, type: str, text: str | Callable[[], str], **fields: Any) -> None:
    """Record an event; ``text`` is its sentence, or makes it (called only when events are
    recorded).
    Without recording (``record_events`` False: states for search) only the last event is
    kept, without ``turn``, ``side`` and ``text``; it is a new object every time."""
    n = state.n_events
    state.n_events = n + 1
    if not state.record_events:
        fields["n"] = n
        fields["type"] = type
        state.events = [fields]
        return
    ev = {"n": n, "turn": state.turn, "side": state.active, "type": type}
    ev.update(fields)
    ev["text"] = text if isinstance(text, str) else text()
    state.events.append(ev)


def hex_text(h: Hex | None) -> str:
    return "-" if h is None else f"{h[0]},{h[1]}"
