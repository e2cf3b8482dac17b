"""Computer opponents for terminal play, chosen by name (``--opponent random``).

An agent picks one of ``state.legal_actions()`` for the seat to act. It is handed the engine
state, which holds hidden cards: a fair agent reads only what its seat may know
(``state.observation(seat)``, or a sampler of the hidden cards). To add one, write a class with
``choose`` and register its factory in ``AGENTS``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Protocol

from warboard.core.protocol import State


class Agent(Protocol):
    """A player that needs no keyboard."""

    name: str

    def choose(self, state: State) -> Any:
        """One legal action of the seat to act in ``state`` (a decision node)."""
        ...


class RandomAgent:
    """Plays a uniformly random legal action (setup burials included)."""

    name = "random"

    def __init__(self, seed: int | str | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: State) -> Any:
        return self.rng.choice(state.legal_actions())


# name -> factory taking a seed (agents that need no randomness may ignore it)
AGENTS: dict[str, Callable[[int | str | None], Agent]] = {"random": RandomAgent}


def make_agent(name: str, seed: int | str | None = None) -> Agent:
    """The agent registered as ``name``; ``ValueError`` lists the known names."""
    try:
        factory = AGENTS[name]
    except KeyError:
        raise ValueError(f"unknown opponent {name!r}; opponents: {', '.join(AGENTS)}") from None
    return factory(seed)
