"""Computer opponents for terminal play: the agents of ``warboard.ai`` by name or level.

``--ai LEVEL`` (``easy``, ``medium``, ``hard``, ``expert``) or ``--opponent random``. The agent
only ever sees its seat's view (``warboard.ai.agent.decide``), never the hidden cards.
"""

from __future__ import annotations

import random
from typing import Any

from warboard.ai.agent import decide
from warboard.ai.agent import make_agent as make_ai
from warboard.core.protocol import State

OPPONENTS = ("random", "greedy", "easy", "medium", "hard", "expert", "master")


class ComputerPlayer:
    """A seat played by an AI agent with its own seeded generator."""

    def __init__(self, name: str, seed: int | str | None = None) -> None:
        self.agent = make_ai(name)
        self.name = name
        self.rng = random.Random(seed)

    def choose(self, state: State) -> Any:
        """The agent's action for the seat to act in ``state`` (a decision node)."""
        return decide(self.agent, state, self.rng)


def make_agent(name: str, seed: int | str | None = None) -> ComputerPlayer:
    """The computer opponent ``name``; ``ValueError`` lists the known names."""
    if name not in OPPONENTS:
        raise ValueError(f"unknown opponent {name!r}; opponents: {', '.join(OPPONENTS)}")
    return ComputerPlayer(name, seed)
