"""Moving windows of one client's hits: at most ``amount`` in any ``seconds``. Counted in this
process (``LocalWindows``) or shared by several processes in Redis (``SharedWindows``, with the
``limits`` library); both answer a refused hit with the seconds until the window has room.

``limits``' own memory storage starts a thread for every expiry pass (one every 10 ms under
load), which walks every client's keys: at a blitz pace that was a tenth of the server's CPU
on the play path (docs/load.md). ``LocalWindows`` drops a client's old hits as it counts, and
forgets idle clients once a minute.
"""

from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass
from typing import Protocol

from limits import (
    RateLimitItem,
    RateLimitItemPerHour,
    RateLimitItemPerMinute,
    RateLimitItemPerSecond,
)
from limits.storage import storage_from_string
from limits.strategies import MovingWindowRateLimiter

SWEEP_SECONDS = 60.0  # how often LocalWindows forgets the clients with no hit in their window
# the window lengths a limit may have, as the ``limits`` library names them
ITEMS: dict[int, type[RateLimitItem]] = {1: RateLimitItemPerSecond, 60: RateLimitItemPerMinute,
                                         3600: RateLimitItemPerHour}


@dataclass(frozen=True)
class Limit:
    """``amount`` hits in any ``seconds`` (a second, a minute or an hour: ``ITEMS``), counted
    under ``namespace``."""

    namespace: str
    amount: int
    seconds: int


class Windows(Protocol):
    def hit(self, limit: Limit, client: str) -> float | None:
        """Count a hit of ``client``; ``None`` when it is within ``limit``, else (not counted)
        the seconds until it would be."""
        ...


class LocalWindows:
    """The windows of this process: each client's hit times in its last window, oldest first."""

    def __init__(self) -> None:
        self._hits: dict[Limit, dict[str, deque[float]]] = {}
        self._swept = time.monotonic()

    def hit(self, limit: Limit, client: str) -> float | None:
        moment = time.monotonic()
        if moment - self._swept > SWEEP_SECONDS:
            self._sweep(moment)
        clients = self._hits.setdefault(limit, {})
        hits = clients.get(client)
        if hits is None:
            hits = clients[client] = deque()
        start = moment - limit.seconds
        while hits and hits[0] < start:
            hits.popleft()
        if len(hits) < limit.amount:
            hits.append(moment)
            return None
        return hits[0] - start

    def _sweep(self, moment: float) -> None:
        self._swept = moment
        for limit, clients in self._hits.items():
            start = moment - limit.seconds
            self._hits[limit] = {client: hits for client, hits in clients.items()
                                 if hits and hits[-1] >= start}


class SharedWindows:
    """The windows of every process of one Redis (``url``: ``redis://HOST:PORT``)."""

    def __init__(self, url: str) -> None:
        self._limiter = MovingWindowRateLimiter(storage_from_string(url))
        self._items: dict[Limit, RateLimitItem] = {}

    def _item(self, limit: Limit) -> RateLimitItem:
        if limit not in self._items:
            self._items[limit] = ITEMS[limit.seconds](limit.amount, namespace=limit.namespace)
        return self._items[limit]

    def hit(self, limit: Limit, client: str) -> float | None:
        item = self._item(limit)
        if self._limiter.hit(item, client):
            return None
        return self._limiter.get_window_stats(item, client).reset_time - time.time()


def windows_for(storage: str) -> Windows:
    """The windows of the setting ``rate_limit_storage``: ``memory://`` or a Redis URL."""
    return LocalWindows() if storage == "memory://" else SharedWindows(storage)
