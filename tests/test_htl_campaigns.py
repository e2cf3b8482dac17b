"""Hold the Line campaigns (rulebook 12, contract §9): the campaign files and their validation,
the scoring of each battle (VP win, time-out credit, draw, a resignation), the progress and its
JSON, ``warboard campaigns``, and a campaign played in the terminal with a resume."""

from __future__ import annotations

import json
import re
import tomllib
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from test_htl_terminal import play as play_typed
from warboard.cli import build_parser, main
from warboard.core.errors import DataFileError, WarboardError
from warboard.core.protocol import Series
from warboard.core.record import Record
from warboard.core.registry import make_game, series_of
from warboard.holdtheline.campaign import (
    campaign_names,
    list_campaigns,
    load_campaign,
    load_campaign_file,
    parse_campaign,
)
from warboard.holdtheline.campaign_progress import Progress, bank
from warboard.holdtheline.state import HtlState
from warboard.holdtheline.terminal.campaign import load_saved

GOOD = {"title": "Twice", "summary": "The tutorial twice.", "history": "A test campaign.",
        "battles": ["tutorial", "tutorial"]}


def write(tmp_path: Path, name: str = "twice", **changes: Any) -> Path:
    data = {**GOOD, **changes}
    lines = [f"{k} = {json.dumps(v)}" for k, v in data.items() if v is not None]
    path = tmp_path / f"{name}.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


# ---------------------------------------------------------------------------- the files

def test_washingtons_christmas_is_trenton_then_princeton() -> None:
    assert "washingtons_christmas" in campaign_names()
    christmas = load_campaign("washingtons_christmas")
    assert christmas.battles == ("trenton", "princeton")
    assert christmas.sides == ("american", "british")
    assert christmas in list_campaigns()
    with pytest.raises(ValueError, match=r"unknown campaign 'nope'; campaigns: .*washingtons"):
        load_campaign("nope")
    with pytest.raises(ValueError, match="unknown campaign"):
        load_campaign("../scenarios/trenton")


def test_a_campaign_file_of_ones_own(tmp_path: Path) -> None:
    campaign = load_campaign_file(write(tmp_path))
    assert campaign.name == "twice" and campaign.battles == ("tutorial", "tutorial")


@pytest.mark.parametrize(("changes", "error"), [
    ({"battles": ["tutorial", "nowhere"]}, "battles[1]: unknown scenario 'nowhere'"),
    ({"battles": ["tutorial", 3]}, "battles[1]: must be a scenario name, not a number"),
    ({"battles": []}, "battles: must be a list of 1 to 12 scenario names"),
    ({"battles": "tutorial"}, "battles: must be a list of 1 to 12 scenario names, not a string"),
    ({"title": None}, "title: is missing"),
    ({"summary": "two\nlines"}, "summary: must be one line"),
    ({"turns": 3}, "turns: is not a known field (typo?)"),
])
def test_validation_names_the_file_the_field_and_the_problem(
        tmp_path: Path, changes: dict[str, Any], error: str) -> None:
    path = write(tmp_path, **changes)
    with pytest.raises(DataFileError) as caught:
        load_campaign_file(path)
    assert str(caught.value) == f"{path}: {error}" or str(caught.value).startswith(
        f"{path}: {error}")


def test_every_battle_is_fought_by_the_campaigns_sides(monkeypatch: pytest.MonkeyPatch) -> None:
    from warboard.holdtheline import campaign as files

    tutorial = files.load_scenario("tutorial")
    other = replace(tutorial, name="other", sides=(
        replace(tutorial.sides[0], name="french"), tutorial.sides[1]))
    monkeypatch.setattr(files, "scenario_names", lambda: ("other", "tutorial"))
    monkeypatch.setattr(files, "load_scenario",
                        lambda name: other if name == "other" else tutorial)
    with pytest.raises(DataFileError, match=r"x.toml: battles\[1\]: other is fought by french "
                                            r"and british, not the campaign's sides"):
        parse_campaign("x.toml", {**GOOD, "battles": ["tutorial", "other"]}, "x")


# ---------------------------------------------------------------------------- scoring

def ended(scenario: str, held: tuple[int, int], winner: int | None, reason: str | None,
          targets: tuple[int | None, int | None] | None = None) -> HtlState:
    """A state of ``scenario`` that holds ``held`` VP; ended by the engine with ``winner`` for
    ``reason`` (``None``: not ended by the engine, as at a resignation)."""
    state = make_game("holdtheline", {"scenario": scenario}).new_initial_state()
    assert isinstance(state, HtlState)
    if targets is not None:
        sides = tuple(replace(s, vp_target=t) for s, t in zip(state.scenario.sides, targets,
                                                              strict=True))
        state.scenario = replace(state.scenario, sides=sides)
    state.vp_earned = list(held)
    assert (state.vp_total(0), state.vp_total(1)) == held  # nothing else scores here
    if reason is not None:
        state.result = {"winner": winner, "reason": reason, "vp": list(held), "text": ""}
    return state


def test_a_victory_on_vp_banks_what_each_side_holds() -> None:
    assert bank(ended("tutorial", (4, 2), 0, "vp")) == (0, "vp", (4, 2))


def test_a_win_on_time_credits_the_vp_the_winner_needed() -> None:
    # the British need 5 VP in the tutorial; they hold 1 when time runs out, winning on time
    assert bank(ended("tutorial", (3, 1), 1, "time")) == (1, "time", (3, 5))
    # the Americans need 4
    assert bank(ended("tutorial", (2, 0), 0, "time")) == (0, "time", (4, 0))


def test_a_time_out_winner_without_a_vp_target_is_credited_what_it_holds() -> None:
    assert bank(ended("tutorial", (1, 2), 1, "time", targets=(4, None))) == (1, "time", (1, 2))


def test_a_draw_at_the_turn_limit_banks_what_each_side_holds() -> None:
    assert bank(ended("tutorial", (2, 2), None, "time")) == (None, "time", (2, 2))


def test_a_resignation_scores_as_a_win_on_time_for_the_other_side() -> None:
    assert bank(ended("trenton", (1, 3), None, None), ruled_winner=0) == (0, "ruled", (6, 3))
    assert bank(ended("trenton", (1, 3), None, None), ruled_winner=None) == (None, "ruled",
                                                                             (1, 3))


def test_the_progress_adds_up_the_battles_and_names_the_winner() -> None:
    progress = Progress(load_campaign("washingtons_christmas"))
    assert progress.next_battle == "trenton" and not progress.over
    with pytest.raises(WarboardError, match="the battle to play is trenton, not princeton"):
        progress.add(ended("princeton", (0, 0), None, None))
    first = progress.add(ended("trenton", (6, 2), 0, "vp"))
    assert first.winner == "american" and first.banked == {"american": 6, "british": 2}
    assert progress.next_battle == "princeton" and progress.winner is None
    progress.add(ended("princeton", (1, 3), 1, "time"))  # the British need 7 there
    assert progress.over and progress.next_battle is None
    assert progress.totals == {"american": 7, "british": 9}
    assert progress.winner == "british"
    again = Progress.from_json(json.loads(json.dumps(progress.to_json())))
    assert again.to_json() == progress.to_json()


def test_equal_totals_are_a_drawn_campaign() -> None:
    progress = Progress(load_campaign("washingtons_christmas"))
    progress.add(ended("trenton", (2, 3), None, "time"))
    progress.add(ended("princeton", (3, 2), None, "time"))
    assert progress.over and progress.totals == {"american": 5, "british": 5}
    assert progress.winner is None and progress.to_json()["winner"] is None


def test_saved_progress_that_does_not_fit_its_campaign_is_refused() -> None:
    progress = Progress(load_campaign("washingtons_christmas"))
    progress.add(ended("trenton", (6, 2), 0, "vp"))
    data = progress.to_json()
    data["played"][0]["scenario"] = "princeton"
    with pytest.raises(WarboardError, match=r"played\[0\]: not the campaign's battle trenton"):
        Progress.from_json(data)
    data = progress.to_json()
    data["played"][0]["banked"] = {"french": 1, "british": 2}
    with pytest.raises(WarboardError, match="between american and british"):
        Progress.from_json(data)
    with pytest.raises(WarboardError, match="not a saved campaign"):
        Progress.from_json({"played": []})


def test_the_series_the_server_sees() -> None:
    series = series_of("holdtheline")
    assert isinstance(series, Series)
    assert series_of("hill218") is None
    progress = series.start("washingtons_christmas")
    assert series.next_options(progress) == {"scenario": "trenton"}
    assert series.seat_sides({"scenario": "trenton"}) == ("american", "british")
    after = series.finish(progress, ended("trenton", (0, 2), None, None), 1)
    assert after["totals"] == {"american": 0, "british": 10}
    assert series.next_options(after) == {"scenario": "princeton"}
    with pytest.raises(ValueError, match="unknown campaign"):
        series.start("nope")
    with pytest.raises(ValueError, match="not a saved campaign"):
        series.next_options({"played": []})


# ---------------------------------------------------------------------------- warboard campaigns

def test_warboard_campaigns_lists_and_shows(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["campaigns"]) == 0
    listed = capsys.readouterr().out
    assert "washingtons_christmas  Washington's Christmas  trenton, princeton" in listed
    assert main(["campaigns", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    christmas = next(c for c in data["campaigns"] if c["name"] == "washingtons_christmas")
    assert [g["title"] for g in christmas["games"]] == ["Trenton", "Princeton"]
    assert main(["campaigns", "washingtons_christmas"]) == 0
    shown = capsys.readouterr().out
    assert "  1. Trenton (1776-12-26) — trenton\n  2. Princeton (1777-01-03) — princeton" in shown
    assert "credited the VP its scenario needs to win" in shown
    assert main(["campaigns", "washingtons_christmas", "--json"]) == 0
    assert "scoring" in json.loads(capsys.readouterr().out)
    assert main(["campaigns", "nope"]) == 1
    assert "unknown campaign 'nope'" in capsys.readouterr().err


def test_campaign_commands_have_help(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        build_parser().parse_args(["campaigns", "--help"])
    assert "rulebook 12" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        build_parser().parse_args(["play", "--help"])
    text = capsys.readouterr().out
    assert "--campaign NAME" in text and "--resume FILE" in text


# ---------------------------------------------------------------------------- the terminal

def play(lines: list[str], *argv: str) -> str:
    """``warboard play holdtheline ARGV`` with ``lines`` typed (then end of input, which quits
    the battle); the transcript."""
    code, text = play_typed(lines, *argv)
    assert code == 0, text
    return text


def test_a_campaign_in_the_terminal_saved_resumed_and_replayed(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    save = tmp_path / "run.json"
    # battle 1: the Americans resign; battle 2 is quit at once (end of input): left unplayed
    text = play(["resign"], "--campaign-file", str(write(tmp_path)), "--save", str(save),
                "--opponent", "random", "--seed", "5")
    assert "Battle 1 of 2: The Forage War" in text
    assert "Banked: American 0 VP, British 5 VP." in text  # the British need 5 to win
    assert "Campaign VP after 1 of 2 battles: American 0, British 5" in text
    assert f"--resume {save}" in text and "The campaign is over" not in text
    saved = load_saved(save)
    assert [b.scenario for b in saved.progress.played] == ["tutorial"]
    assert saved.side == "american" and saved.opponent == "random" and saved.seed == 5

    # resumed: battle 2 is played out with the first legal play each time
    text = play(["1"] * 3000, "--resume", str(save))
    assert "Battle 2 of 2: The Forage War" in text and "Battle 1 of 2" not in text
    progress = load_saved(save).progress
    assert progress.over and progress.played[1].reason in ("vp", "time")
    totals = progress.totals
    assert f"Campaign VP after 2 of 2 battles: American {totals['american']}, British " \
           f"{totals['british']}" in text
    winner = progress.winner
    assert ("The campaign is over: a draw." if winner is None else
            f"The campaign is over: the {winner.capitalize()} side wins.") in text

    # each battle's record is beside the campaign file, and replays
    for i, battle in enumerate(progress.played, 1):
        record = tmp_path / str(battle.record)
        assert record.name == f"run-{i}-tutorial.record.json"
        assert Record.load(str(record)).options == {"scenario": "tutorial"}
        assert main(["replay", "--all", "--no-color", str(record)]) == 0
    assert "End of the record: abandoned — the Americans resigned." in capsys.readouterr().out


def test_a_broken_save_file_is_refused(tmp_path: Path) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text("{}")
    with pytest.raises(WarboardError, match="not a saved campaign"):
        load_saved(broken)


def test_the_documented_campaign_file_is_valid() -> None:
    text = (Path(__file__).resolve().parents[1] / "docs" / "scenarios.md").read_text("utf-8")
    section = text[text.index("## Campaigns"):]
    block = re.search(r"```toml\n(.*?)```", section, re.S)
    assert block is not None
    documented = parse_campaign("docs/scenarios.md", tomllib.loads(block[1]), "example")
    assert documented.battles == load_campaign("washingtons_christmas").battles
