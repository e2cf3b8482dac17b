"""Playing levels: an agent and a budget each (see docs/ai.md)."""

from __future__ import annotations

from typing import Any

# Iteration budgets make a level reproducible with a seed; the seconds cap bounds its answer
# time on a slow or busy machine (hard answers within a second on one core of the project's
# 2-core machine).
LEVELS: dict[str, dict[str, Any]] = {
    "easy": {"kind": "greedy"},
    "medium": {"kind": "ismcts", "iterations": 120, "seconds": 0.5},
    "hard": {"kind": "ismcts", "iterations": 400, "seconds": 0.95},
    "expert": {"kind": "ismcts", "iterations": 2000, "seconds": 5.0},
}


def agent_for_level(level: str, **overrides: Any) -> Any:
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}; levels: {', '.join(LEVELS)}")
    spec = {**LEVELS[level], **overrides}
    if spec["kind"] == "greedy":
        from warboard.ai.simple import GreedyAgent

        return GreedyAgent()
    from warboard.ai.ismcts import ISMCTSAgent

    return ISMCTSAgent(iterations=spec.get("iterations"), seconds=spec.get("seconds"),
                       name=f"ismcts:{level}")
