"""Hold the Line through the research adapters: its encoding (no extra needed), OpenSpiel's
own test and MCTS bot (extra ``openspiel``), PettingZoo's and Gymnasium's checkers (extra
``rl``). docs/adapters.md, "Hold the Line"."""

import random

import numpy as np
import pytest

import htl_positions as pos
from warboard.adapters.base import flat_observation, legal_action_ids, observation_size
from warboard.adapters.encodings import make_encoding, parameters
from warboard.core.protocol import CHANCE, sample_chance
from warboard.holdtheline import actions as act
from warboard.holdtheline.encoding import EncodingError, HtlEncoding, IdMeaning, offset_hex
from warboard.holdtheline.hexes import distance
from warboard.holdtheline.scenario_file import scenario_names

SCENARIOS = scenario_names()
# the optional rules that add actions (force march, leader dice, evade) and change ranges
RULES = {"force_march": True, "march_fatigue": True, "leader_ratings": True,
         "dragoon_evade": True, "hills_clear": True, "artillery_hill_range": True,
         "fire_advance": True, "flank_attacks": True}
# documented in docs/adapters.md
SIZES = {
    "bemis_heights": 16947,
    "brandywine": 38710,
    "eutaw_springs": 45616,
    "harlem_heights": 12631,
    "hobkirks_hill": 13721,
    "kings_mountain": 6728,
    "long_island": 67181,
    "monmouth_afternoon": 45610,
    "monmouth_morning": 26345,
    "princeton": 9234,
    "trenton": 5771,
    "tutorial": 2683,
    "weitzels_mill": 13504,
    "white_plains": 23530,
}


def random_game(enc, seed, check=None):
    """Play one random game, checking every decision's ids; returns decisions made."""
    rng = random.Random(seed)
    state = enc.game.new_initial_state()
    decisions = 0
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            state.apply(sample_chance(state, rng))
            continue
        by_id = legal_action_ids(enc, state)
        assert len(by_id) == len(state.legal_actions())  # every legal action has its own id
        if check:
            check(enc, state, by_id)
        state.apply(by_id[rng.choice(list(by_id))])
        decisions += 1
    assert decisions <= enc.max_decisions
    return decisions


def check_meanings(enc, state, by_id):
    seat = state.current_player()
    for action_id, play in by_id.items():
        assert 0 <= action_id < enc.num_actions
        m = enc.action(seat, action_id)
        assert isinstance(m, IdMeaning)
        if isinstance(play, act.Move):
            assert (m.unit, m.leader, m.bonus) == (play.unit, play.leader, play.bonus)
            who = state.units[state.unit_index(play.unit)] if play.unit else \
                state.leaders[state.leader_index(play.leader)]
            assert offset_hex(who.at, m.offset) == play.path[-1]
            if play.fire is not None:
                assert m.kind == "move_fire"
                assert offset_hex(play.path[-1], m.fire_offset) == play.fire
            if play.force_march:
                assert m.kind == "force_march"
                assert distance(play.path[-1], play.path[-2]) == 1
        elif isinstance(play, act.Fire):
            assert (m.kind, m.unit, m.hex) == ("fire", play.unit, play.target)
        elif isinstance(play, act.End):
            assert m.kind == "end"
        elif isinstance(play, act.AssignRatings):
            assert (m.kind, m.ratings) == ("assign_ratings", play.ratings)


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_every_legal_action_has_its_own_id(scenario):
    enc = make_encoding("holdtheline", {"scenario": scenario})
    assert enc.num_actions == SIZES[scenario]
    assert not enc.hidden_information and enc.private_names == ()
    assert enc.board_size == (enc.game.scenario.rows, enc.game.scenario.cols)
    for seed in range(3):
        random_game(enc, seed, check_meanings if seed == 0 else None)
    ruled = make_encoding("holdtheline", {"scenario": scenario, **RULES})
    assert ruled.game.opts.force_march and ruled.num_actions > enc.num_actions
    for seed in range(2):
        random_game(ruled, seed, check_meanings if seed == 0 else None)


def test_moves_with_the_same_end_but_other_captures_get_other_ids():
    # hobkirks_hill, seed 1: the American dragoons reach one hex by two paths, one of them
    # through the British VP counter (two outcomes, two ids)
    enc = make_encoding("holdtheline", {"scenario": "hobkirks_hill"})
    seen = []

    def look(enc, state, by_id):
        ends = {}
        for action_id, play in by_id.items():
            if isinstance(play, act.Move) and play.unit and not play.bonus and not play.fire:
                ends.setdefault((play.unit, play.leader, play.path[-1]), []).append(action_id)
        seen.extend(ids for ids in ends.values() if len(ids) > 1)

    for seed in range(20):
        random_game(enc, seed, look)
        if seen:
            break
    assert seen
    seat_ids = seen[0]
    assert len(set(seat_ids)) == len(seat_ids)


def test_an_action_without_an_id_is_an_error_not_another_action():
    enc = make_encoding("holdtheline", {"scenario": "tutorial"})
    state = enc.game.new_initial_state()
    while state.current_player() == CHANCE:
        state.apply(act.Die(2))
    seat = state.current_player()
    unit = next(u for u in state.units if u.side == seat)
    far = (unit.at[0], (unit.at[1] + 4) % enc.rows)  # farther than a move may go
    with pytest.raises(EncodingError, match="has no action id"):
        enc.action_id(seat, act.Move(unit.id, None, (far,)), state)
    with pytest.raises(ValueError, match="depends on the position"):
        enc.action_id(seat, act.Move(unit.id, None, (far,)))
    legal = state.legal_actions()
    move = next(a for a in legal if isinstance(a, act.Move))
    with pytest.raises(EncodingError, match="would share action id"):
        enc.action_ids(state, [move, move])
    with pytest.raises(ValueError, match="not used by seat"):
        enc.action(seat, enc.layouts[seat].size)


def test_observation_planes_and_values():
    enc = make_encoding("holdtheline", {"scenario": "tutorial"})
    state = enc.game.new_initial_state()
    rows, cols = enc.board_size
    n_board = len(enc.plane_names) * rows * cols
    for seat in (0, 1):
        obs = flat_observation(enc, state, seat)
        assert obs.shape == (observation_size(enc),) and obs.dtype == np.float32
        assert obs.min() >= 0 and obs.max() <= 1
        planes = obs[:n_board].reshape(len(enc.plane_names), rows, cols)
        terrain = planes[:sum(n.startswith("terrain") for n in enc.plane_names)]
        assert np.array_equal(terrain.sum(axis=0), np.ones((rows, cols)))
        for u in state.units:
            who = "own" if u.side == seat else "enemy"
            c, r = u.at
            assert planes[enc.plane_names.index(f"{who} {u.kind}"), r, c] == 1
        for L in state.leaders:
            who = "own" if L.side == seat else "enemy"
            assert planes[enc.plane_names.index(f"{who} leader"), L.at[1], L.at[0]] == 1
    # the two seats see the same position from their own side
    own = enc.plane_names.index("own regular")
    enemy = enc.plane_names.index("enemy regular")
    a = flat_observation(enc, state, 0)[:n_board].reshape(-1, rows, cols)
    b = flat_observation(enc, state, 1)[:n_board].reshape(-1, rows, cols)
    assert np.array_equal(a[own], b[enemy])


def test_parameters():
    params = parameters("holdtheline")
    assert params["scenario"] == "tutorial" and params["force_march"] is False
    assert {"ap_adjust_0", "ap_adjust_1", "leader_ratings"} <= set(params)
    enc = make_encoding("holdtheline", {"scenario": "trenton", "ap_adjust_1": 2,
                                        "leader_ratings": True})
    assert enc.game.opts.ap_adjust == (0, 2) and enc.game.opts.leader_ratings
    assert enc.game.scenario.name == "trenton"
    with pytest.raises(ValueError):
        make_encoding("holdtheline", {"scenario": "no_such_scenario"})
    with pytest.raises(ValueError, match="may not"):
        make_encoding("holdtheline", {"elite_four_dice": True, "leader_ratings": True})


def test_chance_ids_are_die_faces():
    enc = make_encoding("holdtheline", {})
    state = enc.game.new_initial_state()
    assert state.current_player() == CHANCE  # the action die: faces 1..3
    assert sorted((enc.chance_id(o), p) for o, p in state.chance_outcomes()) == [
        (0, pytest.approx(1 / 3)), (1, pytest.approx(1 / 3)), (2, pytest.approx(1 / 3))]
    assert enc.chance_outcome(5) == act.Die(6)


# ---------------------------------------------------------------------------------- OpenSpiel


def _pyspiel():
    return pytest.importorskip(
        "pyspiel", reason="the 'openspiel' extra is not installed (pip install -e '.[openspiel]')")


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_openspiel_random_sim_test_with_serialization(scenario):
    pyspiel = _pyspiel()
    import warboard.adapters.openspiel  # noqa: F401

    game = pyspiel.load_game(f"warboard_holdtheline(scenario={scenario})")
    assert game.num_distinct_actions() == SIZES[scenario]
    pyspiel.random_sim_test(game, num_sims=2 if scenario == "tutorial" else 1, serialize=True,
                            verbose=False)


def test_openspiel_random_sim_test_with_optional_rules():
    pyspiel = _pyspiel()
    import warboard.adapters.openspiel  # noqa: F401

    game = pyspiel.load_game("warboard_holdtheline(scenario=princeton,force_march=True,"
                             "leader_ratings=True,dragoon_evade=True,ap_adjust_0=1)")
    assert game.encoding.game.opts.force_march and game.encoding.game.opts.ap_adjust == (1, 0)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_openspiel_game_type_is_perfect_information():
    pyspiel = _pyspiel()
    import warboard.adapters.openspiel  # noqa: F401

    game = pyspiel.load_game("warboard_holdtheline")
    kind = game.get_type()
    assert kind.short_name == "warboard_holdtheline"
    assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert kind.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert kind.parameter_specification["scenario"] == "tutorial"
    assert game.max_chance_outcomes() == 6
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[-1][0])
    player = state.current_player()
    # a legal move reads with its path; resampling is a copy
    texts = [state.action_to_string(player, a) for a in state.legal_actions()]
    assert any(t.startswith("move ") for t in texts) and "end turn" in texts
    sample = state.resample_from_infostate(player, None)
    assert str(sample) == str(state) and sample.legal_actions() == state.legal_actions()
    assert state.observation_tensor(0) != state.observation_tensor(1)
    assert len(state.observation_tensor(0)) == game.observation_tensor_size()


def test_openspiel_mcts_bots_play_a_full_game():
    pyspiel = _pyspiel()
    from open_spiel.python.algorithms import mcts

    import warboard.adapters.openspiel  # noqa: F401

    game = pyspiel.load_game("warboard_holdtheline")
    rs = np.random.RandomState(5)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs)
    bots = [mcts.MCTSBot(game, uct_c=2.0, max_simulations=4, evaluator=evaluator,
                         random_state=rs) for _ in range(2)]
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            ids, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rs.choice(ids, p=probs)))
        else:
            action = bots[state.current_player()].step(state)
            assert action in state.legal_actions()
            state.apply_action(int(action))
    assert sorted(state.returns()) in ([-1.0, 1.0], [0.0, 0.0])


# ---------------------------------------------------------------------------------- PettingZoo


def _rl():
    pytest.importorskip("pettingzoo",
                        reason="the 'rl' extra is not installed (pip install -e '.[rl]')")
    pytest.importorskip("gymnasium",
                        reason="the 'rl' extra is not installed (pip install -e '.[rl]')")


def test_pettingzoo_api_test_and_seed_test():
    _rl()
    from pettingzoo.test import api_test, seed_test

    from warboard.adapters.pettingzoo import env

    api_test(env(game="holdtheline", scenario="tutorial"), num_cycles=200)
    seed_test(lambda: env(game="holdtheline", scenario="tutorial"), num_cycles=100)


def test_pettingzoo_plays_other_scenarios():
    _rl()
    from warboard.adapters.pettingzoo import env

    e = env(game="holdtheline", scenario="hobkirks_hill")
    e.reset(seed=3)
    assert e.action_space("player_0").n == SIZES["hobkirks_hill"]
    steps = 0
    for _agent in e.agent_iter(max_iter=300):
        obs, _, termination, truncation, _ = e.last()
        action = None if termination or truncation else int(
            np.flatnonzero(obs["action_mask"])[0])
        e.step(action)
        steps += 1
    assert steps > 10


def test_gymnasium_check_env():
    _rl()
    from gymnasium.utils.env_checker import check_env

    from warboard.adapters.pettingzoo import SingleSeatEnv

    check_env(SingleSeatEnv("holdtheline", seat=None, opponent="random", scenario="tutorial"),
              skip_render_check=True)


def test_a_leader_alone_taking_an_enemy_leader_has_its_own_id():
    """§8.1: a leader alone reaches 5,4 around Rahl or through him: two outcomes, two ids, and
    the id of the second names Rahl."""
    sc = pos.scenario([pos.u("A1", "regular", (0, 8))], [pos.u("B1", "regular", (12, 0))],
                      [pos.ldr("knox", (3, 4))], [pos.ldr("rahl", (4, 4))], vp_target=(5, 5))
    enc = HtlEncoding("holdtheline", {}, pos.game(sc))
    state = pos.start(sc)
    by_id = legal_action_ids(enc, state)
    to_5_4 = {i: a for i, a in by_id.items()
              if isinstance(a, act.Move) and a.unit is None and a.path[-1] == (5, 4)}
    assert len(to_5_4) == 2
    for i, a in to_5_4.items():
        assert enc.action(0, i).captures == (("rahl",) if (4, 4) in a.path else ())
