"""``--flood``: one more client that misbehaves for the whole measured window, from a loopback
address of its own (``FLOOD_ADDRESS``), to show what the server's per-client limits do to it
while the normal players go on (docs/load.md).

After a first friend game, three floods run at once, each in a process of its own (in one
process their busy loops would take turns at the GIL, and in the load test's own process they
would hold up the bots and add to the very latency being measured).

- *games*: ``POST /api/games`` back to back on one keep-alive connection, a friend game and an
  expert game against the computer in which the computer moves first, in turn;
- *messages*: one WebSocket on the invite seat of the first game (later on the fresh token the
  server gave that seat), sending messages as fast as the server answers them (``IN_FLIGHT``
  ahead: fewer than the 100 the server queues for one client, beyond which it drops the client)
  while another thread reads the answers; when the server drops it all the same, it connects
  again;
- *sockets*: spectator WebSockets on the first game, opened one after another and held, up to
  and past the server's limit (after a refusal it tries again every ``HOLD_RETRY`` s), at most
  ``MAX_SOCKETS``.

Every attempt is counted by what it got: accepted, refused (HTTP 429, or an ``error`` message
that starts "too many"), dropped (a connection that failed or that the server cut, a message
never answered, any other answer; the first ``MAX_NOTED`` of those last are kept).
"""

from __future__ import annotations

import http.client
import json
import multiprocessing
import signal
import threading
import time
from collections import Counter
from contextlib import suppress
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from types import TracebackType
from typing import Any

from websockets.exceptions import ConnectionClosed, WebSocketException
from websockets.sync.client import ClientConnection, connect

from warboard.loadtest.server import (
    FLOOD_ADDRESS,
    STOP_TIMEOUT,
    LoadTestError,
    http_answer,
    http_connection,
    http_json,
)

FLOOD_TIMEOUT = 5.0  # seconds one request, connection or first message of the flood may take
RETRY_PAUSE = 0.05  # seconds before the next try after a refused or failed connection
HOLD_RETRY = 1.0  # seconds between tries past the socket limit
MAX_SOCKETS = 256  # sockets held at most (a server without a socket limit)
IN_FLIGHT = 64  # messages the message flood sends ahead of their answers
SETTLE = 1.0  # seconds the message flood waits for its last answers when it stops
START_TIMEOUT = 300.0  # seconds a flood waits to be told to start (the ramp: 120 s at most)
OVERRUN = 10.0  # seconds past its window it floods at most, should nobody tell it to stop
REPORT_TIMEOUT = 30.0  # seconds the load test waits for the figures after "stop"
MAX_NOTED = 10
GAME_REQUESTS = ({"mode": "friend"}, {"mode": "ai", "ai_level": "expert", "seat": 1})
MESSAGE = json.dumps({"type": "undo", "version": 0, "request_id": "flood"})
TOO_MANY = "too many"
FLOODS = ("games", "messages", "sockets")
CHANNELS = ("games", "ai_games", "messages", "sockets")
OUTCOMES = ("sent", "accepted", "refused", "dropped")


class Flooder:
    """One flood against ``base`` from ``address``; ``game`` is the kind of game it asks for,
    ``first`` the id and invite token of the flood's first friend game. Each count is written by
    one thread only."""

    def __init__(self, base: str, address: str, game: str, first: tuple[str, str]) -> None:
        self.base = base
        self.address = address
        self.game = game
        self.first = first
        self.ws_base = "ws" + base.removeprefix("http")
        self.stopping = threading.Event()
        self.counts = {channel: Counter[str]() for channel in CHANNELS}
        self.noted: list[str] = []

    def run(self, flood: str) -> None:
        {"games": self.create_games, "messages": self.flood_messages,
         "sockets": self.hold_sockets}[flood]()

    def _dropped(self, channel: str, what: str) -> None:
        self.counts[channel]["dropped"] += 1
        if len(self.noted) < MAX_NOTED:
            self.noted.append(what)

    def create_games(self) -> None:
        connection = http_connection(self.base, self.address, FLOOD_TIMEOUT)
        number = 0
        try:
            while not self.stopping.is_set():
                request = {"game": self.game, **GAME_REQUESTS[number % 2]}
                number += 1
                channel = "ai_games" if request["mode"] == "ai" else "games"
                self.counts[channel]["sent"] += 1
                try:
                    status, answer = http_answer(connection, "POST", "/api/games", request)
                except (OSError, http.client.HTTPException, ValueError) as exc:
                    connection.close()  # the next request opens a new connection
                    self._dropped(channel, f"POST /api/games: {type(exc).__name__}: {exc}")
                    self.stopping.wait(RETRY_PAUSE)  # no busy loop against a failing server
                    continue
                if status in (201, 429):
                    self.counts[channel]["accepted" if status == 201 else "refused"] += 1
                else:
                    self._dropped(channel, f"POST /api/games: HTTP {status}: {answer}")
        finally:
            connection.close()

    def _open(self, token: str | None) -> tuple[ClientConnection, dict[str, Any]] | None:
        """A WebSocket on the first game (with ``token``: on that seat) and its first message;
        ``None`` when it was refused or failed (counted)."""
        sockets = self.counts["sockets"]
        sockets["sent"] += 1
        query = f"?token={token}" if token else ""
        try:
            ws = connect(f"{self.ws_base}/ws/games/{self.first[0]}{query}",
                         source_address=(self.address, 0), open_timeout=FLOOD_TIMEOUT,
                         close_timeout=1.0)
        except (OSError, WebSocketException) as exc:
            self._dropped("sockets", f"WebSocket: {type(exc).__name__}: {exc}")
            return None
        try:
            first = json.loads(ws.recv(FLOOD_TIMEOUT))
        except (TimeoutError, WebSocketException, ValueError) as exc:
            ws.close()
            self._dropped("sockets", f"WebSocket, first message: {type(exc).__name__}: {exc}")
            return None
        if first.get("type") != "error":
            sockets["accepted"] += 1
            return ws, first
        ws.close()
        if str(first.get("message")).startswith(TOO_MANY):
            sockets["refused"] += 1
        else:
            self._dropped("sockets", f"WebSocket: {first.get('message')}")
        return None

    def flood_messages(self) -> None:
        token = self.first[1]
        while not self.stopping.is_set():
            opened = self._open(token)
            if opened is None:
                self.stopping.wait(RETRY_PAUSE)
                continue
            ws, first = opened
            if first["type"] == "seat":  # the invite works once: this token from now on
                token = first["seat_token"]
            answered = threading.Semaphore(IN_FLIGHT)
            reader = threading.Thread(target=self._read_answers, args=(ws, answered),
                                      daemon=True)
            reader.start()
            try:
                self._send_until_stopped(ws, answered)
            except (ConnectionClosed, OSError):
                self.counts["sockets"]["dropped"] += 1
            finally:
                ws.close()
                reader.join(FLOOD_TIMEOUT)

    def _send_until_stopped(self, ws: ClientConnection, answered: threading.Semaphore) -> None:
        messages = self.counts["messages"]
        while not self.stopping.is_set():
            if answered.acquire(timeout=0.1):
                ws.send(MESSAGE)
                messages["sent"] += 1
        deadline = time.monotonic() + SETTLE
        while (messages["accepted"] + messages["refused"] < messages["sent"]
               and time.monotonic() < deadline):  # the answers still on their way
            time.sleep(0.02)

    def _read_answers(self, ws: ClientConnection, answered: threading.Semaphore) -> None:
        messages = self.counts["messages"]
        try:
            for text in ws:
                message = json.loads(text)
                if message.get("type") == "error":  # each message gets one
                    refused = str(message.get("message")).startswith(TOO_MANY)
                    messages["refused" if refused else "accepted"] += 1
                    answered.release()
        except ConnectionClosed:
            answered.release()  # the sender's next send finds the socket closed, and counts it

    def hold_sockets(self) -> None:
        held: list[ClientConnection] = []
        try:
            while not self.stopping.is_set() and len(held) < MAX_SOCKETS:
                opened = self._open(None)
                if opened is None:
                    self.stopping.wait(HOLD_RETRY)
                else:
                    held.append(opened[0])
            self.stopping.wait()
        finally:
            for ws in held:
                ws.close()


def _main(pipe: Connection, flood: str, base: str, game: str, first: tuple[str, str],
          seconds: float) -> None:
    """A flood's process: floods from "go" until "stop" (at most ``seconds`` + ``OVERRUN``),
    then sends back its counts, what it noted and its CPU seconds."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C is the load test's to handle
    with suppress(EOFError, BrokenPipeError):  # the load test is gone: nobody to report to
        if not pipe.poll(START_TIMEOUT) or pipe.recv() != "go":
            return
        flooder = Flooder(base, FLOOD_ADDRESS, game, first)
        cpu = time.process_time()
        worker = threading.Thread(target=flooder.run, args=(flood,), daemon=True)
        worker.start()
        pipe.poll(seconds + OVERRUN)
        flooder.stopping.set()
        worker.join(FLOOD_TIMEOUT + SETTLE)
        pipe.send((flooder.counts, flooder.noted, time.process_time() - cpu))


class Flood:
    """The flood processes of one run against ``base`` with a window of ``seconds``: started at
    once (so that they are ready when the window opens), told to ``go``, then to ``stop``;
    killed on exit if still there."""

    def __init__(self, base: str, game: str, seconds: float) -> None:
        created = http_json("POST", base, "/api/games", {"game": game, "mode": "friend"},
                            FLOOD_ADDRESS)
        first = created["id"], created["invite"].split("#token=")[1]
        context = multiprocessing.get_context("spawn")
        self._pipes: list[Connection] = []
        self._processes: list[BaseProcess] = []
        for flood in FLOODS:
            pipe, child = context.Pipe()
            process = context.Process(target=_main, name=f"warboard-loadtest-flood-{flood}",
                                      args=(child, flood, base, game, first, seconds),
                                      daemon=True)
            process.start()
            child.close()
            self._pipes.append(pipe)
            self._processes.append(process)
        self._started = 0.0

    def __enter__(self) -> Flood:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        for process in self._processes:
            process.join(STOP_TIMEOUT if kind is None else 0)
            if process.is_alive():
                process.kill()
                process.join()
        for pipe in self._pipes:
            pipe.close()

    def go(self) -> None:
        self._started = time.perf_counter()
        for pipe in self._pipes:
            pipe.send("go")

    def stop(self) -> dict[str, Any]:
        """Stop the floods: what they got, JSON-ready (blocking: run it in a thread)."""
        seconds = time.perf_counter() - self._started
        for pipe in self._pipes:
            pipe.send("stop")
        counts = {channel: Counter[str]() for channel in CHANNELS}
        counts["games"].update(sent=1, accepted=1)  # the first game, made before the window
        noted: list[str] = []
        cpu = 0.0
        for pipe in self._pipes:
            try:
                if not pipe.poll(REPORT_TIMEOUT):
                    raise LoadTestError(f"a flood did not report within {REPORT_TIMEOUT:.0f} s")
                their_counts, their_noted, their_cpu = pipe.recv()
            except (EOFError, BrokenPipeError):
                raise LoadTestError("a flood process ended without reporting") from None
            for channel in CHANNELS:
                counts[channel].update(their_counts[channel])
            noted.extend(their_noted)
            cpu += their_cpu
        messages = counts["messages"]
        messages["dropped"] = messages["sent"] - messages["accepted"] - messages["refused"]
        return {"address": FLOOD_ADDRESS, "seconds": round(seconds, 2),
                "cpu_percent": round(100 * cpu / seconds, 1) if seconds > 0 else None,
                **{channel: {outcome: counts[channel][outcome] for outcome in OUTCOMES}
                   for channel in CHANNELS},
                "unexpected": noted[:MAX_NOTED]}
