"""Readers for the deployment files that tests/test_deploy.py checks: the Dockerfile, the
systemd unit of docs/deploy.md, and the running of their commands as local processes."""

from __future__ import annotations

import json
import os
import re
import shlex
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import warboard
from server_helpers import wait_for_health
from warboard.server.settings import CONFIG_ENV, ServerSettings

ROOT = Path(__file__).resolve().parents[1]
DOCKERFILE = ROOT / "Dockerfile"
COMPOSE = ROOT / "deploy" / "compose.yaml"
NGINX_CONF = ROOT / "deploy" / "nginx.conf"
DEPLOY_DOC = ROOT / "docs" / "deploy.md"
TIMEOUT = 30.0
SETTING_NAME = re.compile(r"\bWARBOARD_[A-Z][A-Z0-9_]*")


def setting_names() -> set[str]:
    """Every WARBOARD_* variable warboard serve reads: the settings, and the configuration file's
    name."""
    return {f"WARBOARD_{name.upper()}" for name in ServerSettings.model_fields} | {CONFIG_ENV}


def unknown_settings(text: str) -> set[str]:
    """The WARBOARD_* names in ``text`` that are no setting (a misspelt one is ignored by the
    server: pydantic-settings reads only the names it knows)."""
    return set(SETTING_NAME.findall(text)) - setting_names()


# ----------------------------------------------------------------------------- Dockerfile

@dataclass
class Stage:
    base: str
    name: str | None
    instructions: list[tuple[str, str]] = field(default_factory=list)

    def all(self, keyword: str) -> list[str]:
        return [args for kw, args in self.instructions if kw == keyword]

    def one(self, keyword: str) -> str:
        found = self.all(keyword)
        assert len(found) == 1, f"the stage from {self.base} has {len(found)} {keyword}"
        return found[0]


@dataclass
class Dockerfile:
    args: dict[str, str]  # the ARGs before the first FROM, with their defaults
    stages: list[Stage]

    @property
    def runtime(self) -> Stage:
        return self.stages[-1]

    def env(self) -> dict[str, str]:
        """The runtime stage's ENV."""
        env: dict[str, str] = {}
        for args in self.runtime.all("ENV"):
            words = shlex.split(args)
            if "=" not in words[0]:  # the old form: ENV NAME value
                env[words[0]] = " ".join(words[1:])
                continue
            for word in words:
                name, _, value = word.partition("=")
                env[name] = value
        return env

    def entry_command(self) -> list[str]:
        """ENTRYPOINT then CMD of the runtime stage, both in exec (JSON) form."""
        return exec_form(self.runtime.one("ENTRYPOINT")) + exec_form(self.runtime.one("CMD"))

    def healthcheck(self) -> tuple[dict[str, str], list[str]]:
        """The HEALTHCHECK's options (``--interval`` ...) and its command (exec form)."""
        args = self.runtime.one("HEALTHCHECK")
        options = dict(re.findall(r"--([a-z-]+)=(\S+)", args))
        command = re.sub(r"^(\s*--[a-z-]+=\S+)*\s*", "", args)
        assert command.startswith("CMD "), f"HEALTHCHECK without CMD: {args}"
        return options, exec_form(command.removeprefix("CMD "))


def exec_form(args: str) -> list[str]:
    words = json.loads(args)
    assert isinstance(words, list) and all(isinstance(w, str) for w in words), (
        f"not the exec form (a JSON list of strings): {args}")
    return words


def read_dockerfile(path: Path = DOCKERFILE) -> Dockerfile:
    lines: list[str] = []
    pending = ""
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not pending and (not line or line.startswith("#")):
            continue
        if line.startswith("#"):  # a comment inside a continued instruction
            continue
        if line.endswith("\\"):
            pending += line[:-1].strip() + " "
            continue
        lines.append(pending + line)
        pending = ""
    args: dict[str, str] = {}
    stages: list[Stage] = []
    for line in lines:
        keyword, _, rest = line.partition(" ")
        keyword = keyword.upper()
        rest = re.sub(r"\s+#.*$", "", rest) if keyword == "RUN" else rest.strip()
        if keyword == "FROM":
            words = rest.split()
            base = re.sub(r"\$\{(\w+)\}", lambda m: args[m[1]], words[0])
            stages.append(Stage(base, words[2] if len(words) > 2 else None))
        elif not stages and keyword == "ARG":
            name, _, default = rest.partition("=")
            args[name] = default
        else:
            stages[-1].instructions.append((keyword, rest))
    return Dockerfile(args, stages)


# ----------------------------------------------------------------------------- systemd unit

def unit_text() -> str:
    """The unit file of docs/deploy.md: its ```ini block with a [Service] section."""
    text = DEPLOY_DOC.read_text(encoding="utf-8")
    found = [b for b in re.findall(r"^```ini\n(.*?)^```", text, re.S | re.M) if "[Service]" in b]
    assert len(found) == 1, "docs/deploy.md must have one ```ini block with the systemd unit"
    return found[0]


def read_unit(text: str) -> dict[str, dict[str, list[str]]]:
    """Section -> key -> every value given (systemd allows a key several times)."""
    unit: dict[str, dict[str, list[str]]] = {}
    section: dict[str, list[str]] | None = None
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            section = unit.setdefault(line.strip("[]"), {})
            continue
        assert section is not None and "=" in line, f"not a unit file line: {line!r}"
        key, _, value = line.partition("=")
        section.setdefault(key.strip(), []).append(value.strip())
    return unit


def unit_environment(service: dict[str, list[str]]) -> dict[str, str]:
    env: dict[str, str] = {}
    for value in service.get("Environment", []):
        for word in shlex.split(value):
            name, _, setting = word.partition("=")
            env[name] = setting
    return env


# ----------------------------------------------------------------------------- processes

def local_command(argv: list[str]) -> list[str]:
    """``argv`` with its ``warboard`` (by name or path) replaced by this checkout's."""
    assert Path(argv[0]).name == "warboard", f"not a warboard command: {argv}"
    return [sys.executable, "-m", "warboard.cli", *argv[1:]]


def clean_environment(settings: dict[str, str]) -> dict[str, str]:
    """This process's environment without its WARBOARD_* variables, with ``settings``, and
    Python importing the warboard these tests import."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("WARBOARD_")}
    env["PYTHONPATH"] = str(Path(warboard.__file__).resolve().parents[1])
    return {**env, **settings}


class Process:
    """A command in a process group of its own, its output in a file."""

    def __init__(self, argv: list[str], env: dict[str, str], cwd: Path, name: str) -> None:
        self.log = cwd / f"{name}.out"
        with self.log.open("ab") as out:
            self.popen = subprocess.Popen(argv, cwd=cwd, env=env, stdout=out,
                                          stderr=subprocess.STDOUT, start_new_session=True)

    def output(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace")

    def wait_until_serving(self, base: str) -> None:
        wait_for_health(self.popen, base, self.output, TIMEOUT)

    def stop(self) -> None:
        if self.popen.poll() is None:
            os.killpg(self.popen.pid, signal.SIGTERM)
            try:
                self.popen.wait(TIMEOUT)
            except subprocess.TimeoutExpired:
                os.killpg(self.popen.pid, signal.SIGKILL)
                self.popen.wait(TIMEOUT)


def poll(condition: Callable[[], object], what: str, timeout: float = TIMEOUT) -> None:
    """Wait until ``condition()`` is true."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"gave up waiting: {what}"
        time.sleep(0.05)
