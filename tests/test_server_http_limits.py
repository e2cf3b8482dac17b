"""A stranger cannot make the server read a huge request head: over ``MAX_HEADER_BYTES`` of request
line and headers (a WebSocket upgrade too) gets ``431`` and a closed connection, at once, over a
real socket against a real ``warboard serve`` process, which keeps answering everyone else."""

from __future__ import annotations

import http.client
import re
import select
import socket
import threading
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest

from warboard.server.serve import MAX_HEADER_BYTES, http_settings
from web_helpers import running_server

CHUNK = 64 * 1024
MiB = 1024 * 1024


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[int, Path]]:
    """The server's port and its log (stdout and stderr)."""
    folder = tmp_path_factory.mktemp("http-limits")
    with running_server(folder) as base:
        yield int(base.rsplit(":", 1)[1]), folder / "server.log"


def head(header_bytes: int, request: bytes = b"GET /api/health HTTP/1.1\r\n") -> Iterator[bytes]:
    """A request whose one header ``X-Big`` is ``header_bytes`` long, in chunks (made as they
    are sent: the largest is never held whole)."""
    yield request + b"Host: 127.0.0.1\r\nX-Big: "
    for start in range(0, header_bytes, CHUNK):
        yield b"a" * min(CHUNK, header_bytes - start)
    yield b"\r\n\r\n"


def send(port: int, chunks: Iterable[bytes]) -> tuple[bytes, int, float]:
    """Send the chunks until the server answers or closes; what it answered (until it closed),
    how many bytes were sent and how long that took."""
    started = time.monotonic()
    sent = 0
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        for chunk in chunks:
            if select.select([sock], [], [], 0)[0]:
                break
            try:
                sock.sendall(chunk)
            except (BrokenPipeError, ConnectionResetError):
                break
            sent += len(chunk)
        answer = b""
        try:
            while part := sock.recv(CHUNK):
                answer += part
        except ConnectionResetError:  # the server closed with our bytes unread
            pass
    return answer, sent, time.monotonic() - started


def health_seconds(port: int) -> float:
    started = time.monotonic()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        conn.request("GET", "/api/health")
        response = conn.getresponse()
        assert response.status == 200 and b'"ok"' in response.read()
    finally:
        conn.close()
    return time.monotonic() - started


def test_a_one_mebibyte_header_is_refused_with_431(server: tuple[int, Path]) -> None:
    port, _ = server
    answer, _, seconds = send(port, head(MiB))
    assert answer.startswith(b"HTTP/1.1 431 "), answer[:200]
    assert b"connection: close" in answer.lower()
    assert seconds < 2.0


def test_a_huge_header_is_refused_long_before_it_is_sent(server: tuple[int, Path]) -> None:
    port, _ = server
    answer, sent, seconds = send(port, head(512 * MiB))
    assert answer.startswith(b"HTTP/1.1 431 "), answer[:200]
    assert sent < 32 * MiB and seconds < 5.0  # socket buffers hold a few MiB at most


def test_a_websocket_upgrade_has_the_same_limit(server: tuple[int, Path]) -> None:
    port, _ = server
    upgrade = (b"GET /ws/games/nothing HTTP/1.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
               b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n")
    answer, _, _ = send(port, head(MAX_HEADER_BYTES, upgrade))
    assert answer.startswith(b"HTTP/1.1 431 "), answer[:200]


def test_requests_within_the_limit_are_served(server: tuple[int, Path]) -> None:
    port, _ = server
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        for _ in range(2):  # the limit is per request: a kept-alive connection goes on
            conn.putrequest("GET", "/api/health")
            for i in range(8):
                conn.putheader(f"X-Pad-{i}", "p" * 1000)
            conn.endheaders()
            response = conn.getresponse()
            assert response.status == 200 and b'"ok"' in response.read()
    finally:
        conn.close()


def test_a_head_under_the_limit_may_come_in_many_pieces(server: tuple[int, Path]) -> None:
    port, _ = server
    request = (b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
               + b"".join(b"X-Pad-%d: %s\r\n" % (i, b"p" * 1000) for i in range(16)) + b"\r\n")
    assert MAX_HEADER_BYTES - 1024 < len(request) < MAX_HEADER_BYTES

    def pieces() -> Iterator[bytes]:
        for start in range(0, len(request), 500):
            time.sleep(0.002)  # each its own read
            yield request[start:start + 500]

    answer, _, _ = send(port, pieces())
    assert answer.startswith(b"HTTP/1.1 200 "), answer[:200]


@pytest.mark.parametrize(("rest", "statuses"), [(100, [b"200", b"405", b"200"]),
                                              (12_000, [b"200", b"405", b"431"])])
def test_each_request_of_a_connection_has_its_own_limit(server: tuple[int, Path], rest: int,
                                                         statuses: list[bytes]) -> None:
    """Requests sent one after the other without waiting for the answers: the third begins in
    the middle of what the server reads at once (after the second one's body) and ends in a
    later read, and is measured from its own first byte."""
    port, _ = server
    body = b"x" * 20_000
    first = (b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Pad: %s\r\n\r\n" % (b"p" * 9000)
             + b"POST /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: %d\r\n\r\n%s"
             % (len(body), body)
             + b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nX-Big: "
             + b"a" * 12_000)
    answer = b""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(first)
        time.sleep(0.3)
        sock.sendall(b"a" * rest + b"\r\n\r\n")
        while part := sock.recv(CHUNK):
            answer += part
    assert re.findall(rb"HTTP/1\.1 (\d{3}) ", answer) == statuses, answer[-300:]


def test_the_server_answers_others_during_and_after_a_flood(server: tuple[int, Path]) -> None:
    port, log = server
    stop, refused = threading.Event(), []

    def attack() -> None:
        while not stop.is_set():
            answer, _, _ = send(port, head(64 * MiB))
            refused.append(answer.startswith(b"HTTP/1.1 431 "))

    attackers = [threading.Thread(target=attack) for _ in range(4)]
    for attacker in attackers:
        attacker.start()
    try:
        during = [health_seconds(port) for _ in range(10)]
    finally:
        stop.set()
        for attacker in attackers:
            attacker.join()
    assert refused and all(refused)
    assert max(during) < 1.0 and health_seconds(port) < 1.0
    text = log.read_text(errors="replace")
    assert "Traceback" not in text and "431" in text


def test_without_httptools_h11_limits_the_head(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_httptools(name: str) -> Any:
        return None if name == "httptools" else object()

    monkeypatch.setattr("warboard.server.serve.find_spec", no_httptools)
    assert http_settings(4096) == {"http": "h11", "h11_max_incomplete_event_size": 4096}
