"""The clock arithmetic (warboard.server.clocks): the running seat is charged up to the receipt
of its decision, the increment comes when the turn passes, correspondence gives each turn its
full days, and the stored form gives back the same clock."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from warboard.server.clocks import CORRESPONDENCE, DAY_MS, REAL, Clock, ClockError, time_loss

T0 = datetime(2026, 1, 1, tzinfo=UTC)


def at(ms: int) -> datetime:
    return T0 + timedelta(milliseconds=ms)


def running(spec: dict[str, float], seat: int = 0) -> Clock:
    return Clock.from_spec(spec).passed(T0, seat, None).start(T0)


def test_a_real_clock_charges_up_to_the_receipt_and_adds_the_increment_on_handover() -> None:
    clock = running({"initial": 60, "increment": 2})
    assert (clock.kind, clock.left, clock.deadline) == (REAL, (60_000, 60_000), at(60_000))
    after = clock.passed(at(10_000), 1, by=0)
    assert after.left == (52_000, 60_000) and after.started is None  # it starts at the commit
    assert after.start(at(10_500)).deadline == at(70_500)  # the 500 ms stored: nobody's


def test_a_turn_of_several_decisions_gets_one_increment() -> None:
    clock = running({"initial": 60, "increment": 2})
    same = clock.passed(at(1_000), 0, by=0).start(at(1_200))
    assert same.left == (59_000, 60_000) and same.running == 0
    passed = same.passed(at(3_200), 1, by=0)
    assert passed.left == (59_000, 60_000)  # 59 s - 2 s + the 2 s increment


def test_a_change_the_running_seat_did_not_make_gives_no_increment() -> None:
    clock = running({"initial": 60, "increment": 2}, seat=1)
    assert clock.passed(at(5_000), 0, by=0).left == (60_000, 55_000)  # an undo by seat 0


def test_correspondence_gives_each_turn_its_days() -> None:
    clock = running({"days": 2})
    assert clock.kind == CORRESPONDENCE
    assert clock.passed(at(DAY_MS), 0, by=0).left == (DAY_MS, 2 * DAY_MS)  # same turn
    assert clock.passed(at(DAY_MS), 1, by=0).left == (2 * DAY_MS, 2 * DAY_MS)


def test_flag_time_left_and_the_end() -> None:
    clock = running({"initial": 2, "increment": 0})
    assert not clock.flagged(at(1_999)) and clock.flagged(at(2_000))
    assert clock.left_at(at(500)) == (1_500, 2_000) and clock.left_at(at(9_000)) == (0, 2_000)
    over = clock.passed(at(2_000), None, None)
    assert over.deadline is None and not over.flagged(at(10**9))
    assert time_loss(0) == {"returns": [-1.0, 1.0], "summary": {"winner": 1, "reason": "time"}}


def test_stored_and_sent() -> None:
    clock = running({"initial": 90, "increment": 3}).passed(at(1_000), 1, 0).start(at(1_100))
    assert Clock.from_json(clock.to_json()) == clock
    sent = clock.message(at(2_100))
    assert sent == {"kind": REAL, "initial": 90, "increment": 3, "seats": [92_000, 89_000],
                    "running": 1, "at": at(2_100).isoformat(timespec="milliseconds"),
                    "started": at(1_100).isoformat(timespec="milliseconds"),
                    "deadline": at(91_100).isoformat(timespec="milliseconds")}


@pytest.mark.parametrize("spec", [{"initial": 0, "increment": 1}, {"days": 0}, {"days": 1,
                                  "initial": 3}, {"initial": 5, "increment": -1}])
def test_clocks_that_cannot_be_kept(spec: dict[str, float]) -> None:
    with pytest.raises(ClockError):
        Clock.from_spec(spec)
