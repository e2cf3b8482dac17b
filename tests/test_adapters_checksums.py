"""Fixed checksums of the environments' observations, masks, rewards and seats in seeded random
games: a speed-up of the adapters or the engines must leave every one of them as it is.

Recorded from the environments as they were before the speed work of issue 16 (point 7); if a
change of the rules or of an encoding moves them on purpose, record them anew (``_digest``).
"""

import hashlib

import numpy as np
import pytest

pytest.importorskip("gymnasium", reason="the 'rl' extra is not installed (pip install -e '.[rl]')")

from warboard.adapters.gym_env import SingleSeatEnv

STEPS = 300  # through several games of each (a game's end resets)

CASES = {
    "hill218": ({}, "dd4d6a76f868cbf5"),
    "ogre218": ({}, "14aa09836df10843"),
    "holdtheline tutorial": ({"scenario": "tutorial"}, "137a74741f8b80bb"),
    "holdtheline trenton": ({"scenario": "trenton"}, "6f7c486ad34a8ba8"),
}


def _digest(game: str, params: dict, seed: int) -> str:
    """Random ids of the mask for ``STEPS`` steps against the random opponent, seat drawn at
    each reset; every observation, mask, reward, ending and seat hashed."""
    env = SingleSeatEnv(game, seat=None, opponent="random", **params)
    rng = np.random.default_rng(seed)
    digest = hashlib.sha256()
    obs, info = env.reset(seed=seed)
    for _ in range(STEPS):
        mask = env.action_masks()
        digest.update(obs.tobytes() + mask.tobytes() + bytes([info["seat"]]))
        legal = np.flatnonzero(mask)
        obs, reward, done, truncated, info = env.step(int(legal[rng.integers(len(legal))]))
        digest.update(f"{reward} {done} {truncated}".encode())
        if done:
            digest.update(obs.tobytes())
            obs, info = env.reset()
    return digest.hexdigest()[:16]


@pytest.mark.parametrize("case", CASES)
def test_seeded_games_keep_their_checksums(case):
    params, expected = CASES[case]
    assert _digest(case.split()[0], params, seed=16) == expected
