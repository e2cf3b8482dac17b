"""Information-set sampling: states drawn from a seat's view agree with everything it knows."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from game_walk import random_decision_points
from warboard.core.errors import PositionError
from warboard.hill218 import CardGame
from warboard.hill218.determinize import sample_state


def decision_points(name: str, options: dict, seed: int):
    return random_decision_points(CardGame(name, options), seed)


@given(st.sampled_from([("hill218", {}), ("ogre218", {}), ("ogre218", {"damaged_ogres": [1, 2]}),
                        ("hill218", {"quick_start": True})]),
       st.integers(0, 2**32))
def test_sampled_states_match_the_view_and_the_legal_plays(opts, seed):
    name, options = opts
    rng = random.Random(seed)
    for state in decision_points(name, options, seed):
        seat = state.current_player()
        view = state.observation(seat)
        sampled = sample_state(state.game, view, rng)
        assert sampled.observation(seat) == view
        # the seat's legal actions depend only on what it knows
        assert sampled.legal_actions() == state.legal_actions()
        # the opponent's cards are conserved in the sample
        other = 1 - seat
        assert sum(sampled.hands[other]) == sum(state.hands[other])
        assert sampled.decks[other].size() == state.decks[other].size()


def test_sampling_varies_the_opponent_hand_but_never_reads_it():
    state = next(s for s in decision_points("hill218", {}, 4)
                 if s.phase == "play" and s.turn > 6)
    seat = state.current_player()
    view = state.observation(seat)
    hands = {tuple(sample_state(state.game, view, random.Random(i)).hands[1 - seat])
             for i in range(40)}
    assert len(hands) > 5
    # the same view gives the same samples whatever the true hidden cards are
    twin = state.clone()
    other = 1 - seat
    twin.hands[other] = [0] * len(twin.hands[other])
    twin.hands[other][0] = sum(state.hands[other])
    a = sample_state(state.game, view, random.Random(1)).to_json()
    b = sample_state(twin.game, twin.observation(seat), random.Random(1)).to_json()
    assert a == b


def test_public_view_is_refused():
    state = next(decision_points("hill218", {}, 2))
    with pytest.raises(PositionError, match="seat's own view"):
        sample_state(state.game, state.observation(None), random.Random(0))
