"""Beliefs about the opponent's cards (issue 14, point 3): the views show each seat the other's
last turn, and ``hill218.beliefs`` weighs determinizations by how well they explain it under an
opponent model. That the searches using them never read the hidden cards is ``test_ai.py``'s
test (``master`` has its beliefs on)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import pytest

from fast_path import CONFIGS, require_fast_path
from warboard.ai.ismcts import ISMCTSAgent
from warboard.ai.knowledge import knowledge_for
from warboard.ai.levels import LEVELS, level_budget
from warboard.core.errors import PositionError
from warboard.core.protocol import CHANCE
from warboard.hill218 import fast
from warboard.hill218.actions import Deploy, action_to_json
from warboard.hill218.beliefs import TRUST, believed_deals, turn_likelihood
from warboard.hill218.determinize import sample_state
from warboard.hill218.game import CardGame
from warboard.hill218.native_search import encode_state, fast_rules_for
from warboard.hill218.serialize import turn_from_json
from warboard.hill218.state import PLAY, CardState


def decisions_with_turns(game: CardGame, seed: int) -> list[tuple[CardState, dict[str, Any]]]:
    """The play decisions of a random game, each with the previous turn as the test saw it
    played: its seat and number, the position it began in and its plays."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    turns: list[dict[str, Any]] = []
    found = []
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            state.apply(state.sample_chance_outcome(rng))
            continue
        if state.phase == PLAY:
            if not turns or turns[-1]["turn"] != state.turn:
                public = state.observation(None)
                turns.append({"seat": state.to_move, "turn": state.turn,
                              "plays_left": state.plays_left,
                              "board": [{k: e[k] for k in ("x", "y", "seat", "unit")}
                                        for e in public["board"]],
                              "strikes": public["strikes"], "destroyed": public["destroyed"],
                              "plays": []})
            if len(turns) > 1:
                found.append((state.clone(), turns[-2]))
            action = rng.choice(state.legal_actions())
            turns[-1]["plays"].append(action_to_json(action))
        else:
            action = rng.choice(state.legal_actions())
        state.apply(action)
    return found


@pytest.mark.parametrize(("name", "options"), CONFIGS)
def test_every_view_shows_the_turn_before_this_one(name: str, options: dict[str, Any]) -> None:
    game = CardGame(name, options)
    seen = 0
    for state, before in decisions_with_turns(game, 3):
        for seat in (0, 1, None):
            assert state.observation(seat)["last_turn"] == before
        seen += 1
    assert seen > 10


def test_a_full_state_keeps_its_turns_and_a_stored_one_without_them_loads() -> None:
    game = CardGame("hill218")
    state, _ = decisions_with_turns(game, 5)[-1]
    data = state.to_json()
    assert data["last_turn"] and data["this_turn"]
    assert game.state_from_json(data).to_json() == data
    old = {k: v for k, v in data.items() if k not in ("last_turn", "this_turn")}
    assert game.state_from_json(old).observation(0)["last_turn"] is None


@pytest.mark.parametrize(("change", "problem"), [
    (lambda t: t.pop("plays"), "last_turn: must be an object"),
    (lambda t: t.update(seat=2), "last_turn.seat"),
    (lambda t: t.update(plays=[{"play": "deploy", "unit": "ogre", "at": [0, 1]}]),
     r"last_turn.plays\[0\]: unknown unit"),
    (lambda t: t.update(plays=[{"play": "strike", "target": [9999, 0]}]), "off the playable grid"),
    (lambda t: t.update(plays=[{"play": "bury", "cards": ["tank", "tank"]}]),
     "a deployment or a strike"),
    (lambda t: t.update(board="none"), "board"),
])
def test_a_malformed_turn_is_refused_naming_its_field(change: Any, problem: str) -> None:
    game = CardGame("hill218")
    state, _ = decisions_with_turns(game, 5)[-1]
    data = state.to_json()
    change(data["last_turn"])
    with pytest.raises(PositionError, match=problem):
        game.state_from_json(data)


def plays_tanks(state: Any, legal: Sequence[Any]) -> list[float]:
    """An opponent model that plays a tank whenever it can."""
    tanks = [isinstance(a, Deploy) and a.unit == "tank" for a in legal]
    if not any(tanks):
        return [1 / len(legal)] * len(legal)
    return [t / sum(tanks) for t in tanks]


def tank_free_turn(game: CardGame) -> tuple[CardState, dict[str, Any]]:
    """A decision after an opponent's turn of two plays, none a tank, with a tank among its
    unseen cards (so the model's judgement of the turn tells something)."""
    for seed in range(40):
        for state, before in decisions_with_turns(game, seed):
            view = state.observation(state.to_move)
            deal = sample_state(game, view, random.Random(0))
            other = 1 - state.to_move
            unseen = [h + p for h, p in zip(deal.hands[other], deal.decks[other].pool,
                                            strict=True)]
            if (len(before["plays"]) == 2 and unseen[game.rules.unit_ids["tank"]] > 1
                    and all(p.get("unit") != "tank" for p in before["plays"])):
                return state, view
    raise AssertionError("no such turn in 40 random games")


def test_deals_the_opponents_turn_makes_unlikely_become_rare() -> None:
    game = CardGame("hill218")
    state, view = tank_free_turn(game)
    other, tank = 1 - state.to_move, game.rules.unit_ids["tank"]
    believed = believed_deals(game, view, plays_tanks, random.Random(1), proposals=400)
    uniform = [sample_state(game, view, random.Random(i)) for i in range(400)]
    assert believed is not None and len(believed) == 400

    def with_tank(deals: Sequence[CardState]) -> float:
        return sum(d.hands[other][tank] > 0 for d in deals) / len(deals)

    # a hand with a tank explains a turn without one only through the uniform share
    assert with_tank(uniform) > 0.3
    assert with_tank(believed) < with_tank(uniform) / 3
    # every deal is one the view allows: the seat's own cards and the public facts as they are
    for deal in believed[:40]:
        assert deal.observation(state.to_move) == view


def test_a_turns_likelihood_is_each_plays_probability_mixed_with_uniform() -> None:
    game = CardGame("hill218")
    state, view = tank_free_turn(game)
    start, plays = turn_from_json(view["last_turn"], "last_turn", game.rules)
    other, tank = 1 - state.to_move, game.rules.unit_ids["tank"]
    deals = [sample_state(game, view, random.Random(i)) for i in range(30)]

    def uniform(state: Any, legal: Sequence[Any]) -> list[float]:
        return [1 / len(legal)] * len(legal)

    # under a uniform model each play's probability is one over the plays it was chosen from
    first = turn_likelihood(deals[0], start, plays[:1], uniform)
    assert 0 < first < 1
    assert turn_likelihood(deals[0], start, plays, uniform) < first
    with_tank = [d for d in deals if d.hands[other][tank]]
    without = [d for d in deals if not d.hands[other][tank]]
    assert with_tank and without
    for deal in without:  # no tank to play: the model is uniform too
        assert turn_likelihood(deal, start, plays, plays_tanks) == pytest.approx(
            turn_likelihood(deal, start, plays, uniform))
    for deal in with_tank:  # it played no tank: only the uniform share explains that
        ratio = (turn_likelihood(deal, start, plays, plays_tanks)
                 / turn_likelihood(deal, start, plays, uniform))
        assert ratio <= (1 - TRUST) + 1e-9


def test_nothing_to_weigh_without_a_turn_of_the_opponents() -> None:
    game = CardGame("hill218")
    rng = random.Random(0)
    state = game.new_initial_state()
    while state.phase != PLAY:
        state.apply(state.sample_chance_outcome(rng) if state.current_player() == CHANCE
                    else rng.choice(state.legal_actions()))
    first = state.observation(state.to_move)
    assert first["last_turn"] is None
    assert believed_deals(game, first, plays_tanks, rng) is None
    # the waiting seat's view shows its own last turn: nothing of the opponent's to weigh
    state, before = decisions_with_turns(game, 5)[-1]
    waiting = state.observation(before["seat"])
    assert before["seat"] != state.to_move
    assert believed_deals(game, waiting, plays_tanks, rng) is None


def test_master_weighs_its_deals_and_a_search_reads_only_them() -> None:
    """``master`` has beliefs on but where its game's model plays better without them
    (hill218's); a search with beliefs draws each determinization from the deals they give,
    compiled or not."""
    assert LEVELS["master"]["beliefs"] is True
    assert level_budget("master", "ogre218")["beliefs"] is True
    assert level_budget("master", "hill218")["beliefs"] is False
    game = CardGame("hill218")
    state, view = tank_free_turn(game)
    other = 1 - state.to_move
    only = sample_state(game, view, random.Random(3))
    seen: list[tuple[int, ...]] = []

    def one_deal(game: Any, view: Any, policy: Any, rng: random.Random) -> list[CardState]:
        return [only]

    def watching(state: Any, legal: Sequence[Any]) -> list[float]:
        if state.to_move == other and state.turn == view["turn"] + 1 and state.plays_left == 2:
            seen.append(tuple(state.hands[other]))  # after the opponent's 2 draws
        return [1.0] * len(legal)

    know = replace(knowledge_for(game), beliefs=one_deal, play_priors=watching, native_search=None)
    agent = ISMCTSAgent(iterations=300, knowledge=know, native=False, beliefs=True,
                        widening=100.0)
    agent.search(game, view, state.legal_actions(), random.Random(4))
    assert seen
    drawn = min(2, only.decks[other].size())
    for hand in seen:  # the opponent's next turn: the dealt hand and the cards it drew
        assert sum(hand) == sum(only.hands[other]) + drawn
        assert all(h >= k for h, k in zip(hand, only.hands[other], strict=True))


def test_the_compiled_search_refuses_deals_the_view_does_not_allow() -> None:
    require_fast_path()
    game = CardGame("hill218")
    state, view = tank_free_turn(game)
    deal = sample_state(game, view, random.Random(3))
    other = 1 - state.to_move
    search = fast._module().search
    handle = fast_rules_for(game)._handle
    position = encode_state(deal)
    hand = deal.hands[other]
    done, found = search(handle, position, 50, 0.0, 0.5, 4.0, 0.5, 1, None, None, None,
                         hand * 3)
    assert done == 50 and found
    too_many = hand[:]
    too_many[hand.index(max(hand))] += 1
    with pytest.raises(ValueError, match="holds"):
        search(handle, position, 50, 0.0, 0.5, 4.0, 0.5, 1, None, None, None, too_many)
    beyond = hand[:]
    beyond[0] = hand[0] + deal.decks[other].pool[0] + 1
    with pytest.raises(ValueError, match="outside"):
        search(handle, position, 50, 0.0, 0.5, 4.0, 0.5, 1, None, None, None, beyond)
    with pytest.raises(ValueError, match="whole hands"):
        search(handle, position, 50, 0.0, 0.5, 4.0, 0.5, 1, None, None, None, hand[:-1])
