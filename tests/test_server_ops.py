"""What an operator watches: the JSON log lines of a real ``warboard serve`` (each game's events
with its id, never a token), the Prometheus metrics at ``/metrics`` moving with real plays, and
``/api/ready`` saying which part failed (a killed AI worker, a database that cannot be reached)."""

from __future__ import annotations

import json
import multiprocessing
import socket
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import suppress
from pathlib import Path
from typing import Any

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families
from websockets.sync.client import ClientConnection, connect

from server_helpers import (
    TIMEOUT,
    UNLIMITED,
    UNLIMITED_ENV,
    LiveServer,
    ServerProcess,
    free_port,
    ws_url,
)

POSTGRES = ("127.0.0.1", 5432)
POSTGRES_URL = "postgresql+psycopg://root@127.0.0.1:{port}/test?options=-csearch_path%3D{schema}"


def wait_until(condition: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + TIMEOUT
    while not condition():
        assert time.monotonic() < deadline, f"waited in vain for {what}"
        time.sleep(0.05)


def metric(base: str, name: str, **labels: str) -> float:
    """The value of the sample ``name`` with ``labels`` at ``/metrics`` (0 when absent)."""
    text = httpx.get(f"{base}/metrics", timeout=TIMEOUT).text
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name == name and all(sample.labels.get(k) == v
                                           for k, v in labels.items()):
                return float(sample.value)
    return 0.0


def receive(ws: ClientConnection) -> dict[str, Any]:
    message: dict[str, Any] = json.loads(ws.recv(timeout=TIMEOUT))
    return message


def next_turn(ws: ClientConnection) -> dict[str, Any]:
    """The next state in which the socket's seat is to act."""
    while not ((message := receive(ws))["type"] == "state" and message["legal"]):
        assert message["type"] in ("state", "thinking", "seat"), message
    return message


def next_error(ws: ClientConnection) -> str:
    while (message := receive(ws))["type"] != "error":
        assert message["type"] in ("state", "thinking"), message
    return str(message["message"])


def play(ws: ClientConnection, state: dict[str, Any]) -> None:
    ws.send(json.dumps({"type": "play", "action": state["legal"][0],
                        "version": state["version"], "request_id": uuid.uuid4().hex}))


def friend_game(base: str) -> dict[str, Any]:
    created = httpx.post(f"{base}/api/games", json={"game": "hill218", "mode": "friend"},
                         timeout=TIMEOUT)
    assert created.status_code == 201, created.text
    answer: dict[str, Any] = created.json()
    return answer


# ----------------------------------------------------------------------------- logs

def test_json_logs_name_the_game_and_never_a_token(tmp_path: Path) -> None:
    port = free_port()
    argv = [sys.executable, "-m", "warboard.cli", "serve", "--port", str(port),
            "--database-url", f"sqlite:///{tmp_path / 'games.db'}", "--ai-workers", "0",
            "--log-format", "json"]
    with ServerProcess(argv, tmp_path, port, UNLIMITED_ENV) as server:
        created = friend_game(server.base)
        game_id, token = created["id"], created["token"]
        invite = created["invite"].split("#token=")[1]
        with connect(ws_url(port, game_id, token), open_timeout=TIMEOUT) as south:
            state = next_turn(south)
            play(south, state)
            play(south, state)  # the same version again: stale, refused
            assert "stale version" in next_error(south)
            with connect(ws_url(port, game_id, invite), open_timeout=TIMEOUT) as north:
                seat_token = receive(north)["seat_token"]
            south.send(json.dumps({"type": "resign"}))
            while receive(south).get("status") != "over":
                pass
        server.stop()
        lines = [line for line in server.err.read_text().splitlines() if line.strip()]
        everything = server.out.read_text() + server.err.read_text()
    records = [json.loads(line) for line in lines]  # every line is one JSON object
    assert all({"time", "level", "logger", "message"} <= record.keys() for record in records)
    mine = [r for r in records if r.get("game_id") == game_id]
    assert any("created" in r["message"] and r["mode"] == "friend" for r in mine), mine
    assert any("refused: stale version" in r["message"] and r["seat"] == 0 for r in mine), mine
    assert any(" over: " in r["message"] for r in mine), mine
    assert any(r["logger"] == "uvicorn.access" and "POST /api/games" in r["message"]
               for r in records)
    assert any(f"/ws/games/{game_id}?token=***" in r["message"] for r in records), records
    for secret in (token, invite, seat_token):
        assert secret not in everything


# ----------------------------------------------------------------------------- metrics

@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    folder = tmp_path_factory.mktemp("ops")
    with LiveServer(f"sqlite:///{folder / 'games.db'}") as server:
        yield server


def test_metrics_count_and_time_the_plays(live: LiveServer) -> None:
    plays = ("warboard_plays_total", {"game": "hill218"})
    timed = ("warboard_play_seconds_count", {"game": "hill218"})
    refused = ("warboard_play_errors_total", {"game": "hill218", "kind": "refused"})
    before = {name: metric(live.base, name, **labels) for name, labels in (plays, timed, refused)}
    created = friend_game(live.base)
    with live.ws(created["id"], created["token"]) as south:
        state = next_turn(south)
        assert metric(live.base, "warboard_websockets") == 1
        assert metric(live.base, "warboard_games_active") >= 1
        play(south, state)
        play(south, state)  # the same version again: stale
        assert "stale version" in next_error(south)
    after = {name: metric(live.base, name, **labels) for name, labels in (plays, timed, refused)}
    assert after[plays[0]] == before[plays[0]] + 1
    assert after[timed[0]] == before[timed[0]] + 2  # both messages were timed
    assert after[refused[0]] == before[refused[0]] + 1
    assert metric(live.base, "warboard_play_seconds_sum", game="hill218") > 0
    wait_until(lambda: metric(live.base, "warboard_websockets") == 0, "the socket to close")


def test_the_computer_s_decisions_are_timed(live: LiveServer) -> None:
    decisions = ("warboard_ai_decision_seconds_count", {"game": "hill218"})
    before = metric(live.base, decisions[0], **decisions[1])
    created = httpx.post(f"{live.base}/api/games", json={"game": "hill218", "mode": "ai",
                                                        "ai_level": "easy", "seat": 0},
                         timeout=TIMEOUT).json()
    with live.ws(created["id"], created["token"]) as south:
        play(south, next_turn(south))
        next_turn(south)  # the computer answered
    assert metric(live.base, decisions[0], **decisions[1]) > before
    assert metric(live.base, "warboard_ai_queue_length") == 0


def test_rate_limit_refusals_are_counted_and_monitoring_is_not_limited(tmp_path: Path) -> None:
    settings = UNLIMITED.model_copy(update={"games_per_minute": 1, "requests_per_minute": 5})
    with LiveServer(f"sqlite:///{tmp_path / 'games.db'}", settings=settings) as server, \
            httpx.Client(base_url=server.base, timeout=TIMEOUT) as client:
        assert client.post("/api/games", json={}).status_code == 201
        assert client.post("/api/games", json={}).status_code == 429
        for _ in range(10):  # neither is counted against the 5 requests a minute
            assert client.get("/metrics").status_code == 200
            assert client.get("/api/ready").status_code == 200
        answers = [client.get("/api/scenarios").status_code for _ in range(4)]
        assert answers == [200, 200, 200, 429]  # 5 a minute, the two new games among them
        assert metric(server.base, "warboard_rate_limit_refusals_total", kind="games") == 1
        assert metric(server.base, "warboard_rate_limit_refusals_total", kind="requests") == 1


def test_each_app_has_its_own_registry(tmp_path: Path) -> None:
    with LiveServer(f"sqlite:///{tmp_path / 'a.db'}") as one, \
            LiveServer(f"sqlite:///{tmp_path / 'b.db'}") as two:
        friend_game(one.base)
        assert metric(one.base, "warboard_games_active") == 1
        assert metric(two.base, "warboard_games_active") == 0


# ----------------------------------------------------------------------------- readiness

def test_ready_until_an_ai_worker_dies(tmp_path: Path) -> None:
    before = set(multiprocessing.active_children())
    with LiveServer(f"sqlite:///{tmp_path / 'games.db'}", ai_workers=1) as server:
        assert httpx.get(f"{server.base}/api/health").json() == {"ok": True}
        ready = httpx.get(f"{server.base}/api/ready")
        assert (ready.status_code, ready.json()) \
            == (200, {"ready": True, "checks": {"database": "ok", "ai": "ok"}})
        workers = set(multiprocessing.active_children()) - before
        assert workers
        for worker in workers:
            worker.kill()
        wait_until(lambda: httpx.get(f"{server.base}/api/ready").status_code == 503,
                   "/api/ready to fail")
        failed = httpx.get(f"{server.base}/api/ready").json()
        assert failed["ready"] is False and failed["checks"]["database"] == "ok"
        assert failed["checks"]["ai"] == "an AI worker process is not running"
        assert failed["error"] == "not ready: ai: an AI worker process is not running"
        assert httpx.get(f"{server.base}/api/health").status_code == 200  # alive all the same


class Forwarder:
    """A port of 127.0.0.1 that passes TCP connections on to ``target`` while it is open; closed,
    it cuts those it passed and refuses new ones: the database behind it cannot be reached."""

    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self.port = free_port()
        self._sockets: list[socket.socket] = []
        self.open()

    def open(self) -> None:
        self._listener = socket.create_server(("127.0.0.1", self.port))
        threading.Thread(target=self._accept, args=(self._listener,), daemon=True).start()

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return
            upstream = socket.create_connection(self.target)
            self._sockets += [client, upstream]
            for source, sink in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(source, sink), daemon=True).start()

    @staticmethod
    def _pump(source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass

    def close(self) -> None:
        self._listener.shutdown(socket.SHUT_RDWR)  # wakes the accept
        self._listener.close()
        for sock in self._sockets:
            with suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
            sock.close()
        self._sockets = []


@pytest.fixture
def postgres_schema() -> Iterator[str]:
    """A schema of its own in PostgreSQL's ``test`` database (skipped, saying why, without)."""
    try:
        import psycopg
    except ImportError:
        pytest.skip("needs psycopg 3: pip install -e '.[postgres]'")
    try:
        admin = psycopg.connect("host=127.0.0.1 port=5432 user=root dbname=test",
                                connect_timeout=3, autocommit=True)
    except psycopg.OperationalError as exc:
        pytest.skip(f"needs PostgreSQL at 127.0.0.1:5432 ({exc})".strip())
    schema = f"warboard_test_{uuid.uuid4().hex[:12]}"
    admin.execute(f'CREATE SCHEMA "{schema}"')
    try:
        yield schema
    finally:
        admin.execute(f'DROP SCHEMA "{schema}" CASCADE')
        admin.close()


def test_not_ready_while_the_database_cannot_be_reached(postgres_schema: str) -> None:
    forwarder = Forwarder(POSTGRES)
    url = POSTGRES_URL.format(port=forwarder.port, schema=postgres_schema)
    with LiveServer(url) as server:
        assert httpx.get(f"{server.base}/api/ready", timeout=TIMEOUT).status_code == 200
        forwarder.close()
        failed = httpx.get(f"{server.base}/api/ready", timeout=TIMEOUT)
        assert failed.status_code == 503, failed.text
        answer = failed.json()
        assert answer["ready"] is False and answer["checks"]["ai"] == "ok"
        assert answer["checks"]["database"].startswith("the database does not answer")
        assert answer["error"].startswith("not ready: database: the database does not answer")
        assert httpx.get(f"{server.base}/api/health").status_code == 200
        forwarder.open()  # the database is back: ready again, on a fresh connection
        wait_until(lambda: httpx.get(f"{server.base}/api/ready").status_code == 200,
                   "/api/ready to recover")
