"""The agent interface: an agent sees its seat's view and the legal actions, nothing else.

``Agent.act(game, view, legal, rng)`` returns one of ``legal``. ``game`` is the rules object (it
holds no position), ``view`` is ``state.observation(seat)`` — a plain JSON-ready dict — and
``legal`` the legal actions. Hidden information reaches a search agent only through
``game.sample_state(view, rng)``, which deals the unseen cards at random.

Agents subclass :class:`Agent` (as engines subclass the core protocol's classes), so that a
capability an agent does not declare has its default there.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, ClassVar, Protocol

from warboard.core.protocol import Action, Game, State


class Agent(Protocol):
    name: str
    # False: ``act`` never reads ``view``, and ``decide`` gives it an empty dict instead
    # (building the view costs a random agent more than its decision)
    reads_view: ClassVar[bool] = True

    def act(self, game: Game, view: dict[str, Any], legal: Sequence[Action],
            rng: random.Random) -> Action: ...


def view_seat(view: dict[str, Any]) -> int:
    """The seat a view belongs to: ``view["seat"]`` (the card games), else the seat to move (a
    perfect-information game such as Hold the Line gives every seat the same view)."""
    seat = view.get("seat")
    return view["to_move"] if seat is None else seat


def decide(agent: Agent, state: State, rng: random.Random) -> Action:
    """Ask ``agent`` for the decision of the seat to act in ``state``, giving it only that
    seat's view (the one place where a true state meets an agent): an empty one to an agent
    that does not read it."""
    view = state.observation(state.current_player()) if agent.reads_view else {}
    return agent.act(state.game, view, state.legal_actions(), rng)


def search_time(time_caps: bool, seconds: float | None) -> dict[str, Any]:
    """What a search's budget becomes (``make_agent``): by time alone (``seconds``), by its
    iterations alone (no ``time_caps``), or as it is."""
    if seconds is not None:
        return {"iterations": None, "seconds": seconds}
    return {} if time_caps else {"seconds": None}


def make_agent(spec: str, time_caps: bool = True, seconds: float | None = None) -> Agent:
    """An agent from its name: ``random``, ``greedy``, ``ismcts`` or ``ismcts:LEVEL``, a
    level alone (``easy``, ``medium``, ``hard``, ``expert``, ``master``), or ``model:FILE``,
    ``hard``'s search reading a trained model (``ai.model``). Without ``time_caps`` a level
    searches its full iteration budget however long it takes (reproducible on any machine);
    with ``seconds`` a search decides in that time whatever its iteration budget (to compare
    agents at equal time)."""
    from warboard.ai.levels import LEVELS, agent_for_level

    name, _, arg = spec.partition(":")
    caps = search_time(time_caps, seconds)
    if name in LEVELS and not arg:
        return agent_for_level(name, **caps)
    if name == "random" and not arg:
        from warboard.ai.simple import RandomAgent

        return RandomAgent()
    if name == "greedy" and not arg:
        from warboard.ai.simple import GreedyAgent

        return GreedyAgent()
    if name == "ismcts":
        return agent_for_level(arg or "hard", **caps)
    if name == "model" and arg:
        from warboard.ai.model import ModelAgent

        return ModelAgent(arg, search_time(time_caps, seconds))
    raise ValueError(f"unknown agent {spec!r}; agents: random, greedy, ismcts:LEVEL, a level "
                     f"({', '.join(LEVELS)}) or model:FILE (a trained model)")
