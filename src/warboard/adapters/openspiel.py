"""warboard's games as OpenSpiel Python games (extra ``openspiel``).

Importing this module registers every game with an encoding as ``warboard_NAME``, so that
``pyspiel.load_game("warboard_NAME(window=21)")`` works (parameters: ``encodings.parameters``). The
game is the warboard engine behind the core protocol; the fixed action ids and tensors come from
the game's encoding (``warboard.adapters.encodings``). See docs/adapters.md.

* chance is explicit: ``chance_outcomes()`` lists each outcome's id with its probability;
* information-state strings are the seat's whole history (each event as the seat saw it, the
  other seat's draws and burials as ``hidden``) plus its current view; observation strings are
  the current view; tensors are the encoding's planes and values (the same for both, since the
  current view determines everything the rules can still do);
* ``resample_from_infostate(player, rng)`` deals the unseen cards at random
  (``game.sample_state``), for OpenSpiel's IS-MCTS;
* serialization is OpenSpiel's own for Python games (the history and the pickled state, which
  pickles as the engine's full-state JSON).
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from typing import Any

try:
    import pyspiel
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise ImportError("warboard.adapters.openspiel needs OpenSpiel: "
                      "pip install 'warboard[openspiel]'") from exc
import numpy as np

from warboard.adapters.base import chance_ids, legal_action_ids
from warboard.adapters.encodings import Encoding, game_names, make_encoding, parameters
from warboard.core.protocol import CHANCE, Action
from warboard.core.protocol import State as WarboardState
from warboard.core.replay import seen_by

# draws for resample_from_infostate when OpenSpiel passes one of its own samplers (they cannot
# be called from Python); seed it for reproducible searches, or pass a random.Random
RESAMPLE_RNG = random.Random()


def short_name(game: str) -> str:
    return f"warboard_{game}"


def game_type(game: str) -> pyspiel.GameType:
    hidden = make_encoding(game).hidden_information
    return pyspiel.GameType(
        short_name=short_name(game),
        long_name=f"warboard {game}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=(pyspiel.GameType.Information.IMPERFECT_INFORMATION if hidden
                     else pyspiel.GameType.Information.PERFECT_INFORMATION),
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameters(game),
    )


class Game(pyspiel.Game):
    """A warboard game with its parameters fixed (``self.encoding``); each game registers a
    subclass naming it (``game_name``)."""

    game_name: str

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        name = self.game_name
        self.encoding = make_encoding(name, params)
        enc = self.encoding
        info = pyspiel.GameInfo(
            num_distinct_actions=enc.num_actions,
            max_chance_outcomes=enc.num_chance_outcomes,
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=enc.max_decisions,
        )
        super().__init__(game_type(name), info, enc.params)

    def new_initial_state(self) -> State:
        return State(self)

    def max_chance_nodes_in_history(self) -> int:
        return self.encoding.max_chance_events

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        return Observer(self.encoding, iig_obs_type or pyspiel.IIGObservationType(
            perfect_recall=False), params)


# one event of a game: (who acted: "seat 0" / "seat 1" / "chance", the action or None when
# unknown in a resampled state, whether each seat saw it)
Event = tuple[str, Action | None, tuple[bool, bool]]


class _Core:
    """The engine state and its event log. OpenSpiel clones a Python state by deep-copying its
    attributes, and serializes it by pickling them: this object makes both cheap and exact."""

    __slots__ = ("encoding", "events", "legal", "state")

    def __init__(self, encoding: Encoding, state: WarboardState, events: list[Event]) -> None:
        self.encoding = encoding
        self.state = state
        self.events = events
        self.legal: dict[int, Action] | None = None  # legal plays by id, for this state

    def __deepcopy__(self, memo: dict[int, Any]) -> _Core:
        copy = _Core(self.encoding, self.state.clone(), self.events[:])
        copy.legal = self.legal
        return copy

    def __reduce__(self) -> tuple[Any, ...]:
        enc = self.encoding
        events = [(actor, None if action is None else enc.game.action_to_json(action), seen)
                  for actor, action, seen in self.events]
        return (_restore, (enc.name, enc.params, self.state.to_json(), events))

    def legal_ids(self) -> dict[int, Action]:
        if self.legal is None:
            self.legal = legal_action_ids(self.encoding, self.state)
        return self.legal

    def apply(self, action: Action) -> None:
        state = self.state
        player = state.current_player()
        shown = seen_by(self.encoding.game, state, action, (0, 1))
        seen = (shown[0], shown[1])
        state.apply(action)
        self.events.append(("chance" if player == CHANCE else f"seat {player}", action, seen))
        self.legal = None

    def history_text(self, seat: int, everything: bool = False) -> str:
        """The events as ``seat`` saw them (``everything``: as they were)."""
        game = self.encoding.game
        lines = []
        for actor, action, seen in self.events:
            if not (everything or seen[seat]):
                lines.append(f"{actor}: hidden")
            elif action is None:
                lines.append(f"{actor}: (resampled)")
            else:
                lines.append(f"{actor}: {game.action_to_text(action)}")
        return "\n".join(lines)


def _restore(name: str, params: dict[str, Any], state_json: dict[str, Any],
             events: list[tuple[str, Any, Sequence[bool]]]) -> _Core:
    enc = make_encoding(name, params)
    game = enc.game
    state = game.state_from_json(state_json)
    return _Core(enc, state, [(actor, None if data is None else game.action_from_json(data, state),
                               (seen[0], seen[1])) for actor, data, seen in events])


class State(pyspiel.State):
    """A node of a warboard game tree, hidden cards included."""

    def __init__(self, game: Game, core: _Core | None = None) -> None:
        super().__init__(game)
        enc = game.encoding
        self._core = core or _Core(enc, enc.game.new_initial_state(), [])

    @property
    def warboard_state(self) -> WarboardState:
        """The engine state (core protocol) behind this node; do not change it."""
        return self._core.state

    def current_player(self) -> int:
        player = self._core.state.current_player()
        if player == CHANCE:
            return int(pyspiel.PlayerId.CHANCE)
        if self._core.state.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        return player

    def _legal_actions(self, player: int) -> list[int]:
        return list(self._core.legal_ids())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return chance_ids(self._core.encoding, self._core.state)

    def _apply_action(self, action: int) -> None:
        core = self._core
        if core.state.current_player() == CHANCE:
            core.apply(core.encoding.chance_outcome(action))
            return
        play = core.legal_ids().get(action)
        if play is None:
            raise ValueError(f"action id {action} is not a legal play here")
        core.apply(play)

    def _action_to_string(self, player: int, action: int) -> str:
        core = self._core
        enc = core.encoding
        if player == pyspiel.PlayerId.CHANCE:
            return enc.game.action_to_text(enc.chance_outcome(action))
        if player == self.current_player():  # a legal play: the play itself (a move's path)
            play = core.legal_ids().get(action)
            if play is not None:
                return enc.game.action_to_text(play)
        return enc.action_text(player, action)

    def is_terminal(self) -> bool:
        return self._core.state.is_terminal()

    def returns(self) -> list[float]:
        return list(self._core.state.returns())

    def __str__(self) -> str:
        return json.dumps(self._core.state.to_json(), sort_keys=True)

    def resample_from_infostate(self, player: int, probability_sampler: Any = None) -> State:
        """A state ``player`` cannot tell from this one, the cards it has not seen dealt at
        random (with ``probability_sampler`` when it is a ``random.Random``, else with
        ``RESAMPLE_RNG``). The other seat's events ``player`` did not see read
        ``(resampled)`` in the new state's history."""
        core = self._core
        if not core.encoding.hidden_information:
            return self.clone()
        rng = probability_sampler if isinstance(probability_sampler, random.Random) \
            else RESAMPLE_RNG
        sampled = core.encoding.game.sample_state(core.state.observation(player), rng)
        events = [(actor, action if seen[player] else None, seen)
                  for actor, action, seen in core.events]
        return State(self.get_game(), _Core(core.encoding, sampled, events))


class Observer:
    """OpenSpiel's Python observer: tensors and strings for any ``IIGObservationType``.

    Tensor pieces: ``board`` and ``public`` (with public information), ``private`` (one seat's,
    or both seats' for ``ALL_PLAYERS``, the observing seat first). Strings: the history as the
    seat saw it (with perfect recall), then the public view and the private one as JSON.
    """

    def __init__(self, encoding: Encoding, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        self.encoding = encoding
        self.public = iig_obs_type.public_info
        self.private = iig_obs_type.private_info
        self.perfect_recall = iig_obs_type.perfect_recall
        rows, cols = encoding.board_size
        pieces: list[tuple[str, tuple[int, ...]]] = []
        if self.public:
            pieces += [("board", (len(encoding.plane_names), rows, cols)),
                       ("public", (len(encoding.public_names),))]
        if self.private == pyspiel.PrivateInfoType.SINGLE_PLAYER:
            pieces.append(("private", (len(encoding.private_names),)))
        elif self.private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            pieces.append(("private", (2, len(encoding.private_names))))
        self.tensor = np.zeros(sum(int(np.prod(shape)) for _, shape in pieces), np.float32)
        self.dict: dict[str, np.ndarray] = {}
        start = 0
        for name, shape in pieces:
            size = int(np.prod(shape))
            self.dict[name] = self.tensor[start:start + size].reshape(shape)
            start += size

    def _seats(self, player: int) -> Sequence[int]:
        if self.private == pyspiel.PrivateInfoType.SINGLE_PLAYER:
            return (player,)
        if self.private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            return (player, 1 - player)
        return ()

    def set_from(self, state: State, player: int) -> None:
        self.tensor.fill(0.0)
        wb = state.warboard_state
        enc = self.encoding
        if self.public:
            enc.write_public(wb.observation(None), player, self.dict["board"],
                             self.dict["public"])
        seats = self._seats(player)
        if seats:  # then the tensor has its private piece
            private = self.dict["private"]
            for i, seat in enumerate(seats):
                enc.write_private(wb.observation(seat),
                                  private if private.ndim == 1 else private[i])

    def string_from(self, state: State, player: int) -> str:
        core = state._core
        wb = core.state
        public = wb.observation(None)
        parts = [f"seat {player}"]
        if self.perfect_recall:
            everything = self.private == pyspiel.PrivateInfoType.ALL_PLAYERS
            parts.append(core.history_text(player, everything))
        if self.public:
            parts.append(json.dumps(public, sort_keys=True))
        for seat in self._seats(player):
            own = {k: v for k, v in wb.observation(seat).items() if public.get(k) != v}
            parts.append(json.dumps(own, sort_keys=True))
        return "\n".join(parts)


def _register() -> None:
    # one subclass per game as the creator, like OpenSpiel's own Python games: a creator that
    # only OpenSpiel's registry holds (a partial, a lambda) crashes the interpreter at exit
    registered = set(pyspiel.registered_names())
    for name in game_names():
        if short_name(name) not in registered:
            creator = type(f"Game_{name}", (Game,), {"game_name": name})
            globals()[creator.__name__] = creator
            pyspiel.register_game(game_type(name), creator)


_register()
