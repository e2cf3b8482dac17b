"""The fixed-shape encodings behind the research adapters (numpy only, no extra needed)."""

import random

import numpy as np
import pytest

from warboard.adapters.base import (
    WindowOverflowError,
    chance_ids,
    flat_observation,
    legal_action_ids,
    observation_size,
)
from warboard.adapters.encodings import game_names, make_encoding, parameters
from warboard.core.protocol import CHANCE, sample_chance
from warboard.hill218.actions import Deploy, Strike

GAMES = ["hill218", "ogre218"]


def decisions(encoding, seed, games=3):
    """(state, seat) at every decision of a few random games."""
    rng = random.Random(seed)
    for _ in range(games):
        state = encoding.game.new_initial_state()
        while not state.is_terminal():
            if state.current_player() == CHANCE:
                state.apply(sample_chance(state, rng))
                continue
            yield state, state.current_player()
            state.apply(rng.choice(state.legal_actions()))


def play_cell(play):
    return play.at if isinstance(play, Deploy) else play.target if isinstance(play, Strike) \
        else None


@pytest.mark.parametrize("game", GAMES)
def test_every_legal_play_inside_the_window_has_one_id_and_decodes_back(game):
    enc = make_encoding(game, {"window": 9})
    r = enc.radius
    for state, seat in decisions(enc, seed=1):
        by_id = legal_action_ids(enc, state)
        assert list(by_id) == sorted(by_id)
        for action_id, play in by_id.items():
            assert 0 <= action_id < enc.num_actions
            assert enc.action(seat, action_id) == play
        inside = [p for p in state.legal_actions()
                  if play_cell(p) is None or max(map(abs, play_cell(p))) <= r]
        assert set(by_id.values()) == set(inside) and len(by_id) == len(inside)


@pytest.mark.parametrize("game", GAMES)
def test_a_play_outside_the_window_has_no_id_and_no_other_play_takes_its_place(game):
    enc = make_encoding(game, {"window": 5})
    outside = seen = 0
    for state, seat in decisions(enc, seed=2):
        legal = state.legal_actions()
        ids = [enc.action_id(seat, play) for play in legal]
        outside += ids.count(None)
        seen += len(legal)
        if ids.count(None) == len(ids):  # none inside: an error, never some other play
            with pytest.raises(WindowOverflowError):
                legal_action_ids(enc, state)
            continue
        by_id = legal_action_ids(enc, state)
        assert sorted(by_id) == sorted(i for i in ids if i is not None)
        assert all(by_id[i] == play for i, play in zip(ids, legal, strict=True) if i is not None)
    assert 0 < outside < seen


def test_seat_one_sees_the_board_turned_round():
    enc = make_encoding("hill218", {"window": 5})
    own_base_index = enc.cell_index(0, (0, -1))
    assert enc.cell_index(1, (0, 1)) == own_base_index  # each seat's base: below the hill
    play = Deploy("infantry", (1, 2), ((1, 3),))
    assert enc.action(1, enc.action_id(1, play)) == play
    assert enc.action_id(1, play) == enc.action_id(0, Deploy("infantry", (-1, -2), ((-1, -3),)))


def test_no_play_inside_the_window_is_an_error_not_another_play():
    enc = make_encoding("hill218", {"window": 1})  # only the hill, where nothing is ever played
    state = next(s for s, _ in decisions(enc, seed=3, games=1) if s.phase == "play")
    with pytest.raises(WindowOverflowError, match="outside the encoding's window"):
        legal_action_ids(enc, state)


@pytest.mark.parametrize("game", GAMES)
def test_chance_ids_decode_and_carry_the_probabilities(game):
    enc = make_encoding(game)
    rng = random.Random(4)
    state = enc.game.new_initial_state()
    for _ in range(8):
        outcomes = dict(state.chance_outcomes())
        ids = chance_ids(enc, state)
        assert [i for i, _ in ids] == sorted(i for i, _ in ids)
        assert abs(sum(p for _, p in ids) - 1) < 1e-9
        for i, p in ids:
            assert outcomes[enc.chance_outcome(i)] == p
        state.apply(sample_chance(state, rng))
        while state.current_player() != CHANCE:
            state.apply(state.legal_actions()[0])


@pytest.mark.parametrize("game", GAMES)
def test_observations_have_fixed_shapes_values_in_0_1_and_hide_the_other_hand(game):
    enc = make_encoding(game, {"window": 11})
    size = observation_size(enc)
    for state, seat in decisions(enc, seed=5, games=1):
        obs = flat_observation(enc, state, seat)
        assert obs.shape == (size,) and obs.dtype == np.float32
        assert obs.min() >= 0 and obs.max() <= 1
        # the other seat's hidden cards dealt anew: the seat cannot tell
        other = enc.game.sample_state(state.observation(seat), random.Random(6))
        assert np.array_equal(flat_observation(enc, other, seat), obs)


def test_parameters_and_errors():
    assert game_names() == [*GAMES, "holdtheline"]
    assert set(parameters("ogre218")) == {"window", "quick_start", "damaged_ogres_0",
                                          "damaged_ogres_1"}
    enc = make_encoding("ogre218", {"damaged_ogres_0": 1})
    assert enc.game.options["damaged_ogres"] == [1, 0]
    assert make_encoding("hill218", {"window": 9}) is make_encoding("hill218", {"window": 9})
    with pytest.raises(ValueError, match="window must be an odd"):
        make_encoding("hill218", {"window": 8})
    with pytest.raises(ValueError, match="unknown parameter 'damaged_ogres_0'"):
        make_encoding("hill218", {"damaged_ogres_0": 1})
    with pytest.raises(ValueError, match="no encoding for game"):
        make_encoding("chess")
