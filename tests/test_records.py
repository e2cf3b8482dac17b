"""Records: saving, loading, exact replay, seat exports that hide what the seat could not see."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from warboard.core.errors import RecordError
from warboard.core.protocol import CHANCE
from warboard.core.record import Record, Recorder, export_for_seat, replay_state, replay_states
from warboard.hill218 import CardGame


def finished_record(name: str = "hill218", seed: int = 11) -> Recorder:
    rec = Recorder(CardGame(name), seed=seed, players=["alice", "random"])
    rng = random.Random(seed)
    while not rec.state.is_terminal():
        if rec.state.current_player() == CHANCE:
            rec.apply(rec.state.sample_chance_outcome(rng))
        else:
            rec.apply(rng.choice(rec.state.legal_actions()))
    return rec


def test_saved_record_loads_and_replays_to_the_same_final_state(tmp_path):
    rec = finished_record()
    path = tmp_path / "game.json"
    rec.record.save(path)
    loaded = Record.load(path)
    assert loaded.events == rec.record.events
    assert loaded.result == rec.record.result
    assert loaded.result["returns"] == list(rec.state.returns())
    assert replay_state(loaded).to_json() == rec.state.to_json()


def test_seat_export_hides_opponent_draws_and_burial_but_keeps_own():
    rec = finished_record("ogre218", seed=5)
    for seat in (0, 1):
        mine = export_for_seat(rec.record, seat)
        assert mine.seed is None and mine.view == seat
        assert len(mine.frames) == len(mine.events) + 1
        full_states = list(replay_states(rec.record))
        for i, (event, full) in enumerate(zip(mine.events, rec.record.events, strict=True)):
            action = full["action"]
            private = (action.get("chance") == "draw" or action.get("play") == "bury")
            state_before = full_states[i]
            owner = (state_before.setup_seat if state_before.phase in ("deal", "bury")
                     else state_before.to_move)
            if private and owner != seat:
                assert event["action"] is None and event["hidden"] is True
            else:
                assert event["action"] == action
        # each frame is exactly the seat's observation, so never the other hand
        for frame, state in zip(mine.frames, full_states, strict=True):
            assert frame == state.observation(seat)


def test_seat_export_text_never_names_cards_only_the_opponent_saw():
    """Over the whole exported file, the opponent's hand is never spelled out."""
    rec = finished_record("hill218", seed=9)
    mine = export_for_seat(rec.record, 0)
    for frame in mine.frames:
        assert "hand" in frame and frame["seat"] == 0
        assert set(frame) == set(mine.frames[0])  # no opponent-only keys appear later
    text = json.dumps(mine.to_json())
    assert '"pool"' not in text and '"hands"' not in text


def test_seat_record_cannot_rebuild_the_full_game():
    mine = export_for_seat(finished_record().record, 1)
    with pytest.raises(RecordError, match="cannot rebuild"):
        replay_state(mine)


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: d.update(format="other"), "not a warboard record"),
    (lambda d: d.update(version=99), "version"),
    (lambda d: d.update(events="x"), "events"),
    (lambda d: d.update(game="chess"), "unknown game"),
    (lambda d: d["events"][3].update(seat=1 - (d["events"][3]["seat"] or 0)), "event 3"),
    (lambda d: d["events"][-1]["action"].update(unit="tank", at=[40, 40]), "does not replay"),
])
def test_broken_records_get_clear_errors(change, message):
    data = json.loads(json.dumps(finished_record().record.to_json()))
    change(data)
    with pytest.raises(RecordError, match=message):
        replay_state(Record.from_json(data))


def test_unreadable_record_file(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text("{not json")
    with pytest.raises(RecordError, match="not JSON"):
        Record.load(path)


def test_export_command_writes_a_seat_record(tmp_path):
    src, out = tmp_path / "full.json", tmp_path / "south.json"
    finished_record().record.save(src)
    done = subprocess.run([sys.executable, "-m", "warboard.cli", "export", str(src), "--seat",
                           "0", "--out", str(out)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert Record.load(out).view == 0
    bad = subprocess.run([sys.executable, "-m", "warboard.cli", "export", str(tmp_path / "nope"),
                          "--seat", "0", "--out", str(out)], capture_output=True, text=True,
                         timeout=120)
    assert bad.returncode == 1 and "cannot be read" in bad.stderr


def test_recorder_rejects_an_illegal_action_and_records_nothing():
    rec = Recorder(CardGame("hill218"), seed=1)
    rng = random.Random(1)
    while rec.state.phase != "play":
        if rec.state.current_player() == CHANCE:
            rec.apply(rec.state.sample_chance_outcome(rng))
        else:
            rec.apply(rec.state.legal_actions()[0])
    before = (len(rec.record.events), rec.state.to_json())
    from warboard.core.errors import IllegalActionError
    from warboard.hill218 import Deploy

    with pytest.raises(IllegalActionError):
        rec.apply(Deploy("tank", (9, 9), ()))
    assert (len(rec.record.events), rec.state.to_json()) == before
