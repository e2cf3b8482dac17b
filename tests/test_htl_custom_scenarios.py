"""Scenarios of one's own given whole (``warboard.holdtheline.scenario_toml`` and ``setups``):
a scenario written as TOML and as the editor's model reads back to the same scenario, the game
option ``scenario_toml`` plays one, and the checks name the field and the hex."""

from __future__ import annotations

import dataclasses
import tomllib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from custom_scenarios import SMALL_BATTLE
from warboard.core import registry
from warboard.holdtheline.scenario_file import load_scenario, scenario_names
from warboard.holdtheline.scenario_toml import (
    _key,
    _long_text,
    _value,
    scenario_to_model,
    scenario_to_toml,
)
from warboard.holdtheline.setups import SETUPS, scenario_from_text


@pytest.mark.parametrize("name", scenario_names())
def test_a_packaged_scenario_written_back_reads_the_same(name: str) -> None:
    scenario = load_scenario(name)
    text = scenario_to_toml(scenario)
    assert dataclasses.replace(scenario_from_text(text), name=name) == scenario
    checked = SETUPS.check_model(scenario_to_model(scenario))
    assert checked.ok and checked.text == text
    assert checked.summary is not None and checked.summary["title"] == scenario.title


def test_the_game_option_plays_the_text_and_carries_it() -> None:
    game = registry.make_game("holdtheline", SETUPS.options_for(SMALL_BATTLE))
    assert game.options == {"scenario_toml": SMALL_BATTLE}
    assert game.describe_seats() == ("Blues", "Reds")
    state = game.new_initial_state()
    assert state.observation(0)["cols"] == 6
    with pytest.raises(ValueError, match="exclude each other"):
        registry.make_game("holdtheline", {"scenario": "tutorial", "scenario_toml": SMALL_BATTLE})
    with pytest.raises(ValueError, match=r"scenario_toml: scenario\.toml: turn_limit: is missing"):
        registry.make_game("holdtheline", {"scenario_toml": SMALL_BATTLE.replace(
            "turn_limit = 4", "")})
    with pytest.raises(ValueError, match="must be a scenario's TOML text"):
        registry.make_game("holdtheline", {"scenario_toml": ["not", "text"]})


def test_a_problem_names_its_hex_from_the_words_or_the_field() -> None:
    [off] = SETUPS.check_text(SMALL_BATTLE.replace('"3,0"', '"3,7"')).problems
    assert (off.field, off.at) == ("sides.red.vp_counters[0]", (3, 7))
    swamp = SMALL_BATTLE.replace('forest = ["2,2"]', 'swamp = ["2,4"]')
    [on] = SETUPS.check_text(swamp).problems
    assert (on.field, on.at) == ("sides.blue.units[0].at", (2, 4))
    [no_hex] = SETUPS.check_text(SMALL_BATTLE.replace('first = "blue"', 'first = "green"'))\
        .problems
    assert (no_hex.field, no_hex.at) == ("first", None)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=400)
       | st.lists(st.sampled_from(["a", " ", "  ", '"', '"""', "\\", "\n", "\t", "word"]),
                  max_size=120).map("".join))
def test_a_long_text_reads_back_exactly(text: str) -> None:
    assert tomllib.loads(f"v = {_long_text(text)}")["v"] == text


@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=60))
def test_a_string_and_a_key_read_back_exactly(text: str) -> None:
    assert tomllib.loads(f"{_key(text)} = {_value(text)}") == {text: text}
