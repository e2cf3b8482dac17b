"""examples/train_policy.py runs (for a few seconds) and writes its plot."""

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

# The example runs in a subprocess: here it is enough to know that what it imports is installed
# (importing torch here would cost every run of the suite seconds, even when this test is
# deselected).
NEEDS = {
    "torch": "the 'train' extra is not installed (pip install -e '.[train]')",
    "pettingzoo": "the 'rl' extra is not installed (pip install -e '.[rl]')",
    "matplotlib": "the example's plot needs matplotlib, in the 'train' extra "
                  "(pip install -e '.[train]')",
}
for module, reason in NEEDS.items():
    if importlib.util.find_spec(module) is None:
        pytest.skip(reason, allow_module_level=True)

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "train_policy.py"


def test_train_policy_example_runs_and_plots(tmp_path):
    plot = tmp_path / "curve.png"
    done = subprocess.run(
        [sys.executable, str(EXAMPLE), "--seconds", "2", "--eval-every", "1", "--eval-games",
         "4", "--batch", "2", "--plot", str(plot)],
        capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stderr
    lines = [line for line in done.stdout.splitlines() if "score vs random" in line]
    assert len(lines) >= 2
    assert plot.stat().st_size > 1000
