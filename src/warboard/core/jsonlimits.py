"""JSON from untrusted input, parsed within limits: size, nesting, integer digits, finite numbers.

``json.loads`` recurses once per nesting level (a few thousand ``[`` raise ``RecursionError``),
turns ``1e999`` into ``inf``, accepts ``NaN`` and refuses integers over 4,300 digits with a
``ValueError``. ``parse_json`` answers every such text with a ``JSONInputError`` instead, and
otherwise gives what ``json.loads`` gives. Its cost is linear in the size of the text: the
nesting is measured before parsing, by a regular expression that drops the strings, so the
parser never goes deeper than ``max_depth``.
"""

from __future__ import annotations

import json
import math
import re
from itertools import accumulate
from typing import Any

from warboard.core.errors import WarboardError

MAX_DEPTH = 32  # nesting of arrays/objects
MAX_INT_DIGITS = 20  # digits of an integer literal

# a string (its closing quote optional: one left open runs to the end) or a run of anything
# but brackets and quotes; removing both leaves the brackets that are outside strings
_NOT_BRACKETS = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?|[^"\[\]{}]+', re.DOTALL)
_STEP = {ord("["): 1, ord("{"): 1, ord("]"): -1, ord("}"): -1}


class JSONInputError(WarboardError):
    """Input that is not JSON, or JSON beyond the limits; the message says which and where."""


def too_large(size: int, limit: int) -> JSONInputError:
    return JSONInputError(f"too large: {size} bytes (at most {limit})")


def parse_json(data: str | bytes, *, max_bytes: int | None = None, max_depth: int = MAX_DEPTH,
               max_int_digits: int = MAX_INT_DIGITS) -> Any:
    """The value of the JSON text ``data`` (bytes must be UTF-8); ``JSONInputError`` when it is
    over ``max_bytes``, not JSON, nested deeper than ``max_depth``, holds an integer of more
    than ``max_int_digits`` digits, or a number that is not finite (``NaN``, ``1e999``)."""
    if isinstance(data, bytes):
        if max_bytes is not None and len(data) > max_bytes:
            raise too_large(len(data), max_bytes)
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise JSONInputError(f"not valid UTF-8: byte {exc.start} "
                                 f"(0x{data[exc.start]:02x}) {exc.reason}") from None
    else:
        text = data
        if max_bytes is not None and len(text) > max_bytes // 4:  # else it cannot be over
            size = len(text.encode("utf-8", "surrogatepass"))
            if size > max_bytes:
                raise too_large(size, max_bytes)
    brackets = _NOT_BRACKETS.sub("", text).encode("ascii")
    if len(brackets) > max_depth and max(accumulate(map(_STEP.__getitem__,
                                                        brackets))) > max_depth:
        raise JSONInputError(f"nested deeper than {max_depth} arrays/objects")

    def integer(literal: str) -> int:
        digits = len(literal) - literal.startswith("-")
        if digits > max_int_digits:
            raise JSONInputError(f"an integer of {digits} digits (at most {max_int_digits})")
        return int(literal)

    def number(literal: str) -> float:
        value = float(literal)
        if math.isinf(value):
            raise JSONInputError(f"the number {_clip(literal)} is too large")
        return value

    def constant(name: str) -> Any:
        raise JSONInputError(f"{name} is not a JSON number")

    try:
        return json.loads(text, parse_int=integer, parse_float=number, parse_constant=constant)
    except json.JSONDecodeError as exc:
        raise JSONInputError(f"not valid JSON: {exc}") from None
    except MemoryError:
        raise JSONInputError("too large to hold in memory") from None


def _clip(literal: str, keep: int = 24) -> str:
    return literal if len(literal) <= keep else f"{literal[:keep]}... ({len(literal)} chars)"
