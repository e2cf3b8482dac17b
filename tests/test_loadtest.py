"""``warboard loadtest``: short real runs against a ``warboard serve`` it starts (with its default
limits), with and without ``--flood``, and its parts.

Only that it works is checked here — plays accepted, figures in order, nothing refused, the
flood refused — never how fast: the speed goal is measured with the command itself
(docs/load.md). The bots think 100 ms: a game's two seats then send at most 10 messages a
second, within the 20 a server allows one address.
"""

from __future__ import annotations

import asyncio
import json
import random
import subprocess
import sys
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest

from warboard.loadtest.bots import Clock, Plan, Seat, Stats, Think, create_game
from warboard.loadtest.flood import CHANNELS
from warboard.loadtest.report import percentile
from warboard.loadtest.server import (
    LoadTestError,
    check_local,
    game_address,
    log_failures,
    log_headline,
    per_client_addresses,
)


def loadtest(*argv: str) -> dict[str, Any]:
    """A run's JSON figures (it must exit 0: no refused or lost play, no failure logged)."""
    done = subprocess.run([sys.executable, "-m", "warboard.cli", "loadtest", "--think", "100",
                           "--seed", "1", "--json", *argv],
                          capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stdout + done.stderr
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def test_a_short_run_plays_games_and_reports_ordered_figures() -> None:
    result = loadtest("--games", "6", "--seconds", "5")
    assert result["concurrent_games"] == 6
    assert result["games_started"] >= 6
    assert result["actions"] > 0
    assert result["actions_per_second"] > 0
    assert 0 < result["p50_ms"] <= result["p90_ms"] <= result["p99_ms"] <= result["max_ms"]
    assert result["errors"] == 0, result["error_messages"]
    assert result["server_errors"] == 0, result["server_error_messages"]
    assert result["server_cpu_percent"] is not None
    assert result["flood"] is None


def test_a_flood_is_refused_while_the_players_get_no_error() -> None:
    result = loadtest("--games", "4", "--seconds", "3", "--flood")
    assert result["actions"] > 0
    assert result["errors"] == 0, result["error_messages"]
    assert result["server_errors"] == 0, result["server_error_messages"]
    flood = result["flood"]
    assert flood["address"] == "127.0.0.2" and flood["seconds"] > 0
    assert sum(flood[channel]["refused"] for channel in CHANNELS) > 0, flood
    assert 1 <= flood["games"]["accepted"] + flood["ai_games"]["accepted"] <= 30  # a minute's
    assert flood["ai_games"]["accepted"] <= 4


def test_each_game_speaks_from_a_loopback_address_of_its_own() -> None:
    addresses = {game_address(n) for n in range(1000)}
    assert len(addresses) == 1000
    assert all(a.startswith("127.1.") for a in addresses)
    assert game_address(0) == "127.1.0.1" and game_address(65534) == game_address(0)
    assert per_client_addresses(["http://127.0.0.1:8218", "http://localhost:8000"])
    assert not per_client_addresses(["http://127.0.0.1:8218", "http://[::1]:8000"])


def test_percentiles_are_nearest_rank() -> None:
    values = [float(v) for v in range(1, 101)]
    random.Random(3).shuffle(values)
    assert percentile(values, 50) == 50.0
    assert percentile(values, 99) == 99.0
    assert percentile(values, 100) == 100.0
    assert percentile([7.0], 99) == 7.0
    assert percentile([], 50) is None


def test_think_times() -> None:
    assert Think.parse("20") == Think(0.02, 0.02)
    assert Think.parse("200-600") == Think(0.2, 0.6)
    rng = random.Random(1)
    assert all(0.2 <= Think.parse("200-600").draw(rng) <= 0.6 for _ in range(100))
    for bad in ("fast", "600-200", "-5", "1-100000"):
        with pytest.raises(ValueError):
            Think.parse(bad)


def test_only_servers_on_this_machine_are_load_tested() -> None:
    assert check_local("http://127.0.0.1:8218/") == "http://127.0.0.1:8218"
    assert check_local("http://localhost:8000") == "http://localhost:8000"
    assert check_local("http://[::1]:8000") == "http://[::1]:8000"
    for url in ("http://10.0.0.5:8218", "http://example.org", "https://127.0.0.1:8218",
                "ftp://127.0.0.1", "127.0.0.1:8218"):
        with pytest.raises(LoadTestError):
            check_local(url)


def test_clocks() -> None:
    assert Clock.parse("180+2") == Clock(180, 2)
    assert Clock.parse("60") == Clock(60, 0)
    for bad in ("0+2", "180+-1", "fast", "180+2+1"):
        with pytest.raises(ValueError):
            Clock.parse(bad)


def test_bad_options_fail_with_a_message() -> None:
    for argv in (["--games", "0"], ["--seconds", "0"], ["--think", "soon"], ["--clock", "3m"],
                 ["--url", "http://192.168.1.2:8218"], ["--flood", "--url", "http://[::1]:1"]):
        done = subprocess.run([sys.executable, "-m", "warboard.cli", "loadtest", *argv],
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 1, argv
        assert "warboard: error:" in done.stderr


def test_a_server_error_is_told_with_its_exception() -> None:
    record = ("ERROR:    Exception in ASGI application\nTraceback (most recent call last):\n"
              '  File "x.py", line 1, in f\n'
              "sqlalchemy.exc.OperationalError: (sqlite3.OperationalError) database is locked\n"
              "[SQL: UPDATE games SET status=?]\n(Background on this error at: https://x)\n")
    assert log_headline(record) == ("ERROR:    Exception in ASGI application "
                                 "sqlalchemy.exc.OperationalError: (sqlite3.OperationalError) "
                                 "database is locked")


def test_a_traceback_outside_an_error_record_is_a_failure_too() -> None:
    log = ('INFO:     127.1.0.1:5000 - "POST /api/games HTTP/1.1" 201 Created\n'
           "game abc: a message failed\nTraceback (most recent call last):\n"
           '  File "x.py", line 1, in f\nKeyError: \'legal\'\n'
           'INFO:     127.0.0.2:5001 - "POST /api/games HTTP/1.1" 429 Too Many Requests\n'
           "WARNING:  rate limit not counted (ConnectionError): down\n")
    assert log_failures(log) == ["game abc: a message failed KeyError: 'legal'"]


class ScriptedConnection:
    """A seat's WebSocket stand-in: ``reply`` answers each play the seat sends."""

    def __init__(self, first: dict[str, Any],
                 reply: Callable[[dict[str, Any]], dict[str, Any]]) -> None:
        self.inbox: asyncio.Queue[str] = asyncio.Queue()
        self.inbox.put_nowait(json.dumps(first))
        self.reply = reply
        self.sent: list[dict[str, Any]] = []

    async def send(self, text: str) -> None:
        self.sent.append(json.loads(text))
        self.inbox.put_nowait(json.dumps(self.reply(self.sent[-1])))

    async def __aiter__(self) -> AsyncIterator[str]:
        while True:
            yield await self.inbox.get()


def state(version: int, legal: list[dict[str, Any]], status: str = "playing") -> dict[str, Any]:
    return {"type": "state", "version": version, "legal": legal, "status": status}


@pytest.mark.parametrize("named", [True, False], ids=["refusal", "refused unread"])
def test_a_seat_times_accepted_plays_and_plays_again_after_a_refusal(named: bool) -> None:
    move = {"play": "bury", "cards": ["tank", "infantry"]}

    def reply(play: dict[str, Any]) -> dict[str, Any]:
        assert play["type"] == "play" and play["action"] == move and play["version"] == 3
        if len(connection.sent) == 1:  # refused unread (past the message rate): no request_id
            return {"type": "error", "message": "refused",
                    **({"request_id": play["request_id"]} if named else {})}
        return state(5, [], "over")

    connection = ScriptedConnection(state(3, [move]), reply)
    stats = Stats(measure_from=0.0)
    plan = Plan(["http://127.0.0.1:1"], "hill218", Think(0, 0), asyncio.Event(), stats,
                random.Random(1))
    seat = Seat(plan, connection)  # type: ignore[arg-type]
    asyncio.run(asyncio.wait_for(seat.run(), 10))
    assert seat.over
    assert [p["version"] for p in connection.sent] == [3, 3]
    assert connection.sent[0]["request_id"] != connection.sent[1]["request_id"]
    assert stats.errors == 1 and stats.error_messages == ["refused"]
    assert len(stats.latencies) == 1 and stats.latencies[0] >= 0


@pytest.mark.parametrize("clock", [None, Clock(180, 2)], ids=["no clock", "clock"])
def test_a_new_game_asks_for_a_clock_only_when_given(monkeypatch: pytest.MonkeyPatch,
                                                      clock: Clock | None) -> None:
    bodies: list[dict[str, Any]] = []

    def answer(method: str, base: str, path: str, body: dict[str, Any],
               source: str | None) -> dict[str, Any]:
        bodies.append(body)
        return {"id": "g", "token": "t0", "invite": "/play/g#token=t1"}

    monkeypatch.setattr("warboard.loadtest.bots.http_json", answer)
    plan = Plan(["http://127.0.0.1:1"], "hill218", Think(0, 0), asyncio.Event(), Stats(),
                random.Random(1), clock=clock)
    assert asyncio.run(create_game(plan, "http://127.0.0.1:1", None)) == ("g", ["t0", "t1"])
    expected = {"game": "hill218", "mode": "friend", "seat": 0}
    if clock is not None:
        expected["clock"] = {"initial": 180, "increment": 2}
    assert bodies == [expected]
