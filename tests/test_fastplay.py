"""The C fast path (warboard.hill218._fastplay) against the Python reference engine.

Every C game is replayed through ``CardState.apply``, which checks each chance outcome, burial
and play for legality, and must end with the same result; C's play counts must equal the length of
``legal_plays()``; and C's choice must be uniform over the complete plays.
"""

from __future__ import annotations

import copy
import json
import random
from collections import Counter
from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from fast_path import CONFIGS, require_fast_path
from warboard.core.datafile import load_packaged_toml
from warboard.core.errors import PositionError
from warboard.core.protocol import CHANCE, sample_chance
from warboard.hill218 import fast
from warboard.hill218.actions import action_to_json
from warboard.hill218.game import CardGame
from warboard.hill218.ruleset import Ruleset, parse_ruleset
from warboard.hill218.serialize import position_from_json, position_to_json
from warboard.hill218.state import CardState

require_fast_path()
IDS = [f"{name}-{json.dumps(opts, separators=(',', ':'))}" for name, opts in CONFIGS]


def replay(game: CardGame, events: list[dict[str, Any]],
           state: CardState | None = None) -> CardState:
    """Apply C's events to a Python state (a fresh game unless given), checking at each step that
    the Python engine asks for exactly that kind of event."""
    if state is None:
        state = game.new_initial_state()
    for i, event in enumerate(events):
        assert not state.is_terminal(), f"event {i} {event} after the end of the game"
        wants_chance = state.current_player() == CHANCE
        assert wants_chance == ("chance" in event), (
            f"event {i} {event}: the Python engine is in phase {state.phase!r}")
        state.apply(game.action_from_json(event))  # raises IllegalActionError when illegal
    assert state.is_terminal(), f"the C game ended; the Python game is in {state.phase!r}"
    return state


# ----------------------------------------------------------------------------- whole games

@pytest.mark.parametrize(("name", "options"), CONFIGS, ids=IDS)
def test_random_games_replay_in_python(name: str, options: dict[str, Any]) -> None:
    fr = fast.FastRules(name, options)
    game = CardGame(name, options)
    endings: Counter[str] = Counter()
    for seed in range(150):
        events, result = fast.random_game(fr, seed)
        state = replay(game, events)
        assert state.result == result, f"seed {seed}"
        endings[result["reason"]] += 1
    assert endings["count"] > 0


def test_trace_order_of_setup() -> None:
    """First player, seat 0's setup draws and burial, then seat 1's, then the first turn."""
    events = fast.random_game_trace(fast.FastRules("hill218"), 3)
    assert events[0]["chance"] == "first_player"
    kinds = [e.get("play", e.get("chance")) for e in events]
    first_bury, second_bury = (i for i, k in enumerate(kinds) if k == "bury")
    assert kinds[1:first_bury] == ["draw"] * 5
    assert kinds[first_bury + 1:second_bury] == ["draw"] * 5
    assert kinds[second_bury + 1] == "draw"  # the first turn draws 1 ...
    assert kinds[second_bury + 2] in ("deploy", "strike")  # ... and plays 1


def test_custom_ruleset_is_data_not_code() -> None:
    """A ruleset unlike both packaged ones (push supply with Hill 218 cards, artillery taking
    both plays and surviving a hit as a tank) still matches the Python engine."""
    path, data = load_packaged_toml("warboard.hill218.rulesets", "hill218.toml")
    data = copy.deepcopy(data)
    data["name"] = "hill218-push"  # its own name: nothing may mistake it for hill218
    data["supply_model"] = "push"
    data["units"]["artillery"].update(plays=2, attacks=2, hit_becomes="tank", counts_as=2)
    data["units"]["special_forces"]["supply"] = [[2, 1], [-2, 1]]
    rules = parse_ruleset(path, data)
    fr = fast.FastRules(rules)
    game = CardGame(options={}, rules=rules)
    for seed in range(60):
        events, result = fast.random_game(fr, seed)
        assert replay(game, events).result == result, f"seed {seed}"


def test_random_game_is_the_first_of_random_games() -> None:
    fr = fast.FastRules("ogre218")
    for seed in range(20):
        _, result = fast.random_game(fr, seed)
        tally = fast.random_games(fr, 1, seed)
        if result["winner"] is None:
            assert tally["draws"] == 1
        else:
            assert tally["wins"][result["winner"]] == 1
        assert tally[result["reason"]] == 1


@pytest.mark.parametrize("name", ["hill218", "ogre218"])
def test_random_games_tally(name: str) -> None:
    fr = fast.FastRules(name)
    a = fast.random_games(fr, 300, 42)
    assert a == fast.random_games(fr, 300, 42)  # seeded: reproducible
    assert a != fast.random_games(fr, 300, 43)
    assert a["games"] == 300 == sum(a["wins"]) + a["draws"] == a["base"] + a["count"]
    assert a["plays"] > 300 * 20
    assert min(a["wins"]) > 50  # both seats win often
    assert fast.random_games(fr, 0, 1)["games"] == 0


# ----------------------------------------------------------------------------- positions

def python_positions(name: str, options: dict[str, Any],
                     seed: int) -> Iterator[tuple[dict[str, Any], CardState]]:
    """The §7 position of every decision point of one Python random game."""
    rng = random.Random(seed)
    game = CardGame(name, options)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            state.apply(sample_chance(state, rng))
            continue
        if state.phase == "play":
            yield position_to_json(state, rng), state
        state.apply(rng.choice(state.legal_actions()))


@pytest.mark.parametrize(("name", "options"), CONFIGS[::2], ids=IDS[::2])
def test_count_plays_matches_legal_plays(name: str, options: dict[str, Any]) -> None:
    fr = fast.FastRules(name, options)
    checked = 0
    for seed in range(12):
        for pos, _state in python_positions(name, options, seed):
            expected = len(position_from_json(pos).legal_plays())
            assert fast.count_plays(fr, pos) == expected, json.dumps(pos)
            checked += 1
    assert checked > 500


@pytest.mark.parametrize("name", ["hill218", "ogre218"])
def test_playouts_from_positions_replay_in_python(name: str) -> None:
    """Random games played on from §7 positions (decks in the given order: no chance events)."""
    fr = fast.FastRules(name)
    for seed in range(6):
        for i, (pos, _state) in enumerate(python_positions(name, {}, seed)):
            if i % 7:
                continue
            events, result = fast.random_game(fr, 1000 * seed + i, pos)
            assert all("play" in e for e in events)
            state = position_from_json(pos)
            assert replay(state.game, events, state).result == result, json.dumps(pos)


def u(x: int, y: int, seat: int, unit: str) -> dict[str, Any]:
    return {"x": x, "y": y, "seat": seat, "unit": unit}


# small positions with drops, combined and individual attacks, Ogre hit sequences and strikes
SMALL = {
    "ogre218": {
        "ruleset": "ogre218", "to_move": 0, "plays_left": 2,
        "board": [u(0, -1, 0, "infantry"), u(1, -1, 0, "heavy_tank"), u(0, 1, 1, "infantry"),
                  u(2, 0, 1, "ogre"), u(-1, 0, 1, "gev")],
        "hands": [{"ogre": 1, "light_gev": 1}, {"infantry": 1}],
        "strikes": [1, 2], "decks": [[], []]},
    "hill218": {
        "ruleset": "hill218", "to_move": 1, "plays_left": 1,
        "board": [u(0, -1, 0, "infantry"), u(1, -1, 0, "heavy_weapons"), u(-1, -1, 0, "tank"),
                  u(0, 1, 1, "infantry"), u(1, 1, 1, "special_forces"), u(-1, 1, 1, "tank")],
        "hands": [{"infantry": 2}, {"infantry": 1, "artillery": 1, "heavy_weapons": 1,
                                    "paratroopers": 1}],
        "strikes": [2, 1], "decks": [[], ["tank"]]},
}


def play_key(play: Mapping[str, Any]) -> str:
    return json.dumps(play, sort_keys=True)


@pytest.mark.parametrize("name", sorted(SMALL))
def test_choice_is_uniform_over_complete_plays(name: str) -> None:
    pos = SMALL[name]
    fr = fast.FastRules(name)
    legal = [play_key(action_to_json(p)) for p in position_from_json(pos).legal_plays()]
    assert len(set(legal)) == len(legal) > 20
    assert fast.count_plays(fr, pos) == len(legal)
    per_play = 300
    n = per_play * len(legal)
    seen = Counter(play_key(p) for p in fast.sample_plays(fr, pos, n, seed=2024))
    assert sum(seen.values()) == n
    assert set(seen) == set(legal), "C sampled a play that is not legal, or missed one"
    chi2 = sum((seen[k] - per_play) ** 2 / per_play for k in legal)
    df = len(legal) - 1
    # a generous bound: about 5 standard deviations above the mean of chi-square(df)
    assert chi2 < df + 5 * (2 * df) ** 0.5, f"chi2 {chi2:.1f} with {df} degrees of freedom"


def test_position_checks() -> None:
    fr = fast.FastRules("hill218")
    with pytest.raises(ValueError, match="ogre218"):
        fast.count_plays(fr, SMALL["ogre218"])
    bad = copy.deepcopy(SMALL["hill218"])
    bad["board"].append(u(0, 0, 0, "tank"))
    with pytest.raises(PositionError):
        fast.count_plays(fr, bad)


# ----------------------------------------------------------------------------- refusals

def _rules_with(**changes: Any) -> Ruleset:
    path, data = load_packaged_toml("warboard.hill218.rulesets", "hill218.toml")
    data = copy.deepcopy(data)
    data["name"] = "hill218-changed"
    for unit, fields in changes.items():
        data["units"][unit].update(fields)
    return parse_ruleset(path, data)


def test_window_grows_with_the_reach_of_the_diagrams() -> None:
    assert fast.FastRules("hill218").window == 256
    assert fast.FastRules("ogre218", {"damaged_ogres": [1, 1]}).window == 256
    # each placement may now go 3 further: 3 * (48 + 1) + 3 > 127, so a 512 window is needed
    rules = _rules_with(infantry={"supply": [[0, 3], [-1, 0], [0, -1]]})
    fr = fast.FastRules(rules)
    assert (fr.window, fr.reach_place, fr.reach_look) == (512, 3, 3)
    game = CardGame(options={}, rules=rules)
    for seed in range(20):
        events, result = fast.random_game(fr, seed)
        assert replay(game, events).result == result, f"seed {seed}"


def test_refuses_a_ruleset_that_could_leave_the_window() -> None:
    far = _rules_with(infantry={"supply": [[0, 12], [0, -1]]})  # 12 * 49 + 12 > 511
    with pytest.raises(ValueError, match="window"):
        fast.FastRules(far)


def test_options_are_checked() -> None:
    with pytest.raises(ValueError):
        fast.FastRules("hill218", {"damaged_ogres": [1, 0]})
    with pytest.raises(ValueError):
        fast.FastRules("ogre218", {"damaged_ogres": [3, 0]})
