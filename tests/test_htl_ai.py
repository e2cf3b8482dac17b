"""The agents play Hold the Line through the core protocol: search through dice as chance nodes,
decisions made from the view alone, game-aware levels, the knowledge module, and a small
search-beats-random check with iteration budgets and fixed seeds (not flaky)."""

from __future__ import annotations

import json
import math
import random

import pytest

import htl_positions as htl
from game_walk import random_decision_points
from warboard.ai.agent import decide, make_agent, view_seat
from warboard.ai.ismcts import ISMCTSAgent
from warboard.ai.knowledge import (
    action_prior_for,
    evaluator_for,
    horizon_for,
    rollout_policy_for,
)
from warboard.ai.levels import GAME_LEVELS, LEVELS, level_budget
from warboard.ai.match import MatchSpec, play_match
from warboard.ai.simple import GreedyAgent
from warboard.core.protocol import CHANCE, TERMINAL
from warboard.core.registry import make_game
from warboard.hill218.knowledge import evaluate_cards
from warboard.holdtheline.actions import END, Fire, Move
from warboard.holdtheline.knowledge import (
    SCALE,
    TERMS,
    WEIGHTS,
    evaluate_htl,
    htl_action_prior,
    htl_horizon,
    htl_rollout_policy,
    htl_terms,
)


def decision_points(scenario: str, seed: int, every: int = 9):
    """Decision points of a random game (each a state the caller may keep)."""
    return random_decision_points(make_game("holdtheline", {"scenario": scenario}), seed, every,
                                  clone=True, skip_forced=True)


def test_sample_state_is_the_position_rebuilt_from_the_view():
    for state in list(decision_points("trenton", seed=1))[:6]:
        game = state.game
        view = state.observation(state.current_player())
        json.dumps(view)  # plain data: nothing in it leads back to the state
        assert view_seat(view) == state.current_player()
        a = game.sample_state(view, random.Random(1))
        b = game.sample_state(view, random.Random(2))
        assert a is not b and a.legal_actions() == state.legal_actions()
        assert a.to_json() == b.to_json()
        assert evaluate_htl(a, 0) == pytest.approx(evaluate_htl(state, 0))
        a.apply(a.legal_actions()[0])  # clones: the next draw is unchanged
        assert game.sample_state(view, random.Random(3)).to_json() == b.to_json()


def test_agents_decide_the_same_from_the_view_whatever_the_dice_generator():
    """No cheating: the agent gets the view and the legal actions; the same view (here the
    position rebuilt from its JSON, with other dice generators around it) gives the same
    decision for the same agent seed."""
    points = list(decision_points("princeton", seed=2))[:4]
    for state in points:
        twin = state.game.state_from_json(json.loads(json.dumps(state.to_json())))
        for spec in ("greedy", "ismcts"):
            agent = make_agent("random") if spec == "random" else (
                ISMCTSAgent(iterations=25) if spec == "ismcts" else make_agent(spec))
            random.seed(1)
            a = decide(agent, state, random.Random(7))
            random.seed(99)
            b = decide(agent, twin, random.Random(7))
            assert a == b
            assert a in state.legal_actions()


def test_search_runs_through_dice_as_chance_nodes():
    state = next(p for p in decision_points("tutorial", seed=3, every=1)
                 if any(isinstance(a, Fire) for a in p.legal_actions()))
    agent = ISMCTSAgent(iterations=60, rollout_depth=4)
    action = decide(agent, state, random.Random(1))
    assert action in state.legal_actions() and agent.last_iterations == 60


def test_evaluation_prior_and_rollout_policy():
    game = make_game("holdtheline", {"scenario": "tutorial"})
    assert evaluator_for(game) is evaluate_htl
    assert action_prior_for(game) is htl_action_prior
    assert rollout_policy_for(game) is htl_rollout_policy
    assert evaluator_for(make_game("hill218")) is evaluate_cards  # the card games unchanged
    for state in list(decision_points("bemis_heights", seed=4))[:8]:
        for seat in (0, 1):
            v = evaluate_htl(state, seat)
            assert -1 < v < 1 and not math.isnan(v)
        assert evaluate_htl(state, 0) == pytest.approx(-evaluate_htl(state, 1))
        for a in state.legal_actions():
            assert math.isfinite(htl_action_prior(state, a))
        if state.pending is None:
            assert htl_action_prior(state, END) < 0
    # a fire is judged by its odds before its dice are rolled
    state = next(p for p in decision_points("trenton", seed=5, every=1)
                 if any(isinstance(a, Fire) for a in p.legal_actions()))
    seat = state.current_player()
    fire = next(a for a in state.legal_actions() if isinstance(a, Fire))
    after = state.clone()
    after.apply(fire)
    assert after.current_player() == CHANCE
    assert evaluate_htl(after, seat) > evaluate_htl(state, seat) - 0.02
    # the rollout policy plays legal actions until the end
    rng = random.Random(6)
    st = state.clone()
    while not st.is_terminal():
        if st.current_player() == CHANCE:
            st.apply(st.sample_chance_outcome(rng))
        else:
            htl_rollout_policy(st, rng)
    assert st.current_player() == TERMINAL
    assert evaluate_htl(st, 0) == st.returns()[0]


def test_levels_are_game_aware():
    assert LEVELS["hard"]["iterations"] == 400  # the card games' budgets stay as they were
    hard = make_agent("hard")
    assert hard.budget("hill218") == (400, 0.95, 0)
    own = GAME_LEVELS["holdtheline"]["hard"]
    assert hard.budget("holdtheline") == (own["iterations"], 0.95, 0)
    assert level_budget("hard", "holdtheline")["iterations"] == own["iterations"]
    assert level_budget("hard")["iterations"] == 400
    uncapped = make_agent("hard", time_caps=False)
    assert uncapped.budget("holdtheline")[1] is None and uncapped.budget("ogre218")[1] is None
    for level in LEVELS:
        assert make_agent(level).name


def test_greedy_plays_a_whole_game_through_the_interface():
    result = play_match(MatchSpec("holdtheline", {"scenario": "tutorial"},
                                  ("greedy", "random"), seed=3))
    assert result.summary is not None and result.summary["reason"] in ("vp", "time")
    assert min(result.decisions) > 0


def test_the_evaluation_is_its_weighted_terms_and_greedy_may_read_another():
    """``evaluate_htl`` is tanh of its weighted terms over ``SCALE``; each term is own less
    enemy (so a seat's terms are the other's negated); a greedy agent given an evaluation of
    its own plays by it (here one that likes every play alike: a draw among them all)."""
    alike = GreedyAgent(lambda state, seat: 0.0)
    differed = 0
    for state in list(decision_points("monmouth_morning", seed=2))[:6]:
        terms = htl_terms(state, 0)
        assert len(terms) == len(TERMS) == len(WEIGHTS)
        assert htl_terms(state, 1) == [-t for t in terms]
        assert terms[TERMS.index("vp")] == state.vp_total(0) - state.vp_total(1)
        expected = math.tanh(sum(WEIGHTS[n] * t for n, t in zip(TERMS, terms, strict=True))
                             / SCALE)
        assert evaluate_htl(state, 0) == pytest.approx(expected, abs=1e-12)
        drawn = random.Random(1).choice(state.legal_actions())
        assert decide(alike, state, random.Random(1)) == drawn
        differed += decide(GreedyAgent(), state, random.Random(1)) != drawn
    assert differed


def test_search_beats_random_play():
    """A strength smoke check (the measured figures are in docs/ai.md): medium, with its
    iteration budget only, plays the Americans at Princeton, who must reach 6 VP (random play
    never does: the British win on time), and wins."""
    result = play_match(MatchSpec("holdtheline", {"scenario": "princeton"},
                                  ("medium", "random"), seed=1, time_caps=False))
    assert result.returns == (1.0, -1.0)
    assert result.summary["reason"] == "vp"


def test_a_move_prior_prefers_going_toward_the_enemy():
    state = next(p for p in decision_points("trenton", seed=7, every=1)
                 if p.active == 0 and p.pending is None)
    moves = [a for a in state.legal_actions() if isinstance(a, Move) and a.unit == "A5"
             and a.leader is None]
    if len(moves) < 2:
        pytest.skip("A5 cannot move here")
    best = max(moves, key=lambda a: htl_action_prior(state, a))
    worst = min(moves, key=lambda a: htl_action_prior(state, a))
    assert best.path[-1][1] >= worst.path[-1][1]  # the Americans attack southward


def test_the_search_horizon_is_the_end_of_the_side_s_turn():
    assert horizon_for(make_game("hill218")) is None  # the card games search on
    game = make_game("holdtheline", {"scenario": "tutorial"})
    assert horizon_for(game) is htl_horizon
    state = next(p for p in decision_points("tutorial", seed=8, every=1) if p.pending is None)
    beyond = htl_horizon(state)
    assert not beyond(state)
    after = state.clone()
    after.apply(END)
    assert after.active != state.active and beyond(after)


def test_agents_assign_leader_ratings_sensibly():
    """Option 11.6: the prior gives the combat value 2 to the leader who stands with infantry
    (Knox, 1/1 in the scenario) rather than to the one alone (Greene, 2/2); the agents pick
    among the assignments, and a game with the option plays through."""
    sc = htl.scenario([htl.u("A1", "regular", (6, 5))], [htl.u("B1", "regular", (6, 1))],
                      [htl.ldr("knox", (6, 5), (1, 1)), htl.ldr("greene", (2, 8), (2, 2))],
                      vp_target=(5, 5))
    state = htl.game(sc, {"leader_ratings": True}).new_initial_state()
    legal = state.legal_actions()
    best = max(legal, key=lambda a: htl_action_prior(state, a))
    assert dict(best.ratings)["knox"] == (2, 2) and best != legal[0]
    for spec in ("greedy", "easy"):
        assert decide(make_agent(spec), state, random.Random(1)) in legal
    result = play_match(MatchSpec("holdtheline", {"scenario": "princeton",
                                                   "options": {"leader_ratings": True}},
                                  ("greedy", "random"), seed=1))
    assert result.summary is not None
