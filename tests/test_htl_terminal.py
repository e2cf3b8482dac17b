"""Hold the Line in the terminal: scripted games through ``run_htl_play`` (input lines in, the
transcript out), undo back to the last die only, the command reader, and replay of a record."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from warboard.cli import build_parser, main
from warboard.core.record import Record, replay_state
from warboard.core.registry import make_game
from warboard.holdtheline.actions import END, Advance, Assault, Fire, Move, Retreat
from warboard.holdtheline.scenario_file import scenario_names
from warboard.holdtheline.terminal.commands import CommandError, describe, read_action
from warboard.holdtheline.terminal.play import make_htl_console, run_htl_play, seat_of_side
from warboard.holdtheline.terminal.render import board_text, screen, time_out_text


def cli_args(*argv: str):
    return build_parser().parse_args(list(argv))


def play(lines: list[str], *argv: str, tmp_path: Path | None = None) -> tuple[int, str]:
    """Run ``warboard play holdtheline ARGV`` with ``lines`` typed; the exit code and the
    transcript. End of input quits."""
    feed = iter(lines)

    def keyboard(_prompt: str) -> str:
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    out = io.StringIO()
    console = make_htl_console(no_color=True)
    console.file = out
    code = run_htl_play(cli_args("play", "holdtheline", "--no-color", *argv),
                        input_fn=keyboard, console=console, interactive=False)
    return code, out.getvalue()


def test_moves_undo_and_errors_in_a_scripted_turn():
    code, text = play(["move A3 7,5", "undo", "move A3 7,5", "move A3 7,4", "fire A1 4,3",
                       "move ZZ 1,1", "move A4 3,3", "blah", "legal", "show A2", "show 6,2",
                       "help", "quit"],
                      "--scenario", "tutorial", "--opponent", "random", "--seed", "3")
    assert code == 0
    assert "Americans [3 AP]> move A3 7,5" in text
    assert "A3 moves 8,6 to 7,5 (1 AP)" in text
    assert "Taken back: move A3 7,5." in text
    # after the undo the same move is made again with the AP back
    assert text.count("Americans [3 AP]> move A3 7,5") == 2
    assert "Not possible: A3 cannot move now" in text  # it acted already
    assert "Not possible: A1 cannot fire now: no enemy is in its range" in text
    assert "Not possible: no unit or leader 'ZZ'" in text
    assert "Not possible: A4 cannot move to 3,3; A4 can reach" in text
    assert "'blah' is not an action" in text
    assert "move A2 7,4 with dickinson (extra hex)   [2 AP]" in text  # legal, with AP
    assert "6,2: town (the farm)" in text and "VP counter of the British" in text
    assert "rally washington A3" in text  # the help
    assert "The Americans quit: the game is abandoned." in text


def test_a_hint_is_a_legal_action_and_only_against_the_computer():
    code, text = play(["hint"], "--scenario", "tutorial", "--ai", "easy", "--seed", "3")
    hinted = re.search(r"Hint \(expert\): (.+)", text)
    assert code == 0 and hinted is not None, text
    code, text = play(["hint", hinted.group(1), "quit"], "--scenario", "tutorial", "--ai",
                      "easy", "--seed", "3")
    assert f"Americans [3 AP]> {hinted.group(1)}" in text and "Not possible" not in text
    assert "Americans [3 AP]> quit" not in text  # the hinted action was taken, with its AP
    code, text = play(["hint", "quit"], "--scenario", "tutorial", "--opponent", "human")
    assert "Hints are only for games against the computer." in text


def test_undo_refuses_to_go_back_past_a_die():
    # seed 11: the Americans get AP for a move and a fire at an enemy in range afterwards
    game = make_game("holdtheline", {"scenario": "trenton"})
    state = game.new_initial_state()
    assert state.current_player() == -1
    code, text = play(["undo", "fire K1 5,2", "undo", "move A1 3,1", "undo", "undo", "quit"],
                      "--scenario", "trenton", "--ai", "easy", "--seed", "11")
    assert code == 0
    refusals = [line for line in text.splitlines() if line.startswith("Cannot undo")]
    # at the start of the turn (after the action die) and after the fire's dice
    assert refusals[0].startswith("Cannot undo: a die has been rolled since")
    assert "artillery K1 fires at 5,2" in text
    assert "[" in text.split("fires at 5,2", 1)[1].splitlines()[1]  # a die line follows
    assert refusals[1].startswith("Cannot undo: a die has been rolled since")
    assert "Taken back: move A1 3,1." in text
    assert len(refusals) == 3  # the second undo after the move meets the fire's dice


def test_a_whole_game_against_random_is_saved_and_replays(tmp_path):
    record = tmp_path / "g.json"
    code, text = play(["end"] * 40, "--scenario", "tutorial", "--opponent", "random",
                      "--seed", "5", "--save", str(record))
    assert code == 0
    assert "Seed: 5" in text and f"Record saved to {record}" in text
    assert "Turn  1  2  3  4  5  6  7  8  9 [10]" in text
    rec = Record.load(record)
    assert rec.game == "holdtheline" and rec.options == {"scenario": "tutorial"}
    assert rec.players == ["human", "random"]
    final = replay_state(rec)
    assert final.is_terminal()
    assert rec.result["summary"]["reason"] in ("time", "vp")
    out = io.StringIO()
    import contextlib

    with contextlib.redirect_stdout(out):
        assert main(["replay", str(record), "--all", "--no-color"]) == 0
    shown = out.getvalue()
    assert "Step 0/" in shown and "End of the record: " in shown
    assert "Step 1/" in shown and ": end" in shown


def first_choice(transcript: str) -> str:
    """What a player types who ends each turn at once and takes the first offered hex or
    option when the last prompt asks for one ("Americans [escape marion to 4,6 or 3,5]> ":
    "escape 4,6")."""
    prompt = transcript[transcript.rfind("\n", 0, transcript.rfind("[")):].rstrip()
    if prompt.endswith("]>") and " or " in prompt:
        words = prompt[prompt.rindex("[") + 1:].split(" or ")[0].split()
        return " ".join(dict.fromkeys((words[0], words[-1])))
    return "end"


@pytest.mark.parametrize("scenario", scenario_names())
def test_every_scenario_is_played_to_its_end_in_the_terminal(scenario):
    out = io.StringIO()
    console = make_htl_console(no_color=True)
    console.file = out
    typed = iter(range(1000))  # a refused answer must not loop for ever

    def keyboard(_prompt: str) -> str:
        next(typed)
        return first_choice(out.getvalue())

    code = run_htl_play(cli_args("play", "holdtheline", "--no-color", "--scenario", scenario,
                                 "--opponent", "random", "--seed", "5"),
                        input_fn=keyboard, console=console, interactive=False)
    text = out.getvalue()
    assert code == 0 and "abandoned" not in text, text[-2000:]
    assert re.search(r"^(Time runs out|.* wins?\b|A draw)", text, re.M), text[-2000:]


def test_hot_seat_and_side_choice():
    game = make_game("holdtheline", {"scenario": "trenton"})
    assert seat_of_side(game, "british") == 1 and seat_of_side(game, "Hessians") == 1
    assert seat_of_side(game, "am") == 0
    with pytest.raises(ValueError, match="sides are american"):
        seat_of_side(game, "french")
    code, text = play(["end", "end", "quit"], "--scenario", "trenton", "--opponent", "human",
                      "--seed", "2")
    assert code == 0
    assert "Americans [" in text and "Hessians [" in text  # both sides at the keyboard
    code, text = play(["quit"], "--scenario", "trenton", "--side", "british", "--ai", "easy",
                      "--seed", "2")
    assert "You play the Hessians; the Americans are the 'easy' opponent." in text


def test_the_command_reader_names_legal_actions():
    game = make_game("holdtheline", {"scenario": "tutorial"})
    state = game.new_initial_state()
    state.apply(state.chance_outcomes()[2][0])
    obs = state.observation(0)
    legal = state.legal_actions()
    a, note = read_action("move a2 5,5 with dick", legal, obs)
    assert a == Move("A2", "dickinson", ((5, 5),)) and note == ""
    a, note = read_action("move A2 4,5 with dickinson", legal, obs)
    assert a.bonus and "extra hex" in note
    assert read_action("end", legal, obs)[0] == END
    assert read_action("1", legal, obs)[0] == legal[0]
    with pytest.raises(CommandError, match="there are"):
        read_action("999", legal, obs)
    with pytest.raises(CommandError, match="not a hex"):
        read_action("move A2 5-5", legal, obs)
    with pytest.raises(CommandError, match="no retreat to choose"):
        read_action("retreat 5,5", legal, obs)
    assert describe(Fire("A1", (4, 3)), {"ap": 1, "dice": 3, "hit_on": 5}) == \
        "fire A1 4,3   [1 AP, 3 dice, hit on 5+]"
    assert describe(Assault("A1", (4, 3), True)) == "assault A1 4,3 leader"
    assert describe(Retreat("B1", (5, 3))) == "retreat 5,3  (B1)"
    assert describe(Advance(False)) == "stay"


def test_the_board_draws_offset_rows_with_units_and_marks():
    game = make_game("holdtheline", {"scenario": "trenton"})
    obs = game.new_initial_state().observation(None)
    text = board_text(obs, marked={(5, 3), (5, 4)}, plain=True).plain
    lines = text.splitlines()
    assert lines[0].split() == [str(c) for c in range(13)]
    row4 = next(line for line in lines if line.startswith(" 4 "))
    assert "t e1  4!" in row4  # Hessian elite E1 in town, marked as a target
    row3 = next(line for line in lines if line.startswith(" 3 "))
    assert row3.startswith(" 3      w")  # odd rows are shifted half a hex
    assert "+" in row3
    rendered = io.StringIO()
    console = make_htl_console(no_color=True)
    console.file = rendered
    console.print(screen(obs, ["a line of the log"], plain=True))
    out = rendered.getvalue()
    assert "Turn [1] 2" in out and "VP 0 of 6" in out and "exited 0 (2 VP per 3)" in out
    assert "Washington (washington) 5,1" in out


@pytest.mark.parametrize("scenario,says", [("tutorial", "more VP wins"),
                                           ("trenton", "Hessians win")])
def test_the_turn_track_says_what_the_turn_limit_brings(scenario, says):
    view = make_game("holdtheline", {"scenario": scenario}).new_initial_state().observation(0)
    assert time_out_text(view) == says


def test_leader_ratings_are_assigned_at_the_prompt_before_turn_1():
    """Option 11.6 (--rule leader_ratings): each side picks its leaders' ratings by number, the
    scenario's first; the choice shows in the leaders line."""
    code, text = play(["2", "1", "quit"], "--scenario", "princeton", "--opponent", "human",
                      "--rule", "leader_ratings", "--seed", "1")
    assert code == 0
    assert "Your decision: give Washington, Mercer the ratings 2/2, 1/1, one each" in text
    assert "1. ratings mercer 1/1, washington 2/2" in text
    assert "2. ratings mercer 2/2, washington 1/1" in text
    assert "Americans assign the leader ratings: Mercer 2/2, Washington 1/1" in text
    assert "Washington (washington) 1/1" in text
    assert "British [leader ratings: a number]> 1" in text
    assert "British assign the leader ratings: Leslie 1/1, Mawhood 2/2" in text
    assert "(before turn 1: assigning the leader ratings, 11.6)" in text
