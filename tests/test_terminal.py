"""Terminal play and replay: scripted games through ``run_play``, the replay command as a
subprocess, and the screens/narration drawn from observations only."""

from __future__ import annotations

import io
import random
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from warboard.cli import build_parser
from warboard.core.errors import IllegalActionError
from warboard.core.protocol import CHANCE, TERMINAL, sample_chance
from warboard.core.record import Record, Recorder, replay_state, replay_states
from warboard.core.registry import make_game
from warboard.hill218.actions import Deploy, Draw, Strike, strike_words
from warboard.hill218.names import result_text
from warboard.hill218.narrate import log_lines, narrate
from warboard.hill218.serialize import position_from_json
from warboard.hill218.state import Deck
from warboard.hill218.terminal.commands import (
    complete_hits,
    engine_words,
    explain_illegal,
    help_text,
    show_unit,
)
from warboard.hill218.terminal.play import CLEAR_ALL, run_play
from warboard.hill218.terminal.render import column_width, make_console, screen
from warboard.hill218.terminal.replay import run_replay
from warboard.hill218.view import CardView as View

PROMPT = re.compile(r"^(South|North) \[(?:(\d) plays? left|setup: bury 2 cards)\]> $")
COLUMNS = re.compile(r"^ {4}( +-?\d+)+ *$", re.MULTILINE)  # the grid's x header
HAND = re.compile(r"^(South|North)'s hand: (.*)$", re.MULTILINE)
STATUS = re.compile(r"^Turn (\d+) — (South|North) to play", re.MULTILINE)
SEATS = ("South", "North")


def cli_args(*argv: str):
    return build_parser().parse_args(list(argv))


def legal_plays_listed(text: str) -> list[str]:
    """The plays printed by the last 'legal' command in ``text``."""
    block = text[text.rindex("Legal plays ("):].splitlines()[1:]
    return [p for line in block if not PROMPT.match(line)
            for p in re.split(r"\s{2,}", line.strip()) if p]


def screen_of(text: str) -> str:
    """The last screen printed in ``text``: from the grid's header to the prompt line."""
    start = list(COLUMNS.finditer(text))[-2].start()  # a screen has the header twice
    return text[start:text.rindex("\n")]


def hand_counts(line: str) -> dict[str, int]:
    """'2 Infantry (inf), 1 Tank (tnk)' -> {'inf': 2, 'tnk': 1}."""
    return {abbrev: int(n) for n, abbrev in re.findall(r"(\d+) [^,(]+\((\w+)\)", line)}


class Keyboard:
    """A player at the keyboard: reads what the program printed and answers each prompt.

    At a decision it types 'legal' and then one of the listed plays (random, seeded), presses
    Enter at hand-over prompts, and types ``script`` lines first. ``plan(prompt, new_output)``
    may return a line to type instead.
    """

    def __init__(self, out: io.StringIO, script: list[str] | None = None, seed: int = 0,
                 plan: Callable[[str, str], str | None] | None = None) -> None:
        self.out = out
        self.script = list(script or [])
        self.rng = random.Random(seed)
        self.plan = plan
        self.seen = 0
        self.asked_legal = False
        self.calls = 0

    def __call__(self, _prompt: str) -> str:
        self.calls += 1
        assert self.calls < 3000, "the game does not end"
        text = self.out.getvalue()
        new, self.seen = text[self.seen:], len(text)
        prompt = text.rsplit("\n", 1)[-1]
        if "press Enter" in prompt:
            return ""
        if self.script:
            return self.script.pop(0)
        planned = self.plan(prompt, new) if self.plan else None
        if planned is not None:
            return planned
        if self.asked_legal:
            self.asked_legal = False
            return self.rng.choice(legal_plays_listed(new))
        self.asked_legal = True
        return "legal"


def play(argv: list[str], interactive: bool = False, **keyboard) -> tuple[int, str]:
    """Run ``warboard play`` (against the random player unless argv names an opponent)."""
    if "--opponent" not in argv and "--ai" not in argv:
        argv = [*argv, "--opponent", "random"]
    out = io.StringIO()
    code = run_play(cli_args("play", "--no-color", *argv), input_fn=Keyboard(out, **keyboard),
                    console=make_console(no_color=True, file=out), interactive=interactive)
    return code, out.getvalue()


def random_record(name: str, options: dict, seed: int) -> Record:
    game = make_game(name, options)
    rng = random.Random(seed)
    rec = Recorder(game, seed, ["random", "random"])
    while rec.state.current_player() != TERMINAL:
        state = rec.state
        rec.apply(sample_chance(state, rng) if state.current_player() == CHANCE
                  else rng.choice(state.legal_actions()))
    return rec.record


# ----------------------------------------------------------------------------- whole games

@pytest.mark.parametrize("argv", [
    ["hill218", "--quick-start", "--seed", "7"],
    ["ogre218", "--seat", "1", "--seed", "3", "--damaged-ogres", "1,0"],
])
def test_game_against_random_ends_with_a_result_and_a_record_that_replays(tmp_path, argv):
    path = tmp_path / "game.json"
    code, out = play([*argv, "--save", str(path)])
    assert code == 0
    record = Record.load(path)
    final = replay_state(record)
    assert final.is_terminal()
    result = final.observation(None)["result"]
    assert record.result["summary"] == result
    winner = "Draw" if result["winner"] is None else f"{SEATS[result['winner']]} wins"
    assert f"{winner}" in out
    sentence = result_text(record.make_game().rules, result)
    # told once at the end, and once in the log; the status line just says the game is over
    assert out.count(sentence) == 2 and out.count("Game over: " + sentence) == 1
    assert re.search(f"^{re.escape(sentence)}\nSeed: ", out, re.MULTILINE)
    assert "\nGame over\n" in out
    assert f"South {result['units'][0]}, North {result['units'][1]}" in out
    assert f"Seed: {record.seed}" in out and f"Record saved to {path}" in out
    me = 1 if "--seat" in argv else 0
    assert record.players[me] == "human" and record.players[1 - me] == "random"
    if "--quick-start" not in argv:  # the human chose its burials at the prompt
        assert re.search(r"> bury \w+ \w+\n", out)
        assert f"Under {SEATS[me]}'s deck (drawn last" in out


def test_an_illegal_or_unreadable_play_is_explained_and_the_game_goes_on():
    code, out = play(["hill218", "--quick-start", "--seed", "2"],
                     script=["strike 9,9", "blah", "inf"])
    assert code == 0
    assert ("Not possible: no enemy unit at (9,9) to strike; there is no enemy unit on the "
            "board.") in out
    assert "Cannot read: 'blah' is not a play; write e.g. 'inf 1,-1'" in out
    assert "> inf\nInfantry (inf): 1 place(s), 1 play(s)" in out  # a bare unit shows its places
    assert out.count("[1 play left]> ") + out.count("[2 plays left]> ") > 3
    assert "Game over:" in out


def test_undo_takes_back_a_play_within_the_turn_but_not_after_a_draw(tmp_path):
    state = {"stage": "wait", "screen": "", "turn": 0}

    def plan(prompt: str, new: str) -> str | None:
        status = STATUS.search(new)  # set when a fresh screen was drawn
        if state["stage"] == "wait" and prompt == "South [2 plays left]> " and status:
            state.update(stage="play", screen=screen_of(new), turn=int(status[1]))
        elif state["stage"] == "play" and prompt == "South [1 play left]> ":
            state["stage"] = "undone"
            return "undo"
        elif state["stage"] == "undone":
            assert "Taken back." in new and prompt == "South [2 plays left]> "
            assert screen_of(new) == state["screen"]  # the board and hand as before the play
            state["stage"] = "next turn"
        elif state["stage"] == "next turn" and status and int(status[1]) > state["turn"]:
            state["stage"] = "refused"  # the opponent played and South drew since
            return "undo"
        elif state["stage"] == "refused":
            assert "Cannot undo: you have made no play in this turn" in new
            return "resign"
        return None

    path = tmp_path / "abandoned.json"
    code, out = play(["hill218", "--quick-start", "--seed", "5", "--save", str(path)], plan=plan)
    assert code == 0 and state["stage"] == "refused"
    assert "South resigned: the game is abandoned." in out
    record = Record.load(path)
    assert record.result == {"abandoned": True, "by": 0, "how": "resigned"}
    assert not replay_state(record).is_terminal()


def test_a_hint_is_a_play_the_prompt_accepts():
    typed: list[str] = []

    def plan(prompt: str, new: str) -> str | None:
        hinted = re.search(r"Hint \(master\): (.+)", new)  # hill218 ships master's model
        if hinted and not typed:
            typed.append(hinted.group(1))
            return hinted.group(1)
        if typed:
            assert "Not possible" not in new and "Cannot read" not in new, new
            return "resign"
        return None

    code, out = play(["hill218", "--quick-start", "--seed", "5", "--ai", "easy"],
                     script=["hint"], plan=plan)
    assert code == 0 and typed, out
    assert f"> {typed[0]}" in out and "South resigned" in out
    assert "hint       the play the computer's strongest level" in play(
        ["hill218", "--quick-start", "--seed", "5"], script=["help", "quit"])[1]


def test_hot_seat_shows_each_player_only_its_own_cards(tmp_path):
    path = tmp_path / "hot.json"
    code, out = play(["hill218", "--opponent", "human", "--seed", "11", "--save", str(path)])
    assert code == 0 and "Game over:" in out
    rules = make_game("hill218").rules
    abbrev = {u.name: u.abbrev.lower() for u in rules.units}
    states = list(replay_states(Record.load(path)))
    sections = out.split("Pass the keyboard to ")[1:]
    assert len(sections) > 10
    checked = 0
    for section in sections:
        me, other = section.split()[0], section.split()[1].strip("(,")
        assert {me, other} == set(SEATS)
        assert f"{other}'s hand" not in section
        assert f"Under {other}'s deck" not in section and f"{other}'s deck (" not in section
        assert not re.search(rf"{other} (draws|puts) [A-Z]", section)
        hands = HAND.findall(section)
        assert hands and all(seat == me for seat, _ in hands)
        status = STATUS.search(section)
        if status and status[2] == me:  # the hand shown is the true hand of that moment
            seat, turn = SEATS.index(me), int(status[1])
            obs = next(s.observation(seat) for s in states
                       if s.observation(None)["turn"] == turn and s.current_player() == seat)
            shown = HAND.search(section, status.end())[2]
            assert hand_counts(shown) == {abbrev[u]: n for u, n in obs["hand"].items()}
            checked += 1
    assert checked > 10


def test_hot_seat_hand_over_clears_the_scrollback_and_shows_the_seed_again(tmp_path):
    code, out = play(["hill218", "--opponent", "human", "--seed", "11", "--save",
                      str(tmp_path / "hot.json")], interactive=True)
    assert code == 0 and "Game over" in out
    screens = out.split(CLEAR_ALL)
    handovers = out.count("Pass the keyboard to ")
    assert len(screens) - 1 == handovers + 1 > 10  # each hand-over, then the end screen
    for section in screens[1:]:  # what the next player could scroll back to
        assert section.startswith("The Battle for Hill 218 — seed 11. Type 'help'")
        me = re.search(r"Pass the keyboard to (\w+)", section)
        assert {seat for seat, _ in HAND.findall(section)} <= ({me[1]} if me else set())
    assert "Pass the keyboard" not in screens[-1] and "Seed: 11" in screens[-1]


def test_play_subprocess_with_piped_input_exits_cleanly_at_end_of_input(tmp_path):
    path = tmp_path / "quit.json"
    proc = subprocess.run(
        [sys.executable, "-m", "warboard.cli", "play", "ogre218", "--quick-start", "--seed", "4",
         "--no-color", "--save", str(path)],
        input="help\nlegal\nshow\n", capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert "Commands:" in proc.stdout and "Legal plays (" in proc.stdout
    assert "Your cards now:" in proc.stdout
    assert "South quit (end of input): the game is abandoned." in proc.stdout
    assert "Seed: 4" in proc.stdout
    assert Record.load(path).result == {"abandoned": True, "by": 0, "how": "quit"}


# ----------------------------------------------------------------------------- replay

def test_replay_all_prints_every_step_with_the_result(tmp_path):
    record = random_record("hill218", {"quick_start": True}, seed=3)
    path = tmp_path / "full.json"
    record.save(path)
    proc = subprocess.run([sys.executable, "-m", "warboard.cli", "replay", str(path), "--all",
                           "--no-color"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    decisions = sum(e["seat"] is not None for e in record.events)
    steps = re.findall(r"^Step (\d+)/(\d+) ", proc.stdout, re.MULTILINE)
    assert [int(s) for s, _ in steps] == list(range(decisions + 1))
    assert {int(n) for _, n in steps} == {decisions}
    summary = record.result["summary"]
    assert f"South {summary['units'][0]}, North {summary['units'][1]}" in proc.stdout
    assert proc.stdout.rstrip().splitlines()[-1] == "End of the record: " + result_text(
        make_game("hill218").rules, summary)
    # the full record shows both hands and names every draw
    assert "South's hand:" in proc.stdout and "North's hand:" in proc.stdout
    assert re.search(r"North draws [A-Z]", proc.stdout)


@pytest.mark.parametrize("export", [False, True])
def test_replay_for_one_seat_hides_the_other_seats_cards(tmp_path, export):
    record = random_record("ogre218", {}, seed=8)
    path = tmp_path / "full.json"
    record.save(path)
    argv = [str(path), "--seat", "1"]
    if export:  # a seat record made by 'warboard export' shows its own frames
        seat_path = tmp_path / "north.json"
        subprocess.run([sys.executable, "-m", "warboard.cli", "export", str(path), "--seat", "1",
                        "-o", str(seat_path)], check=True, capture_output=True, timeout=60)
        argv = [str(seat_path)]
    out = io.StringIO()
    assert run_replay(cli_args("replay", "--all", *argv), console=make_console(True, out)) == 0
    text = out.getvalue()
    assert "North's hand:" in text and "North (you)" in text
    assert "South's hand" not in text and "Under South's deck" not in text
    assert "South puts 2 cards under its deck" in text
    assert re.search(r"South draws \d+ cards?", text) and not re.search(r"South draws [A-Z]", text)
    assert re.search(r"North draws [A-Z]", text)


def test_replay_steps_interactively_with_enter_back_jump_and_quit(tmp_path):
    path = tmp_path / "full.json"
    random_record("hill218", {"quick_start": True}, seed=1).save(path)
    proc = subprocess.run([sys.executable, "-m", "warboard.cli", "replay", str(path),
                           "--no-color"], input="\n\nb\n5\nzzz\n999\nq\n",
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    shown = [int(s) for s in re.findall(r"^Step (\d+)/", proc.stdout, re.MULTILINE)]
    assert shown == [0, 1, 2, 1, 5]
    assert "Type Enter, b, q or a step number" in proc.stdout
    assert re.search(r"There are steps 0 to \d+\.", proc.stdout)


# ----------------------------------------------------------------------------- screens and words

POSITION = {
    "ruleset": "hill218", "to_move": 0, "plays_left": 2,
    "board": [{"x": 0, "y": -1, "seat": 0, "unit": "infantry"},
              {"x": 0, "y": 1, "seat": 1, "unit": "infantry"},
              {"x": 1, "y": 0, "seat": 1, "unit": "infantry"}],
    "hands": [{"tank": 1, "infantry": 1}, {"special_forces": 2, "paratroopers": 1}],
    "strikes": [2, 1], "decks": [[], []]}


def render_text(renderable) -> str:
    out = io.StringIO()
    make_console(no_color=True, file=out).print(renderable)
    return out.getvalue()


def grid_cells(text: str) -> dict[tuple[int, int], str]:
    """The labels of the first grid in ``text`` by cell, read from its x header and y labels."""
    lines = text.splitlines()
    top = next(i for i, line in enumerate(lines) if COLUMNS.match(line))
    xs = [int(v) for v in lines[top].split()]
    cells = {}
    for line in lines[top + 1:]:
        if COLUMNS.match(line):
            break
        y, start = int(line[:4]), 4
        for x in xs:  # a space, then the cell
            cells[(x, y)] = line[start + 1: start + 1 + column_width(x)].strip()
            start += 1 + column_width(x)
    return cells


def test_a_seat_screen_never_shows_the_other_seats_hand():
    state = position_from_json(POSITION)
    rules = state.rules
    south = render_text(screen(rules, View.of_state(state, [0]), me=0))
    assert "South's hand: 1 Infantry (inf), 1 Tank (tnk)" in south
    for word in ("Special", "SF", "sf)", "Paratroopers", "PAR", "par)", "North's hand"):
        assert word not in south
    north = render_text(screen(rules, View.of_state(state, [1]), me=1))
    assert "North's hand: 2 Special Forces (sf), 1 Paratroopers (par)" in north
    assert "Tank" not in north


def test_the_grid_marks_units_bases_hill_and_the_cells_a_card_may_go():
    state = position_from_json(POSITION)
    view = View.of_state(state, [0])
    text = render_text(show_unit(state.game, view, 0, state.legal_actions(), "tnk"))
    cells = grid_cells(text)
    assert cells[(0, 0)] == "(*)"
    assert cells[(0, -1)] == "[INF]" and cells[(0, 1)] == "[inf]"  # South upper, North lower
    assert cells[(1, 0)] == ">inf<"  # the unit the tank could hit
    legal = {p.at for p in state.legal_actions() if getattr(p, "unit", None) == "tank"}
    assert {c for c, label in cells.items() if label == "+"} == legal
    assert "tnk 1,-1 x 1,0   (can hit North Infantry at (1,0))" in text
    assert "hitting nothing at: -1,-1  0,-2" in text  # top row first


def test_a_deployment_with_one_possible_hit_may_leave_it_out():
    state = position_from_json(POSITION)
    plays = state.legal_actions()
    game = state.game
    assert complete_hits(plays, game.action_from_text("tnk 1,-1")) == Deploy(
        "tank", (1, -1), ((1, 0),))
    quiet = game.action_from_text("tnk 0,-2")
    assert complete_hits(plays, quiet) is quiet


def test_the_log_tells_plays_in_words_and_hides_the_other_seats_draws():
    state = position_from_json(POSITION)
    rules = state.rules
    before = View.of_state(state, [1])
    state.apply(state.game.action_from_text("tnk 1,-1 x 1,0"))
    after = View.of_state(state, [1])
    event = {"seat": 0, "action": {"play": "deploy", "unit": "tank", "at": [1, -1],
                                   "attacks": [[1, 0]]}}
    assert log_lines(rules, narrate(rules, before, after, event)) == [
        "South deploys Tank at (1,-1), destroys North Infantry at (1,0)"]

    game = make_game("hill218", {"quick_start": True})
    rec, rng = Recorder(game), random.Random(0)
    views, told = [View.of_state(rec.state, [0])], []
    while rec.state.current_player() == CHANCE:
        rec.apply(sample_chance(rec.state, rng))
        views.append(View.of_state(rec.state, [0]))
        event = dict(rec.record.events[-1], action=None) if len(views) > 5 else None
        told += narrate(rules, views[-2], views[-1], event or rec.record.events[-1])
    lines = log_lines(rules, told)
    assert lines[1].startswith("South draws ") and lines[2] == "North draws 3 cards"


def test_an_ogre_hit_twice_is_damaged_then_destroyed():
    state = position_from_json({
        "ruleset": "ogre218", "to_move": 0, "plays_left": 2,
        "board": [{"x": 0, "y": -1, "seat": 0, "unit": "infantry"},
                  {"x": 1, "y": 0, "seat": 1, "unit": "ogre"}],
        "hands": [{"ogre": 1}, {"infantry": 1}], "strikes": [0, 0], "decks": [[], []]})
    rules = state.rules
    before = View.of_state(state, [])
    play = state.game.action_from_text("ogr 1,-1 x 1,0 x 1,0")
    state.apply(play)
    event = {"seat": 0, "action": state.game.action_to_json(play)}
    assert log_lines(rules, narrate(rules, before, View.of_state(state, []), event))[0] == (
        "South deploys Ogre at (1,-1), damages North Ogre at (1,0) and destroys North Damaged "
        "Ogre at (1,0)")


def test_saved_file_is_a_record_even_for_an_unfinished_hot_seat_game(tmp_path: Path):
    path = tmp_path / "short.json"
    code, out = play(["hill218", "--opponent", "human", "--quick-start", "--seed", "1",
                      "--save", str(path)], script=["", "quit"])
    assert code == 0 and "quit: the game is abandoned" in out
    record = Record.load(path)
    assert record.players == ["human", "human"] and record.result["how"] == "quit"


def test_a_turn_passed_for_want_of_a_legal_play_is_told():
    state = position_from_json({
        "ruleset": "hill218", "to_move": 1, "plays_left": 1,
        "board": [{"x": 0, "y": -1, "seat": 0, "unit": "infantry"},
                  {"x": 0, "y": 1, "seat": 1, "unit": "infantry"}],
        "hands": [{}, {"infantry": 2}], "strikes": [0, 0], "decks": [[], ["tank"] * 3]})
    rules = state.rules
    before = View.of_state(state, [0])
    play = state.game.action_from_text("inf 1,1")
    state.apply(play)
    event = {"seat": 1, "action": state.game.action_to_json(play)}
    assert log_lines(rules, narrate(rules, before, View.of_state(state, [0]), event)) == [
        "North deploys Infantry at (1,1)", "South has no legal play: turn 2 passes",
        "North draws 2 cards"]


# ----------------------------------------------------------------------------- review fixes

def test_ctrl_c_at_the_prompt_asks_before_quitting_and_is_reported_as_ctrl_c(tmp_path):
    out = io.StringIO()
    answers = iter([KeyboardInterrupt, "n", KeyboardInterrupt, "y", ""])

    def keyboard(_prompt: str) -> str:
        answer = next(answers)
        if answer is KeyboardInterrupt:
            raise KeyboardInterrupt
        return answer

    code = run_play(cli_args("play", "hill218", "--quick-start", "--seed", "3", "--save",
                             str(tmp_path / "c.json")), input_fn=keyboard,
                    console=make_console(no_color=True, file=out), interactive=True)
    text = out.getvalue()
    assert code == 0
    assert text.count("Ctrl-C: really quit? The game will be abandoned (y/N): ") == 2
    assert "South quit (Ctrl-C): the game is abandoned." in text
    assert "end of input" not in text
    assert Record.load(tmp_path / "c.json").result["how"] == "quit"


@pytest.mark.parametrize("name", ["hill218", "ogre218"])
def test_help_examples_are_written_with_the_games_own_units(name):
    game = make_game(name)
    text = help_text(game.rules).plain
    plays = text.split("A hit is mandatory")[0]
    examples = re.findall(r"^  (\S+(?: \S+)*)  +", plays, re.MULTILINE)
    assert len(examples) >= 4
    for example in examples:  # each one parses in this game
        game.action_from_text(example)
    others = re.findall(r"'(\w[\w ]* 0,1)'", text)
    assert len(others) == 2
    for example in others:
        assert game.action_from_text(example) == Strike((0, 1))
    assert ("ogr 1,0 x 1,1 x 2,1" in text) == (name == "ogre218")
    assert "tnk" not in text.split("Commands:")[0] or name == "hill218"


@pytest.mark.parametrize("name, strike, not_strikes", [
    ("hill218", ["strike", "as", "air strike", "airstrike"],
     {"s": "special_forces", "sf": "special_forces", "a": "artillery", "ar": "artillery"}),
    ("ogre218", ["strike", "cm", "cruise missile", "cruisemissile"],
     {"missile": "missile_tank", "m": "missile_tank", "msl": "missile_tank", "c": None}),
])
def test_a_word_that_fits_a_unit_always_means_the_unit(name, strike, not_strikes):
    game = make_game(name)
    rules = game.rules
    assert list(strike_words(rules)) == strike
    for word in strike:
        assert game.action_from_text(f"{word} 1,-2") == Strike((1, -2))
        assert not any(u.name.startswith(word.split()[0]) or u.abbrev.lower() == word
                       for u in rules.units)
    for word, unit in not_strikes.items():
        if unit is None:
            with pytest.raises(IllegalActionError, match="unknown unit"):
                game.action_from_text(f"{word} 1,1")
        else:
            assert game.action_from_text(f"{word} 1,1") == Deploy(unit, (1, 1))
    for u in rules.units:  # every unit by abbreviation, name and each prefix that fits it alone
        prefixes = [u.name[:k] for k in range(1, len(u.name) + 1)
                    if [v.name for v in rules.units if v.name.startswith(u.name[:k])] == [u.name]]
        for word in [u.abbrev, u.name, *prefixes]:
            assert game.action_from_text(f"{word} 0,-1") == Deploy(u.name, (0, -1))


def test_the_deck_line_says_it_counts_the_cards_under_the_deck():
    game = make_game("hill218")
    rng = random.Random(4)
    state = game.new_initial_state()
    while state.current_player() != 0 or state.observation(0)["phase"] != "bury":
        state.apply(sample_chance(state, rng))
    state.apply(state.legal_actions()[0])
    obs = state.observation(0)
    text = render_text(screen(game.rules, View.of_state(state, [0]), me=0))
    assert len(obs["bottom"]) == 2
    assert f"South's deck ({obs['deck_sizes'][0]} cards, including the 2 under it): " in text


POSITION_ON_BASE = dict(POSITION, hands=[{"artillery": 1, "infantry": 1},
                                         {"special_forces": 2, "paratroopers": 1}])


def test_a_unit_on_a_base_that_could_be_hit_keeps_both_marks():
    state = position_from_json(POSITION_ON_BASE)
    view = View.of_state(state, [0])
    text = render_text(show_unit(state.game, view, 0, state.legal_actions(), "art"))
    cells = grid_cells(text)
    assert cells[(0, 1)] == ">[inf]<" and cells[(0, -1)] == "[INF]"
    assert "art 1,-1 x 0,1   (can hit North Infantry at (0,1))" in text


def refusal(state, line: str) -> str:
    """What the terminal says when ``line`` is refused in ``state`` (South to move)."""
    game, plays = state.game, state.legal_actions()
    action = game.action_from_text(line)
    with pytest.raises(IllegalActionError) as refused:
        state.clone().apply(action)
    return explain_illegal(game, View.of_state(state, [0]), 0, plays, action,
                           str(refused.value))


def test_refusals_name_cells_as_x_y_and_say_what_is_possible():
    state = position_from_json(POSITION)
    said = {line: refusal(state, line) for line in (
        "inf 5,5", "tnk 1,-1 x 0,1", "tnk 0,-2 x 1,0", "strike 2,2", "sf 1,-1", "bury inf tnk")}
    assert said["inf 5,5"] == ("Infantry (inf) cannot go at (5,5): the cell is not supplied "
                               "for this unit. It may go at -1,-1  1,-1  0,-2.")
    assert said["tnk 1,-1 x 0,1"].startswith(
        "Tank (tnk) at (1,-1) must hit (a hit is mandatory when one is possible); it may hit "
        "1,0. The plays there: tnk 1,-1 x 1,0")
    assert said["tnk 0,-2 x 1,0"] == "Tank (tnk) at (0,-2) can hit nothing there: write 'tnk 0,-2'."
    assert said["strike 2,2"] == "no enemy unit at (2,2) to strike; enemy units are at 0,1  1,0."
    assert said["sf 1,-1"] == "you have no Special Forces (sf) in your hand."
    assert said["bury inf tnk"].startswith("cards are put under the deck only at setup")
    for text in said.values():
        assert "[" not in text and "seat " not in text


def test_engine_words_translate_cells_lists_and_seats():
    rules = make_game("hill218").rules
    assert engine_words(rules, "seat 0 (South) has no heavy_weapons in hand") == (
        "South has no Heavy Weapons in hand")
    assert engine_words(rules, "one of [[-2, 0], [-1, 1]], got []") == "one of -2,0  -1,1, got none"


@pytest.mark.parametrize("value, message", [
    ("3,0", "--damaged-ogres 3,0: write it as N0,N1 with each 0-2"),
    ("0,-1", "--damaged-ogres 0,-1: write it as N0,N1 with each 0-2"),
])
def test_a_bad_damaged_ogres_option_is_explained_in_the_options_terms(value, message):
    with pytest.raises(ValueError, match=re.escape(message)) as refused:
        run_play(cli_args("play", "ogre218", f"--damaged-ogres={value}"), input_fn=lambda _: "",
                 console=make_console(True, io.StringIO()))
    assert "[1, 0]" not in str(refused.value)
    with pytest.raises(ValueError, match="--damaged-ogres is an ogre218 option"):
        run_play(cli_args("play", "hill218", "--damaged-ogres=1,0"), input_fn=lambda _: "",
                 console=make_console(True, io.StringIO()))


def test_setup_show_and_hint_name_the_players_own_cards():
    code, out = play(["ogre218", "--seed", "6"], script=["show", "quit"])
    assert code == 0
    hint = re.search(r"Choose 2 cards to put under your deck, e\.g\. '(bury \w+ \w+)'", out)
    hand = hand_counts(HAND.search(out)[2])
    assert set(hint[1].split()[1:]) <= set(hand)
    shown = out[out.index("> show\n"):]
    assert "Cards are placed on the board after the burial" in shown
    assert "place" not in shown.split("Cards are placed")[0]


def test_chance_nodes_have_no_seat_to_move_and_forced_draws_are_told():
    state = position_from_json(dict(POSITION, plays_left=1))
    rules = state.rules
    tank, inf = rules.unit_ids["tank"], rules.unit_ids["infantry"]
    pool = [0] * len(rules.units)
    pool[tank] = 1
    state.decks[1] = Deck([], pool, [inf])  # one Tank left unordered, then a buried Infantry
    views = {r: [View.of_state(state, [] if r is None else [r])] for r in (None, 0, 1)}
    told: dict = {r: [] for r in views}

    def step(action, seat):
        event = {"seat": seat, "action": state.game.action_to_json(action)}
        state.apply(action)
        for r in views:
            views[r].append(View.of_state(state, [] if r is None else [r]))
            # a decision is public; a draw of North's is told to the others as a hidden event
            shown = event if seat is not None or r == 1 else {"seat": None, "action": None}
            told[r] += narrate(rules, views[r][-2], views[r][-1], shown)

    step(Deploy("tank", (0, -2)), 0)
    assert state.current_player() == CHANCE and state.chance_outcomes() == [(Draw("tank"), 1.0)]
    public = views[None][-1]
    assert public.to_move is None and public.drawing == 1
    assert public.public["to_move"] is None and public.public["drawing"] == 1
    assert "North draws" in render_text(screen(rules, public))
    step(Draw("tank"), None)  # forced, but a chance event; the buried Infantry follows
    assert log_lines(rules, told[0])[-1] == "North draws 2 cards"
    assert log_lines(rules, told[1])[-1] == "North draws Infantry, Tank"


def test_play_against_an_ai_level_to_the_end():
    """``--ai easy`` seats the greedy agent, which sees only its own view."""
    code, out = play(["hill218", "--quick-start", "--seed", "4", "--ai", "easy"], script=[])
    assert code == 0
    assert "'easy' opponent" in out
    assert "Game over:" in out


def test_ai_level_with_another_opponent_is_refused():
    with pytest.raises(ValueError, match="leave out --opponent human"):
        play(["hill218", "--ai", "hard", "--opponent", "human"])
