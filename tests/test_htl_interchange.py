"""Hold the Line in the batch interchange: ``warboard rules los`` (contract §7) and
``warboard rules legal|apply`` for Hold the Line positions (docs/interchange.md)."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

import htl_positions as htl
from warboard.core.errors import IllegalActionError, PositionError
from warboard.core.interchange import router, run_batch
from warboard.core.protocol import CHANCE, sample_chance
from warboard.holdtheline import interchange
from warboard.holdtheline.game import make_game
from warboard.holdtheline.hexes import line_of_sight
from warboard.holdtheline.scenario_file import scenario_names

CONTRACT_QUERY = {"cols": 13, "rows": 9,
                  "terrain": [{"at": [4, 3], "terrain": "forest"},
                              {"at": [5, 3], "terrain": "hill"}],
                  "units": [[6, 4]], "from": [2, 3], "to": [8, 3]}


def run(*argv: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "warboard.cli", *argv], input=stdin,
                          capture_output=True, text=True, timeout=120)


def batch(handler, lines: list[str]) -> list[dict]:
    return [json.loads(out) for out in run_batch(lines, handler)]


# ============================================================================ rules los

def test_los_contract_example():
    assert interchange.los(CONTRACT_QUERY) == {"los": False}
    clear = dict(CONTRACT_QUERY, terrain=[])
    assert interchange.los(clear) == {"los": True}  # the unit at (6,4) is off the line


def test_los_defaults_and_blocking_rules():
    q = {"from": [2, 3], "to": [8, 3]}
    assert interchange.los(q) == {"los": True}  # 13x9, all clear
    assert interchange.los(dict(q, units=[[5, 3]])) == {"los": False}
    for terrain, blocks in (("forest", True), ("hill", True), ("town", True),
                            ("entrenchment", True), ("fence", False), ("swamp", False),
                            ("waterway", False), ("bridge", False), ("ford", False),
                            ("clear", False)):
        got = interchange.los(dict(q, terrain=[{"at": [5, 3], "terrain": terrain}]))
        assert got == {"los": not blocks}, terrain
    # adjacent: always
    assert interchange.los({"from": [4, 4], "to": [4, 3], "units": [[4, 3]],
                            "terrain": [{"at": [4, 4], "terrain": "forest"}]}) == {"los": True}
    # a hex-side pair blocks only when both of its hexes block
    side = {"from": [4, 4], "to": [4, 2]}
    assert interchange.los(dict(side, units=[[3, 3]])) == {"los": True}
    assert interchange.los(dict(side, units=[[3, 3]],
                                terrain=[{"at": [4, 3], "terrain": "town"}])) == {"los": False}
    # a bigger board
    assert interchange.los({"cols": 20, "rows": 12, "from": [0, 0], "to": [19, 11]}) == {
        "los": True}


@given(st.tuples(st.integers(0, 12), st.integers(0, 8)),
       st.tuples(st.integers(0, 12), st.integers(0, 8)),
       st.lists(st.tuples(st.tuples(st.integers(0, 12), st.integers(0, 8)),
                          st.sampled_from(["forest", "hill", "town", "fence", "waterway"])),
                max_size=25, unique_by=lambda t: t[0]),
       st.lists(st.tuples(st.integers(0, 12), st.integers(0, 8)), max_size=8))
def test_los_answers_are_symmetric_and_match_the_geometry(a, b, terrain, units):
    query = {"terrain": [{"at": list(h), "terrain": t} for h, t in terrain],
             "units": [list(u) for u in units], "from": list(a), "to": list(b)}
    there = interchange.los(query)["los"]
    back = interchange.los(dict(query, **{"from": list(b), "to": list(a)}))["los"]
    assert there == back
    blocking = {h for h, t in terrain if t in ("forest", "hill", "town")} | set(units)
    assert there == line_of_sight(a, b, lambda h: h in blocking)


def test_los_errors_name_the_problem():
    cases = [
        ([], "must be a JSON object"),
        ({"from": [2, 3]}, "to: is missing"),
        ({"from": [2, 3], "to": [13, 3]}, "to: hex [13, 3] is off the 13x9 board"),
        ({"from": [2, -1], "to": [3, 3]}, "from: hex [2, -1] is off"),
        ({"from": [2, 3], "to": [5, 3], "units": [[0, 9]]}, "units[0]: hex [0, 9] is off"),
        ({"from": [2, 3], "to": [5, 3], "terrain": [{"at": [4, 3], "terrain": "lava"}]},
         "terrain[0].terrain: unknown terrain 'lava'"),
        ({"from": [2, 3], "to": [5, 3], "terrain": [{"at": [4, 3]}]}, "terrain[0]: must be"),
        ({"from": [2, 3], "to": [5, 3], "terrain": [{"at": [4, 3], "terrain": "hill"},
                                                    {"at": [4, 3], "terrain": "town"}]},
         "terrain[1]: hex [4, 3] already has terrain hill"),
        ({"from": "2,3", "to": [5, 3]}, "from: must be a hex [col, row]"),
        ({"from": [2, 3], "to": [5, 3], "cols": 0}, "cols: must be a whole number from 1"),
        ({"from": [2, 3], "to": [5, 3], "blockers": []}, "blockers: not a field"),
    ]
    for query, problem in cases:
        with pytest.raises(PositionError) as info:
            interchange.los(query)
        assert problem in str(info.value), (query, str(info.value))


def test_los_batch_goes_on_after_errors():
    lines = [json.dumps(CONTRACT_QUERY), "{not json", "",
             json.dumps({"from": [0, 0], "to": [20, 0]}),
             json.dumps(dict(CONTRACT_QUERY, terrain=[])), "[1, 2]"]
    answers = batch(interchange.los, lines)
    assert len(answers) == 5  # the blank line gets no answer
    assert answers[0] == {"los": False}
    assert answers[1]["error"].startswith("not valid JSON")
    assert "off the 13x9 board" in answers[2]["error"]
    assert answers[3] == {"los": True}
    assert "error" in answers[4]


def test_warboard_rules_los_command():
    stdin = "\n".join([json.dumps(CONTRACT_QUERY), "oops",
                       json.dumps({"from": [2, 3], "to": [8, 3]})]) + "\n"
    done = run("rules", "los", stdin=stdin)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == '{"los":false}' and "error" in lines[1] and lines[2] == '{"los":true}'


# ============================================================================ legal / apply

def random_game(name: str, seed: int, limit: int = 400):
    """A random game from the start; yields (state before, action or None, dice that follow)."""
    game = make_game("holdtheline", {"scenario": name})
    rng = random.Random(seed)
    state = game.new_initial_state()
    steps = []
    while not state.is_terminal() and len(steps) < limit:
        if state.current_player() == CHANCE:
            die = sample_chance(state, rng)
            if steps:
                steps[-1][2].append(die.value)
            else:
                steps.append((state.clone(), None, [die.value]))
            state.apply(die)
            continue
        legal = state.legal_actions()
        busy = [a for a in legal if game.action_to_json(a)["type"] != "end"]
        action = rng.choice(busy or legal)
        steps.append((state.clone(), action, []))
        state.apply(action)
    return game, steps, state


def strip(position: dict) -> dict:
    """A position without its event log; ``places`` (names for the table, no rules meaning) are
    not read back by ``state_from_json``, nor is an eliminated leader's ``start_at``."""
    position = dict(position)
    position.pop("events", None)
    position.pop("places", None)
    position["leaders"] = [{k: v for k, v in ld.items()
                            if not (k == "start_at" and ld["status"] != "board")}
                           for ld in position["leaders"]]
    return position


@pytest.mark.parametrize("name,seed", [(name, seed)
                                       for seed, name in enumerate(scenario_names(), 1)])
def test_apply_replays_a_random_game_exactly(name, seed):
    """Each decision with the dice that follow it, through JSON, lands on the same position as
    the engine playing directly; `legal` lists exactly the engine's legal actions."""
    game, steps, final = random_game(name, seed)
    position = json.loads(json.dumps(steps[0][0].to_json()))
    for k, (before, action, dice) in enumerate(steps):
        assert strip(position) == strip(before.to_json()), f"step {k}"
        if action is None:
            listed = interchange.legal(position)
            assert listed == [{"type": "die", "value": v} for v in (1, 2, 3)]
            request = {"position": position, "dice": dice}
        else:
            listed = interchange.legal(position)
            assert listed == [game.action_to_json(a) for a in before.legal_actions()]
            request = {"position": position, "action": game.action_to_json(action),
                       "dice": dice}
        answer = json.loads(json.dumps(interchange.apply(json.loads(json.dumps(request)))))
        assert set(answer) == {"position", "events", "result"}
        position = answer["position"]
        assert "events" not in position
        for event in answer["events"]:
            assert event["text"]
    assert strip(position) == strip(final.to_json())
    if final.is_terminal():
        assert answer["result"] == final.result and position["result"] == final.result


def tutorial_position():
    return make_game("holdtheline", {"scenario": "tutorial"}).new_initial_state()


def test_apply_with_dice_reports_what_they_did():
    state = tutorial_position()
    answer = interchange.apply({"position": state.to_json(), "dice": [3]})
    pos = answer["position"]
    assert pos["to_move"] == 0 and pos["ap"] == 2 + 3
    (event,) = answer["events"]
    assert event["type"] == "die" and event["value"] == 3 and "5 AP" in event["text"]
    # the action die may also be given as the action itself
    same = interchange.apply({"position": state.to_json(), "action": {"type": "die",
                                                                      "value": 3}})
    assert same["position"] == pos
    # a move, then the turn goes on
    move = next(a for a in interchange.legal(pos) if a["type"] == "move")
    after = interchange.apply({"position": pos, "action": move})["position"]
    assert after["ap"] == pos["ap"] - 1 and after["to_move"] == 0
    # stopping at a chance node: "end" hands over to the other side's action die
    ended = interchange.apply({"position": after, "action": {"type": "end"}})
    assert ended["position"]["to_move"] == CHANCE and ended["position"]["active"] == 1
    assert interchange.legal(ended["position"])[0] == {"type": "die", "value": 1}
    ended = interchange.apply({"position": after, "action": {"type": "end"}, "dice": [1]})
    assert ended["position"]["to_move"] == 1 and ended["position"]["ap"] == 3


def fire_position():
    """The tutorial after the American action die, with an American regular moved next to a
    British one: a close combat is legal."""
    state = tutorial_position()
    state.apply(state.chance_outcomes()[2][0])  # action die 3: 5 AP
    data = state.to_json()
    for u in data["units"]:
        if u["id"] == "A1":
            u["at"] = [4, 3]  # next to B1 at (4,2)
    data["leaders"] = [ld for ld in data["leaders"] if ld["side"] == 1 or ld["at"] != [6, 6]]
    return data


def test_apply_runs_a_close_combat_die_by_die():
    data = fire_position()
    legal = interchange.legal(data)
    assault = {"type": "assault", "unit": "A1", "target": [4, 2]}
    assert assault in legal
    # first the defender's morale die, then three attack dice
    answer = interchange.apply({"position": data, "action": assault, "dice": [1]})
    assert answer["position"]["to_move"] == CHANCE
    assert answer["position"]["pending"]["kind"] == "assault"
    answer = interchange.apply({"position": answer["position"], "dice": [6, 6, 5]})
    pos = answer["position"]
    b1 = next(u for u in pos["units"] if u["id"] == "B1")
    assert b1["mp"] == 4 - 3  # close combat hits on 4-6 against clear: three hits
    assert [e["value"] for e in answer["events"] if e["type"] == "die"][:3] == [6, 6, 5]


def test_apply_errors_and_the_batch_goes_on():
    state = tutorial_position()
    pos = state.to_json()
    rolled = interchange.apply({"position": pos, "dice": [2]})["position"]
    lines = [
        json.dumps({"position": pos}),  # a die is due: dice needed
        json.dumps({"position": rolled}),  # a decision is due: action needed
        json.dumps({"position": rolled, "action": {"type": "fire", "unit": "A1",
                                                   "target": [4, 2]}}),  # out of range
        json.dumps({"position": rolled, "action": {"type": "end"}, "dice": [1, 4]}),  # left over
        json.dumps({"position": pos, "dice": [7]}),  # not a face of the action die
        json.dumps({"position": pos, "dice": ["2"]}),
        json.dumps({"position": pos, "dice": [2], "seed": 1}),
        json.dumps({"position": dict(pos, units="none"), "dice": [2]}),
        json.dumps({"position": rolled, "action": {"type": "teleport"}}),
        json.dumps({"position": pos, "dice": [2]}),  # fine
    ]
    answers = batch(router("apply"), lines)
    assert len(answers) == len(lines)
    errors = [a.get("error", "") for a in answers]
    assert "dice: a die is to be rolled" in errors[0]
    assert "action: is missing" in errors[1]
    assert "not a legal action" in errors[2]
    assert "dice[1]: no die is to be rolled now" in errors[3]
    assert "1 to 3" in errors[4]
    assert "dice: must be a list of whole numbers" in errors[5]
    assert "seed: not a field" in errors[6]
    assert "units" in errors[7]
    assert "unknown action type 'teleport'" in errors[8]
    assert "position" in answers[9] and answers[9]["position"]["ap"] == 4


def test_a_finished_game_is_refused():
    _, _, final = random_game("tutorial", 7, limit=100000)
    assert final.is_terminal()
    data = final.to_json()
    with pytest.raises(PositionError, match="the game is over"):
        interchange.legal(data)
    with pytest.raises(PositionError, match="the game is over"):
        interchange.apply({"position": data, "action": {"type": "end"}})


def test_legal_and_apply_route_by_game():
    """`warboard rules legal|apply` answers card-game and Hold the Line lines in one batch."""
    card = {"ruleset": "hill218", "to_move": 0, "plays_left": 1,
            "board": [{"x": 0, "y": -1, "seat": 0, "unit": "heavy_weapons"},
                      {"x": 1, "y": 0, "seat": 1, "unit": "tank"}],
            "hands": [{"infantry": 1}, {}], "strikes": [0, 0], "decks": [[], []]}
    htl = tutorial_position().to_json()
    done = run("rules", "legal", stdin=json.dumps(card) + "\n" + json.dumps(htl) + "\n")
    assert done.returncode == 0, done.stderr
    first, second = (json.loads(x) for x in done.stdout.splitlines())
    assert first[0]["play"] == "deploy"
    assert second == [{"type": "die", "value": v} for v in (1, 2, 3)]
    done = run("rules", "apply", stdin=json.dumps({"position": htl, "dice": [1]}) + "\n")
    answer = json.loads(done.stdout)
    assert answer["position"]["ap"] == 3 and answer["result"] is None


def test_illegal_action_leaves_the_error_text_readable():
    state = tutorial_position()
    state.apply(state.chance_outcomes()[0][0])
    with pytest.raises(IllegalActionError):
        interchange.apply({"position": state.to_json(),
                           "action": {"type": "rally", "leader": "dickinson", "unit": "A9"}})


# The Hold the Line examples and JSON blocks of docs/interchange.md are checked by
# tests/test_docs.py, like the card games' ("<!-- example -->" console blocks, json blocks).


def _escape_decision():
    """A position of Trenton waiting for a leader's escape decision (seed 56, play 151 of a
    random game)."""
    state = make_game("holdtheline", {"scenario": "trenton"}).new_initial_state()
    rng = random.Random(56)
    for _ in range(151):
        state.apply(sample_chance(state, rng) if state.current_player() == CHANCE
                    else rng.choice(state.legal_actions()))
    assert state.pending is not None and state.pending.stage == "escape"
    assert state.current_player() != CHANCE
    return state


def test_an_escape_decision_without_its_leader_is_refused():
    """The fuzz test once made an escape decision with an empty ``escapes`` list, which crashed
    apply with an IndexError: the reader now refuses it, naming the field."""
    state = _escape_decision()
    data = json.loads(json.dumps(state.to_json()))
    twin = state.game.state_from_json(data)
    assert twin.legal_actions() == state.legal_actions()
    data["pending"]["escapes"] = []
    with pytest.raises(PositionError, match=r"escapes.*must list the leader"):
        state.game.state_from_json(data)


def test_an_evade_decision_without_the_dragoon_is_refused():
    """The fuzz test moved an evade decision's target off the dragoon, which crashed apply with
    an IndexError: the reader now refuses it, naming the field."""
    state = make_game("holdtheline", {"scenario": "hobkirks_hill",
                                      "options": {"dragoon_evade": True}}).new_initial_state()
    rng = random.Random(2)
    for _ in range(33):  # seed 2, play 33 of a random game: the first evade decision
        state.apply(sample_chance(state, rng) if state.current_player() == CHANCE
                    else rng.choice(state.legal_actions()))
    assert state.pending is not None and state.pending.stage == "evade"
    data = json.loads(json.dumps(state.to_json()))
    assert state.game.state_from_json(data).legal_actions() == state.legal_actions()
    empty = next([c, r] for r in range(state.board.rows) for c in range(state.board.cols)
                 if (c, r) not in state.occupancy())
    data["pending"]["target"] = empty
    with pytest.raises(PositionError, match=r"pending.target.*defending dragoon"):
        state.game.state_from_json(data)


def test_interchange_agrees_with_the_rulings_on_lone_enemy_leaders():
    """Contract §8.1 and §8.2 through ``rules legal|apply``: a leader alone may move through a
    lone enemy leader's hex and takes him; a retreat onto a lone enemy leader is offered."""
    sc = htl.scenario([htl.u("A1", "regular", (6, 5))], [htl.u("B1", "regular", (6, 4))],
                      [htl.ldr("knox", (3, 3))], [htl.ldr("rahl", (5, 3))],
                      terrain={(5, 4): "swamp", (7, 4): "swamp"})
    pos = htl.start(sc).to_json()
    move = {"type": "move", "leader": "knox", "path": [[4, 3], [5, 3], [6, 3]]}
    assert move in interchange.legal(pos)
    after = interchange.apply({"position": pos, "action": move})
    assert [ld["id"] for ld in after["position"]["leaders"] if ld["status"] == "board"] == [
        "knox"]
    assert after["position"]["leaders_lost"] == [0, 1]
    assert any(e["type"] == "capture" and e["by_leader"] == "knox" for e in after["events"])
    # Knox now stands alone at 6,3, behind B1: B1 fails morale against A1 and may retreat there
    assault = {"type": "assault", "unit": "A1", "target": [6, 4]}
    fought = interchange.apply({"position": after["position"], "action": assault,
                                "dice": [6, 2, 2, 2]})["position"]
    assert {"type": "retreat", "unit": "B1", "to": [6, 3]} in interchange.legal(fought)
    done = interchange.apply({"position": fought, "action": {"type": "retreat", "unit": "B1",
                                                             "to": [6, 3]}})["position"]
    assert done["leaders_lost"] == [1, 1]


def test_interchange_assigns_leader_ratings_before_turn_1():
    """Option 11.6 through ``rules legal|apply``: a position in phase ``assign`` lists the
    assignments (the scenario's first); applying both seats' choices reaches the action die."""
    g = make_game("holdtheline", {"scenario": "princeton", "options": {"leader_ratings": True}})
    pos = g.new_initial_state().to_json()
    assert (pos["phase"], pos["to_move"]) == ("assign", 0)
    legal = interchange.legal(pos)
    assert legal[0] == {"type": "assign_ratings",
                        "ratings": {"mercer": [1, 1], "washington": [2, 2]}}
    seat0 = interchange.apply({"position": pos, "action": legal[1]})["position"]
    assert (seat0["phase"], seat0["to_move"]) == ("assign", 1)
    assert {ld["id"]: ld["rating"] for ld in seat0["leaders"] if ld["side"] == 0} == {
        "washington": [1, 1], "mercer": [2, 2]}
    first = interchange.legal(seat0)[0]
    done = interchange.apply({"position": seat0, "action": first, "dice": [2]})
    assert done["position"]["phase"] == "act" and done["position"]["turn"] == 1
    assert [e["type"] for e in done["events"]] == ["ratings", "die"]
    wrong = dict(legal[0], ratings={"mercer": [2, 2], "washington": [2, 2]})
    (answer,) = batch(router("apply"), [json.dumps({"position": pos, "action": wrong})])
    assert "not legal" in answer["error"]
