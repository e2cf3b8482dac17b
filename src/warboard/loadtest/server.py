"""The server under test: a ``warboard serve`` subprocess of our own, or a running one on this
machine; the loopback addresses the load test speaks from; and what the machine itself is doing
(CPU time of a process tree, load average).

Everything stays on the loopback interface: a ``--url`` elsewhere is refused. The server counts
its limits per client address, so each game's bots speak from a loopback address of their own
(``game_address``; Linux answers the whole 127.0.0.0/8) and the flood from another one.
"""

from __future__ import annotations

import http.client
import ipaddress
import json
import os
import re
import shlex
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping
from contextlib import suppress
from pathlib import Path
from types import TracebackType
from typing import Any
from urllib.parse import urlsplit

import warboard
from warboard.core.errors import WarboardError

START_TIMEOUT = 30.0  # seconds for a new server to answer /api/health
STOP_TIMEOUT = 10.0  # seconds for it to stop on SIGTERM before SIGKILL
HTTP_TIMEOUT = 30.0
EXCEPTION_LINE = re.compile(r"^[A-Za-z_][\w.]*(Error|Exception|Conflict|Interrupt)\b.*")
LOG_RECORD = re.compile(r"^(?=(?:DEBUG|INFO|WARNING|ERROR|CRITICAL):)", re.MULTILINE)
TRACEBACK = "Traceback (most recent call last):"
GAME_NETWORK = ipaddress.IPv4Network("127.1.0.0/16")  # the bots' addresses, one per game
FLOOD_ADDRESS = "127.0.0.2"  # the flooding client's (--flood)


class LoadTestError(WarboardError):
    """The load test cannot run (the server does not start, an address is not local, ...)."""


class HTTPRefused(OSError):
    """An HTTP answer that is not a success (its status and the server's ``error``)."""

    def __init__(self, status: int, answer: Any) -> None:
        error = answer.get("error") if isinstance(answer, dict) else answer
        super().__init__(f"HTTP {status}: {error}")


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def check_local(url: str) -> str:
    """``url`` without a trailing slash, when it is an http URL of this machine (loopback)."""
    parts = urlsplit(url)
    if parts.scheme != "http" or not parts.hostname:
        raise LoadTestError(f"--url must be http://HOST:PORT of a server here, not {url!r}")
    host = parts.hostname
    if host != "localhost":
        try:
            local = ipaddress.ip_address(host).is_loopback
        except ValueError:
            local = False
        if not local:
            raise LoadTestError(f"the load test only talks to this machine (127.0.0.1, "
                                f"localhost, ::1), not {host!r}")
    return url.rstrip("/")


def game_address(number: int) -> str:
    """The loopback address the bots of the ``number``-th game speak from: 127.1.0.1,
    127.1.0.2, ... (after 65 534 games, from the start again)."""
    return str(GAME_NETWORK[1 + number % (GAME_NETWORK.num_addresses - 2)])


def per_client_addresses(bases: list[str]) -> bool:
    """Whether the bots may speak to the servers at ``bases`` from addresses of their own: not
    to an IPv6 server (``::1`` is the only IPv6 loopback address)."""
    for base in bases:
        with suppress(ValueError):  # a name (localhost) is reached over IPv4 then
            if ipaddress.ip_address(urlsplit(base).hostname or "").version == 6:
                return False
    return True


def check_addresses() -> None:
    """Refuse to run where the loopback interface does not answer the bots' addresses."""
    for address in (game_address(0), FLOOD_ADDRESS):
        try:
            with socket.socket() as s:
                s.bind((address, 0))
        except OSError as exc:
            raise LoadTestError(f"cannot speak from {address} ({exc}): the load test gives "
                                "each game a loopback address of its own, which needs a "
                                "system that answers all of 127.0.0.0/8 (Linux)") from None


def http_connection(base: str, source: str | None = None,
                    timeout: float = HTTP_TIMEOUT) -> http.client.HTTPConnection:
    """A (keep-alive) connection to ``base``, from the address ``source`` when given."""
    parts = urlsplit(base)
    return http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=timeout,
                                      source_address=(source, 0) if source else None)


def http_answer(connection: http.client.HTTPConnection, method: str, path: str,
                body: dict[str, Any] | None = None) -> tuple[int, Any]:
    """One request with a JSON body on ``connection``: the status and the JSON answer
    (blocking; run it in a thread)."""
    data = json.dumps(body).encode() if body is not None else None
    connection.request(method, path, body=data, headers={"Content-Type": "application/json"})
    answer = connection.getresponse()
    return answer.status, json.loads(answer.read())


def http_json(method: str, base: str, path: str, body: dict[str, Any] | None = None,
              source: str | None = None) -> Any:
    """One HTTP request on a connection of its own: the JSON answer of a success, else
    ``HTTPRefused`` (blocking; run it in a thread)."""
    connection = http_connection(base, source)
    try:
        status, answer = http_answer(connection, method, path, body)
    finally:
        connection.close()
    if not 200 <= status < 300:
        raise HTTPRefused(status, answer)
    return answer


def healthy(base: str) -> bool:
    try:
        return http_json("GET", base, "/api/health") == {"ok": True}
    except (OSError, http.client.HTTPException, ValueError):
        return False


class ServerProcess:
    """``warboard serve`` on 127.0.0.1 in a process group of its own, with a fresh SQLite file in
    a temporary folder unless ``database_url`` is given; stopped (the whole group) on exit."""

    def __init__(self, port: int = 0, database_url: str | None = None,
                 extra_args: str = "") -> None:
        self.port = port or free_port()
        self._folder = tempfile.TemporaryDirectory(prefix="warboard-loadtest-")
        folder = Path(self._folder.name)
        self.database_url = database_url or f"sqlite:///{folder / 'loadtest.db'}"
        self.log_path = folder / "serve.log"
        self.command = [sys.executable, "-m", "warboard.cli", "serve", "--host", "127.0.0.1",
                        "--port", str(self.port), "--database-url", self.database_url,
                        *shlex.split(extra_args)]
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def pid(self) -> int | None:
        return self.process.pid if self.process is not None else None

    def __enter__(self) -> ServerProcess:
        try:
            self.start()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stop()

    def start(self) -> None:
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(self.command, cwd=self._folder.name, stdout=log,
                                            stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                            env=same_warboard_env(), start_new_session=True)
        deadline = time.monotonic() + START_TIMEOUT
        while not healthy(self.base):
            if self.process.poll() is not None:
                raise LoadTestError(f"warboard serve exited with code {self.process.returncode}"
                                    f":\n{self.log_tail()}")
            if time.monotonic() > deadline:
                raise LoadTestError(f"warboard serve did not answer within {START_TIMEOUT:.0f} "
                                    f"s:\n{self.log_tail()}")
            time.sleep(0.1)

    def stop(self) -> None:
        """SIGTERM to the server's process group, SIGKILL if it lingers; removes the folder."""
        process = self.process
        if process is not None and process.poll() is None:
            _signal_group(process.pid, signal.SIGTERM)
            try:
                process.wait(STOP_TIMEOUT)
            except subprocess.TimeoutExpired:
                _signal_group(process.pid, signal.SIGKILL)
                process.wait(STOP_TIMEOUT)
        if process is not None:
            _signal_group(process.pid, signal.SIGKILL)  # workers left behind in its group
        self._folder.cleanup()

    def log_errors(self, keep: int = 5) -> tuple[int, list[str]]:
        """How many failures the server logged (``log_failures``), and the first ``keep``."""
        try:
            text = self.log_path.read_text(errors="replace")
        except OSError:
            return 0, []
        errors = log_failures(text)
        return len(errors), errors[:keep]

    def log_tail(self, lines: int = 20) -> str:
        try:
            text = self.log_path.read_text(errors="replace")
        except OSError:
            return ""
        return "\n".join(text.splitlines()[-lines:])


def same_warboard_env(env: Mapping[str, str] | None = None) -> dict[str, str]:
    """``env`` (by default this environment), with the folder of the warboard package running
    now first on ``PYTHONPATH``: the server runs in a temporary folder, where a relative
    ``PYTHONPATH`` (``src``) would not find this checkout and another installed warboard would
    be served."""
    env = env if env is not None else os.environ
    here = str(Path(warboard.__file__).resolve().parents[1])
    paths = [here, *filter(None, env.get("PYTHONPATH", "").split(os.pathsep))]
    return {**env, "PYTHONPATH": os.pathsep.join(paths)}


def log_failures(text: str) -> list[str]:
    """The failures in a server log, one line each (``log_headline``): its ``ERROR`` records,
    and the tracebacks outside them, from the line before (warboard's own logger has no handler,
    so Python prints its records bare, with no level in front)."""
    failures = []
    for record in LOG_RECORD.split(text):
        at = record.find(TRACEBACK)
        if record.startswith("ERROR"):
            failures.append(log_headline(record))
        elif at >= 0:
            failures.append(log_headline(record[record.rfind("\n", 0, max(at - 1, 0)) + 1:]))
    return failures


def log_headline(record: str) -> str:
    """A log record in one line: its first line and, after a traceback, the last exception
    (``module.Error: message``)."""
    lines = record.strip().splitlines()
    raised = [line for line in lines[1:] if EXCEPTION_LINE.match(line)]
    return f"{lines[0].strip()} {raised[-1]}" if raised else (lines[0].strip() if lines else "")


def _signal_group(pgid: int, sig: signal.Signals) -> None:
    """Signal the process group ``pgid`` that this module started (it is gone: nothing)."""
    with suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, sig)


# ----------------------------------------------------------------------------- the machine

def _stat_fields(pid: int) -> list[str] | None:
    """The fields of /proc/PID/stat after the command name (``None`` when it is gone)."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return text[text.rfind(")") + 2:].split()


def _children() -> dict[int, list[int]]:
    """Every process's children, by parent pid (Linux /proc; empty elsewhere)."""
    tree: dict[int, list[int]] = {}
    for entry in Path("/proc").glob("[0-9]*"):
        fields = _stat_fields(int(entry.name))
        if fields is not None:
            tree.setdefault(int(fields[1]), []).append(int(entry.name))
    return tree


def tree_cpu_seconds(pid: int) -> float | None:
    """User + system CPU seconds of ``pid`` and its live descendants (``None`` off Linux)."""
    if _stat_fields(pid) is None:
        return None
    tree = _children()
    ticks, todo = 0, [pid]
    while todo:
        current = todo.pop()
        fields = _stat_fields(current)
        if fields is not None:
            ticks += int(fields[11]) + int(fields[12])  # utime, stime
        todo.extend(tree.get(current, []))
    return ticks / os.sysconf("SC_CLK_TCK")


def load_average() -> float | None:
    """The machine's 1-minute load average."""
    try:
        return round(os.getloadavg()[0], 2)
    except OSError:
        return None
