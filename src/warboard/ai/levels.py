"""Playing levels: an agent and a budget each (see docs/ai.md)."""

from __future__ import annotations

from typing import Any

LEVELS: dict[str, dict[str, Any]] = {
    "easy": {"kind": "greedy"},
    "medium": {"kind": "ismcts", "iterations": 150, "seconds": 0.5},
    "hard": {"kind": "ismcts", "iterations": None, "seconds": 0.8},
    "expert": {"kind": "ismcts", "iterations": None, "seconds": 3.0},
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
