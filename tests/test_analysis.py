"""Post-game analysis (warboard.ai.analysis, `warboard analyse`): each decision judged from what
its seat knew, labelled by the win probability it lost; the summary per side."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from game_walk import random_decision_points
from hidden_cards import reshuffled
from warboard.ai.analysis import THRESHOLDS, analyse, judge, label_for, searcher, summary
from warboard.ai.match import MatchSpec, play_match
from warboard.core.record import Record, export_for_seat
from warboard.hill218 import CardGame

LABELS = {name for name, _ in THRESHOLDS}


def recorded(agents: tuple[str, str], seed: int, game: str = "hill218",
             options: dict | None = None) -> Record:
    spec = MatchSpec(game, {"quick_start": True} if options is None else options, agents, seed,
                     keep_record=True)
    result = play_match(spec)
    assert result.record is not None
    return Record.from_json(result.record)


def test_the_labels_follow_the_documented_thresholds():
    assert [label_for(x) for x in (0.0, 0.049, 0.05, 0.099, 0.10, 0.199, 0.20, 1.0)] == [
        None, None, "inaccuracy", "inaccuracy", "mistake", "mistake", "blunder", "blunder"]


@pytest.mark.parametrize("name", ["hill218", "ogre218"])
def test_a_judgement_does_not_depend_on_the_opponents_hidden_cards(name):
    """The analysis judges a play from what its seat knew: the same view and seed give the same
    judgement, whatever the opponent's hidden cards were."""
    agent = searcher("hard", iterations=60)
    rng = random.Random(5)
    changed = 0
    for i, state in enumerate(random_decision_points(CardGame(name), seed=3, every=7)):
        if i > 5:
            break
        twin = reshuffled(state, seed=i)
        changed += twin.hands != state.hands
        played = rng.choice(state.legal_actions())
        one = judge(agent, state, played, random.Random(i), ply=i)
        two = judge(agent, twin, played, random.Random(i), ply=i)
        assert one == two
    assert changed >= 3  # the hidden cards really differed


def test_every_decision_is_judged_and_the_worse_player_loses_more():
    record = recorded(("random", "greedy"), seed=4)
    agent = searcher("hard", iterations=60)
    seen: list[tuple[int, int]] = []
    judged = analyse(record, agent, seed=2, progress=lambda done, total: seen.append((done, total)))
    decisions = [n for n, e in enumerate(record.events, 1) if e["seat"] is not None]
    assert [j.ply for j in judged] == decisions
    assert seen[-1] == (len(decisions), len(decisions)) and len(seen) == len(decisions)
    assert [j.seat for j in judged] == [record.events[j.ply - 1]["seat"] for j in judged]
    assert [j.played for j in judged] == [record.events[j.ply - 1]["action"] for j in judged]
    for j in judged:
        assert 0.0 <= j.win_probability <= j.best_win_probability <= 1.0
        assert j.label == label_for(j.loss) and (j.label is None or j.label in LABELS)
        assert (j.best == j.played) == (j.loss == 0.0 and j.best_text == j.played_text)
    assert analyse(record, agent, seed=2) == judged  # an analysis replays exactly
    sides = summary(judged)
    assert sides[0]["decisions"] + sides[1]["decisions"] == len(decisions)
    # the random player (seat 0) plays worse than greedy by the search's judgement
    assert sides[0]["accuracy"] < sides[1]["accuracy"]
    worst = max((j for j in judged if j.seat == 0), key=lambda j: j.loss)
    assert sides[0]["biggest_loss"] == {"ply": worst.ply, "loss": round(worst.loss, 4)}
    assert sides[0]["blunder"] == sum(1 for j in judged if j.seat == 0 and j.label == "blunder")


def test_a_hold_the_line_battle_is_judged_too():
    record = recorded(("greedy", "random"), seed=3, game="holdtheline",
                      options={"scenario": "tutorial"})
    judged = analyse(record, searcher("medium", iterations=8))
    assert len(judged) == sum(1 for e in record.events if e["seat"] is not None) > 10
    assert all(0.0 <= j.win_probability <= j.best_win_probability <= 1.0 for j in judged)


def test_a_seat_record_is_refused_with_the_reason():
    record = recorded(("greedy", "random"), seed=1)
    with pytest.raises(ValueError, match="exported for one seat"):
        analyse(export_for_seat(record, 0), searcher("medium", iterations=5))


def test_warboard_analyse_json_prints_one_object_a_decision_then_the_summary(tmp_path: Path):
    record = recorded(("greedy", "random"), seed=7)
    path = tmp_path / "game.json"
    record.save(path)
    done = subprocess.run([sys.executable, "-m", "warboard.cli", "analyse", str(path),
                           "--iterations", "20", "--json"], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    *decisions, last = lines
    assert len(decisions) == sum(1 for e in record.events if e["seat"] is not None)
    for row in decisions:
        assert row["type"] == "decision"
        assert {"ply", "seat", "win_probability", "label", "best"} <= set(row)
    assert last["type"] == "summary" and set(last["sides"]) == {"0", "1"}
    shown = subprocess.run([sys.executable, "-m", "warboard.cli", "analyse", str(path),
                            "--iterations", "20"], capture_output=True, text=True, timeout=300)
    assert shown.returncode == 0, shown.stderr
    assert "seat 0 (greedy): accuracy" in shown.stdout and "ply" in shown.stdout
