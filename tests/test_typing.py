"""The package type-checks: mypy, with pyproject.toml's ``[tool.mypy]``, finds nothing in
``src/warboard`` (mypy is part of the test extra)."""

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_mypy_finds_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    try:
        from mypy import api
    except ImportError:
        pytest.skip("mypy is not installed (pip install -e '.[test]' brings it)")
    # the config's paths (files, mypy_path, the cache) are relative to the working directory
    monkeypatch.chdir(ROOT)
    report, errors, status = api.run(["--config-file", str(ROOT / "pyproject.toml")])
    assert status == 0, f"mypy found problems:\n{report}{errors}"
    assert report.startswith("Success: no issues found"), report
