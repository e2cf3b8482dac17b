"""The agents' IS-MCTS for the card games, compiled (``_fastsearch.c``).

``native_search`` is ``KNOWLEDGE.native_search``: ``ISMCTSAgent`` hands it a decision and gets
back the root's statistics, the same search as its own (``warboard.ai.ismcts``) with
``evaluate_cards`` and ``card_action_prior`` and no rollout, about forty times faster. It
declines (``None``, and the Python search runs) where the C extension is not built, for
burials, for settings it does not cover (a rollout), and for a composed position whose units
stand beyond the C side's board window (``fast.FastRules.window``). Like the Python search it
starts from a determinization of the seat's view (``sample_state``) and redeals the opponent's
unseen cards every iteration, so it never reads what the seat cannot see; given ``deals``
(determinizations weighed by beliefs, ``hill218.beliefs``) each iteration deals the opponent the
hand of one of them instead, the rest of its unseen cards to its deck. A play to
``include`` (analysis judging it) is always tried first at the root, as in the Python search.

``native_model_search(model, value_weight)`` is the same search reading a trained model
(``KNOWLEDGE.native_model_search``, used by ``ai.model.model_knowledge``): the model's policy
is every node's prior and its value, mixed with the evaluation, scores the leaves. The C side
writes the model's observation with the stepped games' code (``_fastplay_vector.c``) and runs
its two layers itself; a leaf where the turn has ended is judged at the next decision point,
after the draws, as the model learnt from decision points only (the Python search judges it
before the draws).
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from warboard.ai.knowledge import NativeSearch, RootStats
from warboard.hill218 import fast
from warboard.hill218.actions import Deploy, Strike
from warboard.hill218.game import CardGame
from warboard.hill218.grid import unpack
from warboard.hill218.state import PLAY, CardState

# FastRules by (ruleset, options); the ruleset object is kept so that its id stays its own
_RULES: dict[tuple[int, str], tuple[Any, fast.FastRules]] = {}


def fast_rules_for(game: CardGame) -> fast.FastRules:
    """The C side's tables of ``game``'s ruleset and options, made once."""
    key = (id(game.rules), json.dumps(game.options, sort_keys=True))
    found = _RULES.get(key)
    if found is None:
        found = _RULES[key] = (game.rules, fast.FastRules(game.rules, game.options))
    return found[1]


def encode_state(state: CardState) -> list[int]:
    """A state with a decision pending, in ``read_position``'s layout (``_fastplay.c``)."""
    out = [state.to_move, state.plays_left, *state.strikes, *state.hands[0], *state.hands[1]]
    for deck in state.decks:
        out.extend((len(deck.top), *deck.top, *deck.pool, len(deck.bottom), *deck.bottom))
    out.append(len(state.cells))
    for cell, code in state.cells.items():
        out.extend((*unpack(cell), code & 1, code >> 1))
    return out


def native_search(game: Any, view: Mapping[str, Any], legal: Sequence[Any],
                  settings: Mapping[str, Any], rng: random.Random, include: Any = None,
                  deals: Sequence[Any] | None = None) -> RootStats | None:
    return _search(game, view, legal, settings, rng, include, deals, None)


def native_model_search(model: Any, value_weight: float) -> NativeSearch | None:
    """The compiled search reading ``model`` (a card game's ``PolicyValueModel``): its policy
    the priors, its value weighed ``value_weight`` against ``evaluate_cards``, as
    ``model_knowledge`` has them; None where the C extension is not built."""
    if not fast.available():
        return None
    nets: dict[int, Any] = {}  # by the FastRules' handle: one model for each ruleset's options

    def search(game: Any, view: Mapping[str, Any], legal: Sequence[Any],
               settings: Mapping[str, Any], rng: random.Random, include: Any = None,
               deals: Sequence[Any] | None = None) -> RootStats | None:
        if not isinstance(game, CardGame):
            return None
        rules = fast_rules_for(game)
        net = nets.get(id(rules))
        if net is None:
            net = nets[id(rules)] = make_net(rules, model, value_weight)
        return _search(game, view, legal, settings, rng, include, deals, net)

    return search


def make_net(rules: fast.FastRules, model: Any, value_weight: float) -> Any:
    """``model`` for the C search of ``rules``: its layers, encoding and value share."""
    encoding = model.encoding
    public, private = encoding.denominators()
    board = len(encoding.plane_names) * encoding.window * encoding.window
    den = np.array([1] * board + public + private, np.float32)
    a = {k: np.ascontiguousarray(v, np.float32) for k, v in model.arrays.items()}
    h1, h2 = a["w1"].shape[1], a["w2"].shape[1]
    return fast._module().make_net(
        rules._handle, encoding.native_layout(), den.tobytes(), h1, h2, a["w1"].tobytes(),
        a["b1"].tobytes(), a["w2"].tobytes(), a["b2"].tobytes(),
        np.ascontiguousarray(a["wp"].T).tobytes(), a["bp"].tobytes(),
        a["wv"][:, 0].copy().tobytes(), float(a["bv"][0]), value_weight)


def _search(game: Any, view: Mapping[str, Any], legal: Sequence[Any],
            settings: Mapping[str, Any], rng: random.Random, include: Any,
            deals: Sequence[CardState] | None, net: Any) -> RootStats | None:
    if (not fast.available() or settings["rollout_depth"] or view.get("phase") != PLAY
            or not isinstance(game, CardGame)):
        return None
    known = set(legal)
    if include is not None and include not in known:
        raise ValueError(f"{include!r} is not a legal play here")
    rules = fast_rules_for(game)
    state = game.sample_state(view, rng) if not deals else deals[0]
    # the opponent's hands to deal from, one after the other, one drawn each iteration (None:
    # a random deal)
    hands = None if not deals else [k for d in deals for k in d.hands[1 - state.to_move]]
    try:
        done, found = fast._module().search(
            rules._handle, encode_state(state), settings["iterations"] or 0,
            settings["seconds"] or 0.0, settings["exploration"], settings["widening"],
            settings["prior_weight"], rng.getrandbits(64),
            None if include is None else _play_args(rules, include), net,
            None if net is None else model_facts(state), hands)
    except fast.WindowError:  # a composed position reaching beyond the C side's board window
        return None
    plays: dict[Any, tuple[int, float, float]] = {}
    for kind, uid, x, y, hits, visits, value, prior in found:
        play = play_of(rules, uid, x, y, hits)
        if play not in known:
            raise RuntimeError(f"the native search returned {play!r}, not a legal play "
                               f"(kind {kind})")
        plays[play] = (visits, value, prior)
    return RootStats(plays, done)


def play_of(rules: fast.FastRules, uid: int, x: int, y: int,
            hits: tuple[tuple[int, int], ...]) -> Deploy | Strike:
    """The play the C search names (unit id or -1 for a strike, x, y, hits)."""
    return Strike((x, y)) if uid < 0 else Deploy(rules.names[uid], (x, y), hits)


def _play_args(rules: fast.FastRules, play: Any) -> tuple[int, int, int, tuple[Any, ...]]:
    """A play as the C search reads it: ``play_of``'s arguments."""
    if isinstance(play, Strike):
        return (-1, *play.target, ())
    return (rules.rules.unit_ids[play.unit], *play.at, tuple(play.attacks))


def model_facts(state: CardState) -> list[int]:
    """What the model reads beyond the position: turn, first player, destroyed counts."""
    first = state.first_player
    assert first is not None  # a play is pending: the first player was drawn long ago
    return [state.turn, first, *state.destroyed[0], *state.destroyed[1]]
