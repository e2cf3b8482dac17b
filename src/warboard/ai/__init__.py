"""AI agents: random, greedy and information-set Monte-Carlo tree search, with levels."""

from warboard.ai.agent import Agent, make_agent

__all__ = ["Agent", "make_agent"]
