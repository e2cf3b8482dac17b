"""What one client may spend: games created a minute, players and custom scenarios created an
hour, WebSocket messages a second, chat lines a second, API requests a minute (moving windows
counted in memory or in Redis: ``windows``), and the WebSocket connections it holds open at once
(counted here, per process).

A limit that is used up answers how many seconds to wait (``Retry-After``); ``None`` means go
ahead. When the shared counter (Redis) cannot be reached the request is let through and a
warning logged: a club table keeps playing rather than refuse everyone.

The counting is synchronous: in memory it costs a microsecond, and ``limits``' asyncio memory
storage walks every key through a thread on each expiry pass, which with hundreds of clients
cost a third of a core (docs/load.md). A Redis on loopback answers in well under a millisecond.
"""

from __future__ import annotations

import logging
import math
from collections import Counter

from starlette.types import Scope

from warboard.server.metrics import Metrics
from warboard.server.settings import ServerSettings
from warboard.server.windows import Limit, windows_for

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
        self._windows = windows_for(settings.rate_limit_storage)
        self._games = Limit("games", settings.games_per_minute, 60)
        self._players = Limit("players", settings.players_per_hour, 3600)
        self._scenarios = Limit("scenarios", settings.scenarios_per_hour, 3600)
        self._analyses = Limit("analyses", settings.analyses_per_hour, 3600)
        self._messages = Limit("messages", settings.messages_per_second, 1)
        self._requests = Limit("requests", settings.requests_per_minute, 60)
        self._chat = Limit("chat", settings.chat_per_second, 1)
        self.sockets_per_client = settings.sockets_per_client
        self._sockets: Counter[str] = Counter()

    def _hit(self, limit: Limit, client: str) -> float | None:
        if limit.amount == 0:
            return None
        try:
            wait = self._windows.hit(limit, client)
        except Exception as exc:  # the counter's store (Redis) is down: let it through
            log.warning("rate limit not counted (%s): %s", type(exc).__name__, exc)
            return None
        if wait is None:
            return None
        self._refused.labels(limit.namespace).inc()
        return max(1.0, math.ceil(wait))

    def new_game(self, client: str) -> float | None:
        """Count a game ``client`` creates; seconds to wait when it may not now."""
        return self._hit(self._games, client)

    def new_player(self, client: str) -> float | None:
        """Count a player ``client`` creates; seconds to wait when it may not now."""
        return self._hit(self._players, client)

    def new_scenario(self, client: str) -> float | None:
        """Count a custom scenario ``client`` stores; seconds to wait when it may not now."""
        return self._hit(self._scenarios, client)

    def new_analysis(self, client: str) -> float | None:
        """Count a post-game analysis ``client`` starts; seconds to wait when it may not now."""
        return self._hit(self._analyses, client)

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
    def scenarios_per_hour(self) -> int:
        return self._scenarios.amount

    @property
    def analyses_per_hour(self) -> int:
        return self._analyses.amount

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
