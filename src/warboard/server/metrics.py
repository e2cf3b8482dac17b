"""The server's Prometheus metrics (``GET /metrics``), in a registry of each app's own (tests
build many apps in one process; the global registry would refuse the second).

Counted where it happens: plays and refusals at the tables and connections, the rate-limit
refusals by kind in ``Quotas`` (and ``Tables`` for live games against the computer); read when
scraped: the live games and the computer's queue.
"""

from __future__ import annotations

from collections.abc import Callable

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)

# a play's time in the server: a lock, the rules, a commit, a broadcast (milliseconds usually)
PLAY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
# the computer's decisions, from a move at once to an expert's search
DECISION_BUCKETS = (0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0)


class Metrics:
    """The metrics of one app."""

    content_type = CONTENT_TYPE_LATEST

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.plays = Counter("warboard_plays", "plays stored, the computer's included",
                             ["game"], registry=self.registry)
        self.errors = Counter("warboard_play_errors",
                              "players' messages refused (refused) or failed on a bug (failed)",
                              ["game", "kind"], registry=self.registry)
        self.play_seconds = Histogram("warboard_play_seconds",
                                      "time a player's message spends in the server",
                                      ["game"], buckets=PLAY_BUCKETS, registry=self.registry)
        self.decision_seconds = Histogram("warboard_ai_decision_seconds",
                                          "time the computer takes to decide, its wait in the "
                                          "queue included", ["game"],
                                          buckets=DECISION_BUCKETS, registry=self.registry)
        self.sockets = Gauge("warboard_websockets", "WebSocket connections open",
                             registry=self.registry)
        self.rate_limited = Counter("warboard_rate_limit_refusals",
                                    "requests refused for a client's limit, by limit", ["kind"],
                                    registry=self.registry)
        self._games_active = Gauge("warboard_games_active",
                                   "games in memory that are not over", registry=self.registry)
        self._ai_queue = Gauge("warboard_ai_queue_length",
                               "the computer's decisions waiting for a worker",
                               registry=self.registry)

    def watch(self, games_active: Callable[[], float], ai_queue: Callable[[], float]) -> None:
        """Read these when scraped."""
        self._games_active.set_function(games_active)
        self._ai_queue.set_function(ai_queue)

    def render(self) -> bytes:
        return generate_latest(self.registry)
