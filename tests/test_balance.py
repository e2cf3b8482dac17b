"""``warboard balance`` (AI-against-AI games of a Hold the Line scenario) and the arena with
Hold the Line: small runs, through the command line."""

from __future__ import annotations

import contextlib
import io
import json

import pytest

from warboard.ai.ratings import score_interval
from warboard.cli import main
from warboard.holdtheline.balance import balance_report, balance_specs, parse_agents, run_balance


def run_cli(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(list(argv))
    return code, out.getvalue()


def test_balance_reports_each_side_with_an_interval():
    rep = run_balance("tutorial", ("random", "random"), games=3, seed=2, jobs=1)
    assert rep["scenario"] == "tutorial" and rep["games"] == 3
    sides = rep["sides"]
    assert [s["side"] for s in sides] == ["Americans", "British"]
    total = sides[0]["wins"]["count"] + sides[1]["wins"]["count"] + rep["draws"]["count"]
    assert total == 3 and sum(rep["endings"].values()) == 3
    for entry in (sides[0]["wins"], sides[1]["wins"], rep["draws"]):
        mean, lo, hi = score_interval([1.0] * entry["count"] + [0.0] * (3 - entry["count"]))
        assert entry["rate"] == round(mean, 4) and entry["interval"] == [round(lo, 4),
                                                                         round(hi, 4)]
    # reproducible: the same seed gives the same games (all but the timings)
    again = run_balance("tutorial", ("random", "random"), games=3, seed=2, jobs=1)
    for r in (rep, again):
        for side in r["sides"]:
            side.pop("seconds_per_decision")
    assert again == rep


def test_balance_schedule_and_agents():
    specs = balance_specs("trenton", ("greedy", "random"), 4, seed=1)
    assert len({s.seed for s in specs}) == 4
    assert all(s.agents == ("greedy", "random") and s.options == {"scenario": "trenton"}
               for s in specs)
    assert parse_agents("hard") == ("hard", "hard")
    assert parse_agents("easy, random") == ("easy", "random")
    with pytest.raises(ValueError, match="unknown agent"):
        parse_agents("grandmaster")
    with pytest.raises(ValueError, match="one agent for both sides"):
        parse_agents("a,b,c")
    assert balance_report("x", ["A", "B"], ("r", "r"), [])["draws"]["count"] == 0


def test_balance_command_line():
    code, out = run_cli("balance", "tutorial", "--games", "2", "--agents", "random",
                        "--jobs", "1", "--json")
    assert code == 0
    rep = json.loads(out)
    assert rep["games"] == 2 and rep["agents"] == ["random", "random"]
    code, out = run_cli("balance", "tutorial", "--games", "2", "--agents", "random",
                        "--jobs", "1")
    assert code == 0
    assert "win rate (95%)" in out and "Americans" in out and "draws" in out
    assert "how the games ended" in out
    with contextlib.redirect_stderr(io.StringIO()) as err:
        assert main(["balance", "atlantis", "--games", "1"]) == 1
    assert "atlantis" in err.getvalue()


def test_arena_plays_hold_the_line(tmp_path):
    code, _ = run_cli("arena", "--game", "holdtheline", "--scenario", "tutorial",
                        "--agents", "random,greedy", "--games", "2", "--jobs", "1",
                        "--out", str(tmp_path))
    assert code == 0
    data = json.loads((tmp_path / "arena-holdtheline-tutorial.json").read_text())
    pair = data["pairs"][0]
    assert pair["a_wins"] + pair["draws"] + pair["b_wins"] == 2
    with contextlib.redirect_stderr(io.StringIO()) as err, pytest.raises(SystemExit) as bad:
        main(["arena", "--game", "hill218", "--scenario", "trenton", "--games", "1",
              "--out", str(tmp_path)])
    assert bad.value.code == 2  # bad usage
    assert "holdtheline option" in err.getvalue()
