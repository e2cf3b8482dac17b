"""The log a connection holds, for connections that take only its new lines.

A state repeats the reader's whole log (``log``, ``log_msg``): at a blitz pace most of a state's
bytes and of the server's encoding and compression (docs/load.md). A client that asks for new
lines only (``?log=new`` on the WebSocket) is sent, in each state, ``log_from`` and the lines
from that index on; it keeps the lines before ``log_from`` and replaces the rest. The index is
where the log stopped matching what the connection was last sent, so a last line merged with the
next entry, or lines taken back by an undo, are sent again.
"""

from __future__ import annotations

from typing import Any


class SentLog:
    """The log lines (and their messages) a connection was last sent, whole."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.messages: list[Any] = []

    def resend_from(self, lines: list[str], messages: list[Any]) -> int:
        """The index from which ``lines`` and ``messages`` must be sent for the connection to
        hold them; it holds them from now on."""
        start = min(_same_prefix(self.lines, lines), _same_prefix(self.messages, messages))
        self.lines, self.messages = lines, messages
        return start


def _same_prefix(old: list[Any], new: list[Any]) -> int:
    """How many first items ``old`` and ``new`` share."""
    n = min(len(old), len(new))
    if old[:n] == new[:n]:  # the usual case, compared in C (the items are mostly the same objects)
        return n
    return next(i for i in range(n) if old[i] != new[i])
