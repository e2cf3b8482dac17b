"""The PettingZoo and Gymnasium environments, checked with their own test suites."""

import numpy as np
import pytest

pytest.importorskip(
    "pettingzoo", reason="the 'rl' extra is not installed (pip install -e '.[rl]')")
pytest.importorskip("gymnasium", reason="the 'rl' extra is not installed (pip install -e '.[rl]')")

from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

from warboard.adapters.pettingzoo import SingleSeatEnv, env, raw_env

GAMES = ["hill218", "ogre218"]


@pytest.mark.parametrize("game", GAMES)
def test_pettingzoo_api_test(game):
    api_test(env(game=game), num_cycles=200)


@pytest.mark.parametrize("game", GAMES)
def test_pettingzoo_seed_test(game):
    seed_test(lambda: env(game=game, window=21), num_cycles=200)


def play_out(environment, seed, rewards=None):
    """A whole game with the first legal action each time; the final full state. Each agent's
    reward at the end goes into ``rewards``."""
    environment.reset(seed=seed)
    for agent in environment.agent_iter():
        obs, reward, termination, truncation, _ = environment.last()
        if termination or truncation:
            if rewards is not None:
                rewards[agent] = reward
            environment.step(None)
        else:
            environment.step(int(np.flatnonzero(obs["action_mask"])[0]))
    return environment.unwrapped.match.state.to_json()


def test_same_seed_same_game_other_seed_other_game():
    first = play_out(env(game="hill218"), seed=11)
    assert play_out(env(game="hill218"), seed=11) == first
    assert play_out(env(game="hill218"), seed=12) != first


def test_mask_only_for_the_seat_to_act_and_rewards_at_the_end():
    e = env(game="ogre218", window=13)
    e.reset(seed=3)
    mover = e.agent_selection
    waiting = "player_1" if mover == "player_0" else "player_0"
    assert e.observe(mover)["action_mask"].sum() > 0
    assert e.observe(waiting)["action_mask"].sum() == 0
    rewards = {}
    final = play_out(e, seed=3, rewards=rewards)
    assert sorted(rewards.values()) in ([-1.0, 1.0], [0.0, 0.0])
    winner = final["result"]["winner"]
    assert rewards == ({"player_0": 0.0, "player_1": 0.0} if winner is None else
                       {f"player_{winner}": 1.0, f"player_{1 - winner}": -1.0})


def test_an_illegal_action_loses_the_game():
    e = env(game="hill218")
    e.reset(seed=4)
    obs, *_ = e.last()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    loser = e.agent_selection
    e.step(illegal)
    assert e.rewards[loser] == -1
    assert all(e.terminations.values())


def test_raw_env_rejects_an_illegal_action():
    e = raw_env(game="hill218")
    e.reset(seed=5)
    with pytest.raises(ValueError, match="not legal"):
        e.step(int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"] == 0)[0]))


@pytest.mark.parametrize("game", GAMES)
def test_gymnasium_check_env(game):
    check_env(SingleSeatEnv(game, seat=None, opponent="random"), skip_render_check=True)


def test_single_seat_against_greedy_to_the_end():
    e = SingleSeatEnv("hill218", seat=1, opponent="greedy", window=21)
    _, info = e.reset(seed=6)
    assert info["seat"] == 1
    done, reward = False, 0.0
    while not done:
        action = int(np.flatnonzero(e.action_masks())[0])
        _, reward, done, truncated, info = e.step(action)
        assert not truncated
    assert reward in (-1.0, 0.0, 1.0)
    e.reset(seed=6)
    illegal = int(np.flatnonzero(~e.action_masks())[0])
    _, reward, done, _, info = e.step(illegal)
    assert (reward, done, info["illegal_action"]) == (-1.0, True, True)
