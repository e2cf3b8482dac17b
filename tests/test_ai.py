"""Agents: the interface, honesty about hidden information, search through chance, the arena."""

from __future__ import annotations

import contextlib
import io
import json
import random
import struct
import sys
from dataclasses import replace
from pathlib import Path
from typing import ClassVar, get_args

import pytest

from game_walk import random_decision_points
from hidden_cards import reshuffled
from warboard.ai.agent import Agent, decide, make_agent
from warboard.ai.arena import (
    ArenaReport,
    charts_available,
    draw_chart,
    report,
    run_matches,
    schedule,
    write_outputs,
)
from warboard.ai.ismcts import ISMCTSAgent
from warboard.ai.levels import (
    GAME_LEVELS,
    LEVELS,
    Level,
    agent_for_level,
    hint_level,
    levels_for,
)
from warboard.ai.match import MatchSpec, play_match
from warboard.ai.ratings import elo, elo_intervals, score_interval
from warboard.cli import main
from warboard.core.protocol import CHANCE, Game, State
from warboard.core.record import Record, replay_state
from warboard.core.registry import make_game
from warboard.hill218 import CardGame
from warboard.hill218.state import CardState


def decision_points(name: str, seed: int, every: int = 7):
    return random_decision_points(CardGame(name), seed, every)


@pytest.mark.parametrize("name", ["hill218", "ogre218"])
@pytest.mark.parametrize("spec", ["random", "greedy", "ismcts", "ismcts-python"])
def test_decisions_do_not_depend_on_the_opponents_hidden_cards(name, spec):
    """Issue 3 req. 6: same view and seed -> same decision, whatever the hidden cards are
    (``ismcts``: the compiled search where it is built; ``ismcts-python``: the Python one)."""
    if spec.startswith("ismcts"):
        agent = ISMCTSAgent(iterations=40, native=spec == "ismcts")
    else:
        agent = make_agent(spec)
    assert_blind_to_hidden_cards(agent, name)


@pytest.mark.parametrize("name", ["hill218", "ogre218"])
@pytest.mark.parametrize("beliefs", [True, False])
def test_master_does_not_see_the_opponents_hidden_cards(name, beliefs):
    """The same for ``master``, the search reading the shipped model, with its beliefs and
    without (a small budget of iterations, so that the same view gives the same search)."""
    agent = agent_for_level("master", iterations=60, seconds=None, beliefs=beliefs)
    assert_blind_to_hidden_cards(agent, name)


def assert_blind_to_hidden_cards(agent: Agent, name: str) -> None:
    changed = 0
    for i, state in enumerate(decision_points(name, seed=3)):
        if i > 6:
            break
        twin = reshuffled(state, seed=i)
        changed += twin.hands != state.hands
        a = decide(agent, state, random.Random(i))
        b = decide(agent, twin, random.Random(i))
        assert a == b
        assert a in state.legal_actions()
    assert changed >= 3  # the hidden cards really differed in most cases


def test_agents_receive_plain_data_only():
    """Nothing an agent is given leads to the true state: the view is plain JSON data and the
    game object holds no position."""
    seen = {}

    class Spy(Agent):
        name = "spy"

        def act(self, game, view, legal, rng):
            seen.update(game=game, view=view, legal=legal)
            return legal[0]

    state = next(decision_points("hill218", seed=1))
    decide(Spy(), state, random.Random(0))
    assert json.loads(json.dumps(seen["view"])) == seen["view"]
    assert not any(isinstance(v, CardState) for v in vars(seen["game"]).values())
    assert all(isinstance(a, tuple) for a in seen["legal"])


def test_an_agent_that_reads_no_view_is_given_an_empty_one():
    seen = []

    class Blind(Agent):
        name = "blind"
        reads_view = False

        def act(self, game, view, legal, rng):
            seen.append(view)
            return legal[0]

    state = next(decision_points("hill218", seed=1))
    assert decide(Blind(), state, random.Random(0)) == state.legal_actions()[0]
    assert seen == [{}]
    assert not make_agent("random").reads_view and make_agent("greedy").reads_view


class DiceRace(Game):
    """A toy perfect-information game with dice: reach 12 first; on your turn roll a die and
    add it, or stop. ISMCTS must handle its chance nodes through the protocol alone."""

    name = "dice-race"
    options: ClassVar[dict] = {}
    num_seats = 2

    def new_initial_state(self):
        return DiceState(self)

    def sample_state(self, view, rng):
        s = DiceState(self)
        s.score, s.turn, s.pending = list(view["score"]), view["turn"], False
        return s


class DiceState(State):
    def __init__(self, game):
        self.game, self.score, self.turn, self.pending = game, [0, 0], 0, False

    def current_player(self):
        if max(self.score) >= 12:
            return -4
        return CHANCE if self.pending else self.turn

    def is_terminal(self):
        return self.current_player() == -4

    def returns(self):
        if not self.is_terminal():
            return (0.0, 0.0)
        return (1.0, -1.0) if self.score[0] >= 12 else (-1.0, 1.0)

    def legal_actions(self):
        return [] if self.current_player() < 0 else ["roll", "stop"]

    def chance_outcomes(self):
        return [(k, 1 / 6) for k in range(1, 7)] if self.pending else []

    def apply(self, action):
        if self.pending:
            self.score[self.turn] += action
            self.pending = False
            if self.score[self.turn] >= 12:
                return
            return
        if action == "roll":
            self.pending = True
        else:
            self.turn = 1 - self.turn

    def observation(self, seat):
        return {"seat": seat, "score": list(self.score), "turn": self.turn}

    def clone(self):
        c = DiceState(self.game)
        c.score, c.turn, c.pending = list(self.score), self.turn, self.pending
        return c


def test_ismcts_searches_through_chance_nodes_of_any_game():
    """Far behind near the end, stopping loses for sure: the search must keep rolling."""
    game = DiceRace()
    state = game.new_initial_state()
    state.score = [2, 11]
    agent = ISMCTSAgent(iterations=300, rollout_depth=30)
    assert decide(agent, state, random.Random(0)) == "roll"
    state.score = [11, 0]  # one roll of anything wins
    assert decide(agent, state, random.Random(0)) == "roll"


def test_iteration_budgets_are_reproducible():
    state = next(decision_points("ogre218", seed=5))
    a = decide(ISMCTSAgent(iterations=60), state, random.Random(9))
    b = decide(ISMCTSAgent(iterations=60), state, random.Random(9))
    assert a == b


def test_a_time_budget_that_runs_out_at_once_still_answers():
    state = next(decision_points("hill218", seed=5))
    agent = ISMCTSAgent(iterations=None, seconds=0.0)
    assert decide(agent, state, random.Random(1)) in state.legal_actions()
    assert agent.last_iterations == 1


def test_levels_are_documented_budgets():
    assert set(LEVELS) == {"easy", "medium", "hard", "expert", "master"}
    assert tuple(LEVELS) == get_args(Level)  # the levels the server's messages accept
    assert LEVELS["hard"]["seconds"] <= 1.0  # hard answers within a second
    assert LEVELS["master"]["seconds"] < 1.0  # master answers within a second (its cap)
    for level in LEVELS:
        assert make_agent(level).name
    with pytest.raises(ValueError, match="unknown agent"):
        make_agent("grandmaster")


def test_master_plays_only_the_games_that_ship_a_model():
    """``master`` is the search reading the model a game ships (hill218's under its package);
    where none ships, the game's levels stop at expert, and master refuses it by name."""
    assert levels_for("hill218") == ["easy", "medium", "hard", "expert", "master"]
    assert levels_for("ogre218") == ["easy", "medium", "hard", "expert", "master"]
    assert levels_for("holdtheline") == ["easy", "medium", "hard", "expert"]
    assert hint_level("hill218") == "master" and hint_level("holdtheline") == "expert"
    master = make_agent("master", time_caps=False)
    htl = make_game("holdtheline", {"scenario": "tutorial"})
    with pytest.raises(ValueError, match="holdtheline ships no trained model"):
        decide(master, htl.new_initial_state(), random.Random(1))
    state = next(iter(random_decision_points(CardGame("hill218", {"quick_start": True}), 1, 3)))
    assert decide(master, state, random.Random(1)) in state.legal_actions()
    search = master.search_for("hill218")
    assert search.name == "master" and search.iterations == LEVELS["master"]["iterations"]
    assert search.seconds is None  # without time caps: its iterations alone, reproducible


def test_a_level_hands_its_search_parameters_to_the_agent():
    expert = make_agent("expert", time_caps=False)
    assert expert.settings("ogre218")["exploration"] == LEVELS["expert"]["exploration"] < 0.5
    assert expert.settings("ogre218")["iterations"] == LEVELS["expert"]["iterations"]
    assert expert.settings("ogre218")["seconds"] is None
    hill218 = GAME_LEVELS["hill218"]["expert"]
    assert expert.settings("hill218")["iterations"] == hill218["iterations"]
    assert expert.settings("hill218")["exploration"] == LEVELS["expert"]["exploration"]
    assert expert.settings("holdtheline")["exploration"] == 0.5  # its own, measured budget


def test_a_match_is_reproducible_and_reports_both_seats():
    spec = MatchSpec("hill218", {"quick_start": True}, ("greedy", "random"), seed=4)
    one, two = play_match(spec), play_match(spec)
    assert one.returns == two.returns and one.summary == two.summary
    assert sum(one.returns) == 0 or one.returns == (0.0, 0.0)
    assert min(one.decisions) > 0


def test_a_kept_record_replays_the_match_and_changes_nothing_in_it():
    spec = MatchSpec("hill218", {"quick_start": True}, ("greedy", "random"), seed=4)
    kept = play_match(replace(spec, keep_record=True))
    plain = play_match(spec)
    assert plain.record is None and kept.record is not None
    assert (kept.returns, kept.summary, kept.decisions) == (plain.returns, plain.summary,
                                                            plain.decisions)
    record = Record.from_json(kept.record)
    assert record.players == ["greedy", "random"] and record.seed == 4
    assert record.result == {"returns": list(kept.returns), "summary": kept.summary}
    assert replay_state(record).returns() == kept.returns
    assert sum(1 for e in record.events if e["seat"] is not None) == sum(kept.decisions)


def test_arena_round_robin_report_and_outputs(tmp_path):
    agents = ["random", "greedy"]
    specs = schedule("hill218", agents, 4, seed=2)
    assert [s.agents for s in specs] == [("random", "greedy"), ("greedy", "random")] * 2
    results = run_matches(specs, jobs=2)
    rep = report("hill218", agents, 4, results)
    data = rep.to_json()
    pair = data["pairs"][0]
    assert pair["a"] == "random" and pair["b"] == "greedy"
    assert pair["a_wins"] + pair["draws"] + pair["b_wins"] == 4
    assert data["elo"]["greedy"] >= data["elo"]["random"]
    assert set(data["decision_seconds"]) == set(agents)
    json_path, png_path = write_outputs(rep, tmp_path)
    assert json.loads(json_path.read_text())["games_per_pair"] == 4
    if charts_available():
        assert_png(png_path)
    else:
        assert png_path is None and list(tmp_path.iterdir()) == [json_path]


def assert_png(path: Path | None) -> None:
    assert path is not None
    header = path.read_bytes()[:24]
    assert header[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", header[16:24])
    assert width > 300 and height > 150


def test_arena_chart_is_a_png(tmp_path):
    pytest.importorskip("matplotlib", reason="the arena's PNG chart needs matplotlib, the "
                                             "'plots' extra: pip install -e '.[plots]'")
    rep = ArenaReport("hill218", 4, ["random", "greedy"], pairs=[],
                      elo={"random": 1400.0, "greedy": 1600.0},
                      elo_interval={"random": (1300.0, 1500.0), "greedy": (1500.0, 1700.0)},
                      decision_seconds={"random": 0.0, "greedy": 0.01})
    draw_chart(rep, tmp_path / "chart.png")
    assert_png(tmp_path / "chart.png")


def test_arena_without_matplotlib_writes_the_report_and_says_how_to_get_the_chart(
        tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # importing it now fails
    assert not charts_available()
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(["arena", "--agents", "random,greedy", "--games", "2", "--jobs", "1",
                     "--quick-start", "--out", str(tmp_path)])
    assert code == 0
    assert [p.name for p in tmp_path.iterdir()] == ["arena-hill218.json"]
    said = " ".join(out.getvalue().split())  # the console may wrap the line
    assert "no PNG chart, matplotlib is not installed" in said
    assert "install the 'plots' extra: pip install 'warboard[plots]'" in said


def test_elo_and_intervals_recover_a_known_gap():
    games = [("a", "b", 1.0)] * 300 + [("a", "b", 0.0)] * 100  # a scores 75%
    ratings = elo(games, ["a", "b"])
    assert abs((ratings["a"] - ratings["b"]) - 190.8) < 15
    lo, hi = elo_intervals(games, ["a", "b"], samples=60)["a"]
    assert lo < ratings["a"] < hi
    mean, low, high = score_interval([1.0] * 10)
    assert mean == 1.0 and 0.6 < low < 0.8 and high == 1.0


def test_ray_backend_runs_the_same_tournament():
    ray = pytest.importorskip("ray", reason="the ray extra is not installed")
    ray.init(num_cpus=2, include_dashboard=False, ignore_reinit_error=True,
             log_to_driver=False)
    try:
        specs = schedule("hill218", ["random", "greedy"], 2, seed=3, options={"quick_start": True})
        on_ray = run_matches(specs, jobs=2, backend="ray")
        local = run_matches(specs, jobs=1)
        key = lambda r: r.spec.seed  # noqa: E731
        assert [r.returns for r in sorted(on_ray, key=key)] == \
            [r.returns for r in sorted(local, key=key)]
    finally:
        ray.shutdown()


def test_without_time_caps_levels_use_their_iteration_budget_only():
    capped, uncapped = make_agent("hard"), make_agent("hard", time_caps=False)
    assert capped.seconds == LEVELS["hard"]["seconds"] and uncapped.seconds is None
    assert uncapped.iterations == LEVELS["hard"]["iterations"]
    spec = schedule("hill218", ["random", "hard"], 2, seed=1, time_caps=False)[0]
    assert spec.time_caps is False


def test_at_equal_time_every_search_decides_by_seconds_alone():
    """``--seconds S`` (``seconds``): a level's search, whatever its iterations and its game's
    own budget, decides in S seconds; agents that do not search are as they were."""
    timed = make_agent("expert", seconds=0.05)
    for game in ("hill218", "ogre218", "holdtheline"):
        assert timed.budget(game)[:2] == (None, 0.05)
    assert make_agent("expert").budget("hill218")[0] == 2000  # hill218's own expert budget
    spec = schedule("hill218", ["greedy", "medium"], 2, seed=1, seconds=0.05)[1]
    assert spec.seconds == 0.05 and spec.agents == ("medium", "greedy")
    result = play_match(spec)
    assert result.decisions[0] > 0 and result.think_seconds[0] / result.decisions[0] < 0.5


@pytest.mark.parametrize("name", ["hill218", "ogre218"])
def test_search_beats_random_play(name):
    """A smoke check of strength (the measured figures come from the arena, docs/ai.md):
    medium IS-MCTS wins every one of four games against random play."""
    specs = schedule(name, ["random", "medium"], 4, seed=7, options={"quick_start": True},
                     time_caps=False)
    rep = report(name, ["random", "medium"], 4, run_matches(specs, jobs=2))
    assert rep.pairs[0]["b_wins"] == 4
