"""A game's chat between its two players (docs/server-api.md, "Chat").

Only games between two people on their own devices have one (``friend`` and ``open`` games;
not against the computer, not hot-seat). The lines are stored with the game (``Storage.add_chat``)
and sent to the seats only: spectators never see the players' chat. A seat may mute the other:
then none of the other's lines reach it (the ones before the mute included) until it unmutes.
A line is one line of plain text: its whitespace runs become one space, control and
bidirectional-override characters are dropped, and the client shows it as text, never as HTML.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from warboard.core.i18n import Msg, msg
from warboard.server.messages import ChatMessage, Refused
from warboard.server.storage import CHAT_KEPT, CHAT_MAX_LENGTH, ChatLine, SeatData

CHAT_MODES = ("friend", "open")
# the characters that reorder the text shown around them (a line could pose as another's)
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def clean(text: str) -> str:
    """``text`` as one line of plain text; ``Refused`` when nothing is left, or too much."""
    kept = "".join(c for c in text if c not in BIDI_CONTROLS
                   and (c.isspace() or unicodedata.category(c) != "Cc"))
    line = " ".join(kept.split())
    if not line:
        raise Refused(msg("server.chatEmpty"), 422)
    if len(line) > CHAT_MAX_LENGTH:
        raise Refused(msg("server.chatTooLong", most=CHAT_MAX_LENGTH), 422)
    return line


class Chat:
    """The chat of the game in ``mode`` with these seats: its latest lines, and who muted."""

    def __init__(self, mode: str, seats: dict[int, SeatData], lines: list[ChatLine]) -> None:
        self.on = mode in CHAT_MODES
        self.lines = lines[-CHAT_KEPT:]
        self.muted = {seat: data.muted for seat, data in seats.items()}

    def refusal(self, seat: int | None) -> Msg | None:
        """Why ``seat`` may not chat here (``None``: it may)."""
        if seat is None:
            return msg("server.chatSpectator")
        if not self.on:
            return msg("server.chatNone")
        return None

    def reads(self, seat: int | None, line: ChatLine) -> bool:
        """Whether ``seat`` is sent ``line``: a seat that has not muted its writer."""
        return seat is not None and (line.seat == seat or not self.muted.get(seat, False))

    def heard(self, line: ChatLine) -> None:
        """A line stored (here or by another server process)."""
        self.lines.append(line)
        del self.lines[:-CHAT_KEPT]

    def history(self, seat: int) -> dict[str, Any]:
        """The ``chat`` message with every kept line ``seat`` reads (``replace``: it is the
        whole chat as this seat sees it now)."""
        return ChatMessage(lines=[line.to_json() for line in self.lines
                                  if self.reads(seat, line)],
                           muted=self.muted.get(seat, False), replace=True
                           ).model_dump(mode="json")

    def one(self, seat: int, line: ChatLine) -> dict[str, Any]:
        """The ``chat`` message of one new line."""
        return ChatMessage(lines=[line.to_json()], muted=self.muted.get(seat, False),
                           replace=False).model_dump(mode="json")
