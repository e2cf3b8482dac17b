"""Hold the Line rules in their corner cases: leaders alone and in stacks, dragoons evading,
elite and failed force marches, retreats and escapes, fatigue; positions that survive JSON round
trips; states for the search.

Each test names the rule it checks in the rulebook (../shared/rulebooks/hold-the-line.txt, from
the repository root) or the contract (../shared/rules/holdtheline.md, "§"); the section "found
by the review" holds the cases that an independent reading of both against the engine found,
which failed before the engine was fixed. Referee decisions are in docs/rules-decisions.md
("Hold the Line").
"""

from __future__ import annotations

import json

from htl_positions import (
    act,
    action,
    destinations,
    events,
    game,
    ldr,
    of_type,
    roll,
    scenario,
    start,
    u,
)
from warboard.core.protocol import CHANCE
from warboard.holdtheline.game import make_game
from warboard.holdtheline.serialize import state_from_json

# ============================================================================ found by the review


def _evade_into_a_blocked_displacement():
    # The British dragoon B1 (with Rahl) at 6,4 is attacked from 6,5. Its only retreat hex is
    # 5,3, held by B2, which has nowhere to go (swamps all round): the dragoon is eliminated.
    swamps = {h: "swamp" for h in [(5, 4), (6, 3), (4, 3), (5, 2), (6, 2)]}
    sc = scenario([u("A1", "regular", (6, 5))],
                  [u("B1", "dragoon", (6, 4)), u("B2", "regular", (5, 3))],
                  b_leaders=[ldr("rahl", (6, 4))], terrain=swamps)
    s = start(sc, options={"dragoon_evade": True})
    act(s, type="assault", unit="A1", target=(6, 4))
    act(s, type="evade", yes=True)
    return s


def test_11_11_evading_dragoon_eliminated_in_retreat_its_leader_escapes():
    """Found by the review. 11.11 + 8.5.3 + 8.5.5: the evading dragoon is eliminated for want of
    a displacement; its leader, left without a unit, escapes (or is lost) before the attacker may
    advance; it is never left alone in the hex for the attacker to walk over."""
    s = _evade_into_a_blocked_displacement()
    assert s.unit("B1").status == "eliminated"
    rahl = s.leader("rahl")
    assert s.current_player() == 1  # the British choose Rahl's escape hex
    dests = {a.to for a in of_type(s, "escape")}
    assert dests and (6, 4) not in dests
    act(s, type="escape", leader="rahl", to=sorted(dests)[0])
    assert rahl.at != (6, 4) and rahl.status == "board"
    assert s.current_player() == 0 and of_type(s, "advance")


def test_11_8_elite_force_march_roll_gets_the_elite_plus_one():
    """Found by the review. 11.8 calls the force-march roll a morale roll and 3.4.2 gives elite
    infantry +1 on all morale checks: a 2 MP elite force marches on a 3."""
    sc = scenario([u("A1", "elite", (6, 6), 2)], [u("B1", "regular", (6, 0))])
    s = start(sc, options={"force_march": True})
    act(s, type="move", unit="A1", path=[(6, 5), (6, 4)], force_march=True)
    roll(s, 3)
    die = events(s, "die", roll="force_march")[-1]
    assert die["need"] == 3 and die["passed"]
    assert s.unit("A1").at == (6, 4)
    s = start(sc, options={"force_march": True})
    act(s, type="move", unit="A1", path=[(6, 5), (6, 4)], force_march=True)
    roll(s, 4)
    assert s.unit("A1").at == (6, 5)
    # a regular gets no such bonus
    sc = scenario([u("A1", "regular", (6, 6), 2)], [u("B1", "regular", (6, 0))])
    s = start(sc, options={"force_march": True})
    act(s, type="move", unit="A1", path=[(6, 5), (6, 4)], force_march=True)
    roll(s, 3)
    assert s.unit("A1").at == (6, 5)


def test_11_8_force_march_offers_every_hex_to_stop_in_if_the_roll_fails():
    """Found by the review. 7.1: movement is hex by hex, the player's route. A force march that
    fails stops one hex short, so routes through different hexes are different choices."""
    sc = scenario([u("A1", "regular", (6, 6))], [u("B1", "regular", (6, 0))])
    s = start(sc, options={"force_march": True})
    paths = {a.path for a in s.legal_actions()
             if getattr(a, "force_march", False) and a.path[-1] == (6, 4)}
    assert paths == {((6, 5), (6, 4)), ((5, 5), (6, 4))}
    # a plain move lists one path per outcome as before
    assert len([a for a in s.legal_actions() if getattr(a, "path", None)
                and not a.force_march and a.path[-1] == (6, 5)]) == 1


def test_9_4_fatigue_is_not_a_combat_loss_and_is_not_rallied():
    """Found by the review. 9.4: leaders rally units that "have suffered a reduction in MP due
    to combat"; MP lost to force-march fatigue (11.9) are not rallied back."""
    sc = scenario([u("A1", "regular", (6, 6))], [u("B1", "regular", (6, 0))],
                  [ldr("knox", (6, 4))])
    s = start(sc, options={"force_march": True, "march_fatigue": True})
    act(s, type="move", unit="A1", path=[(6, 5), (6, 4)], force_march=True)
    roll(s, 1, 6)  # marches, tires: 3 MP
    assert s.unit("A1").mp == 3
    act(s, type="end")
    roll(s, 1)
    act(s, type="end")
    roll(s, 3)  # the Americans' turn 2: Knox and A1 start together
    assert not of_type(s, "rally")
    # a combat loss on top of the fatigue may be rallied, but only back to 3 MP
    s.unit("A1").mp = 2
    s.forget_legal_actions()
    assert of_type(s, "rally")
    act(s, type="rally", leader="knox", unit="A1")
    assert s.unit("A1").mp == 3
    data = json.loads(json.dumps(s.to_json()))
    assert data["units"][0]["worn"] == 1
    assert state_from_json(data, s.game).unit("A1").worn == 1


# ============================================================================ reported bugs


def test_places_survive_a_round_trip():
    g = make_game("holdtheline", {"scenario": "trenton"})
    data = g.new_initial_state().to_json()
    assert data["places"]
    assert state_from_json(data).to_json()["places"] == data["places"]
    assert state_from_json(data).scenario.places == g.scenario.places


def test_eliminated_leader_keeps_start_at_on_a_round_trip():
    sc = scenario([u("A1", "artillery", (3, 4))], [u("B1", "militia", (4, 4), 1)],
                  b_leaders=[ldr("rahl", (4, 4))])
    s = start(sc)
    act(s, type="fire", unit="A1", target=(4, 4))
    roll(s, 1, 1, 6, 1)  # one hit eliminates B1; a 1 on Rahl's check
    assert s.leader("rahl").status == "eliminated"
    assert s.leader("rahl").start_at == (4, 4)
    data = json.loads(json.dumps(s.to_json()))
    for g in (s.game, None):
        t = state_from_json(data, g)
        assert t.leader("rahl").start_at == (4, 4)
        assert t.to_json() == s.to_json()
    # a leader that is eliminated with no start hex (later turns) stays so
    act(s, type="end")
    data = json.loads(json.dumps(s.to_json()))
    assert state_from_json(data).to_json() == s.to_json()


def test_seats_are_described_by_the_sides_labels():
    g = make_game("holdtheline", {"scenario": "trenton"})
    assert g.describe_seats() == tuple(s.display_name for s in g.scenario.sides)
    assert "Hessians" in g.describe_seats()


# ============================================================================ confirmed rules


def test_7_2_a_unit_with_its_leader_passes_but_never_ends_on_another_leader():
    """4.3, 9.1: leaders never share a hex at the end of a move; leaders (friendly or enemy) do
    not block movement (7.2.1). Referee decision: passing a friendly leader's hex is free."""
    sc = scenario([u("A1", "light", (3, 4))], [u("B1", "regular", (12, 0))],
                  [ldr("knox", (3, 4)), ldr("greene", (4, 4))])
    s = start(sc)
    ends = destinations(s, "A1", "knox")
    assert (4, 4) not in ends and (5, 4) in ends
    assert (4, 4) in destinations(s, "A1")  # without Knox it may stop there


def test_8_5_1_retreat_never_farther_from_the_home_edge():
    """§3 tiers: no hex farther from the home edge, even when it is the only free one."""
    swamps = {h: "swamp" for h in [(5, 4), (6, 3), (5, 3), (7, 4)]}
    sc = scenario([u("A1", "regular", (6, 5))], [u("B1", "regular", (6, 4))], terrain=swamps)
    s = start(sc)
    act(s, type="assault", unit="A1", target=(6, 4))
    roll(s, 6, 2, 2, 2)  # morale fails, no hits; only 5,5 (farther from the north) is free
    assert s.unit("B1").status == "eliminated"
    assert events(s, "eliminated", unit="B1")


def test_8_5_5_escape_up_to_three_hexes_with_terrain_stops():
    """8.5.5: up to 3 hexes by the leader's movement (9.1: terrain penalties apply)."""
    woods = [(5, 4), (3, 3), (4, 3), (3, 5), (4, 5)]  # every free neighbour of 4,4
    for terrain, expect in (({h: "forest" for h in woods}, set(woods)), ({}, None)):
        sc = scenario([u("A1", "artillery", (3, 4))], [u("B1", "militia", (4, 4), 1)],
                      b_leaders=[ldr("rahl", (4, 4))], terrain=terrain)
        s = start(sc)
        act(s, type="fire", unit="A1", target=(4, 4))
        roll(s, 6, 2, 2)
        dests = {a.to for a in of_type(s, "escape")}
        if expect is not None:
            assert dests == expect  # the forest ends the escape
        else:
            assert (4, 1) in dests and (4, 0) not in dests and (4, 4) not in dests


def test_11_6_attacking_leader_checks_once_per_1_in_close_combat():
    """11.6: with leader dice, every 1 rolled makes the attacking leader check too."""
    sc = scenario([u("A1", "regular", (6, 5))], [u("B1", "regular", (6, 4))],
                  [ldr("washington", (6, 5), (2, 2))], [ldr("rahl", (6, 4), (2, 1))])
    s = start(sc, options={"leader_ratings": True})
    act(s, type="assault", unit="A1", target=(6, 4), leader_dice=True)
    roll(s, 3)  # B1 morale holds
    roll(s, 1, 1, 5, 5, 5)  # five dice: two 1s
    checks = []
    while s.current_player() == CHANCE:
        checks.append(s.pending.checks[0])
        roll(s, 2)
    assert checks == ["rahl", "rahl", "washington", "washington"]


def test_positions_of_every_scenario_name_their_labels():
    for name in ("trenton", "princeton"):
        g = make_game("holdtheline", {"scenario": name})
        data = g.new_initial_state().to_json()
        assert data["labels"] == list(g.describe_seats())


def test_fatigue_option_off_keeps_the_unit_json_unchanged():
    s = start(scenario([u("A1", "regular", (6, 6))], [u("B1", "regular", (6, 0))]))
    assert "worn" not in s.to_json()["units"][0]
    assert game(s.scenario).new_initial_state().to_json()["units"][0]["id"] == "A1"
    assert action(type="end") in s.legal_actions()


# ============================================================================ search support


def test_states_for_search_skip_the_log_but_play_the_same():
    """game.sample_state gives states that do not record events (record_events False); they
    play exactly like recording states; the last event is a new object after every step."""
    import random

    g = make_game("holdtheline", {"scenario": "trenton"})
    full = g.new_initial_state()
    rng = random.Random(3)
    for _ in range(40):
        a = (full.sample_chance_outcome(rng) if full.current_player() == CHANCE
             else rng.choice(full.legal_actions()))
        full.apply(a)
    view = json.loads(json.dumps(full.observation(0)))
    quick = g.sample_state(view, rng)
    assert quick.record_events is False and quick.events == []
    assert quick.n_events == len(full.events)
    last = None
    for _ in range(300):
        if full.is_terminal():
            break
        assert quick.legal_actions() == full.legal_actions()
        a = (full.sample_chance_outcome(rng) if full.current_player() == CHANCE
             else rng.choice(full.legal_actions()))
        before = quick.n_events
        full.apply(a)
        quick.apply(a)
        quick = quick.clone()
        a_json, b_json = full.to_json(), quick.to_json()
        a_json.pop("events")
        b_json.pop("events")
        assert a_json == b_json
        assert quick.n_events == full.n_events == len(full.events)
        if quick.n_events > before:
            assert len(quick.events) == 1 and quick.events[-1] is not last
            assert quick.events[-1]["n"] == full.events[-1]["n"]
            assert quick.events[-1]["type"] == full.events[-1]["type"]
            last = quick.events[-1]
    assert g.sample_state(view, rng) is not g.sample_state(view, rng)  # fresh clones


def test_state_from_json_without_the_log_numbers_new_events_after_it():
    s = start(scenario([u("A1", "regular", (3, 4))], [u("B1", "regular", (4, 4))]))
    act(s, type="fire", unit="A1", target=(4, 4))
    data = json.loads(json.dumps(s.to_json()))
    t = state_from_json(data, s.game, events=False)
    assert t.events == [] and t.record_events
    roll(t, 6)
    roll(s, 6)
    assert t.events == s.events[len(data["events"]):]
