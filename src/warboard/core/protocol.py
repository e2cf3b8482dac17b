"""The game-agnostic protocol that every engine implements and everything above it uses.

A *state* is a node of the game tree. At each node exactly one of these holds:

* ``current_player()`` is a seat (0 or 1): that seat decides among ``legal_actions()``;
* ``current_player() == CHANCE``: nature picks among ``chance_outcomes()`` (with probabilities);
* ``current_player() == TERMINAL``: the game is over and ``returns()`` gives the result.

Actions and chance outcomes are small hashable values; each game converts them to and from
JSON (``action_to_json`` / ``action_from_json``) so records, the server and other tools can carry
them. ``apply`` validates what it is given and raises ``IllegalActionError`` without changing
anything when the action is not legal.

Everything the layers above call is declared here. What a game may leave unsaid has a default
in these classes, which every engine subclasses: a faster chance draw
(``State.sample_chance_outcome``), descriptions of the legal actions (``State.action_hints``,
asked only when ``Game.describes_actions``), which seat may learn which event
(``Game.visible_to``), when a seat may take back its last decision (``Game.undo_refusal``) and
how its log is told (``Game.narrator``).
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, runtime_checkable

from warboard.core.i18n import Msg, msg

if TYPE_CHECKING:
    from warboard.core.narration import Narrator

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

    def sample_chance_outcome(self, rng: random.Random) -> Action:
        """One of ``chance_outcomes()`` drawn with its probability, using ``rng`` (a state may
        draw from the same distribution faster than it lists it)."""
        outcomes = self.chance_outcomes()
        r = rng.random()
        acc = 0.0
        for outcome, p in outcomes:
            acc += p
            if r < acc:
                return outcome
        return outcomes[-1][0]

    def action_hints(self, action: Action) -> dict[str, JSON]:
        """What the rules tell a player about a legal action before it is played (chances,
        costs), as JSON-ready data; asked only when ``game.describes_actions``."""
        return {}


@runtime_checkable
class Game(Protocol):
    """A game with its options fixed: makes initial states and translates actions."""

    name: str
    options: Mapping[str, JSON]
    num_seats: int
    describes_actions: ClassVar[bool] = False  # its states' action_hints say something
    # a seat's view holds what the other's does not (a hand): what is found from one seat's
    # view (a post-game analysis of its decisions) is shown to that seat alone
    private_views: ClassVar[bool] = False

    def new_initial_state(self) -> State: ...

    def action_to_json(self, action: Action) -> JSON: ...

    def action_from_json(self, data: JSON, state: State) -> Action: ...

    def action_to_text(self, action: Action) -> str: ...

    def state_from_json(self, data: Mapping[str, JSON]) -> State: ...

    def sample_state(self, view: Mapping[str, JSON], rng: random.Random) -> State:
        """A full state consistent with a seat's view (``observation(seat)``), what the seat
        has not seen drawn with ``rng``: how search and resampling see hidden information."""
        ...

    def visible_to(self, state: State, action: Action, seat: int) -> bool:
        """May ``seat`` learn ``action``, about to be applied to ``state``? (By default every
        event is public.)"""
        return True

    def undo_refusal(self, state: State, events: Sequence[Mapping[str, JSON]],
                     seat: int) -> Msg | None:
        """Why ``seat`` may not take back the last of ``events`` (the record's, which led to
        ``state``), as a message (``core.i18n``), or ``None`` when it may. By default only its
        own decision, so never past a chance outcome or the other seat's decision."""
        if not events or events[-1].get("seat") != seat:
            return msg("rules.undo.ownOnly")
        return None

    def narrator(self) -> Narrator:
        """How the game's log is told to each reader (by default: not at all)."""
        from warboard.core.narration import Narrator

        return Narrator()

    def public_data(self) -> dict[str, JSON]:
        """What a client may show of the game's rules (its units, terrain, names) as JSON-ready
        data (by default nothing)."""
        return {}


@runtime_checkable
class Series(Protocol):
    """A game's series (``GameInfo.series``): fixed sequences of its games played one after the
    other, whose points add up (Hold the Line's campaigns). A series in play is its
    *progress*, JSON-ready data the series makes and reads back: the layers above store it and
    show it, and ask the series what comes next. In it, ``over`` (bool), ``totals`` (side
    name to points), ``winner`` (a side name; ``None`` for a draw or while it goes on) and
    ``next`` (what the next game is called; ``None`` once over) mean the same in every game.

    The seats of a series are *sides* (``seat_sides``): a side may hold another seat in the
    next game, and its player follows it."""

    def summaries(self) -> list[dict[str, JSON]]:
        """Every series of the game: ``name``, ``title``, ``summary`` and ``games`` (each
        one's ``options`` and ``title``), in the order they are listed."""
        ...

    def start(self, name: str) -> dict[str, JSON]:
        """The progress of series ``name`` with nothing played; ``ValueError`` when there is
        no such series."""
        ...

    def next_options(self, progress: Mapping[str, JSON]) -> dict[str, JSON] | None:
        """The options of the series' next game (``None`` once it is over); ``ValueError`` for
        progress it cannot read."""
        ...

    def finish(self, progress: Mapping[str, JSON], state: State,
               ruled_winner: int | None) -> dict[str, JSON]:
        """The progress once the next game ended at ``state``: its own end when ``state`` is
        terminal, else the seat ``ruled_winner`` won it (a resignation, a flag; ``None``: a
        draw)."""
        ...

    def seat_sides(self, options: Mapping[str, JSON]) -> tuple[str, str]:
        """The side each seat plays in the series' game of ``options``."""
        ...


def returns_of(result: Mapping[str, Any] | None) -> tuple[float, float]:
    """The two seats' returns for a game's ``result`` (its ``winner``: 0, 1 or None): +1 for
    the winner and -1 for the loser, (0, 0) for a draw or while the game goes on."""
    if result is None or result["winner"] is None:
        return (0.0, 0.0)
    return (1.0, -1.0) if result["winner"] == 0 else (-1.0, 1.0)


def sample_chance(state: State, rng: random.Random) -> Action:
    """Draw one chance outcome of ``state`` with its probability, using ``rng``."""
    return state.sample_chance_outcome(rng)


def outcome_probabilities_ok(outcomes: Sequence[tuple[Action, float]]) -> bool:
    """True when the probabilities of a chance node are positive and sum to one."""
    return bool(outcomes) and all(p > 0 for _, p in outcomes) and abs(
        sum(p for _, p in outcomes) - 1.0
    ) < 1e-9


# ----------------------------------------------------------------------------- custom setups
# A game whose players may design their own battles (``GameInfo.custom_setups``) checks and
# turns their text into game options through these; the server stores the text, never a path.

@dataclass(frozen=True)
class SetupProblem:
    """What is wrong with a custom setup: the ``field`` (a path into the text's data, e.g.
    ``sides.british.units[3].at``), the ``problem`` in English, the board place it names, if any,
    and the problem as a message (``core.i18n``) where it has one."""

    field: str
    problem: str
    at: tuple[int, ...] | None = None
    msg: dict[str, JSON] | None = None

    def to_json(self) -> dict[str, JSON]:
        out: dict[str, JSON] = {"field": self.field, "problem": self.problem,
                                "at": None if self.at is None else list(self.at)}
        return out if self.msg is None else out | {"msg": self.msg}


@dataclass(frozen=True)
class SetupCheck:
    """A custom setup checked: when valid (no ``problems``), its canonical ``text``, the
    editor's ``model`` of it and a ``summary`` for lists; else what is wrong."""

    text: str = ""
    model: dict[str, JSON] | None = None
    summary: dict[str, JSON] | None = None
    problems: tuple[SetupProblem, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.problems


@runtime_checkable
class CustomSetups(Protocol):
    """A game's own-battle capability: check a setup given as text or as the editor's model,
    and the game options that play a valid text."""

    def check_text(self, text: str) -> SetupCheck:
        """``text`` checked; too long a text is a problem like any other."""
        ...

    def check_model(self, model: Mapping[str, JSON]) -> SetupCheck: ...

    def options_for(self, text: str) -> dict[str, JSON]:
        """The options of ``make_game`` that play ``text`` (valid: ``check_text`` passed)."""
        ...

    def listed_options(self, options: Mapping[str, JSON]) -> dict[str, JSON]:
        """``options`` as state messages and the lobby show them: a custom setup's whole text
        (kept in the stored game and its record) replaced by its name."""
        ...
