"""Ruleset data files (contract §2: "Unit diagrams, deck contents and the supply model are data
of the ruleset, not code"): the packaged files match the contract's tables, broken files are
refused with "FILE: FIELD: PROBLEM", and a changed file changes the game without code.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import pytest

from positions import BOTH, CONTRACT
from warboard.core.errors import DataFileError
from warboard.core.protocol import CHANCE
from warboard.hill218 import CardGame, Deploy, FirstPlayer
from warboard.hill218.ruleset import load_ruleset, load_ruleset_file, parse_ruleset


def packaged_text(name: str) -> str:
    return resources.files("warboard.hill218.rulesets").joinpath(f"{name}.toml").read_text(
        encoding="utf-8")


# ============================================================================ §2 the tables

@pytest.mark.parametrize("name", BOTH)
def test_s2_packaged_ruleset_matches_the_contract_tables(name):
    """§2: every unit's count, supply, attack squares and kind, number of attacks, support
    (target) squares, unit count, plays, drop and hit rule are those of the contract's table."""
    rules = load_ruleset(name)
    table = CONTRACT[name]
    assert rules.name == name
    assert rules.supply_model == table["supply_model"]
    assert rules.strikes == table["strikes"]
    assert [unit.name for unit in rules.units] == list(table["units"])
    for unit in rules.units:
        card = table["units"][unit.name]
        assert unit.count == card.count, unit.name
        assert set(unit.supply) == set(card.supply), unit.name
        assert len(unit.supply) == len(card.supply)
        assert sorted(unit.attack) == sorted((o, card.individual) for o in card.attack), unit.name
        assert set(unit.support) == set(card.support), unit.name
        assert unit.attacks == card.attacks, unit.name
        assert unit.counts_as == card.counts_as, unit.name
        assert unit.plays == card.plays, unit.name
        assert unit.drop == card.drop, unit.name
        assert unit.hit_becomes == card.hit_becomes, unit.name


@pytest.mark.parametrize("name", BOTH)
def test_s2_packaged_file_loads_the_same_from_a_path(name, tmp_path):
    """§2: the data file is an ordinary file a user can copy and load."""
    path = tmp_path / f"{name}.toml"
    path.write_text(packaged_text(name), encoding="utf-8")
    copy = load_ruleset_file(path)
    assert copy.path == str(path)
    assert copy.units == load_ruleset(name).units
    assert copy.supply_model == load_ruleset(name).supply_model


def test_s2_handicap_is_data():
    """§3.3: the damaged_ogres handicap is declared by the ogre218 data, not hill218."""
    assert load_ruleset("ogre218").handicap == ("damaged_ogres", "ogre", "damaged_ogre")
    assert load_ruleset("hill218").handicap is None


# ============================================================================ broken files

BROKEN = [
    # (case id, ruleset file, old text, new text, field, fragment of the problem)
    ("bad syntax", "hill218", 'count = 3\nabbrev = "TNK"', 'count = = 3\nabbrev = "TNK"',
     "(syntax)", "line"),
    ("unknown top-level field", "hill218", 'strikes = 2', 'strikes = 2\ncolour = "red"',
     "colour", "not a known field"),
    ("unknown unit field", "hill218", 'abbrev = "TNK"', 'abbrev = "TNK"\ncout = 3',
     "units.tank.cout", "not a known field"),
    ("unknown attack kind", "hill218", 'attack = { individual = "artillery" }',
     'attack = { ranged = "artillery" }', "units.artillery.attack.ranged",
     "not a known field"),
    ("unknown shape", "hill218", '[units.special_forces]\ncount = 3\nabbrev = "SF"\n'
     'supply = "diag"', '[units.special_forces]\ncount = 3\nabbrev = "SF"\nsupply = "diagonal"',
     "units.special_forces.supply", "diagonal"),
    ("unknown shape in attack", "hill218", 'attack = { individual = "artillery" }',
     'attack = { individual = "artilery" }', "units.artillery.attack.individual", "artilery"),
    ("offset of one number", "hill218", 'artillery = [[-1, 2], [0, 2], [1, 2], [0, 3]]',
     'artillery = [[-1, 2], [0, 2], [1, 2], [3]]', "shapes.artillery", "[3]"),
    ("offset not whole", "hill218", 'artillery = [[-1, 2], [0, 2], [1, 2], [0, 3]]',
     'artillery = [[-1, 2], [0, 2], [1, 2], [0, 3.5]]', "shapes.artillery", "3.5"),
    ("offset on the unit itself", "hill218", 'abbrev = "TNK"\nsupply = "orth"',
     'abbrev = "TNK"\nsupply = [[0, 0], [0, 1]]', "units.tank.supply", "own square"),
    ("square listed twice", "hill218", 'abbrev = "HW"\nsupply = "orth"',
     'abbrev = "HW"\nsupply = ["orth", [0, 1]]', "units.heavy_weapons.supply", "twice"),
    ("combined and individual at once", "hill218", 'attack = { individual = "orth" }',
     'attack = { individual = "orth", combined = [[0, 1]] }', "units.tank.attack.individual",
     "combined"),
    ("duplicate abbreviation", "hill218", 'abbrev = "HW"', 'abbrev = "INF"',
     "units.heavy_weapons.abbrev", "INF"),
    ("missing field", "hill218", 'abbrev = "TNK"\n', '', "units.tank.abbrev", "missing"),
    ("wrong type", "hill218", '[units.tank]\ncount = 3', '[units.tank]\ncount = "three"',
     "units.tank.count", "whole number"),
    ("negative count", "hill218", '[units.tank]\ncount = 3', '[units.tank]\ncount = -1',
     "units.tank.count", "at least 0"),
    ("unknown supply model", "hill218", 'supply_model = "pull"', 'supply_model = "teleport"',
     "supply_model", "teleport"),
    ("unknown hit_becomes", "ogre218", 'hit_becomes = "damaged_ogre"',
     'hit_becomes = "wrecked_ogre"', "units.ogre.hit_becomes", "wrecked_ogre"),
    ("hit_becomes itself", "ogre218", 'hit_becomes = "damaged_ogre"', 'hit_becomes = "ogre"',
     "units.ogre.hit_becomes", "itself"),
    ("hit cycle", "ogre218", 'counts_as = 1\nplays = 2',
     'counts_as = 1\nplays = 2\nhit_becomes = "ogre"', ".hit_becomes", "cycle"),
    ("handicap names no unit", "ogre218", '\nbecomes = "damaged_ogre"',
     '\nbecomes = "ogre_mk5"', "handicap.becomes", "ogre_mk5"),
]


@pytest.mark.parametrize(("ruleset", "old", "new", "field", "fragment"),
                         [c[1:] for c in BROKEN], ids=[c[0] for c in BROKEN])
def test_s2_broken_ruleset_file_names_file_field_and_problem(tmp_path, ruleset, old, new,
                                                             field, fragment):
    """§2 data files: a broken file is refused with DataFileError "FILE: FIELD: PROBLEM"."""
    text = packaged_text(ruleset)
    assert text.count(old) == 1, f"fixture text not found once: {old!r}"
    path = tmp_path / "custom.toml"
    path.write_text(text.replace(old, new), encoding="utf-8")
    with pytest.raises(DataFileError) as info:
        load_ruleset_file(path)
    err = info.value
    assert err.path == str(path)
    assert err.field.endswith(field) if field.startswith(".") else err.field == field
    assert fragment in err.problem
    assert str(err) == f"{path}: {err.field}: {err.problem}"


def test_s2_unreadable_file(tmp_path):
    path = tmp_path / "absent.toml"
    with pytest.raises(DataFileError) as info:
        load_ruleset_file(path)
    assert info.value.path == str(path)
    assert str(info.value).startswith(f"{path}: ")


@pytest.mark.parametrize(("data", "field"), [
    ({}, "units"),
    ({"units": {}}, "units"),
    ({"units": {"a": {"count": 0, "abbrev": "A", "supply": [[0, 1]],
                      "attack": {"combined": [[0, 1]]}, "support": [[0, 1]]}}}, "units"),
    ({"units": []}, "units"),
    ({"shapes": {"x": "y"}, "units": {}}, "shapes.x"),
])
def test_s2_parse_ruleset_from_data(data, field):
    """§2: parse_ruleset checks data given directly (no units, empty deck, wrong types)."""
    with pytest.raises(DataFileError) as info:
        parse_ruleset("mem.toml", data)
    assert info.value.path == "mem.toml"
    assert info.value.field == field


# ============================================================================ data, not code

HEADER = '''name = "custom"
title = "A changed deck"
supply_model = "{model}"
strike_name = "Strike"
strikes = 0
'''

UNIT = '''
[units.scout]
count = 12
abbrev = "SCT"
supply = {supply}
attack = {attack}
support = {support}
'''


def custom_game(tmp_path: Path, model: str, supply: str, attack: str,
                support: str) -> CardGame:
    path = tmp_path / "custom.toml"
    path.write_text(HEADER.format(model=model)
                    + UNIT.format(supply=supply, attack=attack, support=support),
                    encoding="utf-8")
    return CardGame("custom", {"quick_start": True}, rules=load_ruleset_file(path))


def opening(game: CardGame):
    """Seat 0 takes its base, then seat 1 takes its base: seat 1's second play is next."""
    state = game.new_initial_state()
    state.apply(FirstPlayer(0))
    draw_forced(state)  # one kind of card: every draw has one outcome
    assert state.legal_actions() == [Deploy("scout", (0, -1), ())]
    state.apply(Deploy("scout", (0, -1), ()))
    draw_forced(state)
    assert state.legal_actions() == [Deploy("scout", (0, 1), ())]
    state.apply(Deploy("scout", (0, 1), ()))
    draw_forced(state)
    return state


def draw_forced(state) -> None:
    """Apply chance draws that have a single outcome (probability 1)."""
    while state.current_player() == CHANCE:
        (outcome, p), = state.chance_outcomes()
        assert p == 1.0
        state.apply(outcome)


@pytest.mark.parametrize(("model", "supply", "seat1", "seat0"), [
    # pull: draws from the square in front -> both seats extend backwards
    ("pull", "[[0, 1]]", (0, 2), (0, -2)),
    # push: projects forward-right -> seat 0 to (1, 0), seat 1 (turned) to (-1, 0)
    ("push", "[[1, 1]]", (-1, 0), (1, 0)),
])
def test_s1_s2_changed_supply_diagram_is_turned_for_seat_1(tmp_path, model, supply, seat1,
                                                           seat0):
    """§1/§2: a changed data file changes play without code; its diagrams are in the owner's
    frame, turned half a circle for seat 1."""
    game = custom_game(tmp_path, model, supply, '{ individual = [[5, 5]] }', '[[5, 5]]')
    state = opening(game)
    assert state.legal_actions() == [Deploy("scout", seat1, ())]
    state.apply(Deploy("scout", seat1, ()))
    draw_forced(state)
    assert state.legal_actions() == [Deploy("scout", seat0, ())]


@pytest.mark.parametrize(("support", "combined_hits"), [("[[5, 5]]", False),
                                                        ("[[0, 2]]", True)])
def test_s2_diagram_may_mix_combined_and_individual_squares(tmp_path, support, combined_hits):
    """§2: "A diagram may mix combined and individual squares; the engine must allow that per
    square." North's scout at (1, 0) hits (0, -1) through its individual square; at (-1, 0)
    through its combined square only when another unit targets (0, -1)."""
    all8 = "[[0, 1], [1, 0], [0, -1], [-1, 0], [1, 1], [1, -1], [-1, 1], [-1, -1]]"
    game = custom_game(tmp_path, "pull", all8,
                       '{ individual = [[1, 1]], combined = [[-1, 1]] }', support)
    state = opening(game)
    plays = {a.at: a.attacks for a in state.legal_actions()}
    assert plays[(1, 0)] == ((0, -1),)
    assert plays[(-1, 0)] == (((0, -1),) if combined_hits else ())
    assert set(plays) == {(-1, 0), (1, 0), (-1, 1), (1, 1), (-1, 2), (0, 2), (1, 2)}
