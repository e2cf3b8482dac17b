"""What one client may spend: games created a minute, players created an hour, WebSocket
messages a second, API requests a minute (moving windows counted by the ``limits`` library, in
memory or in Redis), and the WebSocket connections it holds open at once (counted here, per
process).

A limit that is used up answers how many seconds to wait (``Retry-After``); ``None`` means go
ahead. When the shared counter (Redis) cannot be reached the request is let through and a
warning logged: a club table keeps playing rather than refuse everyone.

The counting is synchronous: in memory it costs microseconds, and ``limits``' asyncio memory
storage walks every key through a thread on each expiry pass, which with hundreds of clients
cost a third of a core (docs/load.md). A Redis on loopback answers in well under a millisecond.
"""

from __future__ import annotations

import logging
import math
import time
from collections import Counter

from limits import (
    RateLimitItem,
    RateLimitItemPerHour,
    RateLimitItemPerMinute,
    RateLimitItemPerSecond,
)
from limits.storage import storage_from_string
from limits.strategies import MovingWindowRateLimiter
from starlette.types import Scope

from warboard.server.metrics import Metrics
from warboard.server.settings import ServerSettings

log = logging.getLogger("warboard.server")


def client_of(scope: Scope) -> str:
    """The client a request or WebSocket comes from, for its quotas: its address (behind a
    trusted proxy, the one the proxy names: Uvicorn's ``forwarded_allow_ips``)."""
    client = scope.get("client")
    return client[0] if client else "unknown"


class Quotas:
    """The per-client limits of one server process (their counts may be shared: Redis)."""

    def __init__(self, settings: ServerSettings, metrics: Metrics | None = None) -> None:
        self._refused = (metrics if metrics is not None else Metrics()).rate_limited
        self._limiter = MovingWindowRateLimiter(storage_from_string(settings.rate_limit_storage))
        self._games = RateLimitItemPerMinute(settings.games_per_minute, namespace="games")
        self._players = RateLimitItemPerHour(settings.players_per_hour, namespace="players")
        self._messages = RateLimitItemPerSecond(settings.messages_per_second,
                                                namespace="messages")
        self._requests = RateLimitItemPerMinute(settings.requests_per_minute,
                                                namespace="requests")
        self._chat = RateLimitItemPerSecond(settings.chat_per_second, namespace="chat")
        self.sockets_per_client = settings.sockets_per_client
        self._sockets: Counter[str] = Counter()

    def _hit(self, item: RateLimitItem, client: str) -> float | None:
        if item.amount == 0:
            return None
        try:
            if self._limiter.hit(item, client):
                return None
            stats = self._limiter.get_window_stats(item, client)
        except Exception as exc:  # the counter's store (Redis) is down: let it through
            log.warning("rate limit not counted (%s): %s", type(exc).__name__, exc)
            return None
        self._refused.labels(item.namespace).inc()
        return max(1.0, math.ceil(stats.reset_time - time.time()))

    def new_game(self, client: str) -> float | None:
        """Count a game ``client`` creates; seconds to wait when it may not now."""
        return self._hit(self._games, client)

    def new_player(self, client: str) -> float | None:
        """Count a player ``client`` creates; seconds to wait when it may not now."""
        return self._hit(self._players, client)

    def message(self, client: str) -> float | None:
        """Count a WebSocket message from ``client``."""
        return self._hit(self._messages, client)

    def chat(self, client: str) -> float | None:
        """Count a chat line from ``client``."""
        return self._hit(self._chat, client)

    def request(self, client: str) -> float | None:
        """Count an HTTP API request from ``client``."""
        return self._hit(self._requests, client)

    @property
    def games_per_minute(self) -> int:
        return self._games.amount

    @property
    def players_per_hour(self) -> int:
        return self._players.amount

    @property
    def messages_per_second(self) -> int:
        return self._messages.amount

    @property
    def chat_per_second(self) -> int:
        return self._chat.amount

    @property
    def requests_per_minute(self) -> int:
        return self._requests.amount

    def open_socket(self, client: str) -> bool:
        """Count a WebSocket ``client`` opens; ``False`` (not counted) when it holds too many."""
        if self.sockets_per_client and self._sockets[client] >= self.sockets_per_client:
            self._refused.labels("sockets").inc()
            return False
        self._sockets[client] += 1
        return True

    def close_socket(self, client: str) -> None:
        self._sockets[client] -= 1
        if self._sockets[client] <= 0:
            del self._sockets[client]
