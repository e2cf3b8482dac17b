"""The OpenSpiel adapter, checked with OpenSpiel's own test and bots."""

import json
import random

import numpy as np
import pytest

pyspiel = pytest.importorskip(
    "pyspiel", reason="the 'openspiel' extra is not installed (pip install -e '.[openspiel]')")

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402
from open_spiel.python.observation import make_observation  # noqa: E402

import warboard.adapters.openspiel as adapter  # noqa: E402

GAMES = ["warboard_hill218", "warboard_ogre218"]


def to_decision(state, rng, decisions=0):
    """Play random chance outcomes and ``decisions`` random decisions, up to a decision."""
    while True:
        if state.is_chance_node():
            ids, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(ids, probs)[0])
        elif decisions:
            state.apply_action(rng.choice(state.legal_actions()))
            decisions -= 1
        else:
            return state


@pytest.mark.parametrize("name", GAMES)
def test_openspiel_random_sim_test_with_serialization(name):
    pyspiel.random_sim_test(pyspiel.load_game(name), num_sims=3, serialize=True, verbose=False)


def test_random_sim_test_with_game_parameters():
    game = pyspiel.load_game("warboard_ogre218(damaged_ogres_0=1,quick_start=True,window=21)")
    assert game.encoding.game.options == {"quick_start": True, "damaged_ogres": [1, 0]}
    assert game.encoding.board_size == (21, 21)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize("name", GAMES)
def test_game_type(name):
    game = pyspiel.load_game(name)
    kind = game.get_type()
    assert kind.short_name == name
    assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert kind.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert "window" in kind.parameter_specification
    assert (game.min_utility(), game.max_utility(), game.num_players()) == (-1, 1, 2)
    assert game.num_distinct_actions() == game.encoding.num_actions


def test_chance_outcomes_have_probabilities():
    state = pyspiel.load_game("warboard_hill218").new_initial_state()
    assert state.is_chance_node()
    assert state.chance_outcomes() == [(0, 0.5), (1, 0.5)]
    state.apply_action(1)
    outcomes = state.chance_outcomes()
    assert abs(sum(p for _, p in outcomes) - 1) < 1e-12
    pool = state.warboard_state.decks[0].pool  # seat 0 is dealt first
    assert [p for _, p in outcomes] == [c / sum(pool) for c in pool if c]
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, outcomes[0][0]) == "draw infantry"


@pytest.mark.parametrize("name", GAMES)
def test_information_state_and_observation_per_player(name):
    game = pyspiel.load_game(name)
    state = to_decision(game.new_initial_state(), random.Random(1), decisions=6)
    player = state.current_player()
    other = 1 - player
    info = state.information_state_string(player)
    assert info != state.information_state_string(other)
    assert "hidden" in info  # the other seat's draws
    assert state.observation_string(player) != state.observation_string(other)
    assert len(state.observation_tensor(player)) == game.observation_tensor_size()
    assert len(state.information_state_tensor(player)) == game.information_state_tensor_size()
    # what the other seat holds does not show in the player's information
    for seed in range(3):
        sample = state.resample_from_infostate(player, random.Random(seed))
        assert sample.information_state_string(player) == info
        assert sample.observation_tensor(player) == state.observation_tensor(player)
        assert sample.legal_actions() == state.legal_actions()


def test_resampling_deals_the_unseen_cards_anew():
    game = pyspiel.load_game("warboard_hill218")
    state = to_decision(game.new_initial_state(), random.Random(2), decisions=8)
    player = state.current_player()
    hands = {tuple(state.resample_from_infostate(player, random.Random(seed))
                   .warboard_state.hands[1 - player]) for seed in range(12)}
    assert len(hands) > 1
    assert "(resampled)" in state.resample_from_infostate(player).information_state_string(
        1 - player)


def test_serialization_round_trip_continues_the_same_game():
    game = pyspiel.load_game("warboard_ogre218(window=21)")
    state = to_decision(game.new_initial_state(), random.Random(3), decisions=10)
    text = pyspiel.serialize_game_and_state(game, state)
    game2, state2 = pyspiel.deserialize_game_and_state(text)
    assert str(game2) == str(game)
    assert str(state2) == str(state)
    assert state2.history() == state.history()
    for p in (0, 1):
        assert state2.information_state_string(p) == state.information_state_string(p)
    action = state.legal_actions()[-1]
    state.apply_action(action)
    state2.apply_action(action)
    assert str(state2) == str(state)


def test_observer_types():
    game = pyspiel.load_game("warboard_hill218(window=9)")
    enc = game.encoding
    state = to_decision(game.new_initial_state(), random.Random(4), decisions=3)
    single = pyspiel.PrivateInfoType.SINGLE_PLAYER
    everyone = pyspiel.PrivateInfoType.ALL_PLAYERS
    nothing = pyspiel.PrivateInfoType.NONE
    obs = make_observation(game, pyspiel.IIGObservationType(perfect_recall=False,
                                                            private_info=everyone))
    obs.set_from(state, 0)
    assert obs.dict["board"].shape == (len(enc.plane_names), 9, 9)
    assert obs.dict["private"].shape == (2, len(enc.private_names))
    assert "seat 0: hidden" not in obs.string_from(state, 1)
    public = make_observation(game, pyspiel.IIGObservationType(perfect_recall=False,
                                                               private_info=nothing))
    assert set(public.dict) == {"board", "public"}
    assert public.string_from(state, 0).splitlines()[1:] == public.string_from(
        state, 1).splitlines()[1:]
    private = make_observation(game, pyspiel.IIGObservationType(
        public_info=False, perfect_recall=True, private_info=single))
    assert set(private.dict) == {"private"}
    private.set_from(state, 1)
    assert private.tensor.shape == (len(enc.private_names),)


def play_with_bots(game, bots, seed):
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            ids, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(ids, p=probs)))
        else:
            action = bots[state.current_player()].step(state)
            assert action in state.legal_actions()
            state.apply_action(int(action))
    return state.returns()


@pytest.mark.parametrize("name", GAMES)
def test_openspiel_ismcts_and_mcts_bots_play_full_games(name):
    game = pyspiel.load_game(name)
    rs = np.random.RandomState(5)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs)
    search = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=2, random_state=rs)
    tree = mcts.MCTSBot(game, uct_c=2.0, max_simulations=2, evaluator=evaluator,
                        random_state=rs)
    returns = play_with_bots(game, [search, tree], seed=6)
    assert sorted(returns) in ([-1.0, 1.0], [0.0, 0.0])


def test_headtohead_game_and_report(capsys):
    from rich.console import Console

    from warboard.adapters.headtohead import Job, play, report, summary

    outcome = play(Job("ogre218", seed=7, warboard_seat=1, seconds=0.3, window=None))
    assert outcome.warboard_score in (0.0, 0.5, 1.0)
    assert outcome.simulations >= 2 and min(outcome.decisions) > 0

    class Args:
        game, seconds = "ogre218", 0.3

    result = json.loads(json.dumps(summary(Args, [outcome])))  # what --json prints
    assert result["games"] == 1 and result["games_by_seat"] == [0, 1]
    assert result["score_by_seat"] == [None, outcome.warboard_score]
    assert result["wins"] + result["draws"] + result["losses"] == 1
    report(Console(width=200), result)
    assert "95% interval" in capsys.readouterr().out


def test_adapter_registers_every_encoded_game():
    names = pyspiel.registered_names()
    assert all(name in names for name in GAMES)
    assert adapter.short_name("hill218") == "warboard_hill218"
