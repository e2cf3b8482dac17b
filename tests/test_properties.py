"""Property tests over many random games of both rulesets (issue 2, requirement 7)."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from warboard.core.protocol import CHANCE, TERMINAL, outcome_probabilities_ok
from warboard.core.record import Recorder, replay_state
from warboard.hill218 import CardGame
from warboard.hill218.grid import HILL
from warboard.hill218.sampler import count_plays, play_choice, random_play
from warboard.hill218.serialize import position_from_json, position_to_json, state_from_json
from warboard.hill218.state import BURY, PLAY, CardState

MAX_STEPS = 2000

game_options = st.sampled_from([
    ("hill218", {}),
    ("hill218", {"quick_start": True}),
    ("ogre218", {}),
    ("ogre218", {"quick_start": True}),
    ("ogre218", {"damaged_ogres": [2, 1]}),
])


def bodies(state: CardState, seat: int) -> list[int]:
    """Cards of ``seat`` by unit id over hand, deck, board and destroyed, each card once
    (a hit-changed card is counted as the card it replaced)."""
    rules = state.rules
    have = [0] * len(rules.units)
    for code in state.cells.values():
        if code & 1 == seat:
            have[code >> 1] += 1
    deck = state.decks[seat].counts()
    for uid in range(len(rules.units)):
        have[uid] += state.hands[seat][uid] + deck[uid]
        if rules.origin[uid] < 0:  # a destroyed hit-changed card also counted its origin
            have[uid] += state.destroyed[seat][uid]
    for uid in range(len(rules.units)):
        origin = rules.origin[uid]
        if origin >= 0:  # fold the hit-changed card into its family
            have[origin] += have[uid]
            have[uid] = 0
    return have


def family_counts(state: CardState, seat: int) -> list[int]:
    rules = state.rules
    want = state.game.deck_counts(seat)
    for uid in range(len(rules.units)):
        origin = rules.origin[uid]
        if origin >= 0:
            want[origin] += want[uid]
            want[uid] = 0
    return want


def check_invariants(state: CardState) -> None:
    rules = state.rules
    assert HILL not in state.cells
    for seat in (0, 1):
        assert bodies(state, seat) == family_counts(state, seat), "cards not conserved"
        assert all(n >= 0 for n in state.hands[seat])
        assert 0 <= state.strikes[seat] <= rules.strikes
    player = state.current_player()
    if player == CHANCE:
        assert outcome_probabilities_ok(state.chance_outcomes())
    elif player == TERMINAL:
        assert state.result is not None and state.legal_actions() == []
    else:
        assert state.legal_actions(), "a decision point always has a legal action"
        if state.phase == PLAY:
            assert 1 <= state.plays_left <= 2
            # the incremental supply bookkeeping agrees with a fresh computation
            fresh = state_from_json(state.game, json.loads(json.dumps(state.to_json())))
            for seat in (0, 1):
                assert state.supplied(seat) == fresh.supplied(seat)
                for uid in range(len(rules.units)):
                    assert state.deploy_cells(seat, uid) == fresh.deploy_cells(seat, uid)


def play_random(name: str, options: dict, seed: int, check: bool = True) -> Recorder:
    game = CardGame(name, options)
    rec = Recorder(game, seed=seed)
    rng = random.Random(seed)
    for _ in range(MAX_STEPS):
        state = rec.state
        if check:
            check_invariants(state)
        if state.is_terminal():
            return rec
        if state.current_player() == CHANCE:
            outcomes = state.chance_outcomes()
            rec.apply(rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0])
        else:
            rec.apply(rng.choice(state.legal_actions()))
    raise AssertionError(f"game did not end within {MAX_STEPS} steps")


@given(game_options, st.integers(0, 2**32))
def test_random_games_end_conserve_cards_and_stay_legal(opts, seed):
    name, options = opts
    rec = play_random(name, options, seed)
    assert rec.state.is_terminal()
    result = rec.state.result
    assert result["reason"] in ("base", "count")
    assert result["units"] == [rec.state.unit_count(0), rec.state.unit_count(1)]
    if result["reason"] == "count":
        a, b = result["units"]
        assert result["winner"] == (None if a == b else (0 if a > b else 1))
        assert all(d.size() == 0 for d in rec.state.decks)


@given(game_options, st.integers(0, 2**32))
def test_replay_from_record_is_exact(opts, seed):
    name, options = opts
    rec = play_random(name, options, seed, check=False)
    data = json.loads(json.dumps(rec.record.to_json()))
    from warboard.core.record import Record

    replayed = replay_state(Record.from_json(data))
    assert replayed.to_json() == rec.state.to_json()
    assert replayed.returns() == rec.state.returns()


def hide_swap(state: CardState, seat: int, rng: random.Random) -> CardState | None:
    """A state that differs from ``state`` only in what ``seat`` cannot see: one card of the
    opponent's hand swapped with one from the unordered part of the opponent's deck."""
    other = 1 - seat
    hand, pool = state.hands[other], state.decks[other].pool
    pairs = [(a, b) for a, na in enumerate(hand) if na for b, nb in enumerate(pool)
             if nb and a != b]
    if not pairs:
        return None
    a, b = rng.choice(pairs)
    twin = state.clone()
    twin.hands[other][a] -= 1
    twin.hands[other][b] += 1
    twin.decks[other].pool[a] += 1
    twin.decks[other].pool[b] -= 1
    return twin


@given(game_options, st.integers(0, 2**32))
def test_a_seat_view_never_shows_the_other_hand_or_deck_order(opts, seed):
    name, options = opts
    rec = play_random(name, options, seed, check=False)
    rng = random.Random(seed)
    from warboard.core.record import replay_states

    for state in replay_states(rec.record):
        for seat in (0, 1):
            view = state.observation(seat)
            twin = hide_swap(state, seat, rng)
            if twin is not None:
                assert twin.observation(seat) == view
            text = json.dumps(view)
            assert "pool" not in text and "top" not in text
            assert set(view) >= {"hand", "bottom", "deck"}
            public = state.observation(None)
            assert "hand" not in public and "bottom" not in public and "deck" not in public


def check_sampler_over_game(name: str, options: dict, seed: int) -> None:
    """Play one random game through the sampler, checking it against the enumeration and the
    position round trip at every play."""
    game = CardGame(name, options)
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.phase == PLAY:
            legal = state.legal_plays()
            assert count_plays(state) == len(legal) == len(set(legal))
            position = position_to_json(state, rng)
            again = position_from_json(json.loads(json.dumps(position)))
            assert again.legal_plays() == legal
            choice = random_play(state, rng)
            check = state.clone()
            play_choice(state, choice)
            # the same play through the validating path reaches the same state
            from warboard.hill218.actions import Deploy, Strike
            from warboard.hill218.grid import unpack

            uid, cell, hits = choice
            action = (Strike(unpack(cell)) if uid < 0 else
                      Deploy(state.rules.units[uid].name, unpack(cell),
                             tuple(unpack(t) for t in hits)))
            assert action in legal
            check.apply(action)
            assert check.to_json() == state.to_json()
        elif state.phase == BURY:
            state.apply(rng.choice(state.legal_actions()))
        else:
            state.apply(state.sample_chance_outcome(rng))


@given(game_options, st.integers(0, 2**32))
def test_sampler_matches_enumeration_and_positions_round_trip(opts, seed):
    name, options = opts
    check_sampler_over_game(name, options, seed)


def test_sampler_regression_ogre218_seed_223():
    """Issue 10: this game reaches a position where counting the plays raised a TypeError."""
    check_sampler_over_game("ogre218", {}, 223)


def test_count_plays_when_the_first_unit_drops():
    """Counting must not sample: the first playable unit (a drop) is the one a stand-in rng
    drawing 0 would reach, and its drop zone is sampled with ``randint``."""
    state = position_from_json({
        "ruleset": "ogre218", "to_move": 1, "plays_left": 1, "board": [],
        "hands": [{}, {"light_gev": 2, "ogre": 2}], "strikes": [2, 2], "decks": [[], []],
    })
    assert count_plays(state) == len(state.legal_plays()) == 23


def test_sampler_is_uniform_over_complete_plays():
    """Chi-square check of ``random_play`` against the enumeration on a busy position."""
    position = {
        "ruleset": "ogre218", "to_move": 0, "plays_left": 2,
        "board": [{"x": 0, "y": -1, "seat": 0, "unit": "infantry"},
                  {"x": 1, "y": -1, "seat": 0, "unit": "missile_tank"},
                  {"x": 1, "y": 0, "seat": 1, "unit": "ogre"},
                  {"x": 1, "y": 1, "seat": 1, "unit": "infantry"},
                  {"x": 0, "y": 1, "seat": 1, "unit": "gev"}],
        "hands": [{"ogre": 1, "light_gev": 1, "heavy_tank": 1}, {"infantry": 1}],
        "strikes": [1, 2], "decks": [[], []],
    }
    state = position_from_json(position)
    legal = state.legal_plays()
    from warboard.hill218.actions import Deploy, Strike
    from warboard.hill218.grid import unpack

    index = {p: i for i, p in enumerate(legal)}
    counts = [0] * len(legal)
    rng = random.Random(7)
    draws = 60 * len(legal)
    for _ in range(draws):
        uid, cell, hits = random_play(state, rng)
        play = (Strike(unpack(cell)) if uid < 0 else
                Deploy(state.rules.units[uid].name, unpack(cell), tuple(unpack(t) for t in hits)))
        counts[index[play]] += 1
    expected = draws / len(legal)
    chi2 = sum((c - expected) ** 2 / expected for c in counts)
    dof = len(legal) - 1
    assert chi2 < dof + 6 * (2 * dof) ** 0.5, (chi2, dof)
    assert any(len(p.attacks) == 2 for p in legal if isinstance(p, Deploy))


@pytest.mark.parametrize("name", ["hill218", "ogre218"])
def test_chance_probabilities_at_every_node(name):
    game = CardGame(name)
    rng = random.Random(3)
    state = game.new_initial_state()
    seen = 0
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            outcomes = state.chance_outcomes()
            assert outcome_probabilities_ok(outcomes)
            seen += 1
            state.apply(rng.choice([o for o, _ in outcomes]))
        else:
            state.apply(rng.choice(state.legal_actions()))
    assert seen > 10
