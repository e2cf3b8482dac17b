"""The registered Gymnasium environments (warboard/NAME-v0), their layouts, masks and render, and
the PettingZoo environments by name."""

import os
import subprocess
import sys
from collections import Counter

import numpy as np
import pytest

pytest.importorskip("gymnasium", reason="the 'rl' extra is not installed (pip install -e '.[rl]')")

import gymnasium
from gymnasium.utils.env_checker import check_env

from warboard.adapters import gym_envs
from warboard.adapters.base import legal_action_ids
from warboard.adapters.layouts import board_shape
from warboard.hill218.names import unit_abbrev

# small windows keep the card games' spaces small; the scenario is a keyword like the others
IDS = {
    "hill218": ("warboard/Hill218-v0", {"window": 11}),
    "ogre218": ("warboard/Ogre218-v0", {"window": 13}),
    "holdtheline": ("warboard/HoldTheLine-v0", {"scenario": "trenton"}),
}


def make(game, **kwargs):
    env_id, params = IDS[game]
    return gymnasium.make(env_id, **{**params, **kwargs})


def random_steps(env, seed, steps):
    """Up to ``steps`` steps with random ids of the mask; each step's observation."""
    rng = np.random.default_rng(seed)
    obs, _ = env.reset(seed=seed)
    out = [obs]
    for _ in range(steps):
        legal = np.flatnonzero(env.unwrapped.action_masks())
        obs, _, done, _, _ = env.step(int(rng.choice(legal)))
        out.append(obs)
        if done:
            break
    return out


def test_every_game_with_an_encoding_has_an_id():
    assert gym_envs.env_ids() == {game: env_id for game, (env_id, _) in IDS.items()}
    assert all(env_id in gymnasium.registry for env_id, _ in IDS.values())


@pytest.mark.parametrize("game", IDS)
def test_check_env_on_each_id(game):
    env = make(game, seat=None, render_mode="ansi")
    check_env(env.unwrapped)
    assert env.unwrapped.metadata["name"] == f"warboard_{game}_v0"
    assert env.unwrapped.metadata["render_modes"] == ["ansi"]


@pytest.mark.parametrize("layout", ["chw", "dict"])
def test_check_env_on_the_other_layouts(layout):
    check_env(make("hill218", layout=layout).unwrapped, skip_render_check=True)


def test_keywords_reach_the_game():
    assert make("holdtheline").action_space.n == 5771  # trenton (tutorial: 2683)
    assert make("hill218").action_space.n == 3787  # window 11 (33: 33795)
    env = make("hill218", seat=1, opponent="greedy")
    assert env.reset(seed=1)[1]["seat"] == 1
    assert env.unwrapped.opponent.name == "greedy"
    with pytest.raises(ValueError, match="unknown parameter 'scenario'"):
        make("hill218", scenario="trenton")
    with pytest.raises(ValueError, match="layout"):
        make("hill218", layout="nhwc")


def test_gymnasium_make_imports_the_module_itself():
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    code = ("import sys, gymnasium\n"
            "assert 'warboard' not in sys.modules\n"
            "e = gymnasium.make('warboard.adapters.gym_envs:warboard/Ogre218-v0', window=11)\n"
            "print(e.reset(seed=1)[0].shape)")
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "(1999,)"


def test_make_vec_builds_the_native_vector_env_where_a_game_has_one():
    """The card games' ids have the native vector environment as ``vector_entry_point``, with
    the single environment's keywords; Hold the Line's falls back to Gymnasium's own."""
    from warboard.hill218 import fast

    if not fast.available():
        pytest.skip("the C fast path is not built (a C compiler at install time)")
    vec = gymnasium.make_vec(IDS["hill218"][0], num_envs=3, seat=1, window=11)
    assert type(vec).__name__ == "CardVectorEnv" and vec.num_envs == 3
    obs, info = vec.reset(seed=2)
    single = make("hill218")
    assert obs.shape == (3, *single.observation_space.shape)
    assert vec.action_masks().shape == (3, single.action_space.n)
    assert list(info["seat"]) == [1, 1, 1]
    with pytest.raises(ValueError, match="opponent"):
        gymnasium.make_vec(IDS["hill218"][0], num_envs=2, opponent="greedy")
    sync = gymnasium.make_vec(IDS["holdtheline"][0], num_envs=2, scenario="tutorial")
    assert isinstance(sync, gymnasium.vector.SyncVectorEnv)


@pytest.mark.parametrize("game", IDS)
def test_masks_are_the_legal_plays_of_the_seat(game):
    env = make(game, seat=None)
    unwrapped = env.unwrapped
    env.reset(seed=4)
    rng = np.random.default_rng(0)
    for _ in range(25):
        mask = unwrapped.action_masks()
        assert mask.dtype == bool and mask.shape == (env.action_space.n,)
        state = unwrapped.match.state
        assert state.current_player() == unwrapped.seat
        assert list(np.flatnonzero(mask)) == list(legal_action_ids(unwrapped.encoding, state))
        _, _, done, _, _ = env.step(int(rng.choice(np.flatnonzero(mask))))
        if done:
            assert not unwrapped.action_masks().any()
            break


def test_sb3_contrib_sees_the_masks():
    pytest.importorskip("sb3_contrib", reason="sb3-contrib is not installed")
    from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported
    from stable_baselines3.common.vec_env import DummyVecEnv

    vec = DummyVecEnv([lambda: make("hill218")])
    assert is_masking_supported(vec)
    vec.reset()
    masks = get_action_masks(vec)
    assert masks.shape == (1, 3787) and masks.dtype == bool
    assert (masks[0] == vec.envs[0].unwrapped.action_masks()).all()


@pytest.mark.parametrize("game", IDS)
def test_chw_and_dict_hold_the_flat_vector(game):
    flat = random_steps(make(game), seed=9, steps=12)
    chw = random_steps(make(game, layout="chw"), seed=9, steps=12)
    dicts = random_steps(make(game, layout="dict"), seed=9, steps=12)
    env = make(game)
    shape = board_shape(env.unwrapped.encoding)
    n_board = int(np.prod(shape))
    assert len(flat) == len(chw) == len(dicts) > 1
    for f, c, d in zip(flat, chw, dicts, strict=True):
        assert c["board"].shape == shape
        assert (c["board"] == f[:n_board].reshape(shape)).all()
        assert (c["vector"] == f[n_board:]).all()
        assert (d["observation"] == f).all()
    env.reset(seed=9)
    mask = env.unwrapped.action_masks()
    assert (dicts[0]["action_mask"] == mask.astype(np.int8)).all()


def test_same_seed_same_game():
    first = random_steps(make("ogre218", seat=None), seed=21, steps=40)
    again = random_steps(make("ogre218", seat=None), seed=21, steps=40)
    other = random_steps(make("ogre218", seat=None), seed=22, steps=40)
    assert len(first) == len(again)
    assert all((a == b).all() for a, b in zip(first, again, strict=True))
    assert len(first) != len(other) or any(
        (a != b).any() for a, b in zip(first, other, strict=True))
    env = make("holdtheline", seat=None)
    env.reset(seed=3)
    follow = [env.reset()[1]["seat"] for _ in range(12)]  # reset() goes on from the seed
    env.reset(seed=3)
    assert [env.reset()[1]["seat"] for _ in range(12)] == follow
    assert set(follow) == {0, 1}


def test_ansi_render_draws_the_units_on_the_board():
    env = make("hill218", render_mode="ansi")
    random_steps(env, seed=5, steps=6)
    state = env.unwrapped.match.state
    text = env.render()
    board = state.observation(0)["board"]
    assert board
    for unit in board:
        label = unit_abbrev(state.rules, unit["unit"])
        assert (label.upper() if unit["seat"] == 0 else label.lower()) in text
    assert "(*)" in text and "to play" in text

    htl = make("holdtheline", render_mode="ansi")
    random_steps(htl, seed=5, steps=3)
    view = htl.unwrapped.match.state.observation(0)
    text = htl.render()
    hexes = Counter(tuple(u["at"]) for u in view["units"] if u["status"] == "board")
    alone = [u for u in view["units"] if u["status"] == "board" and hexes[tuple(u["at"])] == 1]
    assert len(alone) > 5
    for u in alone:  # a second unit in a hex is a mark only; seat 1's ids are in lower case
        assert (u["id"].lower() if u["side"] == 1 else u["id"]) in text
    quiet = make("hill218").unwrapped  # no render_mode
    quiet.reset(seed=1)
    assert quiet.render() is None


@pytest.mark.parametrize("game", IDS)
def test_pettingzoo_env_by_game_name(game):
    pytest.importorskip("pettingzoo", reason="the 'rl' extra is not installed")
    from pettingzoo.test import api_test

    from warboard.adapters.pettingzoo import env

    aec = env(game, **IDS[game][1], render_mode="ansi")
    assert aec.metadata["name"] == f"warboard_{game}_v0"
    api_test(aec, num_cycles=60)
    aec.reset(seed=2)
    assert "\n" in aec.render()


def test_bench_env_reports_both_speeds(capsys):
    pytest.importorskip("pettingzoo", reason="the 'rl' extra is not installed")
    import json

    from warboard import cli

    assert cli.main(["bench", "holdtheline", "--scenario", "tutorial", "--env", "--seconds",
                     "0.5", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["engine_steps_per_second"] > 0 and out["env_decisions_per_second"] > 0
    assert out["ratio"] == pytest.approx(
        out["env_decisions_per_second"] / out["engine_steps_per_second"], abs=0.002)
    assert out["env"]["decisions"] > out["env"]["steps"] > 0


def test_maskable_ppo_learns_a_little():
    pytest.importorskip("sb3_contrib", reason="sb3-contrib is not installed")
    from sb3_contrib import MaskablePPO

    for layout, policy in (("flat", "MlpPolicy"), ("chw", "MultiInputPolicy")):
        env = make("hill218", layout=layout)
        model = MaskablePPO(policy, env, n_steps=128, batch_size=64, n_epochs=1, seed=0,
                            device="cpu")
        model.learn(total_timesteps=256)
        obs, _ = env.reset(seed=1)
        action, _ = model.predict(obs, action_masks=env.unwrapped.action_masks())
        assert env.unwrapped.action_masks()[int(action)]
