"""Property tests over random Hold the Line games (issue 5, requirement 7): games end, the
stacking limits always hold, MP stay within bounds, replays are exact, clones are independent,
positions survive JSON."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from htl_positions import game, ldr, scenario, u
from warboard.core.protocol import CHANCE, TERMINAL, outcome_probabilities_ok, sample_chance
from warboard.core.record import Recorder, replay_state
from warboard.holdtheline.actions import Assault, End, Fire, Move
from warboard.holdtheline.movement import stack_ok
from warboard.holdtheline.scenario import Reinforcement
from warboard.holdtheline.serialize import state_from_json

MAX_STEPS = 5000

TERRAIN = {(4, 3): "forest", (5, 3): "forest", (8, 4): "hill", (2, 5): "town",
           (6, 5): "fence", (7, 5): "fence", (10, 3): "entrenchment", (3, 4): "swamp",
           (0, 4): "waterway", (1, 4): "waterway", (2, 4): "bridge", (11, 4): "waterway",
           (12, 4): "ford", (9, 6): "forest"}


def mixed_scenario():
    """Every unit type, leaders, VP counters, an objective, exits and a reinforcement."""
    rf = Reinforcement(turn=2, units=(u("A9", "regular", (6, 8)),),
                       leaders=(ldr("lafayette", (6, 8)),), entry=((5, 8), (7, 8)))
    return scenario(
        [u("A1", "regular", (3, 7)), u("A2", "elite", (5, 7)), u("A3", "light", (7, 7)),
         u("A4", "militia", (9, 7), 2), u("A5", "dragoon", (11, 7)),
         u("A6", "artillery", (5, 7)), u("A7", "regular", (6, 6), 3)],
        [u("B1", "regular", (3, 1)), u("B2", "elite", (5, 1)), u("B3", "light", (7, 1)),
         u("B4", "militia", (9, 1)), u("B5", "dragoon", (11, 1)), u("B6", "artillery", (6, 1)),
         u("B7", "elite", (8, 2), 4)],
        [ldr("washington", (5, 7), (2, 2)), ldr("greene", (9, 7), (1, 2))],
        [ldr("howe", (6, 1), (1, 2)), ldr("rahl", (8, 2), (2, 1))],
        TERRAIN, first=1, turn_limit=6, command_ap=((2, 3), (3,)),
        action_die=((1, 2, 3), (1, 2, 0)), vp_target=(7, 8),
        counters=(((8, 8),), ((4, 0), (10, 0))), objectives=((((8, 4), 1),), ()),
        exits=((), ((0, 8), (12, 8))), exit_vp=((0, 0), (2, 1)),
        reinforcements=((rf,), ()))


OPTION_SETS = [
    {},
    {"attacker_morale": True, "rally_unfired": True, "elite_four_dice": True,
     "artillery_hill_range": True, "artillery_forest": True, "fire_advance": True},
    {"leader_ratings": True, "force_march": True, "march_fatigue": True, "hills_clear": True,
     "dragoon_evade": True, "flank_attacks": True, "ap_adjust": [1, -1]},
    {"equal_command": True, "grand_tactical": True, "force_march": True},
]


def check_invariants(s) -> None:
    occ: dict = {}
    for x in s.units:
        if x.status == "board":
            assert x.at is not None and s.board.move[x.at] != "impassable"
            assert 0 < x.mp <= x.start_mp, (x.id, x.mp, x.start_mp)
            occ.setdefault(x.at, []).append(x)
        else:
            assert x.at is None
    for here in occ.values():
        assert stack_ok(x.kind for x in here)  # 4.3
        assert len({x.side for x in here}) == 1
    seen = set()
    for L in s.leaders:
        if L.status == "board":
            assert L.at not in seen  # leaders never share a hex
            seen.add(L.at)
            here = occ.get(L.at)
            assert not here or here[0].side == L.side
    assert s.ap >= 0
    assert all(v >= 0 for v in s.vp_earned)


def random_game(g, seed: int, check=None):
    """Play to the end; returns (final state, actions and dice in order)."""
    rng = random.Random(seed)
    s = g.new_initial_state()
    history = []
    for _ in range(MAX_STEPS):
        if s.is_terminal():
            break
        if s.current_player() == CHANCE:
            assert outcome_probabilities_ok(s.chance_outcomes())
            a = sample_chance(s, rng)
        else:
            legal = s.legal_actions()
            assert legal
            attacks = [a for a in legal if isinstance(a, Fire | Assault)
                       or (isinstance(a, Move) and a.fire is not None)]
            non_end = [a for a in legal if not isinstance(a, End)]
            r = rng.random()
            if attacks and r < 0.6:  # favour combat: it is where most rules live
                a = rng.choice(attacks)
            elif non_end and r < 0.95:
                a = rng.choice(non_end)
            else:
                a = rng.choice(legal)
        if check is not None:
            check(s, a, rng)
        s.apply(a)
        history.append(a)
        check_invariants(s)
    return s, history


@settings(max_examples=12)
@given(seed=st.integers(0, 2**31), opts=st.sampled_from(range(len(OPTION_SETS))))
def test_random_games_end_keep_the_invariants_and_replay_exactly(seed, opts):
    g = game(mixed_scenario(), OPTION_SETS[opts])
    s, history = random_game(g, seed)
    assert s.is_terminal() and s.current_player() == TERMINAL
    assert s.returns() in ((1.0, -1.0), (-1.0, 1.0), (0.0, 0.0))
    assert s.turn <= 6
    t = g.new_initial_state()
    for a in history:
        t.apply(a)
    assert t.to_json() == s.to_json()


@settings(max_examples=6)
@given(seed=st.integers(0, 2**31), opts=st.sampled_from(range(len(OPTION_SETS))))
def test_clones_are_independent_and_positions_survive_json(seed, opts):
    g = game(mixed_scenario(), OPTION_SETS[opts])

    def check(s, a, rng):
        if rng.random() < 0.15:
            before = json.dumps(s.to_json(), sort_keys=True)
            c = s.clone()
            c.apply(a)
            if not c.is_terminal():
                nxt = (sample_chance(c, rng) if c.current_player() == CHANCE
                       else rng.choice(c.legal_actions()))
                c.apply(nxt)
            assert json.dumps(s.to_json(), sort_keys=True) == before
            data = json.loads(before)
            t = state_from_json(data, g)
            assert t.to_json() == data
            assert t.legal_actions() == s.legal_actions()
            assert t.current_player() == s.current_player()
            t.apply(a)
            s2 = s.clone()
            s2.apply(a)
            assert t.to_json() == s2.to_json()

    random_game(g, seed, check)


def test_recorder_replay_is_exact():
    g = game(mixed_scenario(), OPTION_SETS[2])
    rec = Recorder(g, seed=7)
    rng = random.Random(7)
    while not rec.state.is_terminal():
        s = rec.state
        a = sample_chance(s, rng) if s.current_player() == CHANCE else rng.choice(
            s.legal_actions())
        rec.apply(a)
    data = json.loads(json.dumps(rec.record.to_json()))
    from warboard.core.record import Record

    assert replay_state(Record.from_json(data), g).to_json() == rec.state.to_json()


def test_packaged_scenarios_load_and_finish_a_random_game():
    from warboard.core.registry import make_game
    from warboard.holdtheline.scenario_file import scenario_names

    names = scenario_names()
    assert names
    for name in names:
        g = make_game("holdtheline", {"scenario": name})
        s, _ = random_game(g, 1)
        assert s.is_terminal()
