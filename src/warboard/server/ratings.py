"""Glicko-2 ratings, one per player and game (the ``glicko2`` library does the maths), and the
computer's levels' fixed ratings.

Each rated game is its own rating period: when it ends, each player's rating is updated
against the other side's rating from before the game (docs/ratings.md). The computer's
levels are pseudo-players whose ratings never change: ``LEVEL_RATINGS``, derived from the
arena's measurements between the levels (docs/ratings.md says how; provisional until the
published ladder, docs/ai.md's "The ladder", separates every level).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import glicko2

START_RATING, START_DEVIATION, START_VOLATILITY = 1500.0, 350.0, 0.06  # Glicko-2's own


@dataclass(frozen=True)
class Rating:
    rating: float = START_RATING
    deviation: float = START_DEVIATION
    volatility: float = START_VOLATILITY
    games: int = 0  # rated games played


# The one table of the computer's ratings (docs/ratings.md): the arena's Elo differences
# between the agents, anchored at random play = 600; medium, never measured, halfway between
# easy and hard.
LEVEL_RATINGS: dict[str, float] = {"easy": 1590.0, "medium": 1700.0, "hard": 1815.0,
                                   "expert": 1900.0, "master": 2115.0}
LEVEL_DEVIATION = 50.0  # how sure the fixed ratings are, as the players' updates see it


def level_rating(level: str) -> Rating:
    """The fixed rating of the computer at ``level``."""
    return Rating(LEVEL_RATINGS[level], LEVEL_DEVIATION)


def scores(result: dict[str, Any] | None) -> tuple[float, float] | None:
    """Each seat's score in a finished game (1 a win, 0.5 a draw, 0 a loss) from its stored
    result: the engine's ``returns``, or an abandoned game's loser (``by``: who resigned or
    ran out of time). ``None`` when it has no winner or loser to rate (expired)."""
    if not result:
        return None
    returns = result.get("returns")
    if isinstance(returns, list) and len(returns) == 2:
        first, second = returns
        return (1.0, 0.0) if first > second else (0.0, 1.0) if first < second else (0.5, 0.5)
    loser = result.get("by") if result.get("abandoned") else None
    if loser in (0, 1):
        return (0.0, 1.0) if loser == 0 else (1.0, 0.0)
    return None


def updated(mine: Rating, other: Rating, score: float) -> Rating:
    """``mine`` after one game scoring ``score`` against ``other``."""
    player = glicko2.Player(mine.rating, mine.deviation, mine.volatility)
    player.update_player([other.rating], [other.deviation], [score])
    return Rating(player.rating, player.rd, player.vol, mine.games + 1)
