"""States to and from JSON: the interchange *position* of contract §7 and the full state.

Both readers validate everything and raise ``PositionError`` with a message naming the field;
``read_position`` hands back what no game could reach (more cards than the deck) as warnings.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from warboard.core.errors import IllegalActionError, PositionError
from warboard.hill218.actions import Deploy, Strike, action_from_json
from warboard.hill218.grid import COORD_LIMIT, HILL, pack
from warboard.hill218.ruleset import RULESETS, Ruleset
from warboard.hill218.state import (
    BASES,
    OVER,
    PHASES,
    PLAY,
    STRIKE_KEY,
    CardState,
    Deck,
    Turn,
    TurnPlay,
    TurnStart,
)

POSITION_KEYS = {"ruleset", "to_move", "plays_left", "board", "hands", "strikes", "decks",
                 "destroyed"}


# ----------------------------------------------------------------------------- interchange

def position_from_json(data: Any) -> CardState:
    """A decision point from its contract §7 JSON; one that no game could reach (more cards
    than the deck holds) is refused too."""
    return read_position(data, strict=True)[0]


def read_position(data: Any, *, strict: bool = False) -> tuple[CardState, list[str]]:
    """A decision point from its contract §7 JSON, and what in it no game could reach (card
    counts beyond the deck), which ``strict`` refuses. Anything malformed is refused always."""
    from warboard.hill218.game import CardGame

    if not isinstance(data, dict):
        raise PositionError(f"a position must be a JSON object, not {type(data).__name__}")
    name = data.get("ruleset")
    if not isinstance(name, str) or name not in RULESETS:
        raise PositionError(f"ruleset: must be one of {', '.join(RULESETS)}, not {name!r}")
    _no_unknown(data, POSITION_KEYS, "position")
    game = CardGame(name)
    rules = game.rules
    state = CardState(game)
    state.to_move = _choice(data, "to_move", (0, 1))
    state.plays_left = _choice(data, "plays_left", (1, 2))
    state.cells = _board(data.get("board"), rules)
    state.hands = _pair(data, "hands", lambda v, f: _counts(v, f, rules))
    state.decks = _pair(data, "decks", lambda v, f: Deck(_names(v, f, rules), [0] * len(
        rules.units), []))
    state.strikes = _pair(data, "strikes", lambda v, f: _int(v, f, 0, rules.strikes))
    if "destroyed" in data:
        state.destroyed = _pair(data, "destroyed", lambda v, f: _counts(v, f, rules))
    state.first_turn_pending = False
    state.phase = PLAY
    state.turn = 1
    warnings = _card_problems(state)
    if strict and warnings:
        raise PositionError("; ".join(warnings))
    _check_not_over(state)
    if not state.has_legal_play(state.to_move, state.plays_left):
        raise PositionError(f"not a decision point: seat {state.to_move} has no legal play")
    return state, warnings


def position_to_json(state: CardState, rng: random.Random | None = None) -> dict[str, Any]:
    """The contract §7 position of a decision point. A deck whose order is not fixed yet (its
    unordered part) needs ``rng`` to fix one order."""
    if state.phase != PLAY:
        raise PositionError(f"only decision points have a position (phase is {state.phase})")
    decks = []
    for deck in state.decks:
        middle: list[int] = []
        if deck.pool_n:
            if rng is None:
                raise PositionError("the deck order is not determined yet (pass an rng)")
            middle = [u for u, n in enumerate(deck.pool) for _ in range(n)]
            rng.shuffle(middle)
        decks.append([state.unit_name(u) for u in deck.top + middle + deck.bottom])
    return {
        "ruleset": state.rules.name,
        "to_move": state.to_move,
        "plays_left": state.plays_left,
        "board": state.board_list(),
        "hands": [state.counts_dict(state.hands[0]), state.counts_dict(state.hands[1])],
        "strikes": state.strikes[:],
        "decks": decks,
        "destroyed": [state.counts_dict(state.destroyed[0]),
                      state.counts_dict(state.destroyed[1])],
    }


# ----------------------------------------------------------------------------- full state

def state_to_json(state: CardState) -> dict[str, Any]:
    return {
        "game": state.rules.name,
        "options": state.game.options,
        "phase": state.phase,
        "to_move": state.to_move,
        "plays_left": state.plays_left,
        "draws_left": state.draws_left,
        "first_player": state.first_player,
        "first_turn_pending": state.first_turn_pending,
        "setup_seat": state.setup_seat,
        "turn": state.turn,
        "board": state.board_list(),
        "hands": [state.counts_dict(h) for h in state.hands],
        "decks": [{"top": [state.unit_name(u) for u in d.top], "pool": state.counts_dict(d.pool),
                   "bottom": [state.unit_name(u) for u in d.bottom]} for d in state.decks],
        "strikes": state.strikes[:],
        "destroyed": [state.counts_dict(d) for d in state.destroyed],
        "result": state.result,
        "this_turn": None if state.this_turn is None else state.turn_json(state.this_turn),
        "last_turn": None if state.last_turn is None else state.turn_json(state.last_turn),
    }


def state_from_json(game: Any, data: Mapping[str, Any]) -> CardState:
    if not isinstance(data, Mapping):
        raise PositionError("a state must be a JSON object")
    rules = game.rules
    if data.get("game") != rules.name:
        raise PositionError(f"game: expected {rules.name!r}, got {data.get('game')!r}")
    state = CardState(game)
    state.phase = _choice(data, "phase", PHASES)
    state.to_move = _choice(data, "to_move", (0, 1))
    state.plays_left = _int(data.get("plays_left"), "plays_left", 0, 2)
    state.draws_left = _int(data.get("draws_left"), "draws_left", 0, 5)
    state.first_player = _choice(data, "first_player", (None, 0, 1))
    state.first_turn_pending = bool(data.get("first_turn_pending"))
    state.setup_seat = _choice(data, "setup_seat", (0, 1))
    state.turn = _int(data.get("turn"), "turn", 0, 10_000)
    state.cells = _board(data.get("board"), rules)
    state.hands = _pair(data, "hands", lambda v, f: _counts(v, f, rules))
    state.decks = _pair(data, "decks", lambda v, f: _deck(v, f, rules))
    state.strikes = _pair(data, "strikes", lambda v, f: _int(v, f, 0, rules.strikes))
    state.destroyed = _pair(data, "destroyed", lambda v, f: _counts(v, f, rules))
    result = data.get("result")
    if (state.phase == OVER) != isinstance(result, dict):
        raise PositionError("result: must be given exactly when the phase is 'over'")
    state.result = result
    # absent from states stored before turns were kept: no turn recorded yet
    state.this_turn = _optional_turn(data, "this_turn", rules)
    state.last_turn = _optional_turn(data, "last_turn", rules)
    problems = _card_problems(state)
    if problems:
        raise PositionError("; ".join(problems))
    return state


def _optional_turn(data: Mapping[str, Any], key: str, rules: Ruleset) -> Turn | None:
    value = data.get(key)
    return None if value is None else turn_from_json(value, key, rules)


def turn_from_json(value: Any, field: str, rules: Ruleset) -> Turn:
    """A turn as ``CardState.turn_json`` writes it (a full state's, or a view's
    ``last_turn``)."""
    keys = {"seat", "turn", "plays_left", "board", "strikes", "destroyed", "plays"}
    if not isinstance(value, Mapping) or set(value) != keys:
        raise PositionError(f"{field}: must be an object with {', '.join(sorted(keys))}")
    plays = value["plays"]
    if not isinstance(plays, list) or len(plays) > 2:
        raise PositionError(f"{field}.plays: must be a list of at most 2 plays")
    strikes = _pair(value, "strikes", lambda v, f: _int(v, f"{field}.{f}", 0, rules.strikes))
    destroyed = _pair(value, "destroyed", lambda v, f: _counts(v, f"{field}.{f}", rules))
    start = TurnStart(
        _choice(value, "seat", (0, 1), f"{field}.seat"),
        _int(value["turn"], f"{field}.turn", 1, 10_000),
        _choice(value, "plays_left", (1, 2), f"{field}.plays_left"),
        _board(value["board"], rules),
        (strikes[0], strikes[1]),
        (tuple(destroyed[0]), tuple(destroyed[1])))
    return start, tuple(_turn_play(p, f"{field}.plays[{i}]", rules) for i, p in enumerate(plays))


def _turn_play(value: Any, field: str, rules: Ruleset) -> TurnPlay:
    try:
        action = action_from_json(value, rules)
    except IllegalActionError as exc:
        raise PositionError(f"{field}: {exc}") from exc
    if isinstance(action, Strike):
        return (STRIKE_KEY, pack(*action.target), ())
    if not isinstance(action, Deploy):
        raise PositionError(f"{field}: must be a deployment or a strike")
    return (rules.unit_ids[action.unit], pack(*action.at),
            tuple(pack(*t) for t in action.attacks))


# ----------------------------------------------------------------------------- validation

def _no_unknown(data: Mapping[str, Any], allowed: set[str], what: str) -> None:
    extra = sorted(set(data) - allowed)
    if extra:
        raise PositionError(f"{extra[0]}: not a field of a {what}")
    missing = sorted(allowed - {"destroyed"} - set(data))
    if missing:
        raise PositionError(f"{missing[0]}: missing")


def _choice(data: Mapping[str, Any], key: str, choices: tuple[Any, ...],
            field: str | None = None) -> Any:
    value = data.get(key)
    # by type as well: 0.0 == 0 and True == 1, but neither is a seat
    if not any(type(value) is type(c) and value == c for c in choices):
        raise PositionError(f"{field or key}: must be one of {', '.join(map(str, choices))}, "
                            f"not {value!r}")
    return value


def _int(value: Any, field: str, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise PositionError(f"{field}: must be a whole number from {lo} to {hi}, not {value!r}")
    return value


def _pair(data: Mapping[str, Any], key: str, read: Any) -> list[Any]:
    value = data.get(key)
    if not isinstance(value, list) or len(value) != 2:
        raise PositionError(f"{key}: must be a list of two entries, one per seat")
    return [read(value[s], f"{key}[{s}]") for s in (0, 1)]


def _unit_id(name: Any, field: str, rules: Ruleset) -> int:
    if not isinstance(name, str) or name not in rules.unit_ids:
        raise PositionError(f"{field}: unknown unit {name!r} (units of {rules.name}: "
                            f"{', '.join(rules.unit_ids)})")
    return rules.unit_ids[name]


def _counts(value: Any, field: str, rules: Ruleset) -> list[int]:
    if not isinstance(value, dict):
        raise PositionError(f"{field}: must be an object of unit name to count")
    counts = [0] * len(rules.units)
    for name, n in value.items():
        counts[_unit_id(name, field, rules)] = _int(n, f"{field}.{name}", 0, 99)
    return counts


def _names(value: Any, field: str, rules: Ruleset) -> list[int]:
    if not isinstance(value, list):
        raise PositionError(f"{field}: must be a list of unit names")
    return [_unit_id(name, f"{field}[{i}]", rules) for i, name in enumerate(value)]


def _deck(value: Any, field: str, rules: Ruleset) -> Deck:
    if not isinstance(value, dict) or set(value) != {"top", "pool", "bottom"}:
        raise PositionError(f"{field}: must be an object with top, pool and bottom")
    return Deck(_names(value["top"], f"{field}.top", rules),
                _counts(value["pool"], f"{field}.pool", rules),
                _names(value["bottom"], f"{field}.bottom", rules))


def _board(value: Any, rules: Ruleset) -> dict[int, int]:
    if not isinstance(value, list):
        raise PositionError("board: must be a list of {x, y, seat, unit} objects")
    cells: dict[int, int] = {}
    for i, entry in enumerate(value):
        field = f"board[{i}]"
        if not isinstance(entry, dict) or set(entry) != {"x", "y", "seat", "unit"}:
            raise PositionError(f"{field}: must be an object with exactly x, y, seat and unit")
        x = _int(entry["x"], f"{field}.x", -COORD_LIMIT, COORD_LIMIT)
        y = _int(entry["y"], f"{field}.y", -COORD_LIMIT, COORD_LIMIT)
        seat = _choice(entry, "seat", (0, 1), f"{field}.seat")
        uid = _unit_id(entry["unit"], f"{field}.unit", rules)
        c = pack(x, y)
        if c == HILL:
            raise PositionError(f"{field}: no card can stand on the {rules.hill_name} at (0, 0)")
        if c in cells:
            raise PositionError(f"{field}: two units at ({x}, {y})")
        cells[c] = uid * 2 + seat
    return cells


def _card_problems(state: CardState) -> list[str]:
    """Where a seat holds more cards of a kind than its deck has (a hit-changed card counts as
    the card it replaced), or destroyed counts that no game could leave."""
    rules = state.rules
    problems: list[str] = []
    for seat in (0, 1):
        lost = state.destroyed[seat]
        for uid, origin in enumerate(rules.origin):
            if origin >= 0 and lost[uid] != lost[origin]:
                problems.append(
                    f"destroyed[{seat}]: a destroyed {rules.units[uid].name} also counts its "
                    f"{rules.units[origin].name} card, so both counts must be equal")
        have = [0] * len(rules.units)
        for code in state.cells.values():
            if code & 1 == seat:
                have[code >> 1] += 1
        deck = state.decks[seat].counts()
        for uid in range(len(rules.units)):
            have[uid] += state.hands[seat][uid] + deck[uid]
        # a destroyed hit-changed card also counted its origin: count the card once
        for uid, n in enumerate(state.destroyed[seat]):
            if rules.origin[uid] < 0:
                have[uid] += n
        for uid, u in enumerate(rules.units):
            family = [uid]
            while rules.hit_becomes[family[-1]] >= 0:
                family.append(rules.hit_becomes[family[-1]])
            if rules.origin[uid] >= 0:
                continue  # counted with the card it replaces
            total = sum(have[f] for f in family)
            allowed = sum(rules.units[f].count for f in family)
            if total > allowed:
                problems.append(
                    f"seat {seat} has {total} {u.name} cards across board, hand, deck and "
                    f"destroyed; the deck has only {allowed}")
    return problems


def _check_not_over(state: CardState) -> None:
    for seat in (0, 1):
        code = state.cells.get(BASES[seat])
        if code is not None and code & 1 != seat:
            raise PositionError(f"the game is over: seat {1 - seat} holds seat {seat}'s base")
