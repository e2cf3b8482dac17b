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
from itertools import accumulate
from typing import Any

from warboard.core.errors import WarboardError

MAX_DEPTH = 32  # nesting of arrays/objects
MAX_INT_DIGITS = 20  # digits of an integer literal

_STEP = {ord("["): 1, ord("{"): 1, ord("]"): -1, ord("}"): -1}
# a str.translate table deleting every ASCII character but quotes and brackets (any other
# character is kept, and dropped at the end: none of them is a bracket)
_ONLY_QUOTES_AND_BRACKETS: dict[int, None] = {c: None for c in range(128) if chr(c) not in '"[]{}'}


def _brackets_outside_strings(text: str) -> bytes:
    """The brackets of ``text`` that are not inside strings, in order. Escaped backslashes,
    then escaped quotes go first, so every quote left opens or closes a string; then only the
    quotes and brackets are kept (``str.translate`` runs at C speed), and every other piece
    between quotes is a string's (one left open runs to the end)."""
    unescaped = text.replace("\\\\", "").replace('\\"', "")
    kept = unescaped.translate(_ONLY_QUOTES_AND_BRACKETS)
    return "".join(kept.split('"')[::2]).encode("ascii", "ignore")


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
    brackets = _brackets_outside_strings(text)
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

    # the checks on each number cost a call per number: made only where one may fail
    decoder = (json.JSONDecoder(parse_int=integer, parse_float=number,
                                parse_constant=_refuse_constant)
               if _may_hold_a_long_number(text, max_int_digits) else _DECODER)
    try:
        return decoder.decode(text)
    except json.JSONDecodeError as exc:
        raise JSONInputError(f"not valid JSON: {exc}") from None
    except MemoryError:
        raise JSONInputError("too large to hold in memory") from None


def _refuse_constant(name: str) -> Any:
    raise JSONInputError(f"{name} is not a JSON number")


_DECODER = json.JSONDecoder(parse_constant=_refuse_constant)  # for texts with short numbers
_DIGITS_AS_ZERO = str.maketrans("123456789", "000000000")
_LONG_EXPONENTS = tuple(f"{e}{sign}000" for e in "eE" for sign in ("", "+", "-"))


def _may_hold_a_long_number(text: str, max_int_digits: int) -> bool:
    """Could ``text`` hold an integer of more than ``max_int_digits`` digits or an infinite
    float? Only with a longer run of digits (an integer part of 309 digits is needed without an
    exponent) or an exponent of three digits (anything finite with two has at most 20 + 20
    digits around its point, under 1e120). Strings count too: this only decides whether each
    number is checked as it is read."""
    digits = text.translate(_DIGITS_AS_ZERO)
    return "0" * (max_int_digits + 1) in digits or any(e in digits for e in _LONG_EXPONENTS)


def _clip(literal: str, keep: int = 24) -> str:
    return literal if len(literal) <= keep else f"{literal[:keep]}... ({len(literal)} chars)"
