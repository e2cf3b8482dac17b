"""Rules tests for The Battle for Hill 218, plus the contract points shared by both rulesets.

Every test cites the rulebook figure or the section of the rules contract
(../shared/rules/hill218.md) it checks. Tests parametrised over ``ruleset`` run the same
situation in hill218 and ogre218 (units mapped role for role, contract §2).
"""

from __future__ import annotations

from collections import Counter

import pytest

from positions import (
    BASE,
    BOTH,
    CONTRACT,
    HILL,
    ROLES,
    board_map,
    cells_for,
    deploy,
    hits_for,
    legal_keys,
    position,
    strike,
    strike_targets,
    u,
)
from warboard.core.errors import IllegalActionError
from warboard.core.protocol import CHANCE
from warboard.hill218 import Bury, CardGame, Draw, FirstPlayer
from warboard.hill218.grid import unpack
from warboard.hill218.interchange import apply
from warboard.hill218.serialize import position_from_json


def supplied(pos: dict, seat: int) -> set[tuple[int, int]]:
    return {unpack(c) for c in position_from_json(pos).supplied(seat)}


def drop_zone(pos: dict) -> set[tuple[int, int]]:
    """Contract §4: bounding box of the hill and every unit, grown by 2 on every side."""
    cells = [(0, 0)] + [(e["x"], e["y"]) for e in pos["board"]]
    xs, ys = [c[0] for c in cells], [c[1] for c in cells]
    return {(x, y) for x in range(min(xs) - 2, max(xs) + 3)
            for y in range(min(ys) - 2, max(ys) + 3)}


def nxt(pos: dict, play: dict) -> dict:
    return apply({"position": pos, "play": play})


# ============================================================================ rulebook figures

def test_fig2_infantry_deploys_only_to_spaces_supplied_orthogonally_from_the_base():
    """Fig. 2: with an Infantry on the base, spaces 1-3 (the base's orthogonal neighbours, the
    hill excluded) are open; space 4, beyond the empty space 3, is not."""
    pos = position(board=[u(0, -1, 0, "infantry"), u(0, 1, 1, "infantry")],
                   hands=[{"infantry": 2}, {}])
    assert cells_for(legal_keys(pos), "infantry") == {(-1, -1), (1, -1), (0, -2)}
    with pytest.raises(IllegalActionError):
        nxt(pos, deploy("infantry", (2, -1)))
    # once space 3 holds a supplied unit, space 4 opens
    after = nxt(pos, deploy("infantry", (1, -1)))
    assert (after["to_move"], after["plays_left"]) == (0, 1)
    assert (2, -1) in cells_for(legal_keys(after), "infantry")


def test_fig2_space_beyond_an_unsupplied_unit_stays_closed():
    """Fig. 2 ("unless there is a *supplied* unit in #3"): a Special Forces in space 3 draws
    supply only diagonally, so it is unsupplied there and opens nothing."""
    pos = position(board=[u(0, -1, 0, "infantry"), u(1, -1, 0, "special_forces"),
                          u(0, 1, 1, "infantry")],
                   hands=[{"infantry": 1}, {}])
    assert supplied(pos, 0) == {(0, -1)}
    assert cells_for(legal_keys(pos), "infantry") == {(-1, -1), (0, -2)}


FIG3_BOARD = [u(0, -1, 0, "infantry"), u(0, 1, 1, "infantry"), u(1, 0, 1, "tank")]


def test_fig3_supported_infantry_attack_destroys_the_tank():
    """Fig. 3: Infantry deployed next to the enemy Tank, with a friendly Special Forces
    orthogonally adjacent to the Tank: the supported attack destroys it (and is mandatory)."""
    pos = position(board=[*FIG3_BOARD, u(2, 0, 0, "special_forces")],
                   hands=[{"infantry": 1}, {"infantry": 1}], strikes=(0, 0))
    assert hits_for(legal_keys(pos), "infantry", (1, -1)) == {((1, 0),)}
    after = nxt(pos, deploy("infantry", (1, -1), (1, 0)))
    assert (1, 0) not in board_map(after)
    assert board_map(after)[(1, -1)] == (0, "infantry")
    assert after["destroyed"][1] == {"tank": 1}


def test_fig3_without_support_the_attack_cannot_destroy():
    """Fig. 3 without the Special Forces: Infantry needs support, so no hit is listed and an
    attack given anyway is illegal."""
    pos = position(board=FIG3_BOARD, hands=[{"infantry": 1}, {}], strikes=(0, 0))
    assert hits_for(legal_keys(pos), "infantry", (1, -1)) == {()}
    with pytest.raises(IllegalActionError):
        nxt(pos, deploy("infantry", (1, -1), (1, 0)))


def test_fig3_support_is_adjacent_to_the_target_per_supporter_diagram():
    """Fig. 3 and "Support": the supporter must have the target in ITS support diagram —
    Heavy Weapons support diagonally, Infantry does not."""
    with_hw = position(board=[*FIG3_BOARD, u(2, 1, 0, "heavy_weapons")],
                       hands=[{"infantry": 1}, {}], strikes=(0, 0))
    assert hits_for(legal_keys(with_hw), "infantry", (1, -1)) == {((1, 0),)}
    with_inf = position(board=[*FIG3_BOARD, u(2, 1, 0, "infantry")],
                        hands=[{"infantry": 1}, {}], strikes=(0, 0))
    assert hits_for(legal_keys(with_inf), "infantry", (1, -1)) == {()}


def test_fig4_artillery_hits_two_ahead_its_sides_and_three_ahead_not_just_in_front():
    """Fig. 4: the Artillery may hit the Infantry, Heavy Weapons or Special Forces (two ahead
    and its sides) but not the Tank directly in front of it."""
    pos = position(board=[u(0, -1, 0, "infantry"), u(1, -1, 0, "infantry"),
                          u(0, 1, 1, "infantry"), u(2, 0, 1, "tank"), u(1, 1, 1, "infantry"),
                          u(2, 1, 1, "heavy_weapons"), u(3, 1, 1, "special_forces")],
                   hands=[{"artillery": 1}, {"infantry": 1}], strikes=(0, 0))
    assert hits_for(legal_keys(pos), "artillery", (2, -1)) == {((1, 1),), ((2, 1),), ((3, 1),)}
    after = nxt(pos, deploy("artillery", (2, -1), (2, 1)))
    assert after["destroyed"][1] == {"heavy_weapons": 1}
    assert (2, 0) in board_map(after)


def test_fig4_artillery_hits_three_ahead():
    """Fig. 4 / contract §1 `artillery` = (-1,2),(0,2),(1,2),(0,3): the square three ahead."""
    pos = position(board=[u(0, -1, 0, "infantry"), u(1, -1, 0, "infantry"),
                          u(0, 1, 1, "infantry"), u(2, 2, 1, "tank")],
                   hands=[{"artillery": 1}, {}], strikes=(0, 0))
    assert hits_for(legal_keys(pos), "artillery", (2, -1)) == {((2, 2),)}


def test_fig4_turned_round_for_seat_1():
    """Fig. 4 for seat 1 (contract §1): the card is turned half a circle, so north's artillery
    points to -y: from (-2, 1) it hits (-1,-1), (-2,-1), (-3,-1), (-2,-2) — not (-2, 0)."""
    pos = position(board=[u(0, 1, 1, "infantry"), u(-1, 1, 1, "infantry"),
                          u(0, -1, 0, "infantry"), u(-2, 0, 0, "tank"), u(-1, -1, 0, "infantry"),
                          u(-2, -1, 0, "heavy_weapons"), u(-3, -1, 0, "special_forces")],
                   hands=[{}, {"artillery": 1}], to_move=1, strikes=(0, 0))
    assert hits_for(legal_keys(pos), "artillery", (-2, 1)) == {
        ((-1, -1),), ((-2, -1),), ((-3, -1),)}
    pos["board"].append(u(-2, -2, 0, "paratroopers"))
    assert ((-2, -2),) in hits_for(legal_keys(pos), "artillery", (-2, 1))


# ============================================================================ §1 the grid

@pytest.mark.parametrize("ruleset", BOTH)
def test_s1_hill_is_never_played_on(ruleset):
    """§1: no card is ever played on the hill (0, 0), even next to supplied units or as a drop;
    it cannot be struck either."""
    r = ROLES[ruleset]
    pos = position(ruleset, board=[u(0, -1, 0, "infantry"), u(1, -1, 0, "infantry"),
                                   u(-1, 0, 0, "infantry"), u(0, 1, 1, "infantry")],
                   hands=[{r[k]: 1 for k in ("inf", "sf", "drop", "tank")}, {}])
    ks = legal_keys(pos)
    assert all(k.at != HILL for k in ks)
    assert all(HILL not in k.attacks for k in ks)
    for play in (deploy(r["drop"], HILL), deploy(r["sf"], HILL), strike(HILL)):
        with pytest.raises(IllegalActionError):
            nxt(pos, play)


@pytest.mark.parametrize("ruleset", BOTH)
def test_s1_bases_and_forward_directions(ruleset):
    """§1: seat 0's base is (0,-1), seat 1's is (0,1): on an empty board each seat's only
    deployment (non-drop unit) is its own base."""
    r = ROLES[ruleset]
    south = position(ruleset, hands=[{r["tank"]: 1}, {}], strikes=(0, 0))
    assert legal_keys(south) == {(("deploy", r["tank"], BASE[0], ()))}
    north = position(ruleset, hands=[{}, {r["tank"]: 1}], to_move=1, strikes=(0, 0))
    assert legal_keys(north) == {(("deploy", r["tank"], BASE[1], ()))}


# ============================================================================ §3 setup

def chance(state, *units):
    """Resolve chance draws with the given units, then the first outcome while chance remains."""
    for unit in units:
        assert state.current_player() == CHANCE
        state.apply(Draw(unit))


def settle(state):
    while state.current_player() == CHANCE:
        state.apply(state.chance_outcomes()[0][0])


@pytest.mark.parametrize("ruleset", BOTH)
def test_s3_first_player_is_a_fair_chance(ruleset):
    """§3.1: which seat plays first is chance, 1/2 each, decided before anything else."""
    state = CardGame(ruleset).new_initial_state()
    assert state.current_player() == CHANCE
    assert sorted(state.chance_outcomes()) == [(FirstPlayer(0), 0.5), (FirstPlayer(1), 0.5)]


@pytest.mark.parametrize("ruleset", BOTH)
def test_s3_deal_draws_from_the_shuffled_deck(ruleset):
    """§3.1: each deck is shuffled: each draw is a chance outcome weighted by the cards left."""
    state = CardGame(ruleset).new_initial_state()
    state.apply(FirstPlayer(0))
    units = {n: c.count for n, c in CONTRACT[ruleset]["units"].items() if c.count}
    total = sum(units.values())
    outcomes = dict(state.chance_outcomes())
    assert outcomes == pytest.approx({Draw(n): c / total for n, c in units.items()})
    state.apply(Draw(ROLES[ruleset]["inf"]))
    outcomes = dict(state.chance_outcomes())
    assert outcomes[Draw(ROLES[ruleset]["inf"])] == pytest.approx(
        (units[ROLES[ruleset]["inf"]] - 1) / (total - 1))


@pytest.mark.parametrize("ruleset", BOTH)
def test_s3_draw_five_bury_two_seat0_then_seat1(ruleset):
    """§3.2: each seat draws 5 and puts 2 under its deck, seat 0 first, then seat 1; the first
    player then draws 1 and makes 1 play."""
    r = ROLES[ruleset]
    state = CardGame(ruleset).new_initial_state()
    state.apply(FirstPlayer(1))
    chance(state, r["inf"], r["inf"], r["tank"], r["art"], r["hw"])
    assert state.current_player() == 0
    expected = {Bury(a, b) for a in (r["inf"], r["tank"], r["art"], r["hw"])
                for b in (r["inf"], r["tank"], r["art"], r["hw"]) if a != b}
    expected.add(Bury(r["inf"], r["inf"]))
    assert set(state.legal_actions()) == expected
    with pytest.raises(IllegalActionError):
        state.apply(Bury(r["sf"], r["inf"]))  # not in hand
    with pytest.raises(IllegalActionError):
        state.apply(Bury(r["tank"], r["tank"]))  # only one tank
    state.apply(Bury(r["tank"], r["art"]))
    obs0 = state.observation(0)
    assert obs0["hand"] == {r["inf"]: 2, r["hw"]: 1}
    assert obs0["bottom"] == [r["tank"], r["art"]]
    # seat 1 deals and chooses next, without seeing seat 0's choice
    assert state.current_player() == CHANCE
    chance(state, *[r["inf"]] * 5)
    assert state.current_player() == 1
    assert "bottom" not in state.observation(None)
    assert state.observation(1)["bottom"] == []
    state.apply(Bury(r["inf"], r["inf"]))
    # then the first player's first turn: draw 1 (chance), 1 play
    settle(state)
    obs = state.observation(None)
    assert obs["to_move"] == 1 and obs["plays_left"] == 1
    assert obs["hand_sizes"] == [3, 4]
    deck = 24 if ruleset == "hill218" else 26
    assert obs["deck_sizes"] == [deck - 3, deck - 4]


def test_s3_buried_cards_come_last_first_chosen_then_second():
    """§3.2: the first card chosen goes under the deck, the second under that one: played
    out to the end of the deck, seat 0 draws the first chosen in its next-to-last draw and the
    second chosen as its very last card."""
    state = CardGame("hill218").new_initial_state()
    state.apply(FirstPlayer(1))  # seat 0 then draws 2 a turn: 19 pool cards, then the 2 buried
    chance(state, "tank", "artillery", "infantry", "infantry", "infantry")
    state.apply(Bury("tank", "artillery"))
    settle(state)
    state.apply(state.legal_actions()[0])
    gains: list[Counter] = []
    while not state.is_terminal():
        before = Counter(state.observation(0)["hand"])
        if state.current_player() == CHANCE:
            action = state.chance_outcomes()[0][0]
        else:
            plays = [a for a in state.legal_actions()
                     if getattr(a, "at", None) != BASE[1 - state.current_player()]]
            action = plays[0]
        mover = state.current_player()
        state.apply(action)
        gained = Counter(state.observation(0)["hand"]) - before
        if mover == 0 and hasattr(action, "unit"):
            gained = Counter(state.observation(0)["hand"]) + Counter([action.unit]) - before
        if gained:
            gains.append(gained)
        if state.observation(None)["deck_sizes"][0] == 0 and state.observation(0)["bottom"] == []:
            break
    assert state.observation(0)["bottom"] == []
    assert sum(sum(g.values()) for g in gains) == 21  # 24 - 5 + 2 cards left in the deck
    assert gains[-1] == Counter({"artillery": 1})
    assert gains[-2]["tank"] == 1 and "artillery" not in gains[-2]


@pytest.mark.parametrize("ruleset", BOTH)
def test_s3_quick_start_draws_three_and_skips_burying(ruleset):
    """§3.2 option quick_start: each seat draws 3, nobody buries; then the first turn."""
    state = CardGame(ruleset, {"quick_start": True}).new_initial_state()
    state.apply(FirstPlayer(0))
    for _ in range(6):  # 3 for seat 0, then 3 for seat 1, all chance
        assert state.current_player() == CHANCE
        state.apply(state.chance_outcomes()[0][0])
    assert state.current_player() == CHANCE  # the first player's first-turn draw
    assert state.observation(None)["hand_sizes"] == [3, 3]
    state.apply(state.chance_outcomes()[0][0])
    obs = state.observation(0)
    assert obs["hand_sizes"] == [4, 3]
    assert obs["bottom"] == []
    assert (obs["to_move"], obs["plays_left"]) == (0, 1)


# ============================================================================ §4 turns

@pytest.mark.parametrize("ruleset", BOTH)
def test_s4_first_turn_one_draw_one_play_then_two_and_two(ruleset):
    """§4: the first player's very first turn draws 1 and plays 1; every later turn draws 2 and
    plays 2."""
    state = CardGame(ruleset, {"quick_start": True}).new_initial_state()
    state.apply(FirstPlayer(1))
    settle(state)
    obs = state.observation(None)
    assert (obs["to_move"], obs["plays_left"], obs["hand_sizes"]) == (1, 1, [3, 4])
    state.apply(next(a for a in state.legal_actions() if getattr(a, "at", None) == BASE[1]))
    settle(state)
    obs = state.observation(None)
    assert (obs["to_move"], obs["plays_left"], obs["hand_sizes"]) == (0, 2, [5, 3])
    state.apply(next(a for a in state.legal_actions() if getattr(a, "at", None) == BASE[0]))
    obs = state.observation(None)
    assert (obs["to_move"], obs["plays_left"]) == (0, 1)
    state.apply(state.legal_actions()[0])
    settle(state)
    obs = state.observation(None)
    assert (obs["to_move"], obs["plays_left"], obs["hand_sizes"]) == (1, 2, [3, 5])


@pytest.mark.parametrize("ruleset", BOTH)
def test_s4_fewer_draws_when_the_deck_is_short(ruleset):
    """§4/§7: the next turn draws 2 from the top of `decks`, or as many as the deck holds."""
    r = ROLES[ruleset]
    pos = position(ruleset, board=[u(0, -1, 0, r["inf"]), u(0, 1, 1, r["inf"])],
                   hands=[{r["inf"]: 1}, {}], plays_left=1, strikes=(0, 0),
                   decks=[[r["tank"], r["hw"], r["sf"]], [r["art"]]])
    after = nxt(pos, deploy(r["inf"], (1, -1)))
    assert (after["to_move"], after["plays_left"]) == (1, 2)
    assert after["hands"][1] == {r["art"]: 1}
    assert after["decks"] == [[r["tank"], r["hw"], r["sf"]], []]


@pytest.mark.parametrize("ruleset", BOTH)
def test_s4_turn_draws_two_from_the_top_in_order(ruleset):
    """§7: "the following turn's draw is taken from the top of `decks`" (top card first)."""
    r = ROLES[ruleset]
    pos = position(ruleset, board=[u(0, -1, 0, r["inf"]), u(0, 1, 1, r["inf"])],
                   hands=[{r["inf"]: 1}, {}], plays_left=1, strikes=(0, 0),
                   decks=[[], [r["tank"], r["hw"], r["sf"]]])
    after = nxt(pos, deploy(r["inf"], (1, -1)))
    assert after["hands"][1] == {r["tank"]: 1, r["hw"]: 1}
    assert after["decks"][1] == [r["sf"]]


@pytest.mark.parametrize("ruleset", BOTH)
def test_s4_play_is_mandatory_even_when_only_a_strike_is_legal(ruleset):
    """§4: a play is mandatory whenever one exists, even an Air Strike / Cruise Missile; there
    is no pass."""
    r = ROLES[ruleset]
    pos = position(ruleset, board=[u(0, -1, 0, r["inf"]), u(0, 1, 1, r["inf"]),
                                   u(2, 2, 1, r["tank"])],
                   hands=[{}, {}], strikes=(1, 0))
    assert legal_keys(pos) == {("strike", None, (0, 1), ()), ("strike", None, (2, 2), ())}
    for bad in ({"play": "pass"}, {"play": "deploy", "unit": r["inf"], "at": [1, -1]}):
        with pytest.raises(IllegalActionError):
            nxt(pos, bad)


@pytest.mark.parametrize("ruleset", BOTH)
def test_s4_rest_of_turn_forfeited_when_no_legal_play(ruleset):
    """§4: when no legal play remains, the rest of the turn is forfeited (here after 1 of 2
    plays) and the other seat starts its turn."""
    r = ROLES[ruleset]
    pos = position(ruleset, board=[u(0, -1, 0, r["inf"]), u(0, 1, 1, r["inf"])],
                   hands=[{r["inf"]: 1}, {r["tank"]: 1}], strikes=(0, 0),
                   decks=[[r["inf"]], [r["hw"]]])
    after = nxt(pos, deploy(r["inf"], (1, -1)))
    assert (after["to_move"], after["plays_left"]) == (1, 2)
    assert after["hands"] == [{}, {r["tank"]: 1, r["hw"]: 1}]
    assert after["decks"] == [[r["inf"]], []]


@pytest.mark.parametrize("ruleset", BOTH)
def test_s4_whole_turn_forfeited_is_skipped(ruleset):
    """§4/§5/§7: a seat with no legal play at its turn start forfeits it; `apply` returns the
    next decision point (the other seat's turn again, with its draw)."""
    r = ROLES[ruleset]
    pos = position(ruleset, board=[u(0, -1, 0, r["inf"]), u(0, 1, 1, r["inf"])],
                   hands=[{r["inf"]: 1}, {}], plays_left=1, strikes=(0, 0),
                   decks=[[r["tank"], r["hw"]], []])
    after = nxt(pos, deploy(r["inf"], (1, -1)))
    assert (after["to_move"], after["plays_left"]) == (0, 2)
    assert after["hands"] == [{r["tank"]: 1, r["hw"]: 1}, {}]
    assert after["decks"] == [[], []]


@pytest.mark.parametrize("ruleset", BOTH)
def test_s4_empty_own_base_allows_only_base_or_drops(ruleset):
    """§4: while the own base is empty a non-drop unit may only go onto it (even with other
    own units on the board); a drop unit may also drop; strikes stay legal."""
    r = ROLES[ruleset]
    pos = position(ruleset, board=[u(1, -1, 0, r["inf"]), u(1, -2, 0, r["inf"]),
                                   u(0, 1, 1, r["inf"])],
                   hands=[{r["inf"]: 1, r["tank"]: 1, r["sf"]: 1, r["drop"]: 1}, {}],
                   strikes=(1, 2))
    ks = legal_keys(pos)
    for unit in (r["inf"], r["tank"], r["sf"]):
        assert cells_for(ks, unit) == {BASE[0]}
    assert cells_for(ks, r["drop"]) == drop_zone(pos) - {HILL, BASE[1], (1, -1), (1, -2)}
    assert strike_targets(ks) == {(0, 1)}


@pytest.mark.parametrize("ruleset", BOTH)
def test_s4_deploy_onto_empty_base_then_attacks(ruleset):
    """§4: the own base is always legal while empty; a base deployment is followed by the
    unit's attack like any other (here an individual attack)."""
    r = ROLES[ruleset]
    pos = position(ruleset, board=[u(1, -1, 1, r["inf"]), u(0, 1, 1, r["inf"])],
                   hands=[{r["tank"]: 1}, {r["inf"]: 1}], strikes=(0, 0))
    assert legal_keys(pos) == {("deploy", r["tank"], BASE[0], ((1, -1),))}
    after = nxt(pos, deploy(r["tank"], BASE[0], (1, -1)))
    assert after["destroyed"][1] == {r["inf"]: 1}


def test_s4_pull_supply_uses_the_deploying_units_diagram():
    """§4 hill218 (pull): the cell must have a supplied friend at an offset of the DEPLOYING
    unit's supply diagram: Special Forces go diagonally, Infantry orthogonally."""
    pos = position(board=[u(0, -1, 0, "infantry"), u(1, -1, 0, "infantry"),
                          u(0, 1, 1, "infantry")],
                   hands=[{"infantry": 1, "special_forces": 1}, {}])
    ks = legal_keys(pos)
    assert cells_for(ks, "infantry") == {(-1, -1), (0, -2), (2, -1), (1, -2), (1, 0)}
    assert cells_for(ks, "special_forces") == {(1, 0), (1, -2), (-1, 0), (-1, -2), (2, 0),
                                               (2, -2), (0, -2)}
    # an Infantry may go orthogonally next to a supplied Special Forces (its own diagram)
    pos = position(board=[u(0, -1, 0, "infantry"), u(1, -2, 0, "special_forces"),
                          u(0, 1, 1, "infantry")],
                   hands=[{"infantry": 1}, {}])
    assert supplied(pos, 0) == {(0, -1), (1, -2)}
    assert cells_for(legal_keys(pos), "infantry") == {(-1, -1), (1, -1), (0, -2), (2, -2),
                                                      (1, -3)}


def test_s4_pull_supply_fixpoint():
    """§4 hill218: a unit is supplied if a supplied friend stands on its own supply diagram;
    take the fixpoint. An SF orthogonal to a supplied unit is unsupplied, and so is everything
    hanging from it; an isolated unit is unsupplied."""
    pos = position(board=[u(0, -1, 0, "infantry"), u(1, -1, 0, "infantry"),
                          u(2, -2, 0, "special_forces"), u(3, -2, 0, "infantry"),
                          u(-1, -1, 0, "infantry"), u(-2, -1, 0, "special_forces"),
                          u(-3, -1, 0, "infantry"), u(5, -5, 0, "infantry"),
                          u(0, 1, 1, "infantry")],
                   hands=[{"infantry": 1, "special_forces": 1}, {}])
    assert supplied(pos, 0) == {(0, -1), (1, -1), (2, -2), (3, -2), (-1, -1)}
    assert supplied(pos, 1) == {(0, 1)}
    ks = legal_keys(pos)
    inf = cells_for(ks, "infantry")
    assert (4, -2) in inf
    assert not {(-4, -1), (-3, -2), (-2, -2), (5, -4), (4, -5)} & inf
    assert (-2, -2) in cells_for(ks, "special_forces")


@pytest.mark.parametrize("ruleset", BOTH)
def test_s4_cut_off_unit_stays_but_does_not_supply_until_reconnected(ruleset):
    """§4: supply is recomputed at every play: a unit cut off stays on the board, unsupplied,
    until a chain exists again."""
    r = ROLES[ruleset]
    pos = position(ruleset, board=[u(0, -1, 0, r["inf"]), u(1, -1, 0, r["inf"]),
                                   u(2, -1, 0, r["inf"]), u(0, 1, 1, r["inf"])],
                   hands=[{r["inf"]: 2}, {}], to_move=1, plays_left=1, strikes=(0, 1))
    assert supplied(pos, 0) == {(0, -1), (1, -1), (2, -1)}
    cut = nxt(pos, strike((1, -1)))
    assert (cut["to_move"], cut["plays_left"]) == (0, 2)
    assert board_map(cut)[(2, -1)] == (0, r["inf"])
    assert cut["destroyed"][0] == {r["inf"]: 1}
    assert supplied(cut, 0) == {(0, -1)}
    assert cells_for(legal_keys(cut), r["inf"]) == {(-1, -1), (1, -1), (0, -2)}
    rejoined = nxt(cut, deploy(r["inf"], (1, -1)))
    assert supplied(rejoined, 0) == {(0, -1), (1, -1), (2, -1)}
    assert {(3, -1), (2, -2)} <= cells_for(legal_keys(rejoined), r["inf"])


@pytest.mark.parametrize("ruleset", BOTH)
def test_s6_observations_say_which_units_are_supplied(ruleset):
    """§4/§6: supply follows from the public board, so every view marks each unit's (the web
    table shows the cut-off ones); positions keep the bare board entries."""
    r = ROLES[ruleset]
    pos = position(ruleset, board=[u(0, -1, 0, r["inf"]), u(2, -1, 0, r["inf"]),
                                   u(0, 1, 1, r["inf"])])
    state = position_from_json(pos)
    for seat in (None, 0, 1):
        board = {(e["x"], e["y"]): e["supplied"] for e in state.observation(seat)["board"]}
        assert board == {(0, -1): True, (2, -1): False, (0, 1): True}
    assert all("supplied" not in e for e in state.to_json()["board"])


# ---------------------------------------------------------------------------- drops

@pytest.mark.parametrize("ruleset", BOTH)
def test_s4_drop_anywhere_in_the_zone_without_supply(ruleset):
    """§4 drops: any empty cell of the bounding box of the hill and all units grown by 2,
    except the hill and the enemy base; not outside it."""
    r = ROLES[ruleset]
    pos = position(ruleset, board=[u(0, -1, 0, r["inf"]), u(0, 1, 1, r["inf"]),
                                   u(3, 2, 1, r["tank"]), u(-1, 4, 1, r["inf"])],
                   hands=[{r["drop"]: 1}, {r["inf"]: 1}], strikes=(0, 0))
    zone = drop_zone(pos)
    assert min(zone) == (-3, -3) and max(zone) == (5, 6)
    expected = zone - {HILL, (0, -1), (0, 1), (3, 2), (-1, 4)}
    assert cells_for(legal_keys(pos), r["drop"]) == expected
    for outside in ((6, 0), (-4, 0), (0, 7), (0, -4)):
        with pytest.raises(IllegalActionError):
            nxt(pos, deploy(r["drop"], outside))
    # a drop makes its (combined) attack like any deployment
    after = nxt(pos, deploy(r["drop"], (5, 6)))
    assert board_map(after)[(5, 6)] == (0, r["drop"])


@pytest.mark.parametrize("ruleset", BOTH)
def test_s4_drop_with_own_base_empty_and_no_own_unit(ruleset):
    """§4: drops need no supply and are legal whether or not the own base is held; the enemy
    base, even empty, is excluded."""
    r = ROLES[ruleset]
    pos = position(ruleset, board=[u(2, 2, 1, r["inf"])], hands=[{r["drop"]: 1}, {}],
                   strikes=(0, 0))
    cells = cells_for(legal_keys(pos), r["drop"])
    assert cells == {(x, y) for x in range(-2, 5) for y in range(-2, 5)} - {HILL, (2, 2), (0, 1)}
    assert BASE[0] in cells
    with pytest.raises(IllegalActionError):
        nxt(pos, deploy(r["drop"], BASE[1]))


@pytest.mark.parametrize("ruleset", BOTH)
def test_s4_drop_unit_takes_enemy_base_only_as_supplied_deployment(ruleset):
    """§4: the enemy base is open to a drop unit only as an ordinary supplied deployment — and
    taking it wins at once (§5)."""
    r = ROLES[ruleset]
    chain = [u(0, -1, 0, r["inf"]), u(1, -1, 0, r["inf"]), u(1, 0, 0, r["inf"]),
             u(1, 1, 0, r["inf"]), u(-2, 2, 1, r["inf"])]
    pos = position(ruleset, board=chain, hands=[{r["drop"]: 1}, {}], strikes=(0, 0))
    assert hits_for(legal_keys(pos), r["drop"], BASE[1]) == {()}
    assert nxt(pos, deploy(r["drop"], BASE[1])) == {
        "result": {"winner": 0, "reason": "base", "units": [5, 1]}}
    broken = position(ruleset, board=[e for e in chain if (e["x"], e["y"]) != (1, 0)],
                      hands=[{r["drop"]: 1}, {}], strikes=(0, 0))
    assert BASE[1] not in cells_for(legal_keys(broken), r["drop"])
    with pytest.raises(IllegalActionError):
        nxt(broken, deploy(r["drop"], BASE[1]))


# ---------------------------------------------------------------------------- attacks

ATTACK_BOARD = [(0, -1, 0, "inf"), (1, -1, 0, "inf"), (0, 1, 1, "inf"), (2, 0, 1, "inf")]


def attack_position(ruleset, extra=(), hand_role="inf"):
    r = ROLES[ruleset]
    board = [u(x, y, s, r[k]) for x, y, s, k in [*ATTACK_BOARD, *extra]]
    return position(ruleset, board=board, hands=[{r[hand_role]: 1}, {r["tank"]: 1}],
                    strikes=(0, 0))


@pytest.mark.parametrize("ruleset", BOTH)
def test_s4_combined_attack_needs_another_units_support(ruleset):
    """§4: a combined (needs support) square is destroyable only if some OTHER friendly unit
    already on the board covers it; the attacker's own support diagram does not count."""
    pos = attack_position(ruleset)
    assert hits_for(legal_keys(pos), ROLES[ruleset]["inf"], (2, -1)) == {()}


@pytest.mark.parametrize("ruleset", BOTH)
def test_s4_individual_attack_needs_no_support(ruleset):
    """§4: an individual square (Tank / Heavy Tank) is destroyable without support, and the
    attack is mandatory."""
    r = ROLES[ruleset]
    pos = attack_position(ruleset, hand_role="tank")
    assert hits_for(legal_keys(pos), r["tank"], (2, -1)) == {((2, 0),)}
    with pytest.raises(IllegalActionError):
        nxt(pos, deploy(r["tank"], (2, -1)))  # the hit may not be omitted


@pytest.mark.parametrize("ruleset", BOTH)
def test_s4_unsupplied_unit_still_supports(ruleset):
    """§4: support comes from another friendly unit already on the board, supplied or not."""
    r = ROLES[ruleset]
    pos = attack_position(ruleset, extra=[(3, 0, 0, "inf")])
    assert (3, 0) not in supplied(pos, 0)
    assert hits_for(legal_keys(pos), r["inf"], (2, -1)) == {((2, 0),)}
    after = nxt(pos, deploy(r["inf"], (2, -1), (2, 0)))
    assert (2, 0) not in board_map(after)


@pytest.mark.parametrize("ruleset", BOTH)
def test_s4_attacker_picks_one_of_several_targets_never_a_friend(ruleset):
    """§4: with several destroyable targets the player picks one (each is a separate play);
    friendly units on attack squares are never hit."""
    r = ROLES[ruleset]
    pos = attack_position(ruleset, extra=[(3, -1, 1, "inf"), (2, -2, 0, "inf")],
                          hand_role="tank")
    assert hits_for(legal_keys(pos), r["tank"], (2, -1)) == {((2, 0),), ((3, -1),)}


@pytest.mark.parametrize("ruleset", BOTH)
def test_s4_taking_the_enemy_base_wins_with_no_attack(ruleset):
    """§4/§5/§7: a legal deployment onto the enemy base wins at once; that unit makes no attack
    (even an individual one with a target next to it); `units` includes the unit."""
    r = ROLES[ruleset]
    pos = position(ruleset, board=[u(0, -1, 0, r["inf"]), u(1, -1, 0, r["inf"]),
                                   u(1, 0, 0, r["inf"]), u(1, 1, 0, r["inf"]),
                                   u(-1, 1, 1, r["inf"]), u(-1, 2, 1, r["inf"])],
                   hands=[{r["tank"]: 1}, {}], strikes=(0, 0))
    assert hits_for(legal_keys(pos), r["tank"], BASE[1]) == {()}
    with pytest.raises(IllegalActionError):
        nxt(pos, deploy(r["tank"], BASE[1], (-1, 1)))
    assert nxt(pos, deploy(r["tank"], BASE[1])) == {
        "result": {"winner": 0, "reason": "base", "units": [5, 2]}}


@pytest.mark.parametrize("ruleset", BOTH)
def test_s4_seat_1_takes_seat_0s_base(ruleset):
    """§1/§4: the same for north, whose frame is turned: it wins on (0, -1)."""
    r = ROLES[ruleset]
    pos = position(ruleset, board=[u(0, 1, 1, r["inf"]), u(-1, 1, 1, r["inf"]),
                                   u(-1, 0, 1, r["inf"]), u(-1, -1, 1, r["inf"]),
                                   u(1, -1, 0, r["inf"])],
                   hands=[{}, {r["inf"]: 1}], to_move=1, plays_left=1, strikes=(0, 0))
    assert hits_for(legal_keys(pos), r["inf"], BASE[0]) == {()}
    assert nxt(pos, deploy(r["inf"], BASE[0]))["result"] == {
        "winner": 1, "reason": "base", "units": [1, 5]}


# ---------------------------------------------------------------------------- strikes

@pytest.mark.parametrize("ruleset", BOTH)
def test_s4_strike_needs_one_left_and_an_enemy_unit(ruleset):
    """§4: an Air Strike / Cruise Missile hits any one enemy unit; legal while the seat has one
    left and the enemy has a unit on the board."""
    r = ROLES[ruleset]
    board = [u(0, -1, 0, r["inf"]), u(0, 1, 1, r["inf"]), u(5, 5, 1, r["tank"])]
    ks = legal_keys(position(ruleset, board=board, hands=[{r["inf"]: 1}, {}], strikes=(2, 0)))
    assert strike_targets(ks) == {(0, 1), (5, 5)}
    ks = legal_keys(position(ruleset, board=board, hands=[{r["inf"]: 1}, {}], strikes=(0, 2)))
    assert strike_targets(ks) == set()
    own_only = position(ruleset, board=board[:1], hands=[{r["inf"]: 1}, {}], strikes=(2, 2))
    assert strike_targets(legal_keys(own_only)) == set()
    pos = position(ruleset, board=board, hands=[{r["inf"]: 1}, {}], strikes=(2, 0))
    after = nxt(pos, strike((5, 5)))
    assert after["strikes"] == [1, 0]
    assert (5, 5) not in board_map(after)
    assert after["destroyed"][1] == {r["tank"]: 1}


# ============================================================================ §5 end

@pytest.mark.parametrize("ruleset", BOTH)
@pytest.mark.parametrize(("seat1_units", "winner"), [(1, 0), (2, None), (3, 1)])
def test_s5_game_ends_by_count_when_decks_empty_and_nobody_can_play(ruleset, seat1_units,
                                                                    winner):
    """§5: both decks empty and neither seat has a legal play: more units wins, equal is a
    draw (winner null); `units` gives both counts."""
    r = ROLES[ruleset]
    board = [u(0, -1, 0, r["inf"])] + [u(x, 1, 1, r["inf"]) for x in (0, 1, 2)[:seat1_units]]
    pos = position(ruleset, board=board, hands=[{r["inf"]: 1}, {}], plays_left=1,
                   strikes=(0, 0))
    assert nxt(pos, deploy(r["inf"], (-1, -1))) == {
        "result": {"winner": winner, "reason": "count", "units": [2, seat1_units]}}


@pytest.mark.parametrize("ruleset", BOTH)
def test_s5_game_goes_on_while_one_seat_can_still_play(ruleset):
    """§5 procedure: decks empty, seat 0 out of plays, seat 1 still holding cards: seat 1 plays
    on (seat 0's turns are forfeited) until nobody can play."""
    r = ROLES[ruleset]
    pos = position(ruleset, board=[u(0, -1, 0, r["inf"]), u(0, 1, 1, r["inf"])],
                   hands=[{r["inf"]: 1}, {r["inf"]: 3}], plays_left=1, strikes=(0, 0))
    step = nxt(pos, deploy(r["inf"], (-1, -1)))
    assert (step["to_move"], step["plays_left"]) == (1, 2)
    step = nxt(step, deploy(r["inf"], (1, 1)))
    assert (step["to_move"], step["plays_left"]) == (1, 1)
    step = nxt(step, deploy(r["inf"], (-1, 1)))
    assert (step["to_move"], step["plays_left"]) == (1, 2)  # seat 0's turn forfeited
    assert nxt(step, deploy(r["inf"], (0, 2))) == {
        "result": {"winner": 1, "reason": "count", "units": [2, 4]}}


@pytest.mark.parametrize("ruleset", BOTH)
def test_s5_unused_strike_keeps_the_game_going(ruleset):
    """§5: a seat with a strike left and an enemy unit on the board has a legal play, so the
    game is not over; it must use it."""
    r = ROLES[ruleset]
    pos = position(ruleset, board=[u(0, -1, 0, r["inf"]), u(0, 1, 1, r["inf"])],
                   hands=[{r["inf"]: 1}, {}], plays_left=1, strikes=(0, 1))
    step = nxt(pos, deploy(r["inf"], (-1, -1)))
    assert (step["to_move"], step["plays_left"]) == (1, 2)
    assert legal_keys(step) == {("strike", None, c, ()) for c in [(0, -1), (-1, -1)]}
    assert nxt(step, strike((0, -1))) == {
        "result": {"winner": None, "reason": "count", "units": [1, 1]}}


# ============================================================================ §6 knowledge

def dealt(ruleset, seat0_cards, bury):
    r = ROLES[ruleset]
    state = CardGame(ruleset).new_initial_state()
    state.apply(FirstPlayer(0))
    chance(state, *[r[k] for k in seat0_cards])
    state.apply(Bury(r[bury[0]], r[bury[1]]))
    chance(state, *[r["inf"]] * 5)
    state.apply(Bury(r["inf"], r["inf"]))
    return state


@pytest.mark.parametrize("ruleset", BOTH)
def test_s6_observation_shows_own_hand_and_buried_cards_only(ruleset):
    """§6: a seat sees its own hand and which cards it put under its deck; not the other hand,
    nor the other's buried cards, nor any deck order."""
    r = ROLES[ruleset]
    a = dealt(ruleset, ["tank", "art", "hw", "sf", "drop"], ("tank", "art"))
    b = dealt(ruleset, ["inf", "inf", "hw", "hw", "drop"], ("inf", "hw"))
    assert a.observation(0)["hand"] == {r["hw"]: 1, r["sf"]: 1, r["drop"]: 1}
    assert a.observation(0)["bottom"] == [r["tank"], r["art"]]
    assert b.observation(0)["bottom"] == [r["inf"], r["hw"]]
    assert a.observation(1)["hand"] == {r["inf"]: 3}
    assert a.observation(1)["bottom"] == [r["inf"], r["inf"]]
    # seat 1 and spectators see exactly the same in both games
    assert a.observation(1) == b.observation(1)
    assert a.observation(None) == b.observation(None)
    assert "hand" not in a.observation(None) and "bottom" not in a.observation(None)
    # the own deck is shown as counts only: its order is unknown to everybody
    full = Counter({name: card.count for name, card in CONTRACT[ruleset]["units"].items()})
    assert a.observation(0)["deck"] == dict(full - Counter([r["hw"], r["sf"], r["drop"]]))
    public = a.observation(None)
    assert public["hand_sizes"] == [3, 3]
    assert public["first_player"] == 0


@pytest.mark.parametrize("ruleset", BOTH)
def test_s6_draws_and_burials_are_private_to_their_owner(ruleset):
    """§6: a drawn card and the buried cards are visible to their owner only."""
    r = ROLES[ruleset]
    game = CardGame(ruleset)
    state = game.new_initial_state()
    assert game.visible_to(state, FirstPlayer(0), 1)
    state.apply(FirstPlayer(0))
    assert game.visible_to(state, Draw(r["inf"]), 0)
    assert not game.visible_to(state, Draw(r["inf"]), 1)
    chance(state, *[r["inf"]] * 5)
    assert game.visible_to(state, Bury(r["inf"], r["inf"]), 0)
    assert not game.visible_to(state, Bury(r["inf"], r["inf"]), 1)
