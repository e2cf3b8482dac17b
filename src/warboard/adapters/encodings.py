"""The plug-in point of the research adapters: one small fixed-shape *encoding* per game.

The OpenSpiel game, the PettingZoo environment and the Gymnasium wrapper are written once, on
the core protocol (``warboard.core.protocol``). All they need to know about a particular game is
an :class:`Encoding`: how many action ids there are and which play each id stands for, how chance
outcomes are numbered, and how a seat's view (``state.observation(seat)``) is written into
fixed-size arrays. A game plugs in with a module of its package that provides
``parameters(name)`` and ``make_encoding(name, params)``, named by its descriptor
(``GameInfo.encoding``; docs/adapters.md, "Adding a game").
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any, Protocol

import numpy as np

from warboard.core import registry
from warboard.core.protocol import JSON, Action, Game, State

Param = bool | int | float | str


class Encoding(Protocol):
    """A game with its options fixed, seen through fixed shapes.

    Action ids are per seat: ``action(seat, action_id(seat, a)) == a`` for every play ``a`` that
    has an id. A play without an id (``action_id`` gives ``None``, e.g. a card placed outside the
    card games' window) can never be chosen through an adapter; it is never replaced by another.
    Chance outcomes have their own ids, ``0 .. num_chance_outcomes - 1``.

    The observation of a seat is three arrays, all of them functions of that seat's view only:
    ``board`` (``len(plane_names)`` planes, each ``rows × cols``), ``public`` (one value per
    ``public_names``) and ``private`` (one per ``private_names``). Every value lies in [0, 1].
    The ``write_*`` methods receive zeroed arrays.

    The adapters number the legal plays with ``action_ids(state, actions)``: by default each
    play's ``action_id``. An encoding that numbers plays from the position overrides it (Hold
    the Line numbers a move by its outcome, relative to where the unit stands); its
    ``action(seat, id)`` may then return a description of the id rather than the play, and
    ``action_text(seat, id)`` writes it.
    """

    name: str  # the game's name
    params: dict[str, Param]  # every parameter (make_encoding(name, params) is this encoding)
    game: Game
    num_actions: int
    num_chance_outcomes: int
    max_decisions: int  # decisions in one game, at most
    max_chance_events: int  # chance events in one game, at most
    hidden_information: bool
    plane_names: tuple[str, ...]
    board_size: tuple[int, int]  # (rows, cols) of each plane
    public_names: tuple[str, ...]
    private_names: tuple[str, ...]

    def action_id(self, seat: int, action: Action) -> int | None: ...

    def action(self, seat: int, action_id: int) -> Action: ...

    def chance_id(self, outcome: Action) -> int: ...

    def chance_outcome(self, chance_id: int) -> Action: ...

    def action_ids(self, state: State, actions: Sequence[Action]) -> list[int | None]:
        """The id of each of ``actions``, the legal plays of ``state``, in their order."""
        seat = state.current_player()
        return [self.action_id(seat, action) for action in actions]

    def action_text(self, seat: int, action_id: int) -> str:
        """``action_id`` of ``seat`` in words, without a position."""
        return self.game.action_to_text(self.action(seat, action_id))

    def board_text(self, view: Mapping[str, JSON]) -> str:
        """``view`` (any seat's, or the spectator's) as text, the environments' ``ansi``
        render: by default its JSON; a game draws its board."""
        return json.dumps(view, indent=1)

    def view(self, state: State, seat: int) -> Mapping[str, JSON]:
        """What the ``write_*`` methods read of ``state.observation(seat)``: by default the
        whole view; an encoding that reads a few of its fields may make only those (the same
        values, from the game's own code)."""
        return state.observation(seat)

    def write_public(self, view: Mapping[str, JSON], seat: int, board: np.ndarray,
                     public: np.ndarray) -> None:
        """Write the public part of ``view`` (any seat's view, or the spectator's) as seen from
        ``seat``."""
        ...

    def write_private(self, view: Mapping[str, JSON], private: np.ndarray) -> None:
        """Write what only ``view["seat"]`` knows (``view`` is ``observation(seat)``)."""
        ...

    def observe_flat(self, state: State, seat: int) -> np.ndarray:
        """``seat``'s observation as one float32 vector (``adapters.base.flat_observation``):
        by default the ``write_*`` methods' arrays of ``view``; an encoding may write the same
        values straight from the state."""
        rows, cols = self.board_size
        n_board = len(self.plane_names) * rows * cols
        n_public = len(self.public_names)
        out = np.zeros(n_board + n_public + len(self.private_names), np.float32)
        view = self.view(state, seat)
        self.write_public(view, seat, out[:n_board].reshape(-1, rows, cols),
                          out[n_board:n_board + n_public])
        self.write_private(view, out[n_board + n_public:])
        return out


def game_names() -> list[str]:
    """The games with an encoding."""
    return [g.name for g in registry.games() if g.encoding is not None]


def _module(name: str) -> Any:
    module = registry.info(name).encoding if name in registry.game_names() else None
    if module is None:
        raise ValueError(f"no encoding for game {name!r}; games: {', '.join(game_names())}")
    return importlib.import_module(module)


def parameters(name: str) -> dict[str, Param]:
    """The game's parameters with their defaults (OpenSpiel game parameters, environment
    options): ruleset options and the encoding's own (the card games' ``window``)."""
    return dict(_module(name).parameters(name))


def make_encoding(name: str, params: Mapping[str, Param] | None = None) -> Encoding:
    """The encoding of game ``name``; ``params`` override :func:`parameters` (an unknown one is
    a ``ValueError``). Encodings are immutable and shared: the same parameters give the same
    object."""
    defaults = parameters(name)
    given = dict(params or {})
    unknown = sorted(set(given) - set(defaults))
    if unknown:
        raise ValueError(f"unknown parameter {unknown[0]!r} for {name}; parameters: "
                         f"{', '.join(defaults)}")
    for key, value in given.items():
        if not isinstance(value, Param):
            raise ValueError(f"parameter {key!r} for {name} must be a boolean, a number or a "
                             f"string, not {type(value).__name__}")
    return _cached(name, tuple(sorted({**defaults, **given}.items())))


@cache
def _cached(name: str, params: tuple[tuple[str, Param], ...]) -> Encoding:
    return _module(name).make_encoding(name, dict(params))
