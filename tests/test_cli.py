"""The warboard command: every command has help, a failure is one line on stderr and exit
status 1, bad usage exits 2, a closed pipe is quiet, --json where a report is printed, shell
completion."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

import pytest

from warboard.cli import build_parser
from warboard.core import registry
from warboard.core.record import Record, replay_state
from warboard.hill218 import fast


def command_paths(parser: argparse.ArgumentParser, path: tuple[str, ...] = (),
                  ) -> list[tuple[str, ...]]:
    """Every command and subcommand (``("rules", "legal")``), the games' own included."""
    out = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, command in action.choices.items():
                out.append((*path, name))
                out += command_paths(command, (*path, name))
    return out


COMMANDS = command_paths(build_parser())


def run(*argv: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "warboard.cli", *argv], capture_output=True,
                          text=True, input=stdin, timeout=120)


def test_the_expected_subcommands_exist():
    assert {("play",), ("replay",), ("export",), ("rules",), ("rules", "legal"), ("bench",),
            ("arena",), ("ladder",), ("headtohead",), ("completion",)} <= set(COMMANDS)


def test_the_help_names_every_game():
    done = run("--help")
    assert done.returncode == 0
    text = " ".join(done.stdout.split())  # the help wraps lines
    assert all(game.title in text for game in registry.games())


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_every_command_has_help(command):
    done = run(*command, "--help")
    assert done.returncode == 0
    assert f"usage: warboard {' '.join(command)}" in done.stdout
    text = done.stdout.split("\n\n", 1)[1]
    assert len(text.strip()) > 40  # a description, not just the usage line


def test_bad_usage_exits_2():
    done = run("fly")
    assert done.returncode == 2 and "invalid choice" in done.stderr
    done = run()
    assert done.returncode == 2 and "required" in done.stderr
    done = run("arena", "--games", "many")
    assert done.returncode == 2 and "invalid int value" in done.stderr


@pytest.fixture
def files(tmp_path: Path) -> dict[str, str]:
    not_json = tmp_path / "not-json.json"
    not_json.write_text("{", encoding="utf-8")
    not_a_record = tmp_path / "list.json"
    not_a_record.write_text("[]", encoding="utf-8")
    return {"missing": str(tmp_path / "nowhere.json"), "not_json": str(not_json),
            "not_a_record": str(not_a_record), "out": str(tmp_path / "out.json")}


@pytest.mark.parametrize(("argv", "message"), [
    (["replay", "{missing}"], "nowhere.json: cannot be read"),
    (["replay", "{not_json}", "--all"], "not-json.json: not JSON"),
    (["export", "{missing}", "--seat", "0", "--out", "{out}"], "cannot be read"),
    (["export", "{not_a_record}", "--seat", "0", "--out", "{out}"], "not a warboard record"),
    (["arena", "--agents", "random,nobody", "--games", "2"], "unknown agent 'nobody'"),
    (["arena", "--agents", "random"], "--agents needs two or more"),
    (["ladder", "hill218", "--games", "3"], "--games must be even"),
    (["ladder", "chess"], "unknown game 'chess'"),
    (["serve", "--database-url", "nosuchdb://x", "--port", "0", "--ai-workers", "0"],
     "cannot open the database nosuchdb://x"),
])
def test_a_runtime_error_is_one_line_and_exit_status_1(files, argv, message):
    done = run(*(a.format(**files) for a in argv))
    assert done.returncode == 1, done.stderr
    assert done.stderr.startswith("warboard: error: ") and message in done.stderr, done.stderr
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr


def closed_pipe(*argv: str, stdin: bytes = b"") -> tuple[int, str]:
    """Run ``warboard ARGV`` with its stdout a pipe whose reader has already gone."""
    process = subprocess.Popen([sys.executable, "-m", "warboard.cli", *argv],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)
    assert process.stdout is not None
    process.stdout.close()
    _, err = process.communicate(stdin, timeout=120)
    return process.returncode, err.decode()


@pytest.mark.parametrize("argv", [("scenarios",), ("scenarios", "--json"),
                                  ("completion", "bash"), ("export", "--help")])
def test_a_closed_pipe_is_quiet(argv):
    code, err = closed_pipe(*argv)
    assert err == ""
    assert code == 1 or argv[-1] == "--help"  # argparse's own help ignores a failed write


def test_a_rules_batch_into_a_closed_pipe_is_quiet():
    sys.path.insert(0, str(Path(__file__).parent))
    from positions import position

    lines = (json.dumps(position()) + "\n") * 200
    code, err = closed_pipe("rules", "legal", stdin=lines.encode())
    assert (code, err) == (1, "")


def test_json_options_parse():
    parser = build_parser()
    for argv in (["arena"], ["ladder"], ["bench", registry.default_game()], ["headtohead"],
                 ["scenarios"], ["scenarios", "NAME"]):
        assert parser.parse_args([*argv, "--json"]).json
        assert not parser.parse_args(argv).json


def test_arena_json_prints_the_report_of_the_file(tmp_path):
    done = run("arena", "--agents", "random,greedy", "--games", "2", "--jobs", "1", "--json",
               "--out", str(tmp_path))
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report == json.loads(next(tmp_path.glob("arena-*.json")).read_text())
    assert report["agents"] == ["random", "greedy"] and report["games_per_pair"] == 2
    pair = report["pairs"][0]
    assert pair["a_wins"] + pair["draws"] + pair["b_wins"] == 2
    assert set(report["elo"]) == set(report["elo_interval"]) == {"random", "greedy"}


def test_arena_records_saves_every_game_in_the_order_of_the_schedule(tmp_path):
    done = run("arena", "--agents", "random,greedy", "--games", "3", "--jobs", "2", "--seed", "5",
               "--out", str(tmp_path / "out"), "--records", str(tmp_path / "records"))
    assert done.returncode == 0, done.stderr
    assert "wrote 3 records into" in done.stdout
    paths = sorted((tmp_path / "records").iterdir())
    assert [p.name for p in paths] == ["0001-random-v-greedy.json", "0002-greedy-v-random.json",
                                       "0003-random-v-greedy.json"]
    report = json.loads(next((tmp_path / "out").glob("arena-*.json")).read_text())
    greedy_score = 0.0
    for path in paths:
        record = Record.load(path)
        returns = replay_state(record).returns()
        assert record.result is not None and record.result["returns"] == list(returns)
        greedy_score += (returns[record.players.index("greedy")] + 1) / 2
    pair = report["pairs"][0]
    assert greedy_score == pair["b_wins"] + pair["draws"] / 2


def test_completion_scripts_know_every_command():
    bash = run("completion", "bash")
    assert bash.returncode == 0 and bash.stdout.startswith("#")
    assert all(command[-1] in bash.stdout for command in COMMANDS)
    assert "_shtab_compgen_files" in bash.stdout  # FILE arguments complete paths
    for shell in ("zsh", "tcsh"):
        done = run("completion", shell)
        assert done.returncode == 0 and "scenarios" in done.stdout
    assert run("completion", "fish").returncode == 2


@pytest.mark.parametrize("game", ["hill218", "holdtheline"])
def test_bench_times_a_level_in_simulations_and_seconds_a_decision(game: str) -> None:
    """``bench GAME --ai LEVEL`` reports the search's simulations/s and its seconds a decision
    (average and slowest), the same fields for every game."""
    extra = ["--scenario", "tutorial"] if game == "holdtheline" else []
    done = run("bench", game, "--seconds", "0.2", "--corpus", "5", "--ai", "medium",
               "--ai-decisions", "3", "--json", *extra)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    speed = report["scenarios"][0]["ismcts"] if game == "holdtheline" else report["ismcts"]
    assert speed["level"] == "medium" and speed["decisions"] == 3
    assert speed["simulations_per_second"] > 0
    assert 0 < speed["seconds_per_decision"] <= speed["slowest_decision"] < speed["seconds"]
    assert speed["seconds_per_decision"] * 3 == pytest.approx(speed["seconds"], abs=0.01)
    # the card games' decisions are made by the compiled search where it is built
    compiled = game == "hill218" and fast.available()
    assert speed["native_decisions"] == (3 if compiled else 0)


def test_bench_times_the_python_search_on_request() -> None:
    done = run("bench", "hill218", "--seconds", "0.2", "--corpus", "5", "--ai", "medium",
               "--ai-decisions", "3", "--python-search", "--json")
    assert done.returncode == 0, done.stderr
    speed = json.loads(done.stdout)["ismcts"]
    assert speed["decisions"] == 3 and speed["native_decisions"] == 0


@pytest.mark.parametrize("bad", [["--seconds", "0"], ["--seconds", "soon"],
                                 ["--seconds", "1", "--no-time-caps"]])
def test_arena_refuses_a_bad_equal_time(bad: list[str]) -> None:
    done = run("arena", "--agents", "random,greedy", "--games", "2", *bad)
    assert done.returncode == 2 and "--seconds" in done.stderr
