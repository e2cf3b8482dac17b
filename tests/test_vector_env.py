"""warboard.hill218.vector (games stepped in C) against the Python engine and CardEncoding.

Every C game records its events; they are replayed through ``CardState.apply`` (which checks
each one), and at every step each env's observation, action mask, reward and final observation
must equal what ``flat_observation``, ``legal_action_ids`` and ``returns`` give for the replayed
Python state.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest

pytest.importorskip("gymnasium", reason="the 'rl' extra is not installed (pip install -e '.[rl]')")

from warboard.adapters.base import WindowOverflowError, flat_observation, legal_action_ids
from warboard.core.protocol import CHANCE
from warboard.hill218 import fast
from warboard.hill218.state import CardState
from warboard.hill218.vector import CardVectorEnv

if not fast.available():
    pytest.skip("the C fast path warboard.hill218._fastplay is not built",
                allow_module_level=True)

CONFIGS = [
    ("hill218", {}),
    ("hill218", {"quick_start": True}),
    ("hill218", {"window": 9}),  # plays and units outside the window
    ("ogre218", {}),
    ("ogre218", {"damaged_ogres_0": 2, "damaged_ogres_1": 1, "window": 13}),
]
IDS = [f"{name}-{json.dumps(p, separators=(',', ':'))}" for name, p in CONFIGS]


class Mirror:
    """The Python games beside a recording CardVectorEnv, fed with its events."""

    def __init__(self, env: CardVectorEnv) -> None:
        self.env = env
        self.game = env.encoding.game
        self.states = [self.game.new_initial_state() for _ in range(env.num_envs)]
        self.seen = [0] * env.num_envs

    def catch_up(self, i: int, state: CardState, events: list[dict[str, Any]]) -> None:
        for event in events[self.seen[i]:]:
            assert not state.is_terminal()
            assert (state.current_player() == CHANCE) == ("chance" in event), event
            state.apply(self.game.action_from_json(event))
        self.seen[i] = len(events)

    def check(self, obs: np.ndarray, mask: np.ndarray, seats: np.ndarray) -> None:
        floats = self.env.as_float(obs)
        for i, state in enumerate(self.states):
            self.catch_up(i, state, self.env.events(i))
            seat = int(seats[i])
            assert state.current_player() == seat
            assert np.array_equal(floats[i], flat_observation(self.env.encoding, state, seat))
            legal = list(legal_action_ids(self.env.encoding, state))
            assert np.flatnonzero(mask[i]).tolist() == legal

    def finish(self, i: int, reward: float, final_obs: np.ndarray, seat: int) -> None:
        state = self.states[i]
        self.catch_up(i, state, self.env.events(i, previous=True))
        assert state.is_terminal()
        assert reward == state.returns()[seat]
        assert np.array_equal(self.env.as_float(final_obs[None])[0],
                              flat_observation(self.env.encoding, state, seat))
        self.states[i] = self.game.new_initial_state()
        self.seen[i] = 0


def run_and_check(env: CardVectorEnv, steps: int, seed: int, random_in_c: bool) -> int:
    """Steps ``env`` (random legal ids picked from the masks, or random plays chosen in C) and
    checks every step against the Python engine; returns the number of finished games."""
    rng = np.random.default_rng(seed)
    mirror = Mirror(env)
    obs, infos = env.reset(seed=seed)
    seats = infos["seat"]
    mirror.check(obs, env.action_masks(), seats)
    finished = 0
    for _ in range(steps):
        if random_in_c:
            actions = None
        else:
            actions = [rng.choice(np.flatnonzero(row)) for row in env.action_masks()]
        acted = seats
        obs, rewards, terminated, truncated, infos = env.step(actions)
        assert not truncated.any()
        assert env.observation_space.contains(obs)
        assert np.array_equal(infos["acted"], acted)
        for i in np.flatnonzero(terminated):
            assert infos["_final_obs"][i]
            mirror.finish(i, float(rewards[i]), infos["final_obs"][i], int(acted[i]))
            finished += 1
        assert not rewards[~terminated].any()
        seats = infos["seat"]
        if env.opponent:
            expected = [i % 2 for i in range(env.num_envs)] if env.seat is None else env.seat
            assert np.array_equal(seats, np.broadcast_to(expected, seats.shape))
        mirror.check(obs, env.action_masks(), seats)
    return finished


@pytest.mark.parametrize(("name", "params"), CONFIGS, ids=IDS)
@pytest.mark.parametrize("seat", [1, None])
def test_against_random_matches_the_python_engine(name, params, seat):
    env = CardVectorEnv(name, 4, params=params, record=True, seat=seat)
    assert run_and_check(env, 70, seed=3, random_in_c=False) >= 4


@pytest.mark.parametrize(("name", "params"), CONFIGS, ids=IDS)
@pytest.mark.parametrize("random_in_c", [True, False])
def test_self_play_matches_the_python_engine(name, params, random_in_c):
    env = CardVectorEnv(name, 3, params=params, opponent=None, record=True)
    assert run_and_check(env, 120, seed=5, random_in_c=random_in_c) >= 3


def test_seeding_is_reproducible_and_seeds_differ():
    def play(seed: int) -> list[Any]:
        env = CardVectorEnv("ogre218", 3, record=True)
        env.reset(seed=seed)
        out = []
        for _ in range(40):
            obs, rewards, *_ = env.step(None)
            out.append((obs.tobytes(), rewards.tolist()))
        return [out, [env.events(i) for i in range(3)]]

    assert play(7) == play(7)
    assert play(7) != play(8)
    env = CardVectorEnv("hill218", 2, record=True)
    env.reset(seed=[11, 11])
    env.step(None)
    assert env.events(0) == env.events(1)


def test_bare_steps_play_the_same_games_as_full_steps():
    full, bare = (CardVectorEnv("hill218", 5, record=True) for _ in range(2))
    full.reset(seed=2)
    bare.reset(seed=2)
    ended = 0
    for _ in range(60):
        _, rewards, terminated, _, _ = full.step(None)
        bare_rewards, bare_terminated = bare.step_bare()
        assert np.array_equal(rewards, bare_rewards)
        assert np.array_equal(terminated, bare_terminated)
        ended += int(terminated.sum())
    assert ended >= 5
    assert [full.events(i) for i in range(5)] == [bare.events(i) for i in range(5)]


def test_illegal_action_is_refused_before_any_env_moves():
    env = CardVectorEnv("hill218", 3, record=True)
    env.reset(seed=1)
    masks = env.action_masks()
    good = [int(np.flatnonzero(row)[0]) for row in masks]
    bad = list(good)
    bad[2] = int(np.flatnonzero(~masks[2])[0])
    before = [env.events(i) for i in range(3)]
    with pytest.raises(ValueError, match="env 2: action id"):
        env.step(bad)
    with pytest.raises(ValueError, match="env 0: action id"):
        env.step([-1, *good[1:]])
    assert [env.events(i) for i in range(3)] == before
    with pytest.raises(ValueError, match="expected 3 action ids"):
        env.step(good[:2])
    env.step(good)
    assert [env.events(i) for i in range(3)] != before


def test_spaces_dtypes_and_metadata():
    from gymnasium.vector import AutoresetMode

    env = CardVectorEnv("ogre218", 2, params={"window": 11, "quick_start": True})
    assert env.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    obs, _ = env.reset(seed=0)
    assert obs.dtype == np.uint8 and env.action_masks().dtype == np.bool_
    assert env.single_observation_space.shape == (env.observation_denominators.size,)
    assert env.observation_space.shape == (2, *env.single_observation_space.shape)
    assert env.single_action_space.n == env.encoding.num_actions
    assert env.action_space.shape == (2,)
    assert env.observation_space.contains(obs)
    assert int(obs[:, :env.encoding.window ** 2 * 16].max()) <= 1  # 0/1 board planes
    with pytest.raises(ValueError, match="no parameter"):
        CardVectorEnv("hill218", 2, params={"damaged_ogres_0": 1})
    with pytest.raises(ValueError, match="opponent"):
        CardVectorEnv("hill218", 2, opponent="ai")


def test_a_decision_with_no_play_inside_the_window_raises():
    env = CardVectorEnv("hill218", 2, params={"window": 1})  # the hill alone
    env.reset(seed=0)
    assert env.action_masks().any(axis=1).all()  # burials have ids whatever the window
    with pytest.raises(WindowOverflowError, match="env 0's seat to act"):
        env.step(env.action_masks().argmax(axis=1))  # then the first play: onto the own base
    with pytest.raises(WindowOverflowError):
        CardVectorEnv("hill218", 2, params={"window": 1, "quick_start": True}).reset(seed=0)


def test_without_the_extension_the_error_says_so(monkeypatch):
    monkeypatch.setattr(fast, "_fastplay", None)
    with pytest.raises(RuntimeError, match=r"C fast path .* is not built"):
        CardVectorEnv("hill218", 2)


def test_bench_vector_reports_the_figures(capsys):
    from warboard.cli import main

    assert main(["bench", "ogre218", "--vector", "--json", "--seconds", "0.1", "--envs", "3"]) == 0
    out = json.loads(capsys.readouterr().out)
    env = CardVectorEnv("ogre218", 1)
    assert out["num_envs"] == 3
    assert out["observation_size"] == env.single_observation_space.shape[0]
    assert out["observation_dtype"] == "uint8"
    assert out["mask_size"] == env.encoding.num_actions
    for key in ("steps_per_second", "given_steps_per_second", "bare_steps_per_second"):
        assert out[key] > 0


def test_the_registry_finds_the_vector_env():
    from warboard.adapters.vector import game_names, make_vector_env

    assert game_names() == ["hill218", "ogre218"]
    env = make_vector_env("ogre218", 2, seat=1, params={"quick_start": True})
    assert isinstance(env, CardVectorEnv) and env.num_envs == 2 and env.seat == 1
    with pytest.raises(ValueError, match="no native vector environment for game 'holdtheline'"):
        make_vector_env("holdtheline", 2)
