"""Playing levels: an agent and a budget each (see docs/ai.md)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from warboard.core.registry import games

# The levels' names, for the types that accept one (the server's messages): the keys of LEVELS,
# in its order (tests check that the two agree).
Level = Literal["easy", "medium", "hard", "expert", "master"]

# Iteration budgets make a level reproducible with a seed; the seconds cap bounds its answer
# time on a slow or busy machine (hard answers within a second on one core of the project's
# 2-core machine).
LEVELS: dict[str, dict[str, Any]] = {
    "easy": {"kind": "greedy"},
    "medium": {"kind": "ismcts", "iterations": 120, "seconds": 0.5},
    "hard": {"kind": "ismcts", "iterations": 400, "seconds": 0.95},
    # A bigger budget pays only with less exploration: at 2000 iterations and hard's 0.5 the
    # visits spread over ever more children and expert gained ~25 Elo (docs/ai.md).
    "expert": {"kind": "ismcts", "iterations": 1000, "exploration": 0.25, "seconds": 5.0},
    # The search reading the model a game ships, trained by self-play (docs/ai.md): its policy
    # as the priors, its value beside the hand evaluation. Only for a game whose own budget of
    # this level names that model file (``GameInfo.levels``: {"model": "package:file"}).
    # Compiled, 2000 iterations and the beliefs' weighing take about 0.1 s; at this budget
    # master scored 78.5% against expert's (docs/ai.md).
    "master": {"kind": "model", "iterations": 2000, "seconds": 0.9, "beliefs": True},
}

# A game may have its own budget for a level (``GameInfo.levels``, the same caps in seconds); an
# agent made for a level uses it when it plays that game.
GAME_LEVELS: dict[str, Mapping[str, Mapping[str, Any]]] = {
    game.name: game.levels for game in games() if game.levels}


def levels_for(game: str) -> list[str]:
    """The levels that play ``game``, weakest first: ``master`` only where it ships a model."""
    return [name for name, spec in LEVELS.items()
            if spec["kind"] != "model" or "model" in GAME_LEVELS.get(game, {}).get(name, {})]


def hint_level(game: str) -> str:
    """The level whose play a hint shows for ``game`` (``hint``): the strongest that plays
    it."""
    return levels_for(game)[-1]


def level_budget(level: str, game: str | None = None) -> dict[str, Any]:
    """The budget of ``level`` for ``game`` (the common one when the game has none)."""
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}; levels: {', '.join(LEVELS)}")
    return {**LEVELS[level], **GAME_LEVELS.get(game or "", {}).get(level, {})}


def agent_for_level(level: str, *, native: bool = True, **overrides: Any) -> Any:
    """The agent of ``level``; ``overrides`` (e.g. ``seconds=None``: no time cap) apply to its
    budget for every game; ``native=False``: its search in Python even where a compiled one is
    built."""
    spec = {**level_budget(level), **overrides}
    if spec["kind"] == "model":
        from warboard.ai.model import MasterAgent

        return MasterAgent(level, overrides, native)
    if spec["kind"] == "greedy":
        from warboard.ai.simple import GreedyAgent

        return GreedyAgent()
    from warboard.ai.ismcts import ISMCTSAgent

    def search(budget: dict[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in budget.items() if k in ISMCTSAgent.SETTINGS}

    per_game = {game: search({**level_budget(level, game), **overrides})
                for game, levels in GAME_LEVELS.items() if level in levels}
    return ISMCTSAgent(**search(spec), name=f"ismcts:{level}", per_game=per_game, native=native)
