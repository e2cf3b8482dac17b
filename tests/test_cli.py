"""The warboard command: every subcommand has help, bad usage fails clearly."""

from __future__ import annotations

import subprocess
import sys

import pytest

from warboard.cli import build_parser

SUBCOMMANDS = sorted(build_parser()._subparsers._group_actions[0].choices)


def run(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "warboard.cli", *argv], capture_output=True,
                          text=True, timeout=120)


def test_the_expected_subcommands_exist():
    assert {"play", "replay", "export", "rules", "bench", "arena"} <= set(SUBCOMMANDS)


@pytest.mark.parametrize("command", SUBCOMMANDS)
def test_every_subcommand_has_help(command):
    done = run(command, "--help")
    assert done.returncode == 0
    assert f"usage: warboard {command}" in done.stdout
    text = done.stdout.split("\n\n", 1)[1]
    assert len(text.strip()) > 40  # a description, not just the usage line


def test_bad_usage_fails_with_a_message():
    done = run("fly")
    assert done.returncode == 2 and "invalid choice" in done.stderr
    done = run()
    assert done.returncode == 2 and "required" in done.stderr
    done = run("arena", "--agents", "random,nobody", "--games", "2")
    assert done.returncode == 2 and "unknown agent 'nobody'" in done.stderr
