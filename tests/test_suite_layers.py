"""The suite's layers stay true: every file and test that tests/conftest.py marks still exists,
and every marker it gives is registered (pyproject.toml), so a rename cannot silently move a
slow test into ``pytest -m "not slow"``."""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

from conftest import MODULE_MARKERS, SLOW_LAYERS, TEST_MARKERS

TESTS = Path(__file__).resolve().parent
REGISTERED = {line.split(":")[0] for line in tomllib.loads(
    (TESTS.parent / "pyproject.toml").read_text(encoding="utf-8"))
    ["tool"]["pytest"]["ini_options"]["markers"]}


def test_marked_files_and_tests_exist():
    for name in {*MODULE_MARKERS, *TEST_MARKERS}:
        assert (TESTS / name).is_file(), f"tests/conftest.py marks {name}, which is gone"
    for name, tests in TEST_MARKERS.items():
        tree = ast.parse((TESTS / name).read_text(encoding="utf-8"))
        defined = {node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)}
        missing = set(tests) - defined
        assert not missing, f"tests/conftest.py marks tests that {name} no longer has: {missing}"


def test_every_marker_given_is_registered():
    given = {m for ms in MODULE_MARKERS.values() for m in ms}
    given |= {m for tests in TEST_MARKERS.values() for ms in tests.values() for m in ms}
    assert given | set(SLOW_LAYERS) | {"slow"} <= REGISTERED
