"""examples/train_maskable_ppo.py trains (for a few seconds) and writes its scores and plot."""

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from warboard.hill218 import fast

# The example runs in a subprocess: here it is enough to know that what it imports is installed.
NEEDS = {
    "sb3_contrib": "the 'rl-train' extra is not installed (pip install -e '.[rl,rl-train]')",
    "gymnasium": "the 'rl' extra is not installed (pip install -e '.[rl]')",
    "matplotlib": "the example's plot needs matplotlib, in the 'rl-train' extra",
}
for module, reason in NEEDS.items():
    if importlib.util.find_spec(module) is None:
        pytest.skip(reason, allow_module_level=True)
if not fast.available():
    pytest.skip("the vector environment needs the C fast path", allow_module_level=True)

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "train_maskable_ppo.py"


def test_train_maskable_ppo_example_runs_evaluates_and_plots(tmp_path):
    done = subprocess.run(
        [sys.executable, str(EXAMPLE), "--minutes", "0.03", "--eval-every", "0.5",
         "--eval-games", "4", "--envs", "4", "--n-steps", "16", "--out", str(tmp_path)],
        capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    report = json.loads((tmp_path / "scores.json").read_text())
    assert report["game"] == "hill218" and report["eval_games"] == 4
    assert len(report["curve"]) >= 2  # before training and after
    assert report["curve"][-1]["timesteps"] > 0
    assert all(0 <= p["score"] <= 1 for p in report["curve"])
    assert (tmp_path / "scores.png").stat().st_size > 1000


def test_sb3_bridge_gives_float_observations_terminal_observations_and_masks():
    from sb3_contrib.common.maskable.utils import get_action_masks

    from warboard.adapters.sb3 import SB3VecEnv
    from warboard.adapters.vector import make_vector_env

    venv = make_vector_env("hill218", 3, params={"window": 11}, seat=None)
    env = SB3VecEnv(venv)
    env.seed(4)
    obs = env.reset()
    assert obs.dtype == np.float32 and all(env.observation_space.contains(row) for row in obs)
    assert np.array_equal(obs, venv.as_float(venv._obs))
    ended = 0
    for _ in range(60):
        masks = get_action_masks(env)
        assert np.array_equal(masks, venv.action_masks())
        env.step_async(masks.argmax(axis=1))
        obs, rewards, dones, infos = env.step_wait()
        for i in np.flatnonzero(dones):
            final = infos[i]["terminal_observation"]
            assert final.dtype == np.float32 and final.shape == obs[i].shape
            assert rewards[i] in (-1.0, 0.0, 1.0)
            ended += 1
        assert all("terminal_observation" not in infos[i] for i in np.flatnonzero(~dones))
    assert ended >= 3
    twins = [SB3VecEnv(make_vector_env("hill218", 3, params={"window": 11}, seat=None))
             for _ in range(2)]
    for twin in twins:
        twin.seed(4)
    assert np.array_equal(twins[0].reset(), twins[1].reset())
    assert np.array_equal(twins[0].reset(), twins[1].reset())  # unseeded: drawn from the seed
