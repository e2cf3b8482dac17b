"""The game-agnostic protocol that every engine implements and everything above it uses.

A *state* is a node of the game tree. At each node exactly one of these holds:

* ``current_player()`` is a seat (0 or 1): that seat decides among ``legal_actions()``;
* ``current_player() == CHANCE``: nature picks among ``chance_outcomes()`` (with probabilities);
* ``current_player() == TERMINAL``: the game is over and ``returns()`` gives the result.

Actions and chance outcomes are small hashable values; each game converts them to and from
JSON (``action_to_json`` / ``action_from_json``) so records, the server and other tools can carry
them. ``apply`` validates what it is given and raises ``IllegalActionError`` without changing
anything when the action is not legal.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

CHANCE = -1
TERMINAL = -4

Action = Hashable
JSON = Any


@runtime_checkable
class State(Protocol):
    """One position of a game, including everything hidden from the seats."""

    game: Game

    def current_player(self) -> int:
        """The seat to act, or ``CHANCE``, or ``TERMINAL``."""
        ...

    def legal_actions(self) -> list[Action]:
        """Every legal action of the seat to act, in a stable order (empty at chance/terminal)."""
        ...

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """Each possible chance outcome with its probability (only at chance nodes)."""
        ...

    def apply(self, action: Action) -> None:
        """Play a decision or a chance outcome; raises ``IllegalActionError`` and changes nothing
        when it is not legal here."""
        ...

    def is_terminal(self) -> bool: ...

    def returns(self) -> tuple[float, float]:
        """Each seat's result: +1 win, -1 loss, 0 draw (zero-sum); zeros while the game runs."""
        ...

    def observation(self, seat: int | None) -> dict[str, JSON]:
        """What ``seat`` may see, as JSON-ready data; ``None`` gives the public (spectator) view."""
        ...

    def clone(self) -> State:
        """An independent copy; applying actions to it leaves this state alone."""
        ...

    def to_json(self) -> dict[str, JSON]:
        """The full state (hidden parts included) as JSON-ready data; ``Game.state_from_json``
        reads it back."""
        ...


@runtime_checkable
class Game(Protocol):
    """A game with its options fixed: makes initial states and translates actions."""

    name: str
    options: Mapping[str, JSON]
    num_seats: int

    def new_initial_state(self) -> State: ...

    def action_to_json(self, action: Action) -> JSON: ...

    def action_from_json(self, data: JSON, state: State) -> Action: ...

    def action_to_text(self, action: Action) -> str: ...

    def state_from_json(self, data: Mapping[str, JSON]) -> State: ...


def returns_of(result: Mapping[str, Any] | None) -> tuple[float, float]:
    """The two seats' returns for a game's ``result`` (its ``winner``: 0, 1 or None): +1 for
    the winner and -1 for the loser, (0, 0) for a draw or while the game goes on."""
    if result is None or result["winner"] is None:
        return (0.0, 0.0)
    return (1.0, -1.0) if result["winner"] == 0 else (-1.0, 1.0)


def sample_chance(state: State, rng: random.Random) -> Action:
    """Draw one chance outcome of ``state`` with its probability, using ``rng``.

    A state may offer a faster ``sample_chance_outcome(rng)`` drawing from the same distribution.
    """
    fast = getattr(state, "sample_chance_outcome", None)
    if fast is not None:
        return fast(rng)
    outcomes = state.chance_outcomes()
    r = rng.random()
    acc = 0.0
    for outcome, p in outcomes:
        acc += p
        if r < acc:
            return outcome
    return outcomes[-1][0]


def public_data(game: Game) -> dict[str, JSON]:
    """What a client may show of ``game``'s rules (its units, terrain, names), as JSON-ready
    data: the game's own ``public_data()``, or nothing for a game without one."""
    own = getattr(game, "public_data", None)
    return own() if own is not None else {}


def outcome_probabilities_ok(outcomes: Sequence[tuple[Action, float]]) -> bool:
    """True when the probabilities of a chance node are positive and sum to one."""
    return bool(outcomes) and all(p > 0 for _, p in outcomes) and abs(
        sum(p for _, p in outcomes) - 1.0
    ) < 1e-9
