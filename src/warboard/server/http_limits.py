"""A limit on the size of a request's head (request line and headers) for Uvicorn's httptools
protocol, which would otherwise read a head whole, however large: a stranger could make the
server gather (and copy again with every part that arrives) a header of hundreds of megabytes.

``HeaderLimitProtocol`` measures the head as it arrives and answers one over
``max_header_bytes`` with ``431 Request Header Fields Too Large``, then closes the connection
without reading the rest. A WebSocket upgrade request is parsed the same way first, so it has
the same limit. ``warboard.server.serve`` falls back to h11's own limit where httptools is not
installed.
"""

from __future__ import annotations

from typing import ClassVar

import httptools
from uvicorn.protocols.http.httptools_impl import STATUS_LINE, HttpToolsProtocol

TOO_LARGE = b"Request header fields too large"
HEADER_FRAMING = len(b": \r\n")  # what a header adds to its name and value


class HeadTooLarge(Exception):
    """Raised in a parser callback to stop the parser: the head is over the limit."""


class HeaderLimitProtocol(HttpToolsProtocol):
    """Uvicorn's httptools protocol with request heads limited to ``max_header_bytes``.

    Two counts, so that the limit holds wherever the head falls in the chunks read: the parser's
    callbacks add up the parts it has finished (the URL and each whole header) and stop it as
    soon as they are over; and while a head is still unfinished after a chunk, every chunk
    after the one it began in counts whole (it is all head), so a header the parser is still
    gathering is counted too. At most two reads past the limit are taken in (one read is at
    most 256 KiB); a head under the limit is never refused, however it is cut into reads."""

    max_header_bytes: ClassVar[int]  # set by ``limited_protocol``

    _parsed = 0  # the finished parts of the current head
    _counted: int | None = None  # the bytes of the unfinished head; None: no head under way
    _began = False  # the current message began in the chunk being parsed

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._parsed, self._counted, self._began = 0, 0, True

    def on_url(self, url: bytes) -> None:
        super().on_url(url)
        self._add(len(url))

    def on_header(self, name: bytes, value: bytes) -> None:
        super().on_header(name, value)
        self._add(len(name) + len(value) + HEADER_FRAMING)

    def on_headers_complete(self) -> None:
        self._counted = None
        super().on_headers_complete()

    def _add(self, size: int) -> None:
        self._parsed += size
        if self._parsed > self.max_header_bytes:
            raise HeadTooLarge

    def data_received(self, data: bytes) -> None:
        # HttpToolsProtocol.data_received, with the head's size checked
        continued = self._counted is not None  # this chunk goes on with a head begun before
        self._began = False
        self._unset_keepalive_if_required()
        try:
            self.parser.feed_data(data)
        except httptools.HttpParserError as exc:
            if isinstance(exc.__context__, HeadTooLarge):
                self._refuse()
            else:
                msg = "Invalid HTTP request received."
                self.logger.warning(msg)
                self.send_400_response(msg)
            return
        except httptools.HttpParserUpgrade:
            if self._should_upgrade():
                self.handle_websocket_upgrade()
            else:
                self._unsupported_upgrade_warning()
            return
        if self._counted is not None:
            self._counted = (self._counted + len(data) if continued and not self._began
                             else self._parsed)
            if self._counted > self.max_header_bytes:
                self._refuse()

    def _refuse(self) -> None:
        """Answer 431 and close the connection; whatever else the client sends is not read."""
        self.logger.warning("A request head over %d bytes: answered 431.", self.max_header_bytes)
        content = [STATUS_LINE[431]]
        for name, value in self.server_state.default_headers:
            content.extend([name, b": ", value, b"\r\n"])
        content.extend([b"content-type: text/plain; charset=utf-8\r\n",
                        b"content-length: %d\r\n" % len(TOO_LARGE),
                        b"connection: close\r\n\r\n", TOO_LARGE])
        self.transport.write(b"".join(content))
        self.transport.close()


def limited_protocol(max_header_bytes: int) -> type[HeaderLimitProtocol]:
    """``HeaderLimitProtocol`` with this limit, for ``uvicorn.Config(http=...)``."""
    return type("HeaderLimitProtocol", (HeaderLimitProtocol,),
                {"max_header_bytes": max_header_bytes})
