"""The docs stay true: their JSON, examples and Python sessions are checked against the code.

Conventions in docs/*.md (see docs/interchange.md for examples):

* ``<!-- example -->`` on the line before a ```console block marks a command and its exact output.
  The block is ``$ echo 'JSON' | warboard rules legal|apply|los`` or
  ``$ warboard rules legal|apply|los <<'EOF'`` ... ``EOF`` (``legal`` and ``apply`` may take
  ``--strict``), followed by the expected output lines.
  Every console block of docs/interchange.md must be marked. The card games and Hold the Line
  are checked alike.
* Every ```json block of docs/interchange.md is a position, plays, an ``apply`` request or a
  result, one document or one per line; positions and plays must be accepted by the readers.
  For Hold the Line: a position (``"game": "holdtheline"``), an action (``"type"``), an
  ``apply`` request (``position`` with ``action``/``dice``) or a line-of-sight query
  (``from``/``to``), each accepted by the engine's readers.
* ```pycon blocks are doctest sessions, one session per file.
* ``<!-- check: NAME -->`` marks the example record of docs/records.md and its seat export.
"""

from __future__ import annotations

import doctest
import io
import json
import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from warboard import cli
from warboard.core.errors import WarboardError
from warboard.core.record import Record, export_for_seat, replay_states
from warboard.hill218.game import CardGame, parse_play
from warboard.hill218.serialize import position_from_json
from warboard.holdtheline import interchange as htl_interchange
from warboard.holdtheline.actions import action_from_json as htl_action_from_json
from warboard.holdtheline.serialize import state_from_json as htl_state_from_json

DOCS = Path(__file__).resolve().parents[1] / "docs"
INTERCHANGE = DOCS / "interchange.md"
# the docs these tests own; examples in any of them must reproduce
CHECKED_DOCS = ("interchange.md", "records.md", "rulesets.md", "architecture.md",
                "rules-decisions.md")

FENCE = re.compile(r"^(\s*)```(\w*)\s*$")
MARKER = re.compile(r"^\s*<!--\s*(.*?)\s*-->\s*$")
ECHO = re.compile(r"^\$ echo '([^']*)' \| warboard rules ((?:legal|apply|los)(?: --strict)?)$")
HEREDOC = re.compile(r"^\$ warboard rules ((?:legal|apply|los)(?: --strict)?) <<'EOF'$")


@dataclass(frozen=True)
class Block:
    doc: str
    line: int  # 1-based line of the opening fence
    lang: str
    marker: str | None  # the HTML comment on the line before the fence, if any
    text: str

    @property
    def id(self) -> str:
        return f"{self.doc}:{self.line}"


def blocks(name: str) -> list[Block]:
    """Every fenced block of docs/``name``, with the marker comment just before it."""
    lines = (DOCS / name).read_text(encoding="utf-8").splitlines()
    out = []
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, lang, start = m[1], m[2], i
        body = []
        i += 1
        while i < len(lines) and lines[i].strip() != "```":
            body.append(lines[i][len(indent):] if lines[i].startswith(indent) else lines[i])
            i += 1
        prev = next((ln for ln in reversed(lines[:start]) if ln.strip()), "")
        mk = MARKER.match(prev)
        out.append(Block(name, start + 1, lang, mk[1] if mk else None, "\n".join(body)))
        i += 1
    return out


def documents(text: str) -> list[Any]:
    """A block's JSON: one document, or one document per non-blank line."""
    try:
        return [json.loads(text)]
    except json.JSONDecodeError:
        return [json.loads(line) for line in text.splitlines() if line.strip()]


# ----------------------------------------------------------------------------- examples

@dataclass(frozen=True)
class Example:
    block: Block
    command: str  # "legal", "apply" or "los", maybe with " --strict"
    stdin: str
    expected: list[str]


def parse_example(block: Block) -> Example:
    lines = block.text.splitlines()
    if m := ECHO.match(lines[0]):
        return Example(block, m[2], m[1] + "\n", lines[1:])
    if m := HEREDOC.match(lines[0]):
        end = lines.index("EOF")
        return Example(block, m[1], "".join(ln + "\n" for ln in lines[1:end]), lines[end + 1:])
    raise AssertionError(f"{block.id}: an example must start with \"$ echo '...' | warboard "
                         f"rules legal|apply|los\" or \"$ warboard rules legal|apply|los "
                         f"<<'EOF'\"")


EXAMPLE_BLOCKS = [b for name in CHECKED_DOCS for b in blocks(name) if b.marker == "example"]


def test_examples_are_found_and_every_interchange_console_block_is_one():
    assert len([b for b in EXAMPLE_BLOCKS if b.doc == "interchange.md"]) >= 8
    for b in blocks("interchange.md"):
        if b.lang == "console":
            assert b.marker == "example", f"{b.id}: console block not marked <!-- example -->"
    for b in EXAMPLE_BLOCKS:
        assert b.lang == "console", f"{b.id}: <!-- example --> must precede a ```console block"


@pytest.mark.parametrize("block", EXAMPLE_BLOCKS, ids=lambda b: b.id)
def test_example_reproduces_exactly(block, monkeypatch, capsys):
    example = parse_example(block)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(example.stdin.encode())))
    assert cli.main(["rules", *example.command.split()]) == 0
    out = capsys.readouterr().out
    assert out.splitlines() == example.expected


def test_first_example_runs_as_written_in_a_shell():
    """The command line itself is real: run the first example through bash."""
    block = EXAMPLE_BLOCKS[0]
    lines = block.text.splitlines()
    bindir = str(Path(sys.executable).parent)
    env = {**os.environ, "PATH": bindir + os.pathsep + os.environ.get("PATH", "")}
    done = subprocess.run(["bash", "-c", lines[0].removeprefix("$ ")], env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == parse_example(block).expected


# A ``<!-- command-example -->`` console block is ``$ warboard ARGS`` and its exact output (any
# doc: a command that prints the same every time, such as a listing).
COMMAND_BLOCKS = [b for name in sorted(p.name for p in DOCS.glob("*.md"))
                  for b in blocks(name) if b.marker == "command-example"]


def test_command_examples_are_found() -> None:
    assert any(b.doc == "scenarios.md" for b in COMMAND_BLOCKS)  # the campaigns' listing


@pytest.mark.parametrize("block", COMMAND_BLOCKS, ids=lambda b: b.id)
def test_command_example_reproduces_exactly(block, capsys):
    command, *expected = block.text.splitlines()
    assert block.lang == "console" and command.startswith("$ warboard "), block.id
    assert cli.main(shlex.split(command.removeprefix("$ warboard "))) == 0
    assert capsys.readouterr().out.splitlines() == expected


# ----------------------------------------------------------------------------- JSON blocks

def check_play(play: Any) -> None:
    """A documented play parses under the ruleset whose units it names (a Hold the Line action,
    which has a ``type``, under that game's reader)."""
    if isinstance(play, dict) and "type" in play:
        htl_action_from_json(play)
        return
    errors = []
    for name in ("hill218", "ogre218"):
        try:
            parse_play(CardGame(name), play)
            return
        except WarboardError as exc:
            errors.append(f"{name}: {exc}")
    raise AssertionError(f"play {play} does not parse: {errors}")


def check_htl_document(doc: Any) -> str | None:
    """A Hold the Line document of interchange.md, validated by the engine's readers; None when
    it is not one."""
    if not isinstance(doc, dict):
        return None
    if doc.get("game") == "holdtheline":
        htl_state_from_json(doc)
        return "htl-position"
    if "type" in doc:
        htl_action_from_json(doc)
        return "htl-action"
    if isinstance(doc.get("position"), dict) and doc["position"].get("game") == "holdtheline":
        assert set(doc) <= {"position", "action", "dice"}, doc
        htl_state_from_json(doc["position"])
        if "action" in doc:
            htl_action_from_json(doc["action"])
        return "htl-request"
    if "from" in doc and "to" in doc:
        answer = htl_interchange.los(doc)
        assert "error" not in answer, answer
        return "los-query"
    return None


def check_document(doc: Any) -> str:
    """Validate one JSON document of interchange.md; returns what it was."""
    htl = check_htl_document(doc)
    if htl is not None:
        return htl
    if isinstance(doc, dict) and "ruleset" in doc:
        position_from_json(doc)
        return "position"
    if isinstance(doc, dict) and "play" in doc and "position" not in doc:
        check_play(doc)
        return "play"
    if isinstance(doc, dict) and set(doc) == {"position", "play"}:
        position_from_json(doc["position"])
        check_play(doc["play"])
        return "request"
    if isinstance(doc, dict) and set(doc) == {"result"}:
        assert set(doc["result"]) == {"winner", "reason", "units"}
        assert doc["result"]["winner"] in (0, 1, None)
        assert doc["result"]["reason"] in ("base", "count")
        return "result"
    raise AssertionError(f"unrecognised JSON in interchange.md: {doc!r}")


INTERCHANGE_JSON = [b for b in blocks("interchange.md") if b.lang == "json"]


@pytest.mark.parametrize("block", INTERCHANGE_JSON, ids=lambda b: b.id)
def test_interchange_json_blocks_are_valid(block):
    kinds = {check_document(doc) for doc in documents(block.text)}
    assert kinds


def test_interchange_documents_positions_and_plays():
    kinds = {check_document(doc) for b in INTERCHANGE_JSON for doc in documents(b.text)}
    assert {"position", "play", "htl-position", "los-query"} <= kinds


def test_interchange_has_hold_the_line_examples_of_every_query():
    htl = [b for b in EXAMPLE_BLOCKS if b.doc == "interchange.md"
           and b.line > next(i for i, ln in enumerate(
               (DOCS / "interchange.md").read_text(encoding="utf-8").splitlines(), 1)
               if ln == "## Hold the Line")]
    assert {parse_example(b).command for b in htl} == {"los", "legal", "apply"}


def test_plays_in_example_outputs_parse():
    """Every play that an example's `legal` output lists parses back, and the examples list
    some: plays of the card games and Hold the Line actions (an example whose answer is an
    error, or no `legal` example at all, would check nothing)."""
    listed = {"card game": 0, "holdtheline": 0}
    for block in EXAMPLE_BLOCKS:
        example = parse_example(block)
        if example.command.split()[0] != "legal":
            continue
        for line in example.expected:
            answer = json.loads(line)
            if isinstance(answer, dict) and "warnings" in answer:
                answer = answer["answer"]
            if isinstance(answer, list):
                for play in answer:
                    check_play(play)
                    listed["holdtheline" if isinstance(play, dict) and "type" in play
                           else "card game"] += 1
    assert all(listed.values()), f"the docs' `legal` examples list no play of some game: {listed}"


# ----------------------------------------------------------------------------- pycon sessions

@pytest.mark.parametrize("name", [n for n in CHECKED_DOCS
                                  if any(b.lang == "pycon" for b in blocks(n))])
def test_pycon_sessions_run(name):
    text = "\n".join(b.text + "\n" for b in blocks(name) if b.lang == "pycon")
    test = doctest.DocTestParser().get_doctest(text, {}, name, str(DOCS / name), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    out = io.StringIO()
    runner.run(test, out=out.write)
    assert runner.failures == 0, out.getvalue()
    assert runner.tries > 0


# ----------------------------------------------------------------------------- records.md

def checked(name: str, marker: str) -> Any:
    found = [b for b in blocks(name) if b.marker == f"check: {marker}"]
    assert len(found) == 1, f"{name}: expected one block marked 'check: {marker}'"
    return json.loads(found[0].text)


def test_records_example_replays_and_its_seat_export_matches():
    record = Record.from_json(checked("records.md", "record"))
    assert record.view is None
    states = list(replay_states(record))
    assert len(states) == len(record.events) + 1
    mine = export_for_seat(record, 0)
    assert mine.events == checked("records.md", "seat0-events")
    assert mine.frames is not None
    assert mine.frames[-1] == checked("records.md", "seat0-last-frame")
