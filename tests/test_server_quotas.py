"""What one client may spend: the rate limits (in memory, and shared through a real Redis on
127.0.0.1:6379 when it is there), the socket count, and the fair queue of the computer's
decisions."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
import uuid

import pytest
from pydantic import ValidationError

from warboard.server.ai_runner import FairQueue
from warboard.server.quotas import Quotas
from warboard.server.settings import ServerSettings
from warboard.server.windows import SWEEP_SECONDS, Limit, LocalWindows

REDIS = ("127.0.0.1", 6379)


def redis_url() -> str:
    """Redis on this machine (``.ci/run`` starts it), or a skip saying why."""
    pytest.importorskip("redis", reason="rate limits in Redis need the 'redis' extra: "
                                        "pip install -e '.[redis]'")
    try:
        socket.create_connection(REDIS, timeout=1).close()
    except OSError as exc:
        pytest.skip(f"rate limits in Redis need a Redis server at {REDIS[0]}:{REDIS[1]} ({exc})")
    return f"redis://{REDIS[0]}:{REDIS[1]}"


def test_each_client_has_its_own_game_rate() -> None:
    quotas = Quotas(ServerSettings(games_per_minute=3))
    assert [quotas.new_game("a") for _ in range(3)] == [None] * 3
    wait = quotas.new_game("a")
    assert wait is not None and 1 <= wait <= 60
    assert quotas.new_game("b") is None


def test_a_local_window_moves_and_forgets_idle_clients(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = [1000.0]
    monkeypatch.setattr("warboard.server.windows.time.monotonic", lambda: clock[0])
    windows, limit = LocalWindows(), Limit("messages", 2, 1)
    assert windows.hit(limit, "a") is None
    clock[0] += 0.5
    assert windows.hit(limit, "a") is None
    assert windows.hit(limit, "a") == pytest.approx(0.5)  # when the first hit leaves the window
    assert windows.hit(limit, "b") is None
    clock[0] += 0.6
    assert windows.hit(limit, "a") is None and windows.hit(limit, "a") is not None
    clock[0] += SWEEP_SECONDS + 1
    assert windows.hit(limit, "c") is None
    assert set(windows._hits[limit]) == {"c"}


def test_a_limit_of_zero_is_no_limit() -> None:
    quotas = Quotas(ServerSettings(messages_per_second=0, sockets_per_client=0))
    assert all(quotas.message("a") is None for _ in range(500))
    assert all(quotas.open_socket("a") for _ in range(500))


def test_sockets_are_counted_while_open() -> None:
    quotas = Quotas(ServerSettings(sockets_per_client=2))
    assert quotas.open_socket("a") and quotas.open_socket("a")
    assert not quotas.open_socket("a") and quotas.open_socket("b")
    quotas.close_socket("a")
    assert quotas.open_socket("a")


def test_processes_sharing_redis_share_one_count_per_client() -> None:
    url = redis_url()
    client = f"test-{uuid.uuid4().hex}"  # a fresh key: Redis outlives the test
    here, there = (Quotas(ServerSettings(games_per_minute=4, rate_limit_storage=url))
                   for _ in range(2))
    assert [q.new_game(client) for q in (here, there, here, there)] == [None] * 4
    assert there.new_game(client) is not None
    assert here.new_game(client) is not None


def test_an_hourly_limit_in_redis_waits_out_the_hour() -> None:
    """The players' limit is an hour's window in Redis too (it once became a minute's)."""
    url = redis_url()
    client = f"test-{uuid.uuid4().hex}"
    quotas = Quotas(ServerSettings(players_per_hour=2, rate_limit_storage=url))
    assert [quotas.new_player(client) for _ in range(2)] == [None, None]
    wait = quotas.new_player(client)
    assert wait is not None and 60 < wait <= 3600


def test_an_unreachable_redis_lets_requests_through() -> None:
    pytest.importorskip("redis", reason="needs the 'redis' extra")
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    quotas = Quotas(ServerSettings(games_per_minute=1,
                                   rate_limit_storage=f"redis://127.0.0.1:{port}"))
    assert [quotas.new_game("a") for _ in range(3)] == [None] * 3


@pytest.mark.parametrize(("name", "value"), [("GAMES_PER_MINUTE", "-1"),
                                             ("AI_GAMES_PER_CLIENT", "many"),
                                             ("RATE_LIMIT_STORAGE", "file:///tmp/x")])
def test_bad_settings_are_refused_by_name(monkeypatch: pytest.MonkeyPatch, name: str,
                                          value: str) -> None:
    monkeypatch.setenv(f"WARBOARD_{name}", value)
    with pytest.raises(ValidationError, match=name.lower()):
        ServerSettings()


def test_the_fair_queue_takes_the_clients_in_turn() -> None:
    """One slot; client A queues five decisions, then B one and C one: B and C are served
    after A's first, not after all of A's."""

    async def scenario() -> list[str]:
        queue = FairQueue(1)
        order: list[str] = []
        release = asyncio.Event()

        async def decide(client: str, n: int) -> None:
            async with queue.slot(client):
                order.append(f"{client}{n}")
                await release.wait()

        tasks = [asyncio.create_task(decide("A", n)) for n in range(5)]
        await asyncio.sleep(0)
        tasks += [asyncio.create_task(decide(c, 0)) for c in "BC"]
        await asyncio.sleep(0)
        assert queue.busy == 1 and queue.waiting() == 6 and queue.waiting("A") == 4
        release.set()
        await asyncio.gather(*tasks)
        assert queue.busy == 0 and queue.waiting() == 0
        return order

    assert asyncio.run(scenario()) == ["A0", "A1", "B0", "C0", "A2", "A3", "A4"]


def test_a_cancelled_wait_gives_its_place_up() -> None:
    async def scenario() -> None:
        queue = FairQueue(1)
        held, release = asyncio.Event(), asyncio.Event()

        async def hold() -> None:
            async with queue.slot("A"):
                held.set()
                await release.wait()

        async def wait(client: str) -> str:
            async with queue.slot(client):
                return client

        holder = asyncio.create_task(hold())
        await held.wait()
        gone, kept = asyncio.create_task(wait("B")), asyncio.create_task(wait("C"))
        await asyncio.sleep(0)
        gone.cancel()
        await asyncio.sleep(0)
        assert queue.waiting() == 1
        release.set()
        await holder
        assert await kept == "C" and queue.busy == 0

    asyncio.run(scenario())


def test_serve_with_a_bad_setting_says_which_and_stops() -> None:
    env = {**os.environ, "WARBOARD_MESSAGES_PER_SECOND": "fast"}
    done = subprocess.run([sys.executable, "-m", "warboard.cli", "serve", "--port", "0"],
                          env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.startswith("warboard: error: WARBOARD_MESSAGES_PER_SECOND: "
                                  "messages_per_second: ")
    assert "Traceback" not in done.stderr
