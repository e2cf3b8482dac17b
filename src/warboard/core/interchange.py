"""The batch interchange of ``warboard rules``: one JSON document per line in, one JSON line out.

Game-neutral: ``run_batch`` reads the lines within limits (``parse_json``) and turns every error
into an ``{"error": ...}`` line, so that one bad line never stops the batch; ``router`` sends
each line to the game whose position it holds. Each game's interchange module
(``GameInfo.interchange``) provides:

* ``QUERIES``: query name -> handler. ``legal`` and ``apply`` handlers take the line (a
  position, an apply request) and ``strict``; any other query's handler takes the line alone.
* ``owns(position)``: is this JSON object a position of this module's game(s)?
* ``POSITION_HINT``, ``REQUEST_HINT``: how its positions are recognised and what its ``apply``
  requests hold, for the errors on a line that no game owns.

Rules contract (§7): a position need not be reachable. One that is inconsistent
(more cards than the deck holds) is answered with a ``"warnings"`` list (``with_warnings``),
unless the caller asks for strict checking, which refuses it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from typing import Any, BinaryIO

from warboard.core.errors import PositionError, WarboardError
from warboard.core.jsonlimits import JSONInputError, parse_json, too_large

MAX_LINE_BYTES = 1 << 20  # 1 MiB, the longest line answered
POSITION_QUERIES = ("legal", "apply")  # their lines hold a position, and may ask for strict
_CHUNK = 1 << 16


def read_lines(stream: BinaryIO, max_bytes: int = MAX_LINE_BYTES,
               ) -> Iterator[bytes | JSONInputError]:
    """The lines of a byte stream. A line longer than ``max_bytes`` is read on to its end in
    pieces and dropped: it comes as the error that answers it, so it is never held whole."""
    while True:
        line = stream.readline(max_bytes + 2)  # room for the line's own CR LF
        if not line:
            return
        if line.endswith(b"\n") or len(line) < max_bytes + 2:
            yield line
            continue
        size = len(line)
        while not line.endswith(b"\n"):
            line = stream.readline(_CHUNK)
            if not line:
                break
            size += len(line)
        yield too_large(size - line.endswith(b"\n"), max_bytes)


def run_batch(lines: Iterable[str | bytes | JSONInputError], handler: Callable[[Any], Any],
              *, max_bytes: int = MAX_LINE_BYTES) -> Iterator[str]:
    """One compact JSON line for each non-blank line: ``handler``'s answer to the line's JSON,
    or ``{"error": ...}``. Blank lines (only spaces, tabs and line ends) get no answer."""
    for line in lines:
        if isinstance(line, JSONInputError):
            yield _error(str(line))
            continue
        text = line.strip(" \t\r\n") if isinstance(line, str) else line.strip(b" \t\r\n")
        if text:
            yield _answer(text, handler, max_bytes)


def _answer(text: str | bytes, handler: Callable[[Any], Any], max_bytes: int) -> str:
    try:
        return json.dumps(handler(parse_json(text, max_bytes=max_bytes)), separators=(",", ":"))
    except WarboardError as exc:
        return _error(str(exc))
    except Exception as exc:  # a bug: still one answer for the line, and the batch goes on
        return _error(f"internal error: {type(exc).__name__}: {exc}")


def _error(message: str) -> str:
    return json.dumps({"error": message}, separators=(",", ":"))


def with_warnings(answer: Any, warnings: list[str]) -> Any:
    """The answer to a position, wrapped as ``{"answer": ..., "warnings": [...]}`` when the
    position is inconsistent; a consistent position's answer is left as it is."""
    return {"answer": answer, "warnings": warnings} if warnings else answer


def router(query: str, *, strict: bool = False) -> Callable[[Any], Any]:
    """The handler of ``warboard rules QUERY``: each line goes to the game that owns it.

    ``legal`` and ``apply`` lines are routed by their position (a ``legal`` line is a position,
    or ``{"position": P, "strict": S}``; an ``apply`` line is ``{"position": P, ...}``). A
    request's ``"strict"`` (true or false) overrides ``strict`` for its line. Any other query
    belongs to the one game that offers it.
    """
    from warboard.core.registry import interchanges

    games = [m for m in interchanges() if query in m.QUERIES]
    if query not in POSITION_QUERIES:
        if len(games) != 1:
            raise ValueError(f"no single game answers the query {query!r}")
        handler: Callable[[Any], Any] = games[0].QUERIES[query]
        return handler

    def handle(line: Any) -> Any:
        if query == "apply" and not (isinstance(line, dict) and "position" in line):
            raise PositionError("each line must be an object: "
                                + " or ".join(game.REQUEST_HINT for game in games))
        doc, position, line_strict = _request(query, line, strict)
        for game in games:
            if game.owns(position):
                return game.QUERIES[query](doc, line_strict)
        raise PositionError("not a position of any game: "
                            + "; ".join(game.POSITION_HINT for game in games))

    return handle


def _request(query: str, line: Any, strict: bool) -> tuple[Any, dict[str, Any], bool]:
    """``(what the game's handler gets, the position, strict)`` of one line."""
    if not isinstance(line, dict) or "position" not in line:  # legal: a bare position
        return line, _object(line, "a position"), strict
    strict = line.get("strict", strict)
    if not isinstance(strict, bool):
        raise PositionError(f"strict: must be true or false, not {strict!r}")
    doc = {k: v for k, v in line.items() if k != "strict"}
    position = _object(doc["position"], "position:")
    if query == "legal":
        extra = sorted(set(doc) - {"position"})
        if extra:
            raise PositionError(f"{extra[0]}: not a field of a legal request (fields: position, "
                                "strict)")
        return position, position, strict
    return doc, position, strict


def _object(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise PositionError(f"{where} must be a JSON object, not {type(value).__name__}")
    return value
