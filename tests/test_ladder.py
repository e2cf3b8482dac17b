"""``warboard ladder`` (issue 14, point 6): the round robin of every computer level for each
game; Hold the Line's over all its battles, both seat orders on each."""

from __future__ import annotations

import argparse
import collections
import contextlib
import io
import json
from pathlib import Path

import pytest

from warboard.ai import ladder
from warboard.ai.arena import ArenaReport
from warboard.ai.ladder import (
    ladder_agents,
    ladder_specs,
    markdown_table,
    option_sets,
    run_ladder_command,
)
from warboard.ai.levels import LEVELS
from warboard.holdtheline.scenario_file import list_names

ROOT = Path(__file__).resolve().parents[1]


def test_the_ladder_is_random_greedy_and_every_level_of_the_game():
    assert ladder_agents("hill218") == ["random", "greedy", *LEVELS]
    assert ladder_agents("holdtheline") == ["random", "greedy", *LEVELS][:-1]  # no master


def test_a_card_game_plays_every_pair_both_ways_on_its_default_options():
    assert option_sets("hill218") == [{}]
    specs = ladder_specs("hill218", option_sets("hill218"), 4, seed=1, time_caps=False)
    games = collections.Counter(s.agents for s in specs)
    agents = ladder_agents("hill218")
    pairs = len(agents) * (len(agents) - 1) // 2
    assert len(specs) == 4 * pairs and len(games) == 2 * pairs
    assert set(games.values()) == {2}  # each seat order twice
    assert len({s.seed for s in specs}) == len(specs)
    assert not any(s.time_caps for s in specs)


def test_hold_the_line_plays_every_pair_on_every_battle_both_ways():
    battles = [name for name in list_names() if name != "tutorial"]
    assert len(battles) == 13
    specs = ladder_specs("holdtheline", option_sets("holdtheline"), 2, seed=1, time_caps=True)
    on = collections.defaultdict(set)
    for s in specs:
        on[s.options["scenario"]].add(s.agents)
    assert sorted(on) == sorted(battles)
    agents = ladder_agents("holdtheline")
    pairs = len(agents) * (len(agents) - 1) // 2
    assert all(len(orders) == 2 * pairs for orders in on.values())
    assert len({s.seed for s in specs}) == len(specs)


def test_a_ladder_writes_each_games_report(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(ladder, "levels_for", lambda game: [])  # two quick agents alone
    args = argparse.Namespace(game=["hill218", "ogre218"], games=2, jobs=1, backend="process",
                              seed=3, no_time_caps=True, seconds=None, out=str(tmp_path),
                              json=True,
                              records=None)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert run_ladder_command(args) == 0
    reports = [json.loads(line) for line in out.getvalue().splitlines()]
    assert (tmp_path / "ladder.md").read_text().count("| `") == 2  # random and greedy
    assert [r["game"] for r in reports] == ["hill218-ladder", "ogre218-ladder"]
    for rep in reports:
        assert rep == json.loads((tmp_path / f"arena-{rep['game']}.json").read_text())
        assert rep["agents"] == ["random", "greedy"] and rep["games_per_pair"] == 2
        pair = rep["pairs"][0]
        assert pair["a_wins"] + pair["draws"] + pair["b_wins"] == 2


def test_a_ladder_of_one_game_keeps_the_other_games_in_the_table(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(ladder, "levels_for", lambda game: [])  # two quick agents alone

    def run(game: str, seed: int) -> str:
        args = argparse.Namespace(game=[game], games=2, jobs=1, backend="process", seed=seed,
                                  no_time_caps=True, seconds=None, out=str(tmp_path),
                                  json=True, records=None)
        with contextlib.redirect_stdout(io.StringIO()):
            assert run_ladder_command(args) == 0
        return (tmp_path / "ladder.md").read_text()

    alone = run("ogre218", 3)
    assert "| agent | ogre218 Elo (95%) | s / decision (ogre218) |" in alone
    both = run("hill218", 4)
    assert "| agent | hill218 Elo (95%) | ogre218 Elo (95%) |" in both  # the registry's order
    reports = [ArenaReport.from_json(json.loads(
        (tmp_path / f"arena-{game}-ladder.json").read_text())) for game in ("hill218", "ogre218")]
    assert both == markdown_table(reports)


def test_the_published_ladder_in_the_docs_is_the_reports():
    """docs/ai.md's table is the one ``warboard ladder`` makes of docs/results' reports."""
    text = (ROOT / "docs/ai.md").read_text(encoding="utf-8")
    table = text.split("<!-- ladder:", 1)[1].split("\n", 1)[1].split("\n\n", 1)[0]
    reports = [ArenaReport.from_json(json.loads(
        (ROOT / f"docs/results/arena-{game}-ladder.json").read_text()))
        for game in ("hill218", "ogre218", "holdtheline")]
    assert table + "\n" == markdown_table(reports)
    assert all(rep.agents == ladder_agents(rep.game.removesuffix("-ladder")) for rep in reports)
    assert [rep.games_per_pair for rep in reports] == [20, 20, 26]  # 2 on each of 13 battles
