"""Hold the Line scenario files (contract §5): the packaged scenarios load and hold the contract's
historical facts, a broken file is refused with "FILE: FIELD: PROBLEM", every scenario plays a
random game to its end, and ``warboard scenarios`` lists and shows them."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
import tomllib
from importlib import resources
from pathlib import Path

import pytest

from warboard.core.errors import DataFileError
from warboard.core.protocol import CHANCE, sample_chance
from warboard.holdtheline.hexes import on_board
from warboard.holdtheline.options import OPTIONS
from warboard.holdtheline.scenario import INFANTRY_KINDS, Scenario
from warboard.holdtheline.scenario_file import (
    MAP_LETTERS,
    TERRAINS,
    list_names,
    list_scenarios,
    load_scenario,
    load_scenario_file,
    parse_scenario,
    scenario_names,
)
from warboard.holdtheline.tables import TABLES

REQUIRED = ("tutorial", "trenton", "princeton", "bemis_heights")
NAMES = scenario_names()

# rule 11.6: leader ratings by scenario
RATINGS = {
    "trenton": {"Washington": (2, 2), "Greene": (1, 2), "Rahl": (2, 1)},
    "princeton": {"Washington": (2, 2), "Mercer": (1, 1), "Mawhood": (2, 2), "Leslie": (1, 1)},
    "bemis_heights": {"Gates": (1, 1), "Arnold": (2, 1), "Burgoyne": (1, 1), "Fraser": (2, 1)},
    "hobkirks_hill": {"Greene": (1, 2), "Huger": (1, 1), "Rawdon": (2, 2), "Watson": (1, 1)},
    "long_island": {"Washington": (2, 2), "Putnam": (1, 1), "Howe": (1, 2), "Heister": (1, 1)},
    "harlem_heights": {"Washington": (2, 2), "Knowlton": (1, 1), "Howe": (1, 2), "Leslie": (1, 1)},
    "white_plains": {"Washington": (2, 2), "McDougall": (1, 1), "Howe": (1, 2), "Rahl": (2, 1)},
    "brandywine": {"Washington": (2, 2), "Greene": (1, 2), "Howe": (1, 2), "Knyphausen": (2, 1)},
    "monmouth_morning": {"Lee": (1, 1), "Lafayette": (1, 1), "Clinton": (1, 2),
                         "Cornwallis": (2, 2)},
    "monmouth_afternoon": {"Washington": (2, 2), "Greene": (1, 2), "Clinton": (1, 2),
                           "Cornwallis": (2, 2)},
    "kings_mountain": {"Campbell": (2, 1), "Shelby": (1, 2), "Ferguson": (2, 1)},
    "eutaw_springs": {"Greene": (1, 2), "Marion": (2, 1), "Stewart": (1, 1),
                      "Majoribanks": (2, 2)},
    "weitzels_mill": {"Williams": (1, 2), "Campbell": (1, 1), "Cornwallis": (2, 2),
                      "Tarleton": (1, 1)},
}
# the grand-tactical battles of rule 11.15; every other board is the default 13x9
LARGER_BOARDS = {"long_island": (17, 11), "brandywine": (15, 11)}


def packaged_text(name: str) -> str:
    return resources.files("warboard.holdtheline.scenarios").joinpath(f"{name}.toml").read_text(
        encoding="utf-8")


def kinds(units) -> dict[str, int]:
    """How many units of each kind: ``{"regular": 5, "artillery": 1}``."""
    out: dict[str, int] = {}
    for u in units:
        out[u.kind] = out.get(u.kind, 0) + 1
    return out


# ============================================================================ packaged scenarios

def test_at_least_five_scenarios_including_the_required_ones():
    assert len(NAMES) >= 5
    assert set(REQUIRED) <= set(NAMES)


def test_list_puts_the_tutorial_first_then_by_date():
    listed = list_scenarios()
    assert [n for n, _, _ in listed] == list_names()
    assert listed[0][0] == "tutorial"
    dates = [load_scenario(n).date for n, _, _ in listed[1:]]
    assert dates == sorted(dates) and all(dates)
    for name, title, summary in listed:
        assert title and summary and "\n" not in summary, name


@pytest.mark.parametrize("name", NAMES)
def test_every_scenario_loads_and_is_sane(name):
    sc = load_scenario(name)
    assert isinstance(sc, Scenario) and sc.name == name
    assert (sc.cols, sc.rows) == LARGER_BOARDS.get(name, (13, 9))
    assert (name in LARGER_BOARDS) == ("11.15" in sc.special_rules)
    assert len(sc.history) > 400, "a paragraph of history"
    assert sc.turn_limit >= 5
    assert set(sc.terrain.values()) <= set(TERRAINS)
    for seat, side in enumerate(sc.sides):
        assert side.home_edges and side.command_ap
        assert side.vp_target is not None, "every scenario can be won outright"
        assert len(side.units) >= 4 and side.leaders
        for u in side.units:
            assert on_board(u.at, sc.cols, sc.rows)
            assert TABLES.terrain[sc.terrain_at(u.at)].movement != "impassable"
            assert 1 <= u.mp <= TABLES.units[u.kind].max_mp
        # the two sides start apart: no unit next to... at least not on top of each other
        enemy = {u.at for u in sc.sides[1 - seat].units}
        assert not enemy & {u.at for u in side.units}
    # both sides' leaders and VP counters: one per hex
    leaders = [ld.at for side in sc.sides for ld in side.leaders]
    assert len(leaders) == len(set(leaders))


@pytest.mark.parametrize("name", NAMES)
def test_packaged_file_loads_the_same_from_a_path(name, tmp_path):
    path = tmp_path / f"{name}.toml"
    path.write_text(packaged_text(name), encoding="utf-8")
    assert load_scenario_file(path) == load_scenario(name)
    assert load_scenario_file(str(path)) == load_scenario(name)
    with pytest.raises(ValueError, match="unknown scenario"):
        load_scenario(str(path))  # a name, never a path


@pytest.mark.parametrize("name", sorted(RATINGS))
def test_leader_ratings_follow_rule_11_6(name):
    sc = load_scenario(name)
    got = {ld.name: ld.rating for side in sc.sides
           for ld in (*side.leaders, *(ld for r in side.reinforcements for ld in r.leaders))}
    assert got == RATINGS[name]


def test_trenton_holds_the_contract_facts():
    sc = load_scenario("trenton")
    americans, hessians = sc.sides
    assert kinds(hessians.units) == {"elite": 3, "regular": 5, "artillery": 1}
    assert all(u.mp == 4 for u in hessians.units if u.kind == "elite")
    assert [hessians.command_ap_on(t) for t in range(1, 11)] == [1] * 5 + [2] * 5
    assert kinds(americans.units) == {"regular": 9, "artillery": 3}
    assert americans.command_ap_on(1) == americans.command_ap_on(10) == 3
    assert americans.vp_target == 6
    (objective, vp), = americans.objectives
    assert vp == 1 and sc.terrain_at(objective) == "town" and objective in sc.places
    # Hessians: 2 VP per three units that leave across the bridge
    assert hessians.exit_vp == (2, 3)
    bridge = next(h for h, t in sc.terrain.items() if t == "bridge")
    from warboard.holdtheline.hexes import neighbours
    assert set(hessians.exit_hexes) <= set(neighbours(bridge))
    assert sc.time_out_winner == 1 and hessians.name == "british"


def test_bemis_heights_and_hobkirks_hill_command_ap():
    bemis = load_scenario("bemis_heights")
    assert bemis.sides[0].name == "american" and bemis.sides[0].command_ap == (4,)
    hobkirk = load_scenario("hobkirks_hill")
    assert hobkirk.sides[0].command_ap == (2,)
    assert hobkirk.sides[0].action_die == (1, 2, 0)  # a 3 counts as 0


def place(sc: Scenario, name: str):
    return next(h for h, n in sc.places.items() if n == name)


def test_long_island_is_grand_tactical_and_turned_by_the_jamaica_pass():
    sc = load_scenario("long_island")
    americans, british = sc.sides
    assert sc.cols > 13 and sc.rows > 9 and "11.15" in sc.special_rules
    assert "grand_tactical" not in sc.options  # meant for it, off by default
    assert sc.first == 1 and sc.time_out_winner == 0  # Howe did not storm the lines
    passes = [place(sc, n) for n in ("Gowanus road pass", "Flatbush Pass", "Bedford Pass")]
    assert set(americans.vp_counters) == set(passes)
    jamaica = place(sc, "Jamaica Pass")
    assert jamaica not in americans.vp_counters and jamaica in british.reinforcements[0].entry
    # Clinton's column (Howe with it) comes in behind the heights, north of the pass
    (column,) = british.reinforcements
    assert [ld.name for ld in column.leaders] == ["Howe"]
    assert all(u.at[1] <= jamaica[1] for u in column.units)
    assert british.command_ap_on(column.turn - 1) < british.command_ap_on(column.turn)
    (crossing,) = americans.reinforcements
    assert [ld.name for ld in crossing.leaders] == ["Washington"]
    assert all(sc.terrain_at(place(sc, n)) == "entrenchment"
               for n in ("Fort Box", "Fort Greene", "Fort Putnam"))


def test_harlem_heights_is_fought_for_the_buckwheat_field():
    sc = load_scenario("harlem_heights")
    americans, british = sc.sides
    assert sc.first == 0 and sc.time_out_by_vp
    assert set(british.vp_counters) == {place(sc, "the buckwheat field"),
                                        place(sc, "the Jones farm")}
    assert americans.vp_counters == (place(sc, "the American lines"),)
    knowlton = next(ld for ld in americans.leaders if ld.name == "Knowlton")
    assert next(u.kind for u in americans.units if u.at == knowlton.at) == "light"
    assert [r.turn for r in british.reinforcements] == [3, 5]
    assert [ld.name for r in british.reinforcements for ld in r.leaders] == ["Howe"]


def test_white_plains_is_the_fight_for_chattertons_hill():
    sc = load_scenario("white_plains")
    americans, british = sc.sides
    assert sc.first == 1 and sc.time_out_winner == 0
    hill = place(sc, "Chatterton's Hill")
    assert sc.terrain_at(hill) == "hill" and hill in americans.vp_counters
    mcdougall = next(ld for ld in americans.leaders if ld.name == "McDougall")
    assert mcdougall.at == hill
    # the Bronx River runs between the hill and the British batteries, crossed at the ford
    river_col = place(sc, "the ford at the foot of the hill")[0]
    assert all(sc.terrain_at((river_col, r)) in ("waterway", "ford", "bridge")
               for r in range(sc.rows))
    assert hill[0] < river_col < place(sc, "the British batteries")[0]
    rahl = next(ld for ld in british.leaders if ld.name == "Rahl")
    assert next(u.kind for u in british.units if u.at == rahl.at) == "elite"


def test_bemis_heights_follows_the_order_of_battle():
    americans, british = load_scenario("bemis_heights").sides
    at = {u.id: u.at for side in (americans, british) for u in side.units}
    # Morgan and Dearborn go round the British right (west), where the light infantry stand;
    # Poor's brigade goes at the grenadiers on the British left (east)
    assert at["MR"][0] < at["P1"][0] and at["LI"][0] < at["GR"][0]
    brigades, militia = americans.reinforcements
    assert brigades.turn == 2 and kinds(brigades.units) == {"regular": 2}
    assert militia.turn == 3 and kinds(militia.units) == {"militia": 2}


def test_brandywine_is_a_flank_march_on_a_larger_board():
    sc = load_scenario("brandywine")
    americans, british = sc.sides
    assert "grand_tactical" not in sc.options and "11.15" in sc.special_rules
    fords = {sc.places[h] for h, t in sc.terrain.items() if t == "ford" and h in sc.places}
    assert {"Chadds Ford", "Jefferies' Ford", "Trimble's Ford"} <= fords
    # Knyphausen starts west of the creek; Howe's column arrives on turn 3 by the north edge
    chadds = next(h for h, name in sc.places.items() if name == "Chadds Ford")
    assert all(u.at[0] < chadds[0] for u in british.units)
    (column,) = british.reinforcements
    assert column.turn == 3 and {ld.name for ld in column.leaders} == {"Howe"}
    assert kinds(column.units)["elite"] == 4 and all(h[1] == 0 for h in column.entry)
    names = {sc.places[h] for h in americans.vp_counters}
    assert names == {"Birmingham Meeting House", "Proctor's battery", "Dilworth"}
    assert americans.command_ap_on(4) == 2 and americans.command_ap_on(5) == 4
    assert sc.first == 1 and sc.time_out_winner == 0


def test_monmouth_morning_lee_meets_the_turned_back_rear_guard():
    sc = load_scenario("monmouth_morning")
    americans, british = sc.sides
    assert sc.first == 0 and sc.time_out_winner == 1
    ((courthouse, vp),) = americans.objectives
    assert vp == 1 and sc.places[courthouse] == "Monmouth Courthouse"
    assert sc.terrain_at(courthouse) == "town"
    assert {sc.places[h] for h in americans.vp_counters} == {
        "Middle Ravine crossing", "West Ravine causeway"}
    (column,) = british.reinforcements
    assert column.turn == 3 and [ld.name for ld in column.leaders] == ["Clinton"]
    assert [americans.command_ap_on(t) for t in (1, 3, 4, 8)] == [3, 3, 2, 2]


def test_monmouth_afternoon_washington_holds_the_line():
    sc = load_scenario("monmouth_afternoon")
    americans, british = sc.sides
    assert sc.first == 1 and sc.time_out_winner == 0
    assert americans.command_ap == (2,) and british.command_ap == (4,)
    counters = {sc.places[h]: h for h in americans.vp_counters}
    assert set(counters) == {"Perrine's Hill", "the causeway", "Comb's Hill"}
    assert sc.terrain_at(counters["Comb's Hill"]) == "hill"
    assert sc.terrain_at(counters["the causeway"]) == "bridge"
    guns = {u.at for u in americans.units if u.kind == "artillery"}
    assert {counters["Perrine's Hill"], counters["Comb's Hill"]} == guns
    assert not british.reinforcements and kinds(british.units)["elite"] == 3


def stacked_with(sc: Scenario, seat: int, leader: str) -> tuple[str, str]:
    """The kind of the unit a leader starts with, and the terrain of its hex."""
    side = sc.sides[seat]
    at = next(ld.at for ld in side.leaders if ld.name == leader)
    return next(u.kind for u in side.units if u.at == at), sc.terrain_at(at)


def test_kings_mountain_riflemen_surround_ferguson_without_regulars():
    sc = load_scenario("kings_mountain")
    americans, loyalists = sc.sides
    assert kinds(americans.units) == {"light": 4, "militia": 5}
    # no British regulars: the American Volunteers (Provincials) and the loyalist militia
    assert kinds(loyalists.units) == {"elite": 1, "militia": 6}
    assert [ld.name for ld in loyalists.leaders] == ["Ferguson"]
    assert stacked_with(sc, 1, "Ferguson")[0] == "elite"
    # the camp on the ridge's broad north-eastern end; the riflemen come from both sides
    (camp,) = loyalists.vp_counters
    assert sc.terrain_at(camp) == "hill" and "camp" in sc.places[camp]
    assert set(americans.home_edges) == {"north", "south"}
    rows = {u.at[1] for u in americans.units}
    assert min(rows) < min(u.at[1] for u in loyalists.units)
    assert max(rows) > max(u.at[1] for u in loyalists.units)
    assert sc.first == 0 and sc.time_out_winner == 1


def test_eutaw_springs_house_thicket_and_militia_front_line():
    sc = load_scenario("eutaw_springs")
    americans, british = sc.sides
    house = next(h for h, name in sc.places.items() if name == "the brick house")
    camp = next(h for h, name in sc.places.items() if name == "the British camp")
    assert sc.terrain_at(house) == "town" and set(british.vp_counters) == {house, camp}
    assert stacked_with(sc, 1, "Majoribanks") == ("elite", "forest")  # the blackjack thicket
    assert "waterway" in sc.terrain.values()  # Eutaw Creek
    # Marion's militia in the front line, ahead of the Continentals
    assert stacked_with(sc, 0, "Marion")[0] == "militia"
    militia = [u.at[0] for u in americans.units if u.kind == "militia"]
    continentals = [u.at[0] for u in americans.units if u.kind == "regular"]
    assert min(militia) > max(continentals)
    assert kinds(americans.units)["dragoon"] == 2 and kinds(british.units)["dragoon"] == 1
    # Stewart was surprised: 1 command AP on turns 1-2, then 2
    assert [british.command_ap_on(t) for t in range(1, 5)] == [1, 1, 2, 2]
    assert sc.time_out_winner == 1


def test_weitzels_mill_holding_the_ford_of_reedy_fork():
    from warboard.holdtheline.hexes import neighbours

    sc = load_scenario("weitzels_mill")
    americans, british = sc.sides
    ford = next(h for h, name in sc.places.items() if name == "the mill ford")
    assert sc.terrain_at(ford) == "ford"
    (mill,) = americans.vp_counters
    assert mill in neighbours(ford) and sc.terrain_at(mill) == "town"
    # Campbell's riflemen on the bank at the ford, Tarleton with his Legion's horse
    campbell = next(ld.at for ld in americans.leaders if ld.name == "Campbell")
    assert campbell in neighbours(ford) and stacked_with(sc, 0, "Campbell")[0] == "light"
    assert stacked_with(sc, 1, "Tarleton")[0] == "dragoon"
    # the creek separates the sides: Americans north of it, British south
    creek = {h[1] for h, t in sc.terrain.items() if t in ("waterway", "ford")}
    (row,) = creek
    assert all(u.at[1] < row for u in americans.units)
    assert all(u.at[1] > row for u in british.units)
    # the British pursue off the north edge; holding out wins for Williams
    assert british.exit_hexes and all(h[1] == 0 for h in british.exit_hexes)
    assert sc.first == 1 and sc.time_out_winner == 0


def test_every_terrain_has_a_map_letter():
    assert sorted(MAP_LETTERS.values()) == sorted(TERRAINS) == sorted(TABLES.terrain)


def test_unknown_scenario_name():
    with pytest.raises(ValueError, match=r"unknown scenario 'waterloo'.*trenton"):
        load_scenario("waterloo")


# ============================================================================ validation

BASE = '''
title = "Test"
summary = "A test scenario."
history = "Something happened here once."
first = "blue"
turn_limit = 6
time_out = "draw"
options = ["hills_clear"]
map = """
. . . . . . . . . . . . .
 . . . . . . . . . . . . .
. . . . . . . . . . . . .
 . . . f . . . . . . . . .
. . . . . . s . . . . . .
 . . . . . . . . . . . . .
. . . . . . . . . . . . .
 . . . . . . . . . . . . .
. . . . . . . . . . . . .
"""

[terrain]
hill = ["8,4"]

[sides.blue]
home = "south"
command_ap = 2
vp_target = 4
units = [
  {id = "B1", kind = "regular", mp = 4, at = "4,6"},
  {id = "B2", kind = "artillery", at = "4,6"},
  {id = "B3", kind = "dragoon", at = "6,7"},
]
leaders = [{name = "Blue", at = "4,6", rating = [2, 1]}]
vp_counters = ["5,7"]

[sides.red]
home = "north"
command_ap = [1, 2]
vp_target = 4
units = [
  {id = "R1", kind = "elite", at = "4,2"},
  {id = "R2", kind = "militia", at = "6,2"},
]
leaders = [{name = "Red", at = "4,2"}]
exits = ["6,0"]
exit_vp = [1, 2]
'''


def write(tmp_path, text: str):
    path = tmp_path / "broken.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_the_base_test_file_is_valid(tmp_path):
    sc = load_scenario_file(write(tmp_path, BASE))
    assert sc.name == "broken"
    assert sc.terrain == {(3, 3): "forest", (6, 4): "swamp", (8, 4): "hill"}
    assert sc.sides[1].command_ap_on(1) == 1 and sc.sides[1].command_ap_on(5) == 2
    assert sc.sides[0].units[0].mp == 4 and sc.sides[1].units[0].mp == 4  # default: full size
    assert sc.sides[1].leaders[0].id == "red" and sc.sides[1].leaders[0].rating == (1, 1)
    assert sc.options == {"hills_clear": True}
    assert sc.first == 0 and sc.time_out_winner is None


BROKEN = [
    # (replace this, with this, field named, problem named)
    ('at = "4,2"},\n  {id = "R2"', 'at = "13,2"},\n  {id = "R2"', "sides.red.units[0].at",
     "off the board"),
    ('at = "4,2"},\n  {id = "R2"', 'at = "4,9"},\n  {id = "R2"', "sides.red.units[0].at",
     "off the board"),
    ('{id = "R2", kind = "militia", at = "6,2"}', '{id = "R2", kind = "militia", at = "6,4"}',
     "sides.red.units[1].at", "swamp (impassable)"),
    ('{id = "B3", kind = "dragoon", at = "6,7"}', '{id = "B3", kind = "regular", at = "4,6"}',
     "sides.blue.units[2]", "two infantry units"),
    ('{id = "B3", kind = "dragoon", at = "6,7"}', '{id = "B3", kind = "artillery", at = "4,6"}',
     "sides.blue.units[2]", "two artillery units"),
    ('{id = "B3", kind = "dragoon", at = "6,7"}', '{id = "B3", kind = "dragoon", at = "4,6"}',
     "sides.blue.units[2]", "an infantry unit and a dragoon"),
    ('{id = "R2", kind = "militia", at = "6,2"}', '{id = "R2", kind = "dragoon", at = "6,2"},'
     ' {id = "R3", kind = "dragoon", at = "6,2"}', "sides.red.units[2]", "two dragoon units"),
    ('{id = "R2", kind = "militia", at = "6,2"}', '{id = "R2", kind = "militia", at = "6,7"}',
     "sides.red.units[1]", "shares hex 6,7 with an enemy unit"),
    ('leaders = [{name = "Red", at = "4,2"}]', 'leaders = [{name = "Red", at = "4,2"}, '
     '{name = "Pink", at = "4,2"}]', "sides.red.leaders[1]", "one leader per hex"),
    ('leaders = [{name = "Red", at = "4,2"}]', 'leaders = [{name = "Red", at = "4,6"}]',
     "sides.red.leaders[0]", "leaders Blue and Red are both in hex 4,6"),
    ('hill = ["8,4"]', 'jungle = ["8,4"]', "terrain.jungle", "unknown terrain"),
    ('hill = ["8,4"]', 'hill = ["3,3"]', "terrain.hill[0]", "already has terrain forest"),
    (' . . . f . . . . . . . . .', ' . . . f . . . . . . . x .', "map",
     "unknown terrain letter 'x'"),
    (' . . . f . . . . . . . . .', ' . . . f . . . . . . . .', "map",
     "row 3 has 12 hexes"),
    ('kind = "militia"', 'kind = "grenadier"', "sides.red.units[1].kind",
     "unknown unit kind 'grenadier'"),
    ('{id = "R1", kind = "elite", at = "4,2"}', '{id = "R1", kind = "elite", mp = 5, at = "4,2"}',
     "sides.red.units[0].mp", "elite units start with 1 to 4 MP"),
    ('kind = "militia", at', 'kind = "militia", mp = 3, at', "sides.red.units[1].mp",
     "militia units start with 1 to 2 MP"),
    ('kind = "dragoon", at', 'kind = "dragoon", mp = 0, at', "sides.blue.units[2].mp",
     "not 0"),
    ('{id = "R2", kind', '{id = "R1", kind', "sides.red.units[1].id",
     "id 'R1' is already used by sides.red.units[0].id"),
    ('{id = "R2", kind', '{id = "B1", kind', "sides.red.units[1].id", "already used"),
    ('options = ["hills_clear"]', 'options = ["hills_clear", "cavalry_charge"]',
     "options.cavalry_charge", "unknown option"),
    ('options = ["hills_clear"]', 'options = ["11.3", "11.6"]', "options",
     "may not be used together"),
    ('options = ["hills_clear"]', 'options = {ap_adjust = [9, 0]}', "options.ap_adjust",
     "from -6 to 6"),
    ('home = "north"', 'home = "up"', "sides.red.home", "unknown edge 'up'"),
    ('home = "north"', 'home = []', "sides.red.home", "must be an edge"),
    ('first = "blue"', 'first = "green"', "first", "must be one of the sides (blue, red)"),
    ('time_out = "draw"', 'time_out = "nobody"', "time_out", "draw or vp"),
    ('turn_limit = 6', 'turn_limit = 0', "turn_limit", "at least 1"),
    ('command_ap = 2', 'command_ap = -1', "sides.blue.command_ap", "from 0 to"),
    ('command_ap = [1, 2]', 'command_ap = [1, 2, 2, 2, 2, 2, 2]', "sides.red.command_ap",
     "lists 7 turns; the game has 6"),
    ('vp_target = 4\nunits', 'vp_target = 0\nunits', "sides.blue.vp_target", "at least 1"),
    ('exits = ["6,0"]', 'exits = ["6,3"]', "sides.red.exits[0]", "not on the edge"),
    ('exit_vp = [1, 2]', 'exit_vp = [1, 0]', "sides.red.exit_vp", "must be [VP, units]"),
    ('vp_counters = ["5,7"]', 'vp_counters = ["6,4"]', "sides.blue.vp_counters[0]",
     "a VP counter on hex 6,4, which is swamp"),
    ('leaders = [{name = "Blue", at = "4,6", rating = [2, 1]}]',
     'leaders = [{name = "Blue", at = "4,6", rating = [3, 1]}]', "sides.blue.leaders[0].rating",
     "each 1 or 2"),
    ('title = "Test"', 'title = ""', "title", "must not be empty"),
    ('summary = "A test scenario."', 'summary = "A"\nsumary = "typo"', "sumary",
     "not a known field"),
    ('[sides.red]', '[sides.red.extra]\nx = 1\n[sides.red]', "sides.red.extra",
     "not a known field"),
    ('history = "Something happened here once."', '', "history", "is missing"),
    ('[sides.red]\n', '[sides.green]\nhome = "east"\ncommand_ap = 1\n[sides.red]\n', "sides",
     "exactly two sides, not 3"),
    ('at = "5,7"', 'at = [5]', "", ""),  # placeholder, replaced below
    ('turn_limit = 6', 'turn_limit = 6\ncols = 3', "cols", "at least 5"),
    ('title = "Test"', 'title = "Test', "(syntax)", ""),
]
BROKEN = [b for b in BROKEN if b[2]]
BROKEN += [
    ('at = "4,2"},\n  {id = "R2"', 'at = "four,two"},\n  {id = "R2"', "sides.red.units[0].at",
     'must be a hex "col,row"'),
    ('at = "4,2"},\n  {id = "R2"', 'at = [4, 2, 1]},\n  {id = "R2"', "sides.red.units[0].at",
     'must be a hex "col,row"'),
]


def test_time_out_by_vp_gives_the_game_to_the_side_with_more_vp(tmp_path):
    from warboard.core.i18n import english
    from warboard.core.registry import make_game
    from warboard.holdtheline.victory import turn_end_result

    sc = load_scenario_file(write(tmp_path, BASE.replace('time_out = "draw"', 'time_out = "vp"')))
    assert sc.time_out_by_vp and sc.time_out_winner is None
    state = make_game("holdtheline", {"scenario": sc}).new_initial_state()
    state.turn = sc.turn_limit
    last = 1 - sc.first
    assert turn_end_result(state, last)[0] is None  # equal VP: a draw
    state.vp_earned[sc.first] += 1
    winner, reason, text = turn_end_result(state, last)
    assert (winner, reason) == (sc.first, "time") and "win on VP (1 to 0)" in english(text)


@pytest.mark.parametrize("old,new,field,problem", BROKEN,
                         ids=[f"{b[2]}:{b[3][:30]}" for b in BROKEN])
def test_a_broken_file_is_refused_naming_file_field_and_problem(tmp_path, old, new, field,
                                                                problem):
    assert old in BASE, old
    path = write(tmp_path, BASE.replace(old, new, 1))
    with pytest.raises(DataFileError) as info:
        load_scenario_file(path)
    err = info.value
    message = str(err)
    assert message.startswith(f"{path}: "), message
    assert err.path == str(path)
    assert err.field == field or err.field.startswith(field), message
    assert problem in err.problem, message


def test_a_reinforcement_is_validated(tmp_path):
    good = BASE + '''
[[sides.red.reinforcements]]
turn = 3
entry = ["7,0", "8,0"]
units = [{id = "R9", kind = "regular", mp = 3, at = "6,0"}]
leaders = [{name = "Late", at = "6,0"}]
'''
    sc = load_scenario_file(write(tmp_path, good))
    (r,) = sc.sides[1].reinforcements
    assert r.turn == 3 and r.entry == ((7, 0), (8, 0)) and r.units[0].id == "R9"
    for old, new, field, problem in [
        ("turn = 3", "turn = 7", "sides.red.reinforcements[0].turn", "at most 6"),
        ('"R9"', '"R1"', "sides.red.reinforcements[0].units[0].id", "already used"),
        ('entry = ["7,0", "8,0"]', 'entry = ["6,4"]', "sides.red.reinforcements[0].entry[0]",
         "impassable"),
        ('units = [{id = "R9", kind = "regular", mp = 3, at = "6,0"}]\nleaders = [{name = '
         '"Late", at = "6,0"}]', 'units = []', "sides.red.reinforcements[0].units",
         "at least one"),
    ]:
        assert old in good
        with pytest.raises(DataFileError) as info:
            load_scenario_file(write(tmp_path, good.replace(old, new)))
        assert info.value.field == field and problem in info.value.problem, str(info.value)


def test_a_missing_file_is_a_data_file_error(tmp_path):
    with pytest.raises(DataFileError, match="cannot be read"):
        load_scenario_file(tmp_path / "nowhere.toml")


def test_units_may_start_reduced_but_never_above_their_size(tmp_path):
    text = BASE.replace('{id = "R1", kind = "elite", at = "4,2"}',
                        '{id = "R1", kind = "elite", mp = 2, at = "4,2"}')
    sc = load_scenario_file(write(tmp_path, text))
    assert sc.sides[1].units[0].mp == 2
    for kind in TABLES.units:
        assert TABLES.units[kind].max_mp == {"regular": 4, "elite": 4, "light": 3}.get(kind, 2)
    assert set(INFANTRY_KINDS) <= set(TABLES.units)


# ============================================================================ random games

@pytest.mark.parametrize("name", NAMES)
def test_every_scenario_finishes_a_random_game(name):
    from warboard.core.registry import make_game

    game = make_game("holdtheline", {"scenario": name})
    rng = random.Random(f"htl-{name}")
    state = game.new_initial_state()
    for _ in range(20000):
        if state.is_terminal():
            break
        if state.current_player() == CHANCE:
            state.apply(sample_chance(state, rng))
        else:
            legal = state.legal_actions()
            # a random player that ends its turn only when it has nothing else to do
            busy = [a for a in legal if game.action_to_json(a)["type"] != "end"]
            state.apply(rng.choice(busy or legal))
    assert state.is_terminal()
    assert sorted(state.returns()) in ([-1.0, 1.0], [0.0, 0.0])


# ============================================================================ the command

def run(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "warboard.cli", *argv], capture_output=True,
                          text=True, timeout=120)


def test_warboard_scenarios_lists_every_scenario():
    done = run("scenarios")
    assert done.returncode == 0, done.stderr
    for name, title, summary in list_scenarios():
        line = next(x for x in done.stdout.splitlines() if x.startswith(name + " "))
        assert title in line and summary in line
    assert "Americans* v Hessians" in done.stdout  # Trenton: sides, first mover marked


def test_warboard_scenarios_name_shows_details_and_history(tmp_path):
    done = run("scenarios", "trenton")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "Trenton (1776-12-26)" in out and "History:" in out and "McConkey" in out
    assert "Rahl 2/1" in out and "2 VP per 3 units exited" in out and "King Street" in out
    path = write(tmp_path, BASE)
    assert run("scenarios", "--check", str(path)).returncode == 0
    bad = run("scenarios", "waterloo")
    assert bad.returncode == 1 and "unknown scenario 'waterloo'" in bad.stderr
    broken = write(tmp_path, BASE.replace('kind = "militia"', 'kind = "pikemen"'))
    bad = run("scenarios", "--check", str(broken))
    assert bad.returncode == 1 and "sides.red.units[1].kind: unknown unit kind" in bad.stderr
    bad = run("play", "holdtheline", "--scenario", "waterloo")
    assert bad.returncode == 1 and bad.stderr.startswith("warboard: error: unknown scenario")


def test_warboard_scenarios_json_is_the_lobby_list_and_one_scenario_in_full(tmp_path):
    from warboard.holdtheline.lobby import scenario_summaries

    done = run("scenarios", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"scenarios": scenario_summaries()}
    done = run("scenarios", "trenton", "--json")
    assert done.returncode == 0, done.stderr
    trenton = json.loads(done.stdout)
    summary = next(s for s in scenario_summaries() if s["name"] == "trenton")
    assert {k: trenton[k] for k in summary if k != "sides"} == {
        k: v for k, v in summary.items() if k != "sides"}
    assert [side["label"] for side in trenton["sides"]] == ["Americans", "Hessians"]
    assert trenton["date"] == "1776-12-26" and "McConkey" in trenton["history"]
    assert (trenton["cols"], trenton["rows"]) == (13, 9) and trenton["special_rules"]
    americans = trenton["sides"][0]
    assert americans["name"] == "american" and americans["vp_target"] == 6
    assert americans["units"] == 12 and americans["reinforcements"] == []
    path = write(tmp_path, BASE)
    done = run("scenarios", "--check", str(path), "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["name"] == path.stem


# ============================================================================ the docs

DOC = Path(__file__).resolve().parents[1] / "docs" / "scenarios.md"


def test_the_documented_example_file_is_valid():
    text = DOC.read_text(encoding="utf-8")
    block = re.search(r"```toml\n(.*?)```", text, re.S)[1]
    sc = parse_scenario("docs/scenarios.md", tomllib.loads(block), "example")
    assert sc.sides[1].reinforcements and sc.sides[1].exit_vp == (2, 3)
    assert sc.sides[1].action_die == (1, 2, 0)


def test_the_docs_list_every_scenario_every_option_and_every_terrain():
    text = DOC.read_text(encoding="utf-8")
    for name in NAMES:
        assert f"| `{name}` |" in text, name
    for option, (number, _) in OPTIONS.items():
        assert re.search(rf"`{option}`[^|]*\| {re.escape(number)} \|", text), option
    for letter, terrain in MAP_LETTERS.items():
        assert f"| `{letter}` | {terrain}" in text, terrain
