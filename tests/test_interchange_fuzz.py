"""Fuzzing the readers of hostile input (issue 10): `warboard rules legal|apply|los`, the server's
``Game.action_from_json`` and ``make_game``.

A batch answers every non-blank line with exactly one JSON line, a bad line with an
``{"error": ...}`` that names the problem, and goes on; nothing is ever an internal error. The
inputs are random JSON of any shape and valid documents (positions, plays, actions and queries
met in random games) with one part mutated: another type, a key deleted or added, deep nesting,
huge or negative numbers.
"""

from __future__ import annotations

import copy
import functools
import io
import json
import random
import subprocess
import sys
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from warboard.core.errors import IllegalActionError, WarboardError
from warboard.core.interchange import read_lines, router, run_batch
from warboard.core.jsonlimits import JSONInputError
from warboard.core.protocol import CHANCE
from warboard.core.registry import game_names, make_game
from warboard.hill218.bench import legal_corpus
from warboard.hill218.game import CardGame
from warboard.hill218.serialize import read_position
from warboard.holdtheline.resolve import STAGES

LINES_PER_BATCH = 12

# ============================================================================ valid documents


@functools.cache
def card_positions() -> list[dict[str, Any]]:
    lines = (legal_corpus(CardGame("hill218"), 40, seed=1)
             + legal_corpus(CardGame("ogre218", {"damaged_ogres": [1, 1]}), 40, seed=2))
    return [json.loads(line) for line in lines]


@functools.cache
def card_requests() -> list[dict[str, Any]]:
    rng = random.Random(3)
    out = []
    for position in card_positions():
        plays = router("legal")(copy.deepcopy(position))
        out.append({"position": position, "play": rng.choice(plays)})
    return out


HTL_OPTIONS = {"force_march": True, "march_fatigue": True, "dragoon_evade": True,
               "attacker_morale": True, "fire_advance": True, "leader_ratings": True,
               "flank_attacks": True}


@functools.cache
def htl_states() -> list[Any]:
    """Positions of random games, two of each kind: the action die, a side acting, and each
    stage of a combat or force march under way (waiting for a die or a decision)."""
    rng = random.Random(4)
    kinds: dict[tuple[Any, ...], int] = {}
    states = []
    for scenario in ("tutorial", "trenton", "princeton", "bemis_heights", "hobkirks_hill"):
        for options in ({}, HTL_OPTIONS):
            game = make_game("holdtheline", {"scenario": scenario, "options": options})
            state = game.new_initial_state()
            for _ in range(400):
                if state.is_terminal():
                    break
                p = state.pending
                kind = (state.phase, p and p.stage, p and p.wait, p and p.kind)
                if kinds.setdefault(kind, 0) < 2:
                    kinds[kind] += 1
                    states.append(state.clone())
                if state.current_player() == CHANCE:
                    state.apply(state.sample_chance_outcome(rng))
                    continue
                legal = state.legal_actions()
                attacks = [a for a in legal if type(a).__name__ in ("Assault", "Fire")]
                state.apply(rng.choice(attacks if attacks and rng.random() < 0.7 else legal))
    return states


def htl_position(state: Any) -> dict[str, Any]:
    data = state.to_json()
    data.pop("events")
    return data


@functools.cache
def htl_positions() -> list[dict[str, Any]]:
    return [htl_position(s) for s in htl_states()]


@functools.cache
def htl_requests() -> list[dict[str, Any]]:
    """At a decision point one of its actions (the dice that follow are left to the next
    request); at a chance node one of the die's faces."""
    rng = random.Random(5)
    out = []
    for state in htl_states():
        request: dict[str, Any] = {"position": htl_position(state)}
        if state.current_player() == CHANCE:
            request["dice"] = [rng.choice(state.chance_outcomes())[0].value]
        else:
            request["action"] = state.game.action_to_json(rng.choice(state.legal_actions()))
        out.append(request)
    return out


LOS_QUERIES = [
    {"cols": 13, "rows": 9, "terrain": [{"at": [4, 3], "terrain": "forest"},
                                        {"at": [5, 3], "terrain": "hill"}],
     "units": [[6, 4]], "from": [2, 3], "to": [8, 3]},
    {"terrain": [{"at": [3, 3], "terrain": "forest"}], "units": [[4, 3]], "from": [4, 4],
     "to": [4, 2]},
]


def documents(query: str) -> list[Any]:
    if query == "legal":
        return card_positions() + htl_positions()
    if query == "apply":
        return card_requests() + htl_requests()
    return LOS_QUERIES


# ============================================================================ mutations

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                 max_size=4),
    max_leaves=10)

HOSTILE = [0.0, 1.0, 2.5, -1, -(10**18), 10**19, 2**63, True, False, None, "", "0", "x",
           "hill218", [], {}, [[]], [0], [0, 0, 0], [1.5, 2], {"": 0}, {"x": 1, "y": 2}]


def swapped(value: Any) -> Any:
    """The same content in another type: 1 -> 1.0, true -> 1, "a" -> ["a"], [..] -> {..}."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return float(value)
    if isinstance(value, float):
        return [value]
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return {str(i): v for i, v in enumerate(value)}
    if isinstance(value, dict):
        return list(value.values())
    return 0


def nested(value: Any, depth: int) -> Any:
    for _ in range(depth):
        value = [value]
    return value


def parts(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The path of every part of a JSON document (the document itself: ``()``)."""
    children = (node.items() if isinstance(node, dict)
                else enumerate(node) if isinstance(node, list) else ())
    return [path] + [p for k, child in children for p in parts(child, (*path, k))]


@functools.cache
def words() -> list[str]:
    """Every string of the documents (ids, names, stages...), to put where another belongs."""
    found: set[str] = set(STAGES)

    def collect(node: Any) -> None:
        if isinstance(node, str):
            found.add(node)
        elif isinstance(node, dict):
            found.update(node)
            for v in node.values():
                collect(v)
        elif isinstance(node, list):
            for v in node:
                collect(v)

    for query in ("legal", "apply", "los"):
        collect(documents(query))
    return sorted(found)


def mutate(data: st.DataObject, doc: Any, under: tuple[Any, ...] = ()) -> Any:
    """``doc`` with one part (of those ``under`` a path), drawn from all alike, replaced,
    deleted, nested or given a new key."""
    root = [copy.deepcopy(doc)]
    inside = doc
    for step in under:
        inside = inside[step]
    *down, key = (0, *under, *data.draw(st.sampled_from(parts(inside))))
    holder: Any = root
    for step in down:
        holder = holder[step]
    op = data.draw(st.sampled_from(["hostile", "word", "number", "swap", "random", "delete",
                                    "add", "nest"]))
    if op == "hostile":
        holder[key] = data.draw(st.sampled_from(HOSTILE))
    elif op == "word":
        holder[key] = data.draw(st.sampled_from(words()))
    elif op == "number":
        holder[key] = data.draw(st.integers(-3, 12))
    elif op == "swap":
        holder[key] = swapped(holder[key])
    elif op == "random":
        holder[key] = data.draw(JSON_VALUES)
    elif op == "delete" and holder is not root:
        del holder[key]
    elif op == "add" and isinstance(holder[key], dict):
        holder[key][data.draw(st.sampled_from(["extra", "strict", "game", "ruleset"]))] = (
            data.draw(st.sampled_from(HOSTILE)))
    else:
        holder[key] = nested(holder[key], data.draw(st.integers(1, 28)))
    return root[0]


def check_answers(lines: list[str], answers: list[str]) -> list[Any]:
    """One JSON answer per line, no internal error; the parsed answers."""
    assert len(answers) == len(lines)
    parsed = [json.loads(a) for a in answers]
    for line, answer in zip(lines, parsed, strict=True):
        if isinstance(answer, dict) and "error" in answer:
            assert set(answer) == {"error"}
            assert answer["error"] and not answer["error"].startswith("internal error"), line
    return parsed


# ============================================================================ the batch

@pytest.mark.parametrize("query", ["legal", "apply", "los"])
@given(data=st.data())
def test_a_batch_of_mutated_documents_is_answered_line_by_line(query, data):
    docs = documents(query)
    lines = [json.dumps(mutate(data, data.draw(st.sampled_from(docs))))
             for _ in range(LINES_PER_BATCH)]
    good = data.draw(st.sampled_from(docs))
    lines.append(json.dumps(good))
    answers = check_answers(lines, list(run_batch(lines, router(query))))
    assert answers[-1] == router(query)(copy.deepcopy(good))


@pytest.mark.parametrize("part", ["pending", "units", "leaders"])
@given(data=st.data())
def test_hold_the_line_pieces_and_combats_under_way_mutated(part, data):
    """The parts of a Hold the Line position that a stage of a combat reads when its die or
    decision comes: each mutated, the request is refused or answered, never a crash."""
    requests = [r for r in htl_requests() if r["position"]["pending"] or part != "pending"]
    lines = [json.dumps(mutate(data, data.draw(st.sampled_from(requests)), ("position", part)))
             for _ in range(LINES_PER_BATCH)]
    check_answers(lines, list(run_batch(lines, router("apply"))))


@pytest.mark.parametrize("query", ["legal", "apply", "los"])
@given(docs=st.lists(JSON_VALUES, min_size=1, max_size=LINES_PER_BATCH))
def test_random_json_of_any_shape_is_answered_line_by_line(query, docs):
    lines = [json.dumps(d) for d in docs]
    check_answers(lines, list(run_batch(lines, router(query))))


@given(lines=st.lists(st.text(max_size=40) | st.binary(max_size=40), max_size=LINES_PER_BATCH))
def test_any_text_or_bytes_gets_one_answer_per_non_blank_line(lines):
    lines = [line.replace("\n", " ") if isinstance(line, str) else line.replace(b"\n", b" ")
             for line in lines]
    non_blank = [line for line in lines
                 if (line.strip(" \t\r") if isinstance(line, str) else line.strip(b" \t\r"))]
    check_answers(non_blank, list(run_batch(lines, router("legal"))))


def test_read_lines_answers_a_long_line_without_holding_it():
    stream = io.BytesIO(b"[1]\n" + b"x" * 25 + b"\n[2]\r\n" + b"y" * 11 + b"\n" + b"z" * 12)
    lines = list(read_lines(stream, max_bytes=10))
    # a line of 11 bytes is short enough to read whole (parse_json refuses it)
    assert [str(x) if isinstance(x, JSONInputError) else x for x in lines] == [
        b"[1]\n", "too large: 25 bytes (at most 10)", b"[2]\r\n", b"y" * 11 + b"\n",
        "too large: 12 bytes (at most 10)"]
    answers = [json.loads(a) for a in run_batch(lines, lambda doc: doc, max_bytes=10)]
    assert answers == [[1], {"error": "too large: 25 bytes (at most 10)"}, [2],
                       {"error": "too large: 11 bytes (at most 10)"},
                       {"error": "too large: 12 bytes (at most 10)"}]


HOSTILE_LINES = [
    "[" * 30_000,
    "{\"a\":" * 30_000,
    "1" * 5_000,
    '{"ruleset": "hill218", "to_move": ' + "9" * 5_000 + "}",
    "1e999",
    "[NaN]",
    "\"unterminated",
    "[]",
    "{}",
    json.dumps({"position": [], "play": {}}),
]


def example_position() -> dict[str, Any]:
    return {"ruleset": "hill218", "to_move": 0, "plays_left": 2,
            "board": [{"x": 0, "y": -1, "seat": 0, "unit": "infantry"},
                      {"x": 0, "y": 1, "seat": 1, "unit": "tank"}],
            "hands": [{"infantry": 2, "tank": 1}, {"paratroopers": 1, "artillery": 2}],
            "strikes": [2, 1], "decks": [["tank", "infantry"], ["heavy_weapons"]]}


def test_the_command_line_survives_hostile_lines():
    """The real process: hostile lines (text, invalid UTF-8, a line over 1 MiB), then a valid
    one. Every line is answered, the last one correctly; exit status 0, nothing on stderr."""
    example = example_position()
    bad_seat = example_position()
    bad_seat["board"][1]["seat"] = 1.0
    hostile = [line.encode() for line in [
        *HOSTILE_LINES,
        json.dumps({**example, "to_move": 0.0}),
        json.dumps(bad_seat),
        json.dumps({"position": example, "strict": "yes"}),
        json.dumps({"game": "holdtheline", "sides": [[], {}], "units": []}),
    ]]
    hostile += [b"\xff\xfe[1]", b"[" + b" " * (1 << 20) + b"]"]
    stdin = b"".join(line + b"\n" for line in [*hostile, json.dumps(example).encode()])
    done = subprocess.run([sys.executable, "-m", "warboard.cli", "rules", "legal"], input=stdin,
                          capture_output=True, timeout=120, check=False)
    assert done.returncode == 0
    assert done.stderr == b""
    answers = [json.loads(a) for a in done.stdout.decode().splitlines()]
    assert len(answers) == len(hostile) + 1
    assert all(set(a) == {"error"} for a in answers[:-1])
    assert "not valid UTF-8" in answers[-3]["error"]
    assert answers[-2]["error"] == f"too large: {(1 << 20) + 2} bytes (at most {1 << 20})"
    assert answers[-1] == router("legal")(example_position())


# ============================================================================ the server path

@functools.cache
def server_cases() -> list[tuple[Any, Any, Any]]:
    """(game, state, a legal action's JSON) at decision points of both kinds of game."""
    cases = []
    rng = random.Random(6)
    for position in card_positions()[::4]:
        state, _ = read_position(copy.deepcopy(position))
        cases.append((state.game, state, state.game.action_to_json(
            rng.choice(state.legal_plays()))))
    for state in htl_states()[::3]:
        actions = ([a for a, _ in state.chance_outcomes()] if state.current_player() == CHANCE
                   else state.legal_actions())
        cases.append((state.game, state, state.game.action_to_json(rng.choice(actions))))
    return cases


@given(data=st.data())
def test_action_from_json_refuses_malformed_actions_as_illegal(data):
    """``Game.action_from_json`` (a WebSocket play message) and then ``apply``: a malformed
    action is an ``IllegalActionError``, nothing else."""
    game, state, action = data.draw(st.sampled_from(server_cases()))
    mutated = mutate(data, action) if data.draw(st.booleans()) else data.draw(JSON_VALUES)
    try:
        parsed = game.action_from_json(mutated, state)
        state.clone().apply(parsed)
    except IllegalActionError as exc:
        assert str(exc)


OPTIONS = {"hill218": {"quick_start": True}, "ogre218": {"damaged_ogres": [1, 0]},
           "holdtheline": {"scenario": "trenton", "options": {"leader_ratings": True,
                                                              "ap_adjust": [1, 0]}}}


@given(data=st.data())
def test_make_game_refuses_wrong_options_with_a_message(data):
    name = data.draw(st.sampled_from(game_names()) | JSON_VALUES)
    options = (mutate(data, OPTIONS[name])
               if isinstance(name, str) and name in OPTIONS and data.draw(st.booleans())
               else data.draw(JSON_VALUES))
    try:
        make_game(name, options)
    except (WarboardError, ValueError) as exc:
        assert str(exc)


@pytest.mark.parametrize("action", [{"type": []}, {"type": {}}, {"type": "move", "path": [[1.0, 2]],
                                                                 "unit": "A1"},
                                    {"type": "fire", "unit": ["A1"], "target": [4, 3]}])
def test_a_hold_the_line_action_of_the_wrong_shape_is_illegal(action):
    """The WebSocket play message ``{"type": "play", "action": {"type": []}}`` once crashed its
    handler: the action reader's error is the one the server answers."""
    game = make_game("holdtheline")
    with pytest.raises(IllegalActionError) as info:
        game.action_from_json(action, game.new_initial_state())
    assert any(word in str(info.value) for word in ("type", "path", "unit"))


@pytest.mark.parametrize(("name", "options", "fragment"), [
    (["hill218"], None, "unknown game"),
    ("hill218", [["quick_start", True]], "options"),
    ("hill218", {"quick_start": 1}, "quick_start"),
    ("ogre218", {"damaged_ogres": [1.0, 0]}, "damaged_ogres"),
    ("holdtheline", {"scenario": ["trenton"]}, "scenario"),
    ("holdtheline", {"options": [1]}, "options"),
    ("holdtheline", {"options": {"ap_adjust": [True, 0]}}, "ap_adjust"),
])
def test_make_game_names_the_wrong_option(name, options, fragment):
    with pytest.raises(ValueError, match=fragment):
        make_game(name, options)
