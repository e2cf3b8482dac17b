"""The package type-checks: mypy, with pyproject.toml's ``[tool.mypy]``, finds nothing in
``src/warboard`` (mypy is part of the test extra). Where an optional extra is not installed
(the README's test command installs the test extra only) its modules are taken as untyped;
``.ci/run`` installs every extra, so there they are checked."""

from importlib.util import find_spec
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# what the optional extras bring that the package imports
EXTRAS_MODULES = ("gymnasium", "ray", "matplotlib", "psycopg", "torch", "stable_baselines3",
                  "sb3_contrib")


def test_mypy_finds_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    try:
        from mypy import api
    except ImportError:
        pytest.skip("mypy is not installed (pip install -e '.[test]' brings it)")
    # the config's paths (files, mypy_path, the cache) are relative to the working directory
    monkeypatch.chdir(ROOT)
    missing = [m for m in EXTRAS_MODULES if find_spec(m) is None]
    extra = ["--ignore-missing-imports"] if missing else []
    report, errors, status = api.run(["--config-file", str(ROOT / "pyproject.toml"), *extra])
    assert status == 0, f"mypy found problems:\n{report}{errors}"
    assert report.startswith("Success: no issues found"), report
