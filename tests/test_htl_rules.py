"""Rules tests for Hold the Line (issue 5, requirements 2 and 7).

Each test cites the rulebook section (../shared/rulebooks/hold-the-line.txt) or the rules
contract (../shared/rules/holdtheline.md, "§") it checks; referee decisions are in
docs/rules-decisions.md ("Hold the Line"). Positions are built in Python (tests/htl_positions.py)
and dice are fed one by one, so every outcome is exact.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from htl_positions import (
    act,
    action,
    destinations,
    events,
    game,
    ldr,
    legal_json,
    of_type,
    roll,
    scenario,
    start,
    u,
)
from warboard.core.errors import IllegalActionError, PositionError
from warboard.core.protocol import CHANCE, TERMINAL
from warboard.core.registry import make_game
from warboard.holdtheline.actions import END, Die, action_from_json, action_to_json
from warboard.holdtheline.options import OPTIONS, Options
from warboard.holdtheline.scenario import Reinforcement
from warboard.holdtheline.serialize import state_from_json
from warboard.holdtheline.tables import TABLES

# The chart of 8.2.1 and the terrain column of 2.3, written out independently of tables.toml.
CHART = {  # kind -> {range: hit number}, "close" = close combat
    "regular": {"close": 4, 1: 5, 2: 6}, "elite": {"close": 4, 1: 5, 2: 6},
    "light": {"close": 4, 1: 5, 2: 6}, "militia": {"close": 4, 1: 5, 2: 6},
    "dragoon": {1: 5}, "artillery": {1: 4, 2: 5, 3: 6},
}
TERRAIN_DIE = {"clear": 0, "waterway": 1, "bridge": 0, "ford": 1, "forest": -1, "hill": -1,
               "town": -1, "fence": -1, "entrenchment": -1}
TERRAIN_MORALE = {"clear": 0, "waterway": -1, "bridge": 0, "ford": 0, "forest": 1, "hill": 1,
                  "town": 1, "fence": 1, "entrenchment": 1}


def snapshot(s) -> str:
    return json.dumps(s.to_json(), sort_keys=True)


# ============================================================================ data

def test_tables_match_the_rulebook():
    """2.3, 3.4, 8.2.1, 8.2.3, contract §3: the data file says what the rulebook says."""
    for name, mod in TERRAIN_DIE.items():
        assert TABLES.terrain[name].combat == mod
        assert TABLES.terrain[name].morale == TERRAIN_MORALE[name]
    assert {t for t, v in TABLES.terrain.items() if v.blocks_los} == {
        "forest", "hill", "town", "entrenchment"}
    assert {t for t, v in TABLES.terrain.items() if v.movement == "stop"} == {
        "forest", "hill", "entrenchment"}
    assert TABLES.terrain["swamp"].movement == "impassable"
    assert TABLES.terrain["waterway"].movement == "waterway"
    for kind, chart in CHART.items():
        ut = TABLES.units[kind]
        assert ut.dice == 3
        assert ut.range == max(k for k in chart if k != "close")
        assert ut.close == chart.get("close", 0)
    assert {k: TABLES.units[k].movement for k in CHART} == {
        "regular": 1, "elite": 1, "light": 2, "militia": 1, "dragoon": 3, "artillery": 1}
    assert TABLES.leader_movement == 3


# ============================================================================ worked examples

def test_2_2_1_infantry_fires_into_forest():
    """2.2.1: a 3 MP infantry fires at forest 1 hex away: 5, 5, 6 become 4, 4, 5: one hit."""
    s = start(scenario([u("A1", "regular", (3, 4), 3)], [u("B1", "regular", (4, 4))],
                       terrain={(4, 4): "forest"}))
    a = action(type="fire", unit="A1", target=(4, 4))
    assert s.action_hints(a) == {"ap": 1, "dice": 3, "hit_on": 6, "range": 1, "los": True}
    s.apply(a)
    roll(s, 5, 5, 6)
    assert [e["modified"] for e in events(s, "die", roll="attack")] == [4, 4, 5]
    assert events(s, "hits")[-1]["hits"] == 1
    assert s.unit("B1").mp == 3
    assert s.ap == 5


def _elite_hit_three_times(elite_mp: int = 2):
    s = start(scenario([u("A1", "artillery", (3, 4))], [u("B1", "elite", (4, 4), 4)]))
    s.unit("B1").mp = elite_mp
    act(s, type="fire", unit="A1", target=(4, 4))
    roll(s, 4, 5, 6)  # artillery at range 1 hits on 4-6: three hits
    return s


def test_3_4_2_elite_survival_rolls_keep_it_at_1_mp():
    """3.4.2: a 2 MP elite takes 3 hits: the first takes it to 1 MP, then one die per remaining
    hit (2 dice); 1-3 keeps it."""
    s = _elite_hit_three_times()
    assert s.unit("B1").mp == 1
    assert s.current_player() == CHANCE
    roll(s, 2, 3)
    assert s.unit("B1").status == "board" and s.unit("B1").mp == 1
    assert [e["survived"] for e in events(s, "die", roll="elite")] == [True, True]
    assert s.pending is None and s.vp_earned == [0, 0]


def test_3_4_2_elite_survival_roll_of_4_to_6_eliminates():
    s = _elite_hit_three_times()
    roll(s, 2, 5)
    assert s.unit("B1").status == "eliminated"
    assert s.vp_earned == [1, 0]  # 10.A
    s = _elite_hit_three_times()
    roll(s, 6)  # eliminated at once: no second survival roll
    assert s.unit("B1").status == "eliminated"
    assert s.pending is None and s.current_player() == 0


def test_3_4_2_elite_exactly_to_1_mp_rolls_nothing():
    s = start(scenario([u("A1", "artillery", (3, 4))], [u("B1", "elite", (4, 4), 4)]))
    act(s, type="fire", unit="A1", target=(4, 4))
    roll(s, 4, 5, 6)
    assert s.unit("B1").mp == 1 and s.pending is None


def test_6_2_4_leader_bonus_hex_clear_then_forest():
    """6.2.4 / 9.1.2: with a leader, clear then forest for 2 AP; forest first stops the move."""
    sc = scenario([u("A1", "regular", (3, 4))], [u("B1", "regular", (10, 0))],
                  [ldr("washington", (3, 4))], terrain={(5, 4): "forest", (3, 3): "forest"})
    s = start(sc)
    assert (5, 4) in destinations(s, "A1", "washington", bonus=True)
    assert (5, 4) not in destinations(s, "A1", "washington")
    assert (5, 4) not in destinations(s, "A1")
    # through the forest at 3,3 there is no second hex
    bonus = [a for a in s.legal_actions() if getattr(a, "bonus", False)]
    assert all(a.path[0] != (3, 3) for a in bonus)
    a = action(type="move", unit="A1", leader="washington", path=[(4, 4), (5, 4)], bonus=True)
    assert s.action_hints(a) == {"ap": 2, "to": [5, 4]}
    s.apply(a)
    assert s.ap == 4
    assert s.unit("A1").at == (5, 4) and s.leader("washington").at == (5, 4)
    # the unit and the leader are spent: no fire, no close combat, no rally, no leader move
    assert all(getattr(x, "unit", None) != "A1" and getattr(x, "leader", None) != "washington"
               for x in s.legal_actions())


def test_6_2_4_no_bonus_for_artillery_or_a_dragoon_that_fires():
    """6.2.4, 9.1.2: not artillery; not dragoons that move and fire."""
    sc = scenario([u("A1", "artillery", (3, 4)), u("A2", "dragoon", (3, 6))],
                  [u("B1", "regular", (7, 6))],
                  [ldr("knox", (3, 4)), ldr("lee", (3, 6))])
    s = start(sc)
    assert not destinations(s, "A1", "knox", bonus=True)
    assert destinations(s, "A1", "knox") == destinations(s, "A1")
    assert max(len(a.path) for a in s.legal_actions()
               if getattr(a, "unit", None) == "A2" and a.bonus) == 4
    assert not [a for a in s.legal_actions()
                if getattr(a, "unit", None) == "A2" and getattr(a, "bonus", False)
                and getattr(a, "fire", None) is not None]
    fire_moves = [a for a in s.legal_actions() if getattr(a, "fire", None) is not None]
    assert fire_moves and all(len(a.path) <= 3 for a in fire_moves)


def test_8_2_1_artillery_at_two_hexes_on_a_hill_and_in_the_clear():
    """8.2.1: artillery at 2 hexes rolls 5, 5, 6: one hit on a hill, three in the clear."""
    for terrain, hits in (("hill", 1), ("clear", 3)):
        s = start(scenario([u("A1", "artillery", (2, 4))], [u("B1", "regular", (4, 4))],
                           terrain={(4, 4): terrain}))
        a = action(type="fire", unit="A1", target=(4, 4))
        assert s.action_hints(a)["hit_on"] == (6 if terrain == "hill" else 5)
        s.apply(a)
        roll(s, 5, 5, 6)
        assert events(s, "hits")[-1]["hits"] == hits
        assert s.unit("B1").mp == 4 - hits


def _assault_on_hill(leader: bool):
    sc = scenario([u("A1", "regular", (3, 4))], [u("B1", "regular", (4, 4), 4)],
                  b_leaders=[ldr("howe", (4, 4))] if leader else [],
                  terrain={(4, 4): "hill"})
    s = start(sc)
    s.unit("B1").mp = 2
    act(s, type="assault", unit="A1", target=(4, 4))
    return s


def test_8_4_4_morale_on_a_hill_with_and_without_a_leader():
    """8.4.4: a 2 MP defender on a hill holds on 1-3 (2 + 1 hill); with a leader on 1-4."""
    for leader, need in ((False, 3), (True, 4)):
        s = _assault_on_hill(leader)
        roll(s, need)
        assert events(s, "die", roll="morale")[-1]["passed"] is True
        assert events(s, "die", roll="morale")[-1]["need"] == need
        s = _assault_on_hill(leader)
        roll(s, need + 1)
        assert events(s, "die", roll="morale")[-1]["passed"] is False
        roll(s, 2, 2, 2)  # close combat hits on 4 - 1 (hill): nothing
        if s.current_player() == 1:  # the owner picks the retreat hex
            s.apply(s.legal_actions()[0])
        assert s.unit("B1").at != (4, 4)


def test_8_4_4_advance_after_the_defender_retreats():
    s = _assault_on_hill(False)
    roll(s, 6, 2, 2, 2)
    if s.current_player() == 1:  # the retreat hex is the owner's choice
        s.apply(s.legal_actions()[0])
    assert s.current_player() == 0
    assert set(s.legal_actions()) == {action(type="advance", yes=True),
                                      action(type="advance", yes=False)}
    act(s, type="advance", yes=True)
    assert s.unit("A1").at == (4, 4)
    assert s.ap == 4 and s.pending is None


def test_8_4_5_a_natural_6_always_fails():
    sc = scenario([u("A1", "regular", (3, 4))], [u("B1", "elite", (4, 4), 4)],
                  b_leaders=[ldr("howe", (4, 4))], terrain={(4, 4): "forest"})
    s = start(sc)
    act(s, type="assault", unit="A1", target=(4, 4))
    roll(s, 6)
    e = events(s, "die", roll="morale")[-1]
    assert e["need"] == 4 + 1 + 1 + 1 and e["passed"] is False


def _leader_casualty(kind: str):
    sc = scenario([u("A1", "regular", (3, 4))], [u("B1", "regular", (4, 4))],
                  b_leaders=[ldr("rahl", (4, 4))], command_ap=((3,), (2,)))
    s = start(sc)
    act(s, type=kind, unit="A1", target=(4, 4))
    if kind == "assault":
        roll(s, 1)  # morale: holds
    roll(s, 6, 1, 1)
    return s


def test_9_3_1_close_combat_one_check_per_1_rolled():
    """9.3.1: close combat dice 6, 1, 1: one hit and two casualty checks; 1, 4 kills."""
    s = _leader_casualty("assault")
    assert s.unit("B1").mp == 3  # 4 - 1 hit
    roll(s, 1)
    assert s.leader("rahl").status == "eliminated"
    assert s.current_player() == 0  # the second check is not rolled for a dead leader
    assert s.leaders_lost == [0, 1] and s.vp_earned == [1, 0]
    # 9.3.1 / 9.3.2: -1 command AP from the next AP phase
    act(s, type="end")
    roll(s, 2)
    assert s.ap == 2 - 1 + 2
    s = _leader_casualty("assault")
    roll(s, 2, 4)
    assert s.leader("rahl").status == "board"
    assert len(events(s, "die", roll="leader")) == 2


def test_9_3_1_fire_one_check_however_many_1s():
    s = _leader_casualty("fire")
    roll(s, 2)
    assert len(events(s, "die", roll="leader")) == 1
    assert s.pending is None and s.leader("rahl").status == "board"


def test_9_3_2_command_ap_never_below_zero():
    sc = scenario([u("A1", "regular", (3, 4))], [u("B1", "regular", (10, 0))],
                  command_ap=((1,), (1,)))
    s = game(sc).new_initial_state()
    s.leaders_lost[0] = 3
    s.apply(Die(2))
    assert s.ap == 0 + 2


def test_9_4_rally_one_mp_for_one_ap():
    """9.4: a leader with a 1 MP infantry, neither moved: 1 AP flips it to 2 MP."""
    sc = scenario([u("A1", "regular", (3, 4)), u("A2", "artillery", (3, 4))],
                  [u("B1", "regular", (10, 0))], [ldr("greene", (3, 4))])
    s = start(sc)
    s.unit("A1").mp = 1
    s.unit("A2").mp = 1
    rallies = of_type(s, "rally")
    assert rallies == [action(type="rally", leader="greene", unit="A1")]  # not artillery
    assert s.action_hints(rallies[0]) == {"ap": 1}
    s.apply(rallies[0])
    assert s.unit("A1").mp == 2 and s.ap == 5
    assert not [a for a in s.legal_actions() if getattr(a, "unit", None) == "A1"]
    assert not [a for a in s.legal_actions() if getattr(a, "leader", None) == "greene"]


def test_9_4_rally_needs_unmoved_leader_and_never_exceeds_start_mp():
    sc = scenario([u("A1", "regular", (3, 4), 3)], [u("B1", "regular", (10, 0))],
                  [ldr("greene", (4, 4))])
    s = start(sc)
    s.unit("A1").mp = 2
    act(s, type="move", leader="greene", path=[(3, 4)])
    assert not of_type(s, "rally")  # the leader moved this turn
    s = start(sc)
    assert not of_type(s, "rally")  # at start MP (3)


def test_game_example_of_section_8():
    """Section 8 "Game Example": the British spend 6 AP: dragoon move + fire (2 AP, hits on 5-6),
    artillery at range 2 (1 AP, 5-6), elite close combat into woods (2 AP; the American holds
    unless a 6; hits on 5-6), artillery at range 3 at the infantry with its leader (1 AP, 6).
    Every combat rolls 3 dice."""
    sc = scenario(
        [u("X1", "regular", (6, 1)), u("X2", "regular", (6, 4)), u("X3", "regular", (6, 7))],
        [u("D1", "dragoon", (2, 1)), u("R1", "artillery", (8, 1)), u("E1", "elite", (7, 4)),
         u("R2", "artillery", (9, 7))],
        [ldr("putnam", (6, 7))], terrain={(6, 4): "forest"}, first=1)
    s = start(sc, ap=6)
    move_fire = action(type="move", unit="D1", path=[(3, 1), (4, 1), (5, 1)], fire=(6, 1))
    assert move_fire in s.legal_actions()
    assert s.action_hints(move_fire) == {"ap": 2, "to": [5, 1], "dice": 3, "hit_on": 5,
                                         "range": 1, "los": True, "target": [6, 1]}
    s.apply(move_fire)
    roll(s, 2, 3, 4)
    art2 = action(type="fire", unit="R1", target=(6, 1))
    assert s.action_hints(art2) == {"ap": 1, "dice": 3, "hit_on": 5, "range": 2, "los": True}
    s.apply(art2)
    roll(s, 2, 3, 4)
    cc = action(type="assault", unit="E1", target=(6, 4))
    assert s.action_hints(cc) == {"ap": 2, "dice": 3, "hit_on": 5, "range": 1, "los": True}
    s.apply(cc)
    roll(s, 5)  # morale 4 + 1 (woods) = 5: a 5 holds
    assert events(s, "die", roll="morale")[-1] == {**events(s, "die", roll="morale")[-1],
                                                   "need": 5, "passed": True}
    roll(s, 4, 5, 6)
    assert events(s, "hits")[-1]["hits"] == 2 and s.unit("X2").mp == 2
    art3 = action(type="fire", unit="R2", target=(6, 7))
    assert s.action_hints(art3) == {"ap": 1, "dice": 3, "hit_on": 6, "range": 3, "los": True}
    s.apply(art3)
    roll(s, 2, 3, 4)
    assert s.ap == 0 and s.active == 0  # all 6 AP spent: the British turn is over
    assert s.current_player() == CHANCE


# ============================================================================ hit-number chart

def _chart_cases():
    for kind, chart in CHART.items():
        for rng in chart:
            for terrain in TERRAIN_DIE:
                yield kind, rng, terrain


@pytest.mark.parametrize("kind,rng,terrain", list(_chart_cases()))
def test_hit_number_chart_exhaustively(kind, rng, terrain):
    """8.2.1 chart × 2.3 terrain × every die face: a die hits when face + terrain >= chart."""
    close = rng == "close"
    dist = 1 if close else rng
    sc = scenario([u("A1", kind, (2, 4))], [u("B1", "regular", (2 + dist, 4))],
                  terrain={(2 + dist, 4): terrain})
    base = start(sc)
    a = action(type="assault" if close else "fire", unit="A1", target=(2 + dist, 4))
    assert a in base.legal_actions()
    hit_on = CHART[kind][rng]
    natural = next((f for f in range(1, 7) if f + TERRAIN_DIE[terrain] >= hit_on), 7)
    assert base.action_hints(a)["hit_on"] == natural
    assert base.action_hints(a)["dice"] == 3
    for face in range(1, 7):
        s = base.clone()
        s.apply(a)
        if close:
            roll(s, 1)  # morale holds
        roll(s, face, face, face)
        expected = 3 if face + TERRAIN_DIE[terrain] >= hit_on else 0
        assert events(s, "hits")[-1]["hits"] == expected, (kind, rng, terrain, face)
        assert s.unit("B1").mp == 4 - expected


@pytest.mark.parametrize("kind", list(CHART))
def test_no_fire_beyond_range_and_no_close_combat_for_dragoons_and_artillery(kind):
    rng = max(k for k in CHART[kind] if k != "close")
    for dist in (rng, rng + 1):
        s = start(scenario([u("A1", kind, (2, 4))], [u("B1", "regular", (2 + dist, 4))]))
        fires = of_type(s, "fire")
        assert bool(fires) == (dist == rng)
    s = start(scenario([u("A1", kind, (2, 4))], [u("B1", "regular", (3, 4))]))
    assert bool(of_type(s, "assault")) == ("close" in CHART[kind])


# ============================================================================ line of sight

def test_fire_needs_line_of_sight_units_and_terrain_block():
    """8.3: forest between blocks; a unit between blocks; a lone leader does not."""
    sc = scenario([u("A1", "artillery", (2, 4))], [u("B1", "regular", (5, 4))],
                  terrain={(3, 4): "forest"})
    assert not of_type(start(sc), "fire")
    sc = scenario([u("A1", "artillery", (2, 4)), u("A2", "regular", (4, 4))],
                  [u("B1", "regular", (5, 4))])
    assert [a.unit for a in of_type(start(sc), "fire")] == ["A2"]
    sc = scenario([u("A1", "artillery", (2, 4))], [u("B1", "regular", (5, 4))],
                  [ldr("knox", (3, 4))])
    assert of_type(start(sc), "fire")


# ============================================================================ movement

def test_movement_allowances_and_terrain():
    """Contract §3: allowances; forest stops; waterway stops (and ends the activation);
    swamp is impassable; bridges and fords do not stop."""
    sc = scenario([u("A1", "light", (3, 4)), u("A2", "dragoon", (3, 7)), u("A3", "regular",
                                                                            (8, 4))],
                  [u("B1", "regular", (12, 0))],
                  terrain={(4, 4): "waterway", (2, 4): "swamp", (4, 7): "bridge",
                           (5, 7): "ford", (8, 3): "forest"})
    s = start(sc)
    d = destinations(s, "A1")
    assert (4, 4) in d and (5, 4) not in d  # 5,4 only across the waterway
    assert (4, 3) in d and (2, 4) not in d
    paths = [a.path for a in s.legal_actions() if getattr(a, "unit", None) == "A1"]
    assert all((4, 4) not in p[:-1] for p in paths)
    assert (6, 7) in destinations(s, "A2")  # over the bridge and the ford
    assert destinations(s, "A3") == {(9, 4), (8, 3), (7, 3), (7, 4), (7, 5), (8, 5)}


def test_hills_stop_movement_and_leader_alone_moves_three():
    sc = scenario([u("A1", "light", (3, 4)), u("A2", "regular", (7, 4))],
                  [u("B1", "regular", (12, 0))],
                  [ldr("knox", (6, 4))], terrain={(4, 4): "hill"})
    s = start(sc)
    assert all((4, 4) not in a.path[:-1] for a in s.legal_actions()
               if getattr(a, "unit", None) == "A1")
    d = destinations(s, None, "knox")
    assert (9, 4) in d and (10, 4) not in d and (7, 4) in d  # passes/ends with friendly units
    assert (3, 4) not in d  # the hill at 4,4 stops it
    assert s.action_hints(action(type="move", leader="knox", path=[(7, 4)])) == {
        "ap": 1, "to": [7, 4]}


def test_stacking_4_3_during_and_at_the_end_of_moves():
    """4.3, 6.2.6, 7.2: no two infantry/dragoons, no two artillery; artillery may join one; a
    unit may not pass through a hex it could not stop in; leaders never share a hex."""
    sc = scenario([u("A1", "light", (3, 4)), u("A2", "regular", (4, 4)),
                   u("A3", "artillery", (4, 5)), u("A4", "artillery", (2, 6)),
                   u("A5", "dragoon", (3, 6))],
                  [u("B1", "regular", (12, 0))], [ldr("knox", (3, 4)), ldr("lee", (5, 4))])
    s = start(sc)
    d1 = destinations(s, "A1")
    assert (4, 4) not in d1 and (4, 5) in d1 and (3, 5) in d1
    for a in s.legal_actions():
        if getattr(a, "unit", None) == "A1":
            assert (4, 4) not in a.path
    assert (5, 4) not in destinations(s, "A1", "knox")  # lee is there
    assert (4, 5) not in destinations(s, "A4")  # two artillery
    assert (2, 6) in destinations(s, "A5")  # a dragoon may join artillery
    assert (5, 4) not in destinations(s, None, "knox")
    assert (4, 4) in destinations(s, None, "knox")  # a leader joins any unit


def test_7_3_lone_enemy_leader_is_taken_without_stopping_the_mover():
    sc = scenario([u("A1", "dragoon", (3, 4))], [u("B1", "regular", (12, 0))],
                  b_leaders=[ldr("tarleton", (4, 4))])
    s = start(sc)
    a = action(type="move", unit="A1", path=[(4, 4), (5, 4), (6, 4)])
    assert a in s.legal_actions()
    s.apply(a)
    assert s.leader("tarleton").status == "eliminated"
    assert s.vp_earned == [1, 0] and s.leaders_lost == [0, 1]
    assert s.unit("A1").at == (6, 4)


def test_enemy_units_block_movement():
    sc = scenario([u("A1", "light", (3, 4))], [u("B1", "regular", (4, 4))])
    s = start(sc)
    assert (4, 4) not in destinations(s, "A1")
    assert all((4, 4) not in a.path for a in s.legal_actions() if hasattr(a, "path"))


def test_one_activation_per_unit():
    """6.1.4, 6.2.1: a unit that fired may not move, and the other way round."""
    sc = scenario([u("A1", "regular", (3, 4))], [u("B1", "regular", (5, 4))])
    s = start(sc)
    act(s, type="fire", unit="A1", target=(5, 4))
    roll(s, 2, 2, 2)
    assert not [a for a in s.legal_actions() if getattr(a, "unit", None) == "A1"]
    s = start(sc)
    act(s, type="move", unit="A1", path=[(2, 4)])
    assert not [a for a in s.legal_actions() if getattr(a, "unit", None) == "A1"]


def test_dragoon_move_then_fire_but_not_fire_then_move():
    """6.2.3: move and fire for 2 AP; after a fire no move; not after entering a waterway."""
    sc = scenario([u("A1", "dragoon", (3, 4))], [u("B1", "regular", (6, 4))],
                  terrain={(5, 3): "waterway"})
    s = start(sc)
    targets = {(a.path[-1], a.fire) for a in s.legal_actions()
               if getattr(a, "fire", None) is not None}
    assert ((5, 4), (6, 4)) in targets
    assert all(end != (5, 3) for end, _ in targets)
    s2 = start(scenario([u("A1", "dragoon", (5, 4))], [u("B1", "regular", (6, 4))]))
    act(s2, type="fire", unit="A1", target=(6, 4))
    roll(s2, 2, 2, 2)
    assert not [a for a in s2.legal_actions() if getattr(a, "unit", None) == "A1"]
    s3 = start(sc, ap=1)
    assert not [a for a in s3.legal_actions() if getattr(a, "fire", None) is not None]


def test_leader_moves_free_with_its_unit_only_if_it_started_there():
    """6.2.5, 9.1.1: a leader that started the turn with the unit moves with it for free."""
    sc = scenario([u("A1", "regular", (3, 4)), u("A2", "regular", (6, 4))],
                  [u("B1", "regular", (12, 0))], [ldr("knox", (6, 3))])
    s = start(sc)
    act(s, type="move", leader="knox", path=[(6, 4)])
    assert not destinations(s, "A2", "knox")
    s = start(sc)
    assert not destinations(s, "A1", "knox")


# ============================================================================ retreats

def _retreat_setup(extra_a=(), extra_b=(), terrain=None):
    # B1 at 6,4 attacked from 6,5 (south-east of it). Home edge of the British: north.
    # Tier 1: 6,3 / 5,3 / 5,4; tier 2 (adjacent to the attacker): 7,4; 5,5 is farther from home.
    sc = scenario([u("A1", "regular", (6, 5)), *extra_a],
                  [u("B1", "regular", (6, 4)), *extra_b], terrain=terrain)
    s = start(sc)
    act(s, type="assault", unit="A1", target=(6, 4))
    roll(s, 6, 2, 2, 2)  # morale fails; no hits
    return s


def test_retreat_tier_one_first():
    """8.5.1, contract §3: not adjacent to the attacker, no farther from home."""
    s = _retreat_setup()
    assert s.current_player() == 1
    assert {a.to for a in s.legal_actions()} == {(6, 3), (5, 3), (5, 4)}
    assert s.to_json()["pending"]["decision"]["kind"] == "retreat"
    act(s, type="retreat", unit="B1", to=(5, 3))
    assert s.unit("B1").at == (5, 3)
    assert s.current_player() == 0  # advance?


def test_retreat_tier_two_when_tier_one_is_blocked():
    s = _retreat_setup([u("A2", "regular", (6, 3)), u("A3", "regular", (5, 3)),
                        u("A4", "regular", (5, 4))])
    assert s.unit("B1").at == (7, 4)  # the only choice is taken at once
    assert events(s, "retreat")


def test_retreat_impossible_eliminates():
    """8.5.2: blocked by enemies, impassable terrain: eliminated."""
    s = _retreat_setup([u("A2", "regular", (6, 3)), u("A3", "regular", (5, 3)),
                        u("A4", "regular", (5, 4))], terrain={(7, 4): "swamp"})
    assert s.unit("B1").status == "eliminated"
    assert s.vp_earned == [1, 0]


def test_displacement_of_one_friendly_unit():
    """8.5.3: the friendly unit in the way is displaced one hex by the same rule."""
    s = _retreat_setup([u("A2", "regular", (6, 3)), u("A3", "regular", (5, 3))],
                       [u("B2", "regular", (5, 4))], terrain={(7, 4): "swamp"})
    assert s.current_player() == 1
    assert {a.to for a in s.legal_actions()} == {(4, 3), (4, 4)}
    assert all(a.unit == "B2" for a in s.legal_actions())
    act(s, type="displace", unit="B2", to=(4, 4))
    assert s.unit("B2").at == (4, 4) and s.unit("B1").at == (5, 4)


def test_second_displacement_needed_eliminates_the_retreating_unit():
    s = _retreat_setup([u("A2", "regular", (6, 3)), u("A3", "regular", (5, 3))],
                       [u("B2", "regular", (5, 4)), u("B3", "regular", (4, 3)),
                        u("B4", "regular", (4, 4))], terrain={(7, 4): "swamp"})
    assert s.unit("B1").status == "eliminated"
    assert s.unit("B2").at == (5, 4)
    assert s.vp_earned == [1, 0]


def test_artillery_passes_with_the_infantry_and_leader_retreats_with_its_units():
    """8.5.4: infantry checks first; if it passes the artillery passes too. 8.4.2: the leader
    goes with its units when all retreat."""
    sc = scenario([u("A1", "regular", (6, 5))],
                  [u("B1", "regular", (6, 4)), u("B2", "artillery", (6, 4))],
                  b_leaders=[ldr("howe", (6, 4))])
    s = start(sc)
    act(s, type="assault", unit="A1", target=(6, 4))
    roll(s, 1)  # infantry holds (4 + 1 leader)
    assert events(s, "morale")[-1]["passed"] is True  # the artillery passes with it
    roll(s, 2, 2, 2)
    assert s.unit("B1").at == (6, 4) and s.unit("B2").at == (6, 4)
    s = start(sc)
    act(s, type="assault", unit="A1", target=(6, 4))
    roll(s, 6, 6, 2, 2, 2)  # both fail
    while s.current_player() == 1:
        s.apply(s.legal_actions()[0])
    assert s.unit("B1").at != (6, 4) and s.unit("B2").at != (6, 4)
    assert s.leader("howe").at == s.unit("B1").at


def test_hits_go_to_the_higher_mp_unit_and_ties_are_the_defenders_choice():
    """8.2.2: the higher current MP takes all hits; a tie is the owner's decision."""
    sc = scenario([u("A1", "artillery", (3, 4))],
                  [u("B1", "regular", (4, 4), 3), u("B2", "artillery", (4, 4))])
    s = start(sc)
    act(s, type="fire", unit="A1", target=(4, 4))
    roll(s, 4, 4, 4)
    assert s.unit("B1").status == "eliminated" and s.unit("B2").mp == 2  # extra hits lost
    s = start(sc)
    s.unit("B1").mp = 2
    act(s, type="fire", unit="A1", target=(4, 4))
    roll(s, 4, 2, 2)
    assert s.current_player() == 1
    assert set(s.legal_actions()) == {action(type="allocate", unit="B1"),
                                      action(type="allocate", unit="B2")}
    act(s, type="allocate", unit="B2")
    assert s.unit("B2").mp == 1 and s.unit("B1").mp == 2


# ============================================================================ leaders

def test_8_5_5_leader_escapes_when_its_unit_is_eliminated():
    sc = scenario([u("A1", "artillery", (3, 4)), u("A2", "regular", (5, 4))],
                  [u("B1", "regular", (4, 4), 1)], b_leaders=[ldr("rahl", (4, 4))],
                  terrain={(4, 2): "swamp"})
    s = start(sc)
    act(s, type="fire", unit="A1", target=(4, 4))
    roll(s, 4, 4, 4)
    assert s.unit("B1").status == "eliminated"
    assert s.current_player() == 1
    choices = {a.to for a in s.legal_actions()}
    assert (3, 4) not in choices and (5, 4) not in choices and (4, 2) not in choices
    assert (4, 1) in choices and all(max(abs(c[0] - 4), abs(c[1] - 4)) <= 3 for c in choices)
    act(s, type="escape", leader="rahl", to=(4, 1))
    assert s.leader("rahl").at == (4, 1)


def test_8_5_5_leader_with_nowhere_to_go_is_eliminated():
    sc = scenario([u("A1", "artillery", (3, 4)), u("A2", "regular", (5, 4)),
                   u("A3", "regular", (4, 3)), u("A4", "regular", (3, 3)),
                   u("A5", "regular", (3, 5)), u("A6", "regular", (4, 5))],
                  [u("B1", "regular", (4, 4), 1)], b_leaders=[ldr("rahl", (4, 4))])
    s = start(sc)
    act(s, type="fire", unit="A1", target=(4, 4))
    roll(s, 4, 4, 4)
    assert s.leader("rahl").status == "eliminated"
    assert s.vp_earned == [2, 0] and s.leaders_lost == [0, 1]


# ============================================================================ AP, victory

def test_action_die_remap_and_command_ap_by_turn():
    """6.1.1, contract §2: AP = command AP of the turn - leaders lost + action die (remapped)."""
    sc = scenario([u("A1", "regular", (3, 4))], [u("B1", "regular", (10, 0))],
                  command_ap=((1, 1, 2), (2,)), action_die=((1, 2, 0), (1, 2, 3)))
    s = game(sc).new_initial_state()
    assert s.current_player() == CHANCE
    assert [p for _, p in s.chance_outcomes()] == [1 / 3] * 3
    s.apply(Die(3))  # counts 0: 1 + 0 = 1 AP
    assert s.ap == 1
    act(s, type="end")
    s.apply(Die(3))
    assert s.ap == 5
    act(s, type="end")
    for _ in range(2):
        s.apply(Die(1))
        act(s, type="end") if s.active == 0 and s.ap else None
        if s.current_player() == 1:
            act(s, type="end")
    assert s.turn == 3
    s.apply(Die(2))
    assert s.ap == 2 + 2


def test_zero_ap_ends_the_turn_by_itself():
    sc = scenario([u("A1", "regular", (3, 4))], [u("B1", "regular", (10, 0))],
                  command_ap=((0,), (0,)), action_die=((0, 0, 0), (1, 2, 3)))
    s = game(sc).new_initial_state()
    s.apply(Die(1))
    assert s.active == 1 and s.current_player() == CHANCE


def test_vp_target_checked_after_the_turn_and_time_limit():
    """10, 5 steps 3 and 6: victory after each side's turn; at the limit the scenario's
    outcome."""
    sc = scenario([u("A1", "artillery", (3, 4))], [u("B1", "regular", (4, 4), 1)],
                  vp_target=(1, None), turn_limit=1, time_out_winner=1)
    s = start(sc)
    act(s, type="fire", unit="A1", target=(4, 4))
    roll(s, 4, 4, 4)
    assert not s.is_terminal()
    act(s, type="end")
    assert s.is_terminal() and s.returns() == (1.0, -1.0)
    assert s.result["reason"] == "vp" and s.current_player() == TERMINAL
    s = start(sc)
    act(s, type="end")
    s.apply(Die(1))
    act(s, type="end")
    assert s.is_terminal() and s.returns() == (-1.0, 1.0) and s.result["reason"] == "time"


def test_vp_counters_objectives_and_exits():
    """3.4.8 / 10.B: entering an enemy VP counter takes it (1 VP); objectives count while
    held; exits score per the scenario (e.g. 2 VP per three units)."""
    sc = scenario([u("A1", "regular", (3, 4)), u("A2", "regular", (8, 8)),
                   u("A3", "regular", (9, 8)), u("A4", "regular", (10, 8))],
                  [u("B1", "regular", (12, 0))], counters=((), ((4, 4),)),
                  objectives=((((3, 4), 2),), ()),
                  exits=(((8, 8), (9, 8), (10, 8)), ()), exit_vp=((2, 3), (0, 0)))
    s = start(sc)
    assert s.vp_total(0) == 2
    act(s, type="move", unit="A1", path=[(4, 4)])
    assert s.vp_earned == [1, 0] and s.vp_total(0) == 1 and not s.counters
    for uid in ("A2", "A3"):
        act(s, type="exit", unit=uid)
    assert s.vp_total(0) == 1
    act(s, type="exit", unit="A4")
    assert s.vp_total(0) == 3 and s.exited == [3, 0]


def test_reinforcements_arrive_at_the_start_of_their_turn():

    rf = Reinforcement(turn=2, units=(u("A9", "regular", (3, 8)),), entry=((4, 8),))
    sc = scenario([u("A1", "regular", (3, 8))], [u("B1", "regular", (12, 0))],
                  reinforcements=((rf,), ()))
    s = game(sc).new_initial_state()
    assert s.unit("A9").status == "waiting"
    s.apply(Die(1))
    act(s, type="end")
    s.apply(Die(1))
    act(s, type="end")
    assert s.unit("A9").status == "board" and s.unit("A9").at == (4, 8)  # 3,8 is taken
    assert events(s, "reinforcement")


# ============================================================================ options

def test_options_named_numbered_and_validated():
    assert len(OPTIONS) == 15
    assert Options.from_mapping({"11.1": True}).attacker_morale
    with pytest.raises(ValueError, match="unknown option"):
        Options.from_mapping({"nope": True})
    with pytest.raises(ValueError, match=r"11\.3"):
        Options.from_mapping({"elite_four_dice": True, "leader_ratings": True})
    with pytest.raises(ValueError, match="ap_adjust"):
        Options.from_mapping({"ap_adjust": [1]})
    assert Options().to_json() == {}


def test_11_1_attacker_morale_failure_fires_instead():
    sc = scenario([u("A1", "regular", (3, 4), 3)], [u("B1", "regular", (4, 4))])
    s = start(sc, options={"attacker_morale": True})
    act(s, type="assault", unit="A1", target=(4, 4))
    assert s.ap == 4
    roll(s, 4)  # 4 > 3 MP: fails
    assert events(s, "die", roll="attacker_morale")[-1]["passed"] is False
    roll(s, 5, 5, 2)  # fire at range 1: hits on 5
    assert s.unit("B1").mp == 2 and s.pending is None
    s = start(sc, options={"attacker_morale": True})
    act(s, type="assault", unit="A1", target=(4, 4))
    roll(s, 3, 1)  # passes; the defender's morale is next
    assert events(s, "die", roll="morale")


def test_11_2_only_units_not_fired_on_may_rally():
    sc = scenario([u("A1", "regular", (3, 4))], [u("B1", "regular", (5, 4))],
                  [ldr("greene", (3, 4))], first=1)
    s = start(sc, options={"rally_unfired": True})
    act(s, type="fire", unit="B1", target=(3, 4))
    roll(s, 6, 2, 2)
    act(s, type="end")
    s.apply(Die(1))
    assert not of_type(s, "rally")
    s = start(sc)
    act(s, type="fire", unit="B1", target=(3, 4))
    roll(s, 6, 2, 2)
    act(s, type="end")
    s.apply(Die(1))
    assert of_type(s, "rally")


def test_11_3_elite_four_dice_at_3_or_4_mp():
    sc = scenario([u("A1", "elite", (3, 4)), u("A2", "elite", (3, 6))],
                  [u("B1", "regular", (4, 4)), u("B2", "regular", (4, 6))])
    s = start(sc, options={"elite_four_dice": True})
    s.unit("A2").mp = 2
    assert s.action_hints(action(type="fire", unit="A1", target=(4, 4)))["dice"] == 4
    assert s.action_hints(action(type="fire", unit="A2", target=(4, 6)))["dice"] == 3
    act(s, type="fire", unit="A1", target=(4, 4))
    roll(s, 5, 5, 5, 5)
    assert s.unit("B1").status == "eliminated"


def test_11_4_artillery_on_a_hill_reaches_one_hex_farther_hitting_on_6():
    sc = scenario([u("A1", "artillery", (2, 4))], [u("B1", "regular", (6, 4))],
                  terrain={(2, 4): "hill"})
    assert not of_type(start(sc), "fire")
    s = start(sc, options={"artillery_hill_range": True})
    a = action(type="fire", unit="A1", target=(6, 4))
    assert s.action_hints(a)["hit_on"] == 6 and s.action_hints(a)["range"] == 4


def test_11_5_artillery_minus_two_into_forest():
    sc = scenario([u("A1", "artillery", (3, 4)), u("A2", "regular", (3, 5))],
                  [u("B1", "regular", (4, 4))], terrain={(4, 4): "forest"})
    s = start(sc, options={"artillery_forest": True})
    assert s.action_hints(action(type="fire", unit="A1", target=(4, 4)))["hit_on"] == 6
    assert s.action_hints(action(type="fire", unit="A2", target=(4, 4)))["hit_on"] == 6
    s = start(sc)
    assert s.action_hints(action(type="fire", unit="A1", target=(4, 4)))["hit_on"] == 5


def test_11_6_leader_dice_and_leader_hit_values():
    sc = scenario([u("A1", "regular", (3, 4))], [u("B1", "regular", (4, 4))],
                  [ldr("washington", (3, 4), (2, 2))], [ldr("rahl", (4, 4), (2, 2))])
    s = start(sc, options={"leader_ratings": True})
    a = action(type="assault", unit="A1", target=(4, 4), leader_dice=True)
    assert s.action_hints(a) == {"ap": 3, "dice": 5, "hit_on": 4, "range": 1, "los": True}
    s.apply(a)
    roll(s, 1)  # defender morale holds
    roll(s, 6, 2, 2, 2, 1)  # one hit, one 1: checks for rahl, then washington
    assert [c for c in s.pending.checks] == ["rahl", "washington"]
    roll(s, 1, 1)
    assert s.leader("rahl").status == "board" and s.leader("rahl").hits == 1
    assert s.leader("washington").hits == 1 and s.leaders_lost == [0, 0]
    assert not of_type(start(sc), "assault") or all(
        not a.leader_dice for a in of_type(start(sc), "assault"))


def test_11_7_advance_after_eliminating_an_adjacent_unit_by_fire():
    sc = scenario([u("A1", "regular", (3, 4))], [u("B1", "regular", (4, 4), 1)])
    s = start(sc, options={"fire_advance": True})
    act(s, type="fire", unit="A1", target=(4, 4))
    roll(s, 5, 2, 2)
    assert s.current_player() == 0 and of_type(s, "advance")
    act(s, type="advance", yes=True)
    assert s.unit("A1").at == (4, 4)
    s = start(sc)
    act(s, type="fire", unit="A1", target=(4, 4))
    roll(s, 5, 2, 2)
    assert s.pending is None


def test_11_8_and_11_9_force_march_and_fatigue():
    sc = scenario([u("A1", "regular", (3, 4), 3)], [u("B1", "regular", (12, 0))])
    s = start(sc, options={"force_march": True})
    a = action(type="move", unit="A1", path=[(4, 4), (5, 4)], force_march=True)
    assert a in s.legal_actions() and s.action_hints(a)["ap"] == 2
    s.apply(a)
    assert s.unit("A1").at == (4, 4)
    roll(s, 4)  # 4 > 3 MP: fails, the extra hex is lost
    assert s.unit("A1").at == (4, 4) and s.ap == 4
    s = start(sc, options={"force_march": True, "march_fatigue": True})
    s.apply(a)
    roll(s, 3)
    assert s.unit("A1").at == (5, 4)
    roll(s, 4)
    assert s.unit("A1").mp == 2
    assert not of_type(start(sc), "move") or all(not m.force_march
                                                  for m in of_type(start(sc), "move"))


def test_11_10_hills_do_not_stop_movement():
    sc = scenario([u("A1", "light", (3, 4))], [u("B1", "regular", (12, 0))],
                  terrain={(4, 4): "hill"})
    s = start(sc, options={"hills_clear": True})
    assert any(a.path == ((4, 4), (5, 4)) for a in s.legal_actions() if hasattr(a, "path"))
    s = start(sc)
    assert not any(a.path == ((4, 4), (5, 4)) for a in s.legal_actions() if hasattr(a, "path"))


def test_11_11_dragoons_may_evade_close_combat():
    sc = scenario([u("A1", "regular", (6, 5))], [u("B1", "dragoon", (6, 4))])
    s = start(sc, options={"dragoon_evade": True})
    act(s, type="assault", unit="A1", target=(6, 4))
    assert s.current_player() == 1
    assert set(s.legal_actions()) == {action(type="evade", yes=True),
                                      action(type="evade", yes=False)}
    act(s, type="evade", yes=True)
    act(s, type="retreat", unit="B1", to=(6, 3))
    assert s.unit("B1").at == (6, 3)
    assert s.current_player() == 0 and of_type(s, "advance")  # no dice were rolled
    assert not events(s, "die", roll="attack")


def test_11_12_and_11_13_command_ap_settings():
    sc = scenario([u("A1", "regular", (3, 4))], [u("B1", "regular", (10, 0))],
                  command_ap=((4,), (1, 2)))
    s = game(sc, {"ap_adjust": [-1, 2]}).new_initial_state()
    s.apply(Die(1))
    assert s.ap == 4 - 1 + 1
    act(s, type="end")
    s.apply(Die(1))
    assert s.ap == 1 + 2 + 1
    s = game(sc, {"equal_command": True}).new_initial_state()
    s.apply(Die(1))
    act(s, type="end")
    s.apply(Die(1))
    assert s.ap == 4 + 1


def test_11_14_flank_attacks():
    # B1 at 5,4; A1 west of it at 4,4, A2 east at 6,4: directly opposite.
    sc = scenario([u("A1", "regular", (4, 4)), u("A2", "regular", (6, 4))],
                  [u("B1", "regular", (5, 4))])
    s = start(sc, options={"flank_attacks": True})
    first = action(type="fire", unit="A1", target=(5, 4))
    assert s.action_hints(first)["hit_on"] == 5
    s.apply(first)
    roll(s, 2, 2, 2)
    second = action(type="assault", unit="A2", target=(5, 4))
    assert s.action_hints(second) == {"ap": 2, "dice": 3, "hit_on": 3, "range": 1,
                                      "los": True, "flank": True}
    s.apply(second)
    roll(s, 4)
    assert events(s, "die", roll="morale")[-1]["need"] == 4 - 1
    assert events(s, "die", roll="morale")[-1]["passed"] is False


def test_11_15_grand_tactical_ranges():
    sc = scenario([u("A1", "regular", (2, 4)), u("A2", "artillery", (2, 6))],
                  [u("B1", "regular", (4, 4)), u("B2", "regular", (5, 6))])
    s = start(sc, options={"grand_tactical": True})
    assert not of_type(s, "fire")
    s = start(sc)
    assert {a.unit for a in of_type(s, "fire")} == {"A1", "A2"}


# ============================================================================ §8 rulings

def test_8_1_a_leader_alone_takes_a_lone_enemy_leader_in_its_path():
    """§8.1 (7.2.1, 7.3): a leader moving alone enters or passes a lone enemy leader's hex; the
    enemy leader is eliminated (1 VP, -1 command AP for its side) and the mover goes on."""
    sc = scenario([u("A1", "regular", (0, 8))], [u("B1", "regular", (12, 0))],
                  [ldr("knox", (3, 4))], [ldr("rahl", (4, 4))])
    s = start(sc)
    through = action(type="move", leader="knox", path=[(4, 4), (5, 4)])
    around = [a for a in of_type(s, "move") if a.unit is None and a.path[-1] == (5, 4)
              and (4, 4) not in a.path]
    assert (4, 4) in destinations(s, None, "knox")
    assert through in s.legal_actions() and len(around) == 1  # two outcomes, two moves
    assert {"type": "move", "leader": "knox", "path": [[4, 4]]} in legal_json(s)
    s.apply(through)
    assert s.leader("rahl").status == "eliminated" and s.leader("knox").at == (5, 4)
    assert s.leaders_lost == [0, 1] and s.vp_earned == [1, 0]
    assert events(s, "capture", leader="rahl", by_leader="knox")
    act(s, type="end")
    s.apply(Die(1))
    assert s.ap == 3 - 1 + 1  # command AP 3, one leader lost, die 1


def test_8_1_a_leader_with_an_enemy_unit_still_blocks_a_leader_alone():
    sc = scenario([u("A1", "regular", (0, 8))], [u("B1", "regular", (4, 4))],
                  [ldr("knox", (3, 4))], [ldr("rahl", (4, 4))])
    s = start(sc)
    assert all((4, 4) not in a.path for a in of_type(s, "move") if a.unit is None)


def test_8_1_an_escaping_leader_still_avoids_enemy_leaders():
    """Contract §3 (8.5.5): an escape never enters a hex with another leader; §8.1 is about a
    leader moving alone."""
    woods = [(5, 4), (3, 3), (3, 5), (4, 5)]
    sc = scenario([u("A1", "artillery", (3, 4))], [u("B1", "militia", (4, 4), 1)],
                  [ldr("knox", (4, 3))], [ldr("rahl", (4, 4))],
                  terrain={h: "forest" for h in woods})
    s = start(sc)
    act(s, type="fire", unit="A1", target=(4, 4))
    roll(s, 6, 2, 2)
    assert {a.to for a in of_type(s, "escape")} == set(woods)


def _retreat_onto_knox(leader_b: bool = False):
    """B1 at 6,4 fails morale against A1 from 6,5; of its retreat hexes 5,4 7,4 are swamp, 5,3
    is free and 6,3 holds the American leader Knox alone."""
    sc = scenario([u("A1", "regular", (6, 5))], [u("B1", "regular", (6, 4))],
                  [ldr("knox", (6, 3))], [ldr("rahl", (6, 4))] if leader_b else [],
                  terrain={(5, 4): "swamp", (7, 4): "swamp"})
    s = start(sc)
    act(s, type="assault", unit="A1", target=(6, 4))
    roll(s, 6, 2, 2, 2)  # morale fails, no hits
    return s


def test_8_2_a_lone_enemy_leader_is_a_retreat_hex_and_is_taken():
    """§8.2 (8.5.2, 7.2.1, 7.3): leaders never block a retreat; the one there is eliminated."""
    s = _retreat_onto_knox()
    assert set(of_type(s, "retreat")) == {action(type="retreat", unit="B1", to=(5, 3)),
                                          action(type="retreat", unit="B1", to=(6, 3))}
    act(s, type="retreat", unit="B1", to=(6, 3))
    assert s.unit("B1").at == (6, 3) and s.leader("knox").status == "eliminated"
    assert s.leaders_lost == [1, 0] and s.vp_earned == [0, 1]
    assert events(s, "capture", leader="knox", unit="B1")


def test_8_2_a_retreat_with_its_leader_onto_a_lone_enemy_leader():
    s = _retreat_onto_knox(leader_b=True)
    act(s, type="retreat", unit="B1", to=(6, 3))
    assert s.leader("rahl").at == (6, 3) and s.leader("knox").status == "eliminated"


def test_8_2_the_only_retreat_hex_holding_an_enemy_leader_saves_the_unit():
    sc = scenario([u("A1", "regular", (6, 5))], [u("B1", "regular", (6, 4))],
                  [ldr("knox", (6, 3))],
                  terrain={h: "swamp" for h in [(5, 4), (7, 4), (5, 3)]})
    s = start(sc)
    act(s, type="assault", unit="A1", target=(6, 4))
    roll(s, 6, 2, 2, 2)
    assert s.unit("B1").status == "board" and s.unit("B1").at == (6, 3)
    assert s.leader("knox").status == "eliminated"


def test_8_3_a_unit_attacked_only_in_close_combat_may_be_rallied():
    """§8.3 (11.2): "fired on" is fire combat; a close combat does not stop a rally."""
    sc = scenario([u("A1", "regular", (6, 5)), u("A2", "regular", (5, 5))],
                  [u("B1", "regular", (6, 4))], b_leaders=[ldr("rahl", (6, 4))])
    for fire_too, rally in ((False, True), (True, False)):
        s = start(sc, options={"rally_unfired": True})
        act(s, type="assault", unit="A1", target=(6, 4))
        roll(s, 1, 5, 2, 2)  # morale holds; one hit
        if fire_too:
            act(s, type="fire", unit="A2", target=(6, 4))
            roll(s, 2, 2, 2)
        assert s.unit("B1").mp == 3 and s.unit("B1").at == (6, 4)
        act(s, type="end")
        s.apply(Die(1))
        assert (action(type="rally", leader="rahl", unit="B1") in s.legal_actions()) is rally


def test_8_3_a_close_combat_that_becomes_a_fire_marks_the_unit_fired_on():
    """11.1 with 11.2: an attacker failing its morale fires instead; that is fire combat."""
    sc = scenario([u("A1", "regular", (6, 5), 3)], [u("B1", "regular", (6, 4))])
    s = start(sc, options={"attacker_morale": True, "rally_unfired": True})
    act(s, type="assault", unit="A1", target=(6, 4))
    assert not s.unit("B1").fired_at
    roll(s, 4)  # 4 > 3 MP: the attacker fails and fires
    assert s.unit("B1").fired_at


def test_8_4_flank_attackers_on_a_line_need_not_be_adjacent():
    """§8.4 (11.14): artillery at range 2 west of B1 and infantry adjacent east are directly
    opposite on a straight hex line; the later attack gets the bonus, the first is not
    rolled again."""
    sc = scenario([u("A1", "artillery", (3, 4)), u("A2", "regular", (6, 4))],
                  [u("B1", "regular", (5, 4))])
    s = start(sc, options={"flank_attacks": True})
    first = action(type="fire", unit="A1", target=(5, 4))
    assert "flank" not in s.action_hints(first)
    s.apply(first)
    roll(s, 2, 2, 2)
    second = action(type="assault", unit="A2", target=(5, 4))
    assert s.action_hints(second)["flank"] is True and s.action_hints(second)["hit_on"] == 3
    s.apply(second)
    roll(s, 4)
    assert events(s, "die", roll="morale")[-1]["need"] == 4 - 1
    assert len(events(s, "fire")) == 1  # the artillery's fire was not rolled again


def test_8_4_no_flank_off_the_line_or_not_opposite():
    # 3,3 is at range 2 from 5,4 but on no straight hex line through it; 3,4 and 4,3 are on
    # straight lines through it, but not the same one
    for a1, a2 in (((3, 3), (6, 4)), ((3, 4), (4, 3))):
        sc = scenario([u("A1", "artillery", a1), u("A2", "regular", a2)],
                      [u("B1", "regular", (5, 4))])
        s = start(sc, options={"flank_attacks": True})
        act(s, type="fire", unit="A1", target=(5, 4))
        roll(s, 2, 2, 2)
        assert "flank" not in s.action_hints(action(type="assault", unit="A2", target=(5, 4)))


def test_8_4_flank_from_range_2_on_both_sides():
    sc = scenario([u("A1", "artillery", (3, 4)), u("A2", "artillery", (7, 4))],
                  [u("B1", "regular", (5, 4))])
    s = start(sc, options={"flank_attacks": True})
    act(s, type="fire", unit="A1", target=(5, 4))
    roll(s, 2, 2, 2)
    assert s.action_hints(action(type="fire", unit="A2", target=(5, 4)))["flank"] is True


# ============================================================================ 11.6 assignment

def _rated(first: int = 0, reinforcements=((), ())):
    """Knox 2/2 with A1, Greene 1/1 alone; Rahl 2/1 with B1, Howe 1/2."""
    return scenario([u("A1", "regular", (6, 5))], [u("B1", "regular", (6, 4))],
                    [ldr("knox", (6, 5), (2, 2)), ldr("greene", (2, 8), (1, 1))],
                    [ldr("rahl", (6, 4), (2, 1)), ldr("howe", (10, 0), (1, 2))],
                    first=first, reinforcements=reinforcements)


def _ratings(**by_leader: tuple[int, int]) -> Any:
    return action(type="assign_ratings", ratings={k: list(v) for k, v in by_leader.items()})


def test_11_6_each_side_assigns_its_ratings_before_turn_1_seat_0_first():
    """11.6: "players decide which of their leaders to assign the values to"; seat 0, then
    seat 1, whoever moves first; then the first side's action die."""
    s = game(_rated(first=1), {"leader_ratings": True}).new_initial_state()
    assert (s.phase, s.current_player(), s.turn) == ("assign", 0, 1)
    assert s.legal_actions() == [_ratings(knox=(2, 2), greene=(1, 1)),
                                 _ratings(knox=(1, 1), greene=(2, 2))]  # the scenario's first
    s.apply(_ratings(knox=(1, 1), greene=(2, 2)))
    assert (s.phase, s.current_player()) == ("assign", 1)
    assert s.leader("greene").rating == (2, 2)  # public at once (docs/rules-decisions.md)
    assert s.legal_actions()[0] == _ratings(rahl=(2, 1), howe=(1, 2))
    s.apply(s.legal_actions()[0])
    assert (s.phase, s.current_player(), s.active) == ("ap", CHANCE, 1)
    assert [e["ratings"] for e in events(s, "ratings")] == [
        {"greene": [2, 2], "knox": [1, 1]}, {"howe": [1, 2], "rahl": [2, 1]}]


def test_11_6_an_assignment_outside_the_scenarios_ratings_is_refused():
    s = game(_rated(), {"leader_ratings": True}).new_initial_state()
    for bad in (_ratings(knox=(2, 2), greene=(2, 2)), _ratings(knox=(2, 2)),
                _ratings(knox=(2, 2), greene=(1, 1), rahl=(1, 2))):
        with pytest.raises(IllegalActionError, match="not legal"):
            s.apply(bad)
    with pytest.raises(IllegalActionError, match="rating of 'knox'"):
        action(type="assign_ratings", ratings={"knox": [2]})
    assert s.phase == "assign" and s.leader("knox").rating == (2, 2)


def test_11_6_the_assigned_ratings_are_those_of_combat():
    """11.6: the combat value is the leader's dice in close combat; the hit value how many hits
    it takes."""
    s = game(_rated(), {"leader_ratings": True}).new_initial_state()
    s.apply(_ratings(knox=(1, 1), greene=(2, 2)))
    s.apply(_ratings(rahl=(1, 2), howe=(2, 1)))
    s.apply(Die(3))
    assault = action(type="assault", unit="A1", target=(6, 4), leader_dice=True)
    assert s.action_hints(assault)["dice"] == 3 + 1  # Knox now adds 1 die, not 2
    s.apply(assault)
    roll(s, 1, 1, 5, 5, 5)  # B1's morale holds; one 1 among the dice
    roll(s, 1)  # Rahl's check hits him: with hit value 2 he survives it
    assert s.leader("rahl").status == "board" and s.leader("rahl").hits == 1


def test_11_6_a_side_with_one_possible_assignment_is_not_asked_and_off_means_no_phase():
    sc = scenario([u("A1", "regular", (6, 5))], [u("B1", "regular", (6, 4))],
                  [ldr("knox", (6, 5), (2, 2)), ldr("greene", (2, 8), (2, 2))],
                  [ldr("rahl", (6, 4), (2, 1))])
    s = game(sc, {"leader_ratings": True}).new_initial_state()
    assert s.phase == "ap" and not events(s, "ratings")
    assert game(_rated()).new_initial_state().phase == "ap"


def test_11_6_leaders_still_to_arrive_are_assigned_too():
    rf = Reinforcement(turn=2, leaders=(ldr("lee", (3, 8), (1, 2)),), entry=((4, 8),))
    s = game(_rated(reinforcements=((rf,), ())), {"leader_ratings": True}).new_initial_state()
    assert len(s.legal_actions()) == 6  # three different ratings over three leaders
    s.apply(_ratings(knox=(1, 2), greene=(1, 1), lee=(2, 2)))
    assert s.leader("lee").rating == (2, 2) and s.leader("lee").status == "waiting"


def test_11_6_assignment_positions_and_actions_round_trip_as_json():
    s = game(_rated(), {"leader_ratings": True}).new_initial_state()
    a = s.legal_actions()[1]
    data = action_to_json(a)
    assert data == {"type": "assign_ratings", "ratings": {"greene": [2, 2], "knox": [1, 1]}}
    assert action_from_json({"type": "assign_ratings",
                             "ratings": {"knox": [1, 1], "greene": [2, 2]}}) == a
    back = state_from_json(json.loads(json.dumps(s.to_json())))
    assert (back.phase, back.current_player()) == ("assign", 0)
    assert back.legal_actions() == s.legal_actions()
    back.apply(a)
    s.apply(a)
    assert snapshot(back) == snapshot(s)
    off = dict(s.to_json(), options={})
    with pytest.raises(PositionError, match="leader_ratings"):
        state_from_json(off)


# ============================================================================ protocol

BAD = [
    {"type": "fire", "unit": "A1", "target": [9, 9]},
    {"type": "fire", "unit": "B1", "target": [3, 4]},
    {"type": "move", "unit": "A1", "path": [[5, 4]]},
    {"type": "move", "unit": "A1", "path": [[4, 4], [5, 4]]},
    {"type": "assault", "unit": "A1", "target": [6, 4]},
    {"type": "rally", "leader": "knox", "unit": "A1"},
    {"type": "advance", "yes": True},
    {"type": "retreat", "unit": "B1", "to": [5, 3]},
    {"type": "die", "value": 4},
    {"type": "move", "unit": "ZZ", "path": [[2, 4]]},
    {"type": "end", "extra": 1},
    {"type": "nonsense"},
    "end",
]


@pytest.mark.parametrize("bad", BAD)
def test_illegal_actions_raise_and_change_nothing(bad):
    sc = scenario([u("A1", "regular", (3, 4))], [u("B1", "regular", (6, 4))],
                  [ldr("knox", (3, 4))])
    s = start(sc)
    before = snapshot(s)
    legal_before = legal_json(s)
    with pytest.raises(IllegalActionError):
        s.apply(action_from_json(bad))
    assert snapshot(s) == before and legal_json(s) == legal_before


def test_illegal_die_values_and_decisions_at_chance_nodes():
    sc = scenario([u("A1", "regular", (3, 4))], [u("B1", "regular", (4, 4))])
    s = start(sc)
    act(s, type="fire", unit="A1", target=(4, 4))
    before = snapshot(s)
    for bad in (Die(0), Die(7), END):
        with pytest.raises(IllegalActionError):
            s.apply(bad)
    assert snapshot(s) == before
    s = game(sc).new_initial_state()
    with pytest.raises(IllegalActionError):
        s.apply(Die(4))  # the action die shows 1-3


def test_actions_json_round_trip():
    sc = scenario([u("A1", "dragoon", (3, 4)), u("A2", "regular", (3, 6))],
                  [u("B1", "regular", (6, 4))], [ldr("knox", (3, 6))])
    s = start(sc)
    g = s.game
    for a in s.legal_actions():
        assert g.action_from_json(json.loads(json.dumps(g.action_to_json(a))), s) == a
        assert g.action_to_text(a)
    assert action_to_json(Die(3)) == {"type": "die", "value": 3}


def test_registry_and_scenario_names():
    g = make_game("holdtheline", {"scenario": scenario(name="mine")})
    assert g.scenario.name == "mine"
    with pytest.raises(ValueError):
        make_game("holdtheline", {"scenario": scenario(), "bogus": 1})


def test_serialization_round_trip_mid_combat():
    sc = scenario([u("A1", "regular", (6, 5)), u("A2", "artillery", (6, 7))],
                  [u("B1", "regular", (6, 4)), u("B2", "artillery", (6, 4))],
                  b_leaders=[ldr("howe", (6, 4))], counters=(((0, 8),), ((1, 0),)),
                  objectives=((((6, 0), 1),), ()))
    s = start(sc)
    act(s, type="assault", unit="A1", target=(6, 4))
    roll(s, 6, 6, 2)
    data = s.to_json()
    t = state_from_json(json.loads(json.dumps(data)), s.game)
    assert t.to_json() == data
    assert t.legal_actions() == s.legal_actions() and t.current_player() == s.current_player()
    roll(s, 2, 2)
    roll(t, 2, 2)
    while s.current_player() == 1:
        a = s.legal_actions()[0]
        s.apply(a)
        t.apply(a)
    assert t.to_json() == s.to_json()
    # without a game: the position carries its scenario facts
    t2 = state_from_json(json.loads(json.dumps(s.to_json())))
    assert t2.legal_actions() == s.legal_actions()


@pytest.mark.parametrize("change,match", [
    (lambda d: d["units"][0].update(at=[99, 0]), "off the"),
    (lambda d: d["units"][0].update(kind="tank"), "kind"),
    (lambda d: d["units"][0].update(at=[6, 4]), "both sides"),
    (lambda d: d.update(phase="later"), "phase"),
    (lambda d: d["terrain"].append({"at": [1, 1], "terrain": "lava"}), "terrain"),
    (lambda d: d["units"][0].update(mp=9), "mp"),
    (lambda d: d.pop("units"), "units"),
])
def test_state_from_json_errors_name_the_field(change, match):
    sc = scenario([u("A1", "regular", (6, 5))], [u("B1", "regular", (6, 4))])
    data = json.loads(json.dumps(start(sc).to_json()))
    change(data)
    with pytest.raises(PositionError, match=match):
        state_from_json(data)


def test_events_explain_every_die():
    sc = scenario([u("A1", "regular", (6, 5))], [u("B1", "regular", (6, 4))],
                  b_leaders=[ldr("howe", (6, 4))])
    s = start(sc)
    n = len(events(s, "die"))
    act(s, type="assault", unit="A1", target=(6, 4))
    dice = [1, 1, 5, 6, 2]
    roll(s, *dice)
    got = events(s, "die")[n:]
    assert [e["value"] for e in got] == dice
    assert [e["roll"] for e in got] == ["morale", "attack", "attack", "attack", "leader"]
    assert all(e["text"] for e in s.events)
    obs = s.observation(1)
    assert obs["events"] == s.events and obs["to_move"] == s.current_player()


def test_illegal_decisions_at_a_retreat_change_nothing():
    s = _retreat_setup()
    before = snapshot(s)
    for bad in ({"type": "retreat", "unit": "B1", "to": [7, 4]},  # tier 2 while tier 1 is open
                {"type": "retreat", "unit": "A1", "to": [6, 3]},
                {"type": "end"}, {"type": "advance", "yes": True},
                {"type": "move", "unit": "B1", "path": [[6, 3]]}, {"type": "die", "value": 3}):
        with pytest.raises(IllegalActionError):
            s.apply(action_from_json(bad))
    assert snapshot(s) == before


def test_leaders_do_not_block_and_friendly_units_are_passed_where_stacking_allows():
    """7.2, 7.2.1: a unit passes a friendly leader's hex and an artillery-only hex."""
    sc = scenario([u("A1", "dragoon", (3, 4)), u("A2", "artillery", (4, 4))],
                  [u("B1", "regular", (12, 0))], [ldr("knox", (5, 4))])
    s = start(sc)
    assert any(a.path == ((4, 4), (5, 4), (6, 4)) for a in s.legal_actions()
               if getattr(a, "unit", None) == "A1")


def test_lines_of_sight_along_the_board_edge():
    """A line along a hex side at the edge passes an off-board hex: it never blocks."""
    from warboard.holdtheline.hexes import distance

    s = start(scenario([u("A1", "artillery", (0, 1))], [u("B1", "regular", (0, 3))],
                       terrain={(0, 2): "forest"}))
    for c in range(13):
        for r in range(9):
            for b in [(x, y) for y in range(9) for x in range(13)
                      if 1 <= distance((c, r), (x, y)) <= 3]:
                assert s.los((c, r), b) == s.los(b, (c, r))
