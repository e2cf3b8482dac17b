"""Rules tests specific to Ogre: Objective 218 (ruleset ``ogre218``): push supply, Ogres,
damaged Ogres, Cruise Missiles, the handicap option and the Ogre unit count.

Every test cites the section of the rules contract (../shared/rules/hill218.md) or the Ogre
rulebook point it checks.
"""

from __future__ import annotations

import pytest

from positions import (
    BASE,
    BOTH,
    ROLES,
    board_map,
    cells_for,
    deploy,
    hits_for,
    legal_keys,
    position,
    strike,
    u,
)
from warboard.core.errors import IllegalActionError, PositionError
from warboard.core.protocol import CHANCE
from warboard.hill218 import CardGame, Deploy, Draw, FirstPlayer
from warboard.hill218.grid import unpack
from warboard.hill218.interchange import apply
from warboard.hill218.serialize import position_from_json

OGRE = "ogre218"


def supplied(pos: dict, seat: int) -> set[tuple[int, int]]:
    return {unpack(c) for c in position_from_json(pos).supplied(seat)}


def nxt(pos: dict, play: dict) -> dict:
    return apply({"position": pos, "play": play})


def ogre_pos(board, hands, **kw) -> dict:
    return position(OGRE, board=board, hands=hands, **kw)


# ============================================================================ §4 push supply

@pytest.mark.parametrize("ruleset", BOTH)
def test_s4_push_vs_pull_diagonal_supplier(ruleset):
    """§4 supply: ogre218 pushes with the SUPPLYING unit's diagram, so a GEV on the board lets
    an Infantry deploy diagonally from it; in hill218 (pull, the deploying unit's diagram) the
    same Infantry deployment is illegal — and the Special Forces there is even unsupplied."""
    r = ROLES[ruleset]
    pos = position(ruleset, board=[u(0, -1, 0, "infantry"), u(1, -1, 0, r["sf"]),
                                   u(0, 1, 1, "infantry")],
                   hands=[{"infantry": 1, r["sf"]: 1}, {}])
    ks = legal_keys(pos)
    if ruleset == OGRE:
        assert supplied(pos, 0) == {(0, -1), (1, -1)}
        expected = {(-1, -1), (0, -2), (2, 0), (2, -2)}
        assert cells_for(ks, "infantry") == expected
        assert cells_for(ks, "gev") == expected  # push: the deploying unit does not matter
    else:
        assert supplied(pos, 0) == {(0, -1)}
        assert cells_for(ks, "infantry") == {(-1, -1), (0, -2)}
        assert cells_for(ks, "special_forces") == {(1, 0), (1, -2), (-1, 0), (-1, -2)}
        with pytest.raises(IllegalActionError):
            nxt(pos, deploy("infantry", (2, -2)))
    if ruleset == OGRE:
        after = nxt(pos, deploy("infantry", (2, -2)))
        assert board_map(after)[(2, -2)] == (0, "infantry")


def test_s4_push_gev_cannot_go_diagonal_from_infantry():
    """§4 push: the supplying Infantry projects orthogonally, so even a GEV (diagonal supply
    diagram) may only go orthogonally from it."""
    pos = ogre_pos([u(0, -1, 0, "infantry"), u(1, -1, 0, "infantry"), u(0, 1, 1, "infantry")],
                   [{"gev": 1}, {}])
    assert cells_for(legal_keys(pos), "gev") == {(-1, -1), (0, -2), (2, -1), (1, -2), (1, 0)}


@pytest.mark.parametrize(("ruleset", "expected"), [
    ("ogre218", {(0, -1), (1, -1), (2, -2), (2, -1)}),
    ("hill218", {(0, -1), (-1, -2)}),
])
def test_s4_supply_fixpoint_push_and_pull(ruleset, expected):
    """§4: supplied units are the fixpoint from the own base; ogre218: a unit is supplied if it
    stands in the supply diagram of a supplied friend; hill218: if a supplied friend stands in
    its own diagram. The same board gives different supplied sets."""
    r = ROLES[ruleset]
    pos = position(ruleset, board=[u(0, -1, 0, "infantry"), u(1, -1, 0, r["sf"]),
                                   u(2, -2, 0, "infantry"), u(2, -1, 0, "infantry"),
                                   u(1, 0, 0, "infantry"), u(-1, -2, 0, r["sf"]),
                                   u(0, 1, 1, "infantry")],
                   hands=[{"infantry": 1}, {}])
    assert supplied(pos, 0) == expected


def test_s4_supply_needs_own_base_held():
    """§4: the unit on its own base is the root of supply: with the base empty nothing is
    supplied and only the base (or a drop) is open."""
    pos = ogre_pos([u(1, -1, 0, "ogre"), u(0, 1, 1, "infantry")],
                   [{"infantry": 1, "light_gev": 1}, {}], strikes=(0, 0))
    assert supplied(pos, 0) == set()
    ks = legal_keys(pos)
    assert cells_for(ks, "infantry") == {BASE[0]}


# ============================================================================ §4 Ogres

OGRE_BOARD = [u(0, -1, 0, "infantry"), u(0, 1, 1, "infantry")]


def test_s4_ogre_needs_both_plays_of_the_turn():
    """§4: an Ogre is legal only as the first play of a turn that has 2 plays, and it ends the
    turn."""
    two = ogre_pos(OGRE_BOARD, [{"ogre": 1, "infantry": 1}, {"infantry": 1}], strikes=(0, 0))
    ks = legal_keys(two)
    assert cells_for(ks, "ogre") == {(-1, -1), (1, -1), (0, -2)}
    after = nxt(two, deploy("ogre", (1, -1)))
    assert (after["to_move"], after["plays_left"]) == (1, 2)
    assert after["hands"][0] == {"infantry": 1}
    one = ogre_pos(OGRE_BOARD, [{"ogre": 1, "infantry": 1}, {"infantry": 1}], plays_left=1,
                   strikes=(0, 0))
    assert cells_for(legal_keys(one), "ogre") == set()
    with pytest.raises(IllegalActionError):
        nxt(one, deploy("ogre", (1, -1)))


def test_s4_ogre_is_never_the_second_play():
    """§4: after a first play the Ogre is no longer legal this turn."""
    pos = ogre_pos(OGRE_BOARD, [{"ogre": 1, "infantry": 2}, {"infantry": 1}], strikes=(0, 0))
    mid = nxt(pos, deploy("infantry", (1, -1)))
    assert (mid["to_move"], mid["plays_left"]) == (0, 1)
    assert cells_for(legal_keys(mid), "ogre") == set()
    with pytest.raises(IllegalActionError):
        nxt(mid, deploy("ogre", (-1, -1)))


def test_s4_ogre_in_hand_only_forfeits_the_rest_of_the_turn():
    """§4/§5: with only an Ogre left after the first play, the rest of the turn is forfeited;
    the game is not over (the Ogre is a legal first play of a 2-play turn), and the seat plays
    it next turn (the other seat, with nothing to play, forfeits)."""
    pos = ogre_pos(OGRE_BOARD, [{"ogre": 1, "infantry": 1}, {}], strikes=(0, 0))
    after = nxt(pos, deploy("infantry", (1, -1)))
    assert (after["to_move"], after["plays_left"]) == (0, 2)
    assert cells_for(legal_keys(after), "ogre") == {(-1, -1), (0, -2), (2, -1), (1, -2),
                                                    (1, 0)}


def test_s4_first_players_first_turn_cannot_deploy_an_ogre():
    """§4: the first player's very first turn has 1 play, so an Ogre in hand is not legal."""
    state = CardGame(OGRE, {"quick_start": True}).new_initial_state()
    state.apply(FirstPlayer(0))
    for unit in ("ogre", "ogre", "infantry", "infantry", "infantry", "infantry", "infantry"):
        assert state.current_player() == CHANCE
        state.apply(Draw(unit))
    assert state.observation(0)["hand"] == {"ogre": 2, "infantry": 2}
    assert state.observation(0)["plays_left"] == 1
    assert {a.unit for a in state.legal_actions()} == {"infantry"}
    with pytest.raises(IllegalActionError):
        state.apply(Deploy("ogre", BASE[0]))


ATTACK_BOARD = [u(0, -1, 0, "infantry"), u(0, 1, 1, "infantry"), u(1, 0, 1, "ogre"),
                u(2, 0, 1, "infantry")]


def test_s4_ogre_makes_two_ordered_attacks_and_may_hit_the_same_square_twice():
    """§4/§7: an Ogre makes 2 attacks, one after the other; both may hit the same square (an
    Ogre takes 2 hits); [a, b] and [b, a] are two plays; a destroyed unit cannot be hit again."""
    pos = ogre_pos(ATTACK_BOARD, [{"ogre": 1}, {"infantry": 1}])
    assert hits_for(legal_keys(pos), "ogre", (1, -1)) == {
        ((1, 0), (1, 0)), ((1, 0), (2, 0)), ((2, 0), (1, 0))}


def test_s4_hit_ogre_becomes_damaged_in_place_second_hit_destroys():
    """§4: a hit on an Ogre turns it into a damaged_ogre (same cell, same owner); a second hit
    destroys it, and both its cards count as destroyed (§7)."""
    pos = ogre_pos(ATTACK_BOARD, [{"ogre": 1}, {"infantry": 1}])
    once = nxt(pos, deploy("ogre", (1, -1), (1, 0), (2, 0)))
    assert board_map(once)[(1, 0)] == (1, "damaged_ogre")
    assert (2, 0) not in board_map(once)
    assert once["destroyed"] == [{}, {"infantry": 1}]
    assert nxt(pos, deploy("ogre", (1, -1), (2, 0), (1, 0)))["board"] == once["board"]
    twice = nxt(pos, deploy("ogre", (1, -1), (1, 0), (1, 0)))
    assert (1, 0) not in board_map(twice)
    assert board_map(twice)[(2, 0)] == (1, "infantry")
    assert twice["destroyed"] == [{}, {"ogre": 1, "damaged_ogre": 1}]


def test_s4_each_ogre_attack_is_mandatory_while_a_target_exists():
    """§4: each of the 2 attacks is mandatory if a destroyable target exists at that moment."""
    pos = ogre_pos(ATTACK_BOARD, [{"ogre": 1}, {"infantry": 1}])
    for bad in ([], [(1, 0)], [(2, 0)], [(2, 0), (2, 0)], [(1, 0), (1, 0), (2, 0)]):
        with pytest.raises(IllegalActionError):
            nxt(pos, deploy("ogre", (1, -1), *bad))


def test_s4_second_attack_lapses_when_no_target_is_left():
    """§4: one infantry in reach: the first attack destroys it and the second has no target."""
    pos = ogre_pos([u(0, -1, 0, "infantry"), u(0, 1, 1, "infantry"), u(2, 0, 1, "infantry")],
                   [{"ogre": 1}, {"infantry": 1}])
    assert hits_for(legal_keys(pos), "ogre", (1, -1)) == {((2, 0),)}
    with pytest.raises(IllegalActionError):
        nxt(pos, deploy("ogre", (1, -1), (2, 0), (2, 0)))


def test_s4_damaged_ogre_target_takes_only_one_hit():
    """§4: a damaged_ogre is destroyed by one hit, so it cannot take the Ogre's second attack."""
    board = [u(0, -1, 0, "infantry"), u(0, 1, 1, "infantry"), u(1, 0, 1, "damaged_ogre"),
             u(2, 0, 1, "infantry")]
    pos = ogre_pos(board, [{"ogre": 1}, {"infantry": 1}])
    assert hits_for(legal_keys(pos), "ogre", (1, -1)) == {((1, 0), (2, 0)), ((2, 0), (1, 0))}
    after = nxt(pos, deploy("ogre", (1, -1), (1, 0), (2, 0)))
    assert after["destroyed"][1] == {"ogre": 1, "damaged_ogre": 1, "infantry": 1}


def test_s4_damaged_ogre_changes_supply_diagram_at_once():
    """§4: the hit Ogre's diagrams change at once: an Ogre on the command post projects supply
    on all 8 squares, a damaged one only orthogonally."""
    pos = ogre_pos([u(0, -1, 0, "ogre"), u(0, 1, 1, "infantry")],
                   [{"infantry": 2}, {}], to_move=1, plays_left=1, strikes=(2, 1))
    whole = ogre_pos([u(0, -1, 0, "ogre"), u(0, 1, 1, "infantry")], [{"infantry": 2}, {}])
    assert cells_for(legal_keys(whole), "infantry") == {
        (-1, 0), (1, 0), (-1, -1), (1, -1), (-1, -2), (0, -2), (1, -2)}
    after = nxt(pos, strike(BASE[0]))
    assert board_map(after)[BASE[0]] == (0, "damaged_ogre")
    assert after["strikes"] == [2, 0]
    assert (after["to_move"], after["plays_left"]) == (0, 2)
    assert cells_for(legal_keys(after), "infantry") == {(-1, -1), (1, -1), (0, -2)}


@pytest.mark.parametrize(("unit", "hit"), [("ogre", True), ("damaged_ogre", False)])
def test_s4_damaged_ogre_changes_target_diagram(unit, hit):
    """§2/§4: an Ogre targets (supports) all 8 squares, a damaged Ogre only orthogonal ones."""
    pos = ogre_pos([u(0, -1, 0, "infantry"), u(1, -1, 0, unit), u(0, 1, 1, "infantry"),
                    u(2, 0, 1, "infantry")],
                   [{"infantry": 1}, {"infantry": 1}])
    assert hits_for(legal_keys(pos), "infantry", (2, -1)) == ({((2, 0),)} if hit else {()})


def test_s4_cruise_missile_damages_then_destroys_an_ogre():
    """§4: a Cruise Missile hits like an attack: an Ogre becomes damaged, a damaged Ogre is
    destroyed (both cards then count as destroyed)."""
    pos = ogre_pos([u(0, -1, 0, "infantry"), u(0, 1, 1, "infantry"), u(3, 3, 1, "ogre")],
                   [{"infantry": 1}, {"infantry": 1}], strikes=(2, 0))
    once = nxt(pos, strike((3, 3)))
    assert board_map(once)[(3, 3)] == (1, "damaged_ogre")
    assert (once["to_move"], once["plays_left"], once["strikes"]) == (0, 1, [1, 0])
    twice = nxt(once, strike((3, 3)))
    assert (3, 3) not in board_map(twice)
    assert twice["destroyed"][1] == {"ogre": 1, "damaged_ogre": 1}
    assert twice["strikes"] == [0, 0]


# ---------------------------------------------------------------------------- handicap

def test_s3_damaged_ogres_option_puts_damaged_ogres_in_the_deck():
    """§3.3: `damaged_ogres = [n0, n1]` starts that many of a seat's Ogres as damaged_ogre
    cards in its deck."""
    state = CardGame(OGRE, {"quick_start": True, "damaged_ogres": [1, 0]}).new_initial_state()
    assert state.observation(0)["deck"]["ogre"] == 1
    assert state.observation(0)["deck"]["damaged_ogre"] == 1
    assert state.observation(1)["deck"]["ogre"] == 2
    assert "damaged_ogre" not in state.observation(1)["deck"]
    state.apply(FirstPlayer(0))
    outcomes = dict(state.chance_outcomes())
    assert outcomes[Draw("damaged_ogre")] == pytest.approx(1 / 26)
    assert outcomes[Draw("ogre")] == pytest.approx(1 / 26)
    for _ in range(3):
        state.apply(Draw("infantry"))
    outcomes = dict(state.chance_outcomes())  # seat 1's deal
    assert Draw("damaged_ogre") not in outcomes
    assert outcomes[Draw("ogre")] == pytest.approx(2 / 26)
    both = CardGame(OGRE, {"damaged_ogres": [2, 2]}).new_initial_state()
    for seat in (0, 1):
        deck = both.observation(seat)["deck"]
        assert deck.get("ogre", 0) == 0 and deck["damaged_ogre"] == 2


@pytest.mark.parametrize(("name", "options"), [
    ("ogre218", {"damaged_ogres": [3, 0]}),
    ("ogre218", {"damaged_ogres": [1]}),
    ("ogre218", {"damaged_ogres": [-1, 0]}),
    ("ogre218", {"damaged_ogres": [True, 0]}),
    ("hill218", {"damaged_ogres": [1, 0]}),
    ("ogre218", {"quick_start": "yes"}),
    ("ogre218", {"quickstart": True}),
])
def test_s3_bad_options_are_rejected(name, options):
    """§3: damaged_ogres is 0–2 per seat and only for ogre218; unknown options are errors."""
    with pytest.raises(ValueError, match=r"option"):
        CardGame(name, options)


def test_s4_handicap_damaged_ogre_from_hand_uses_two_plays_and_attacks_twice():
    """§4: a damaged_ogre deployed from the hand (handicap) uses both plays and makes 2
    attacks, with its own (orthogonal, individual) attack diagram."""
    board = [u(0, -1, 0, "infantry"), u(0, 1, 1, "infantry"), u(1, 0, 1, "infantry"),
             u(2, -1, 1, "infantry"), u(2, 0, 1, "heavy_tank")]
    pos = ogre_pos(board, [{"damaged_ogre": 1}, {"infantry": 1}])
    assert hits_for(legal_keys(pos), "damaged_ogre", (1, -1)) == {
        ((1, 0), (2, -1)), ((2, -1), (1, 0))}
    after = nxt(pos, deploy("damaged_ogre", (1, -1), (2, -1), (1, 0)))
    assert (after["to_move"], after["plays_left"]) == (1, 2)
    assert after["destroyed"][1] == {"infantry": 2}
    one = ogre_pos(board, [{"damaged_ogre": 1, "infantry": 1}, {"infantry": 1}], plays_left=1)
    assert cells_for(legal_keys(one), "damaged_ogre") == set()


def test_s7_position_with_only_an_ogre_and_one_play_is_not_a_decision_point():
    """§4/§7: with one play left and only an Ogre (or handicap damaged Ogre) in hand and no
    Cruise Missile, the seat has no legal play: not a decision point."""
    for unit in ("ogre", "damaged_ogre"):
        pos = ogre_pos(OGRE_BOARD, [{unit: 1}, {}], plays_left=1, strikes=(0, 0))
        with pytest.raises(PositionError):
            position_from_json(pos)
        with pytest.raises(PositionError):
            nxt(pos, deploy(unit, (1, -1)))


# ============================================================================ §5 counting

@pytest.mark.parametrize(("seat1", "units", "winner"), [
    ([("ogre", 0, 1)], [2, 2], None),
    ([("damaged_ogre", 0, 1)], [2, 1], 0),
    ([("ogre", 0, 1), ("damaged_ogre", 3, 3)], [2, 3], 1),
    ([("infantry", 0, 1), ("damaged_ogre", 3, 3)], [2, 2], None),
])
def test_s5_ogre_counts_two_damaged_ogre_one(seat1, units, winner):
    """§5: at the end by count an Ogre counts 2 units and a damaged Ogre 1."""
    board = [u(0, -1, 0, "infantry")] + [u(x, y, 1, n) for n, x, y in seat1]
    pos = ogre_pos(board, [{"infantry": 1}, {}], plays_left=1, strikes=(0, 0))
    assert nxt(pos, deploy("infantry", (-1, -1))) == {
        "result": {"winner": winner, "reason": "count", "units": units}}


def test_s5_ogre_in_hand_keeps_the_game_going():
    """§5: "a seat has a legal play" means as the first play of a 2-play turn: an Ogre in the
    other seat's hand keeps the game going after the decks run out."""
    pos = ogre_pos(OGRE_BOARD, [{"infantry": 1}, {"ogre": 1}], plays_left=1, strikes=(0, 0))
    after = nxt(pos, deploy("infantry", (-1, -1)))
    assert (after["to_move"], after["plays_left"]) == (1, 2)
    assert cells_for(legal_keys(after), "ogre") == {(-1, 1), (1, 1), (0, 2)}
    end = nxt(after, deploy("ogre", (0, 2)))
    assert end == {"result": {"winner": 1, "reason": "count", "units": [2, 3]}}


def test_s5_ogre_taking_the_command_post_wins_with_no_attack():
    """§4/§5: an Ogre deployed on the enemy command post wins at once without attacking; the
    final count has it as 2."""
    board = [u(0, -1, 0, "infantry"), u(1, -1, 0, "infantry"), u(1, 0, 0, "infantry"),
             u(1, 1, 0, "infantry"), u(-1, 1, 1, "infantry")]
    pos = ogre_pos(board, [{"ogre": 1}, {}], strikes=(0, 0))
    assert hits_for(legal_keys(pos), "ogre", BASE[1]) == {()}
    assert nxt(pos, deploy("ogre", BASE[1])) == {
        "result": {"winner": 0, "reason": "base", "units": [6, 1]}}
