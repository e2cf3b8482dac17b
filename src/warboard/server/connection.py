"""One WebSocket client at a table: reads its messages, writes what the table tells it.

Messages to the client go through a queue written by a task of its own, so a slow client never
holds up a table; one that falls too far behind is closed (it reconnects and gets the current
state). Each message from the client is read on its own: a refused one gets an ``error`` message
and changes nothing, and so does one past the client's message rate (``Quotas``).
"""

from __future__ import annotations

import asyncio
import logging
import time
from contextlib import suppress
from datetime import datetime

from fastapi import WebSocket

from warboard.core.i18n import msg
from warboard.server.logsent import SentLog
from warboard.server.messages import (
    ChatSend,
    ClaimMessage,
    HintRequest,
    MuteMessage,
    PlayMessage,
    Refused,
    TooMany,
    UndoMessage,
    encode,
    error_message,
    parse_client_message,
)
from warboard.server.quotas import Quotas
from warboard.server.storage import now
from warboard.server.tables import Table

log = logging.getLogger("warboard.server")

MAX_QUEUED = 100  # messages waiting for a client before it is dropped as too slow
TRY_AGAIN_LATER = 1013  # close code: too slow a client, or the database failed its arrival


class Connection:
    """A client (an address, for ``quotas``) watching ``table`` as ``seat`` (``None``: a
    spectator)."""

    def __init__(self, websocket: WebSocket, table: Table, seat: int | None, client: str,
                 quotas: Quotas, new_log_lines: bool = False) -> None:
        self.websocket = websocket
        self.table = table
        self.seat = seat
        self.sent_log = SentLog() if new_log_lines else None
        self.client = client
        self.quotas = quotas
        self._outbox: asyncio.Queue[str | None] = asyncio.Queue()

    def send(self, text: str) -> None:
        """Queue a message (``Subscriber.send``); a client too far behind is closed."""
        if self._outbox.qsize() >= MAX_QUEUED:
            while not self._outbox.empty():
                self._outbox.get_nowait()
            self._outbox.put_nowait(None)
        else:
            self._outbox.put_nowait(text)

    async def run(self) -> None:
        """Serve the client until it leaves."""
        self.table.subscribe(self)
        writer = asyncio.create_task(self._write())
        try:
            await self._read()
        finally:
            self.table.unsubscribe(self)
            writer.cancel()
            with suppress(asyncio.CancelledError, Exception):
                await writer  # a writer that failed on a closed socket needs no report

    async def _write(self) -> None:
        while (text := await self._outbox.get()) is not None:
            await self.websocket.send_text(text)
        await self.websocket.close(TRY_AGAIN_LATER, "too many messages waiting; reconnect")

    async def _read(self) -> None:
        while True:
            event = await self.websocket.receive()
            received = now()  # the seat's clock stops here: what follows is the server's time
            if event["type"] == "websocket.disconnect":
                return
            text = event.get("text")
            if text is None:
                self.send(encode(error_message(msg("server.textFrames"))))
                continue
            wait = self.quotas.message(self.client)
            if wait is not None:
                # refused, and this socket is not read until the window has room again: what a
                # flooding client sends meanwhile waits in its own network buffers
                refusal = TooMany(msg("server.tooManyMessages",
                                      most=self.quotas.messages_per_second), wait)
                self.send(encode(error_message(refusal.msg)))
                await asyncio.sleep(wait)
                continue
            await self._timed(text, received)

    async def _timed(self, text: str, received: datetime) -> None:
        """Handle one message, counted and timed by game (``Metrics``)."""
        game, metrics = self.table.game.name, self.table.metrics
        where = {"game_id": self.table.id, "seat": self.seat}
        started = time.perf_counter()
        try:
            await self._handle(text, received)
        except Refused as exc:
            metrics.errors.labels(game, "refused").inc()
            log.info("game %s: seat %s refused: %s", self.table.id, self.seat, exc.message,
                     extra=where)
            self.send(encode(error_message(exc.msg, exc.request_id)))
        except Exception:  # a bug: the client is told, the socket stays usable
            metrics.errors.labels(game, "failed").inc()
            log.exception("game %s: a message failed", self.table.id, extra=where)
            self.send(encode(error_message(msg("server.messageFailed"))))
        finally:
            metrics.play_seconds.labels(game).observe(time.perf_counter() - started)

    async def _handle(self, text: str, received: datetime) -> None:
        message = parse_client_message(text)
        try:
            if isinstance(message, PlayMessage):
                await self.table.play(self.seat, message.action, message.version,
                                      message.request_id, received)
            elif isinstance(message, UndoMessage):
                await self.table.undo(self.seat, message.version, message.request_id,
                                      received)
            elif isinstance(message, HintRequest):
                self.send(encode(await self.table.hint(self.seat, message.version,
                                                       message.request_id)))
            elif isinstance(message, ClaimMessage):
                await self.table.claim(self.seat, message.outcome, received)
            elif isinstance(message, ChatSend):
                await self._chat(message.text)
            elif isinstance(message, MuteMessage):
                await self.table.mute(self.seat, message.muted)
            else:
                await self.table.resign(self.seat, received)
        except Refused as exc:
            exc.request_id = getattr(message, "request_id", None)
            raise

    async def _chat(self, text: str) -> None:
        """A chat line, within the client's chat rate (over its other messages' own)."""
        wait = self.quotas.chat(self.client)
        if wait is not None:
            raise TooMany(msg("server.tooManyChat", most=self.quotas.chat_per_second), wait)
        await self.table.say(self.seat, text)
