"""The compiled IS-MCTS of the card games (``_fastsearch.c``, ``hill218.native_search``) against
the Python search and knowledge it stands in for (issue 14, point 5).

Its root lists exactly the engine's legal plays, its priors there are ``evaluate_cards`` of each
play's result, it takes a win when one is there, it replays from a seed, and an agent using it
plays whole games of every ruleset and option to the end with only legal plays. That it never
reads the opponent's hidden cards is ``test_ai.py``'s test (an ``ISMCTSAgent`` runs it by
default).
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fast_path import CONFIGS, require_fast_path
from game_walk import random_decision_points
from warboard.ai.agent import decide
from warboard.ai.ismcts import ISMCTSAgent
from warboard.ai.levels import agent_for_level
from warboard.core.protocol import CHANCE
from warboard.hill218 import fast
from warboard.hill218.actions import Deploy
from warboard.hill218.game import CardGame
from warboard.hill218.grid import pack
from warboard.hill218.knowledge import evaluate_cards
from warboard.hill218.native_search import (
    encode_state,
    fast_rules_for,
    native_search,
    play_of,
)
from warboard.hill218.serialize import position_from_json, position_to_json
from warboard.hill218.state import BASES, PLAY, CardState
from warboard.holdtheline.game import HoldTheLineGame

require_fast_path()
SETTINGS = {"iterations": 200, "seconds": None, "rollout_depth": 0, "exploration": 0.5,
            "widening": 4.0, "prior_weight": 0.5}


def play_points(game: CardGame, seed: int, every: int = 3) -> list[CardState]:
    """Every ``every``-th decision of a random game that is a play (not a burial) with a
    choice."""
    return [s for s in random_decision_points(game, seed, every, clone=True, skip_forced=True)
            if s.phase == PLAY]


def root_of(game: CardGame, state: CardState, seed: int) -> tuple[int, list[Any]]:
    """A search that tries every root play once: widening without limit, one iteration each."""
    legal = state.legal_actions()
    return fast._module().search(fast_rules_for(game)._handle, encode_state(state), len(legal),
                                 0.0, 0.5, 1e9, 0.5, seed)


@pytest.mark.parametrize(("name", "options"), CONFIGS)
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000))
def test_root_plays_and_priors_are_the_engines(name: str, options: dict[str, Any],
                                               seed: int) -> None:
    """At the root: the same plays as ``legal_actions`` (every one tried once with unbounded
    widening), each prior the Python evaluation of its result for the seat to move."""
    game = CardGame(name, options)
    for state in play_points(game, seed):
        legal = state.legal_actions()
        done, found = root_of(game, state, seed)
        assert done == len(legal)
        tried = {}
        for _kind, uid, x, y, hits, visits, _value, prior in found:
            assert visits == 1
            play = play_of(fast_rules_for(game), uid, x, y, hits)
            tried[play] = prior
        assert set(tried) == set(legal)
        seat = state.to_move
        for play in legal:
            after = state.clone()
            after.apply(play)
            assert tried[play] == pytest.approx(evaluate_cards(after, seat), abs=1e-6), play


def test_strikes_come_back_as_strikes() -> None:
    """Where the seat has a strike, the strikes on each enemy unit are among the root plays."""
    game = CardGame("hill218")
    for seed in range(30):
        for state in play_points(game, seed):
            strikes = [a for a in state.legal_actions() if not isinstance(a, Deploy)]
            if strikes:
                stats = native_search(game, state.observation(state.to_move),
                                      state.legal_actions(),
                                      {**SETTINGS, "widening": 1e9, "iterations": 400},
                                      random.Random(seed))
                assert stats is not None
                assert set(strikes) <= set(stats.plays)
                return
    pytest.fail("no position with a strike in 30 random games")


@pytest.mark.parametrize(("name", "options"), CONFIGS)
def test_it_takes_the_enemy_base_when_it_can(name: str, options: dict[str, Any]) -> None:
    game = CardGame(name, options)
    agent = ISMCTSAgent(iterations=100)
    found = 0
    for seed in range(40):
        for state in play_points(game, seed, every=1):
            enemy_base = BASES[1 - state.to_move]
            wins = [a for a in state.legal_actions()
                    if isinstance(a, Deploy) and pack(*a.at) == enemy_base]
            if wins:
                found += 1
                assert decide(agent, state, random.Random(seed)) in wins
                assert agent.last_native
    assert found >= 3


def test_a_seed_replays_the_search_and_another_seed_searches_anew() -> None:
    game = CardGame("ogre218")
    state = play_points(game, 5)[4]
    view, legal = state.observation(state.to_move), state.legal_actions()
    runs = [native_search(game, view, legal, SETTINGS, random.Random(s)) for s in (1, 1, 2)]
    assert runs[0] == runs[1]
    assert runs[0] is not None and runs[0].iterations == 200
    assert runs[0] != runs[2]


@pytest.mark.parametrize(("name", "options"), CONFIGS)
def test_whole_games_against_random_play(name: str, options: dict[str, Any]) -> None:
    """The compiled search as hard plays whole games (the engine checks every play) and wins
    most of them against random play."""
    game = CardGame(name, options)
    hard = agent_for_level("hard", seconds=None)
    wins = 0
    for seed in range(6):
        rng = random.Random(seed)
        state = game.new_initial_state()
        seat = seed % 2
        while not state.is_terminal():
            player = state.current_player()
            if player == CHANCE:
                state.apply(state.sample_chance_outcome(rng))
            elif player == seat:
                state.apply(decide(hard, state, rng))
            else:
                state.apply(rng.choice(state.legal_actions()))
        wins += state.returns()[seat] > 0
    assert wins >= 5


def test_it_declines_burials_rollouts_and_other_games() -> None:
    """Where it does not apply the Python search runs (``last_native`` says which)."""
    game = CardGame("hill218")
    burial = next(s for s in random_decision_points(game, 1, clone=True) if s.phase != PLAY)
    view = burial.observation(burial.current_player())
    assert native_search(game, view, burial.legal_actions(), SETTINGS, random.Random(1)) is None
    play = play_points(game, 1)[0]
    view = play.observation(play.to_move)
    assert native_search(game, view, play.legal_actions(), {**SETTINGS, "rollout_depth": 3},
                         random.Random(1)) is None
    agent = ISMCTSAgent(iterations=30)
    decide(agent, play, random.Random(1))
    assert agent.last_native
    python = ISMCTSAgent(iterations=30, native=False)
    decide(python, play, random.Random(1))
    assert not python.last_native and python.last_iterations == 30
    htl = HoldTheLineGame()
    point = next(random_decision_points(htl, 1, clone=True, skip_forced=True))
    decide(agent, point, random.Random(1))
    assert not agent.last_native


def test_a_time_budget_alone_stops_it() -> None:
    """Seconds without iterations end the search; each iteration visited one root play."""
    game = CardGame("hill218")
    state = play_points(game, 2)[3]
    stats = native_search(game, state.observation(state.to_move), state.legal_actions(),
                          {**SETTINGS, "iterations": None, "seconds": 0.05},
                          random.Random(1))
    assert stats is not None and stats.iterations >= 1
    assert sum(v for v, _, _ in stats.plays.values()) == stats.iterations


def test_an_included_play_is_tried_first_however_low_its_prior() -> None:
    """Analysis judges the play made: the compiled search tries it at the root (it ran
    compiled), even where its prior would never let it in at this budget."""
    game = CardGame("hill218")
    state = max(play_points(game, 4), key=lambda s: len(s.legal_actions()))
    legal = state.legal_actions()
    view = state.observation(state.to_move)
    plain = native_search(game, view, legal, {**SETTINGS, "iterations": 20}, random.Random(1))
    assert plain is not None
    worst = next(a for a in reversed(legal) if a not in plain.plays)
    agent = ISMCTSAgent(iterations=20)
    found = agent.search(game, view, legal, random.Random(1), include=worst)
    assert agent.last_native and worst in found.plays
    with pytest.raises(ValueError, match="not a legal play"):
        native_search(game, view, legal, SETTINGS, random.Random(1),
                      Deploy(game.rules.units[0].name, (30, 30), ()))


def test_a_position_beyond_the_c_window_is_searched_in_python() -> None:
    """A composed position with a unit far out (no game reaches it) is searched by the
    Python search instead of failing."""
    game = CardGame("hill218")
    position = position_to_json(play_points(game, 3)[2], random.Random(1))
    far = fast.FastRules(game.rules, game.options).window // 2 - 1
    enemy = next(e for e in position["board"] if e["seat"] != position["to_move"])
    enemy["x"], enemy["y"] = far, far  # moved where no game goes
    state = position_from_json(position)
    view, legal = state.observation(state.to_move), state.legal_actions()
    rules = fast.FastRules(game.rules, game.options)
    with pytest.raises(fast.WindowError, match="window"):
        fast._module().search(rules._handle, encode_state(state), 10, 0.0, 0.5, 4.0, 0.5, 1)
    enemy["x"] = far + 50  # beyond the coordinates the window holds at all
    with pytest.raises(fast.WindowError, match="beyond"):
        fast.count_plays(rules, position)
    assert native_search(game, view, legal, SETTINGS, random.Random(1)) is None
    agent = ISMCTSAgent(iterations=20)
    assert agent.search(game, view, legal, random.Random(1)).best in legal
    assert not agent.last_native


def test_the_c_entry_refuses_what_it_cannot_search() -> None:
    """Bad arguments to the C search get a clear error, never a crash."""
    game = CardGame("hill218")
    state = play_points(game, 1)[0]
    handle = fast.FastRules(game.rules, game.options)._handle
    search = fast._module().search
    position = encode_state(state)
    with pytest.raises(TypeError, match="needs a position"):
        search(handle, None, 10, 0.0, 0.5, 4.0, 0.5, 1)
    with pytest.raises(ValueError, match="needs a budget"):
        search(handle, position, 0, 0.0, 0.5, 4.0, 0.5, 1)
    with pytest.raises(ValueError):
        search(handle, position[:-1], 10, 0.0, 0.5, 4.0, 0.5, 1)
    with pytest.raises(ValueError, match="not a play of this ruleset"):
        search(handle, position, 10, 0.0, 0.5, 4.0, 0.5, 1, (99, 0, 0, ()))
    for include in ("inf 1,1", (0, 0, 1, ["1,1"])):
        with pytest.raises(TypeError, match="must be a tuple"):
            search(handle, position, 10, 0.0, 0.5, 4.0, 0.5, 1, include)


# ----------------------------------------------------------------------------- the model's search

MODEL = "src/warboard/hill218/models/hill218.npz"


@pytest.fixture(scope="module")
def model_search() -> tuple[Any, Any, Any]:
    """The shipped hill218 model: its Python knowledge, the C net and the rules it is made for."""
    from warboard.ai.model import load_model, model_knowledge
    from warboard.hill218.native_search import fast_rules_for, make_net

    model = load_model(str(Path(__file__).parents[1] / MODEL))
    game = CardGame("hill218")
    rules = fast_rules_for(game)
    return model_knowledge(model, 0.5), make_net(rules, model, 0.5), rules


def test_the_models_priors_are_the_python_models(model_search: tuple[Any, Any, Any]) -> None:
    """Every root play's prior is the Python model's policy for it (observation, action ids and
    forward pass written anew in C)."""
    from warboard.hill218.native_search import model_facts

    know, net, rules = model_search
    game = CardGame("hill218")
    checked = 0
    for seed in range(3):
        for state in play_points(game, seed, every=2):
            legal = state.legal_actions()
            python = dict(zip(legal, know.play_priors(state, legal), strict=True))
            done, found = fast._module().search(rules._handle, encode_state(state), len(legal),
                                                0.0, 0.5, 1e9, 0.5, seed, None, net,
                                                model_facts(state))
            assert done == len(legal) and len(found) == len(legal)
            for _kind, uid, x, y, hits, _visits, _value, prior in found:
                play = play_of(rules, uid, x, y, hits)
                assert prior == pytest.approx(python[play], abs=1e-6)
                checked += 1
    assert checked > 500


def test_the_models_values_are_the_python_models(model_search: tuple[Any, Any, Any]) -> None:
    """After one iteration the root's only child holds the value of its leaf: where the seat
    still has a play to make there, the Python model's value mixed with the evaluation."""
    from warboard.hill218.native_search import model_facts

    know, net, rules = model_search
    game = CardGame("hill218")
    checked = 0
    for seed in range(4):
        for state in play_points(game, seed, every=1):
            if state.plays_left != 2:
                continue
            done, found = fast._module().search(rules._handle, encode_state(state), 1, 0.0, 0.5,
                                                4.0, 0.5, seed, None, net, model_facts(state))
            assert done == 1
            ((_kind, uid, x, y, hits, visits, value, _prior),) = found
            play = play_of(rules, uid, x, y, hits)
            after = state.clone()
            after.apply(play)
            if after.is_terminal() or after.current_player() != state.to_move:
                continue  # the leaf is judged at the next decision, after chance
            assert visits == 1
            assert value == pytest.approx(know.evaluate(after, state.to_move), abs=1e-6)
            checked += 1
    assert checked > 20


def test_master_searches_compiled_and_plays_a_whole_game() -> None:
    """``master`` with its beliefs (the compiled search deals from the believed hands)."""
    game = CardGame("hill218")
    master = agent_for_level("master", iterations=300, seconds=None, beliefs=True)
    rng = random.Random(4)
    state = game.new_initial_state()
    compiled = 0
    while not state.is_terminal():
        player = state.current_player()
        if player == CHANCE:
            state.apply(state.sample_chance_outcome(rng))
        elif player == 0:
            state.apply(decide(master, state, rng))
            compiled += master.last_native
        else:
            state.apply(rng.choice(state.legal_actions()))
    assert compiled > 5
