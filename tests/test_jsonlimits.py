"""``warboard.core.jsonlimits.parse_json``: JSON from untrusted input within limits, in linear
time, and never an error other than ``JSONInputError``."""

from __future__ import annotations

import json
import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

from warboard.core.errors import WarboardError
from warboard.core.jsonlimits import MAX_DEPTH, MAX_INT_DIGITS, JSONInputError, parse_json


def refused(data: str | bytes, fragment: str, **limits: int) -> None:
    with pytest.raises(JSONInputError) as info:
        parse_json(data, **limits)
    assert fragment in str(info.value)


def test_valid_json_is_what_json_loads_gives():
    text = '{"a": [1, -2, 3.5, "x\\u00e9\\"]", null, true], "b": {}, "a": 0}'
    assert parse_json(text) == json.loads(text)
    assert parse_json(text.encode()) == json.loads(text)
    assert parse_json(" 7 ") == 7
    assert isinstance(JSONInputError("x"), WarboardError)


def test_size_limit_in_bytes():
    refused(b"[" + b"1," * 10 + b"1]", "too large: 23 bytes (at most 20)", max_bytes=20)
    refused("\"" + "é" * 10 + "\"", "too large: 22 bytes (at most 20)", max_bytes=20)
    assert parse_json("\"" + "é" * 9 + "\"", max_bytes=20) == "é" * 9


def test_invalid_utf8_and_invalid_json_say_where():
    refused(b'["\xff"]', "not valid UTF-8: byte 2 (0xff)")
    refused('{"a": 1,}', "not valid JSON: Expecting property name enclosed in double quotes: "
                         "line 1 column 9 (char 8)")
    refused("", "not valid JSON")
    refused("[1] [2]", "Extra data")


def test_nesting_limit():
    assert parse_json("[" * MAX_DEPTH + "]" * MAX_DEPTH) == json.loads(
        "[" * MAX_DEPTH + "]" * MAX_DEPTH)
    refused("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1), f"nested deeper than {MAX_DEPTH}")
    refused('{"a":' * 40 + "1" + "}" * 40, "nested deeper")
    refused("[[[[]]]]", "nested deeper than 3", max_depth=3)
    # brackets inside strings (escaped quotes included) do not count
    assert parse_json(json.dumps(["[" * 100 + '\\"{{' + "]" * 7])) == ["[" * 100 + '\\"{{'
                                                                        + "]" * 7]


def test_integer_digits_and_non_finite_numbers():
    assert parse_json("9" * MAX_INT_DIGITS) == int("9" * MAX_INT_DIGITS)
    assert parse_json("-" + "9" * MAX_INT_DIGITS) == -int("9" * MAX_INT_DIGITS)
    refused("9" * (MAX_INT_DIGITS + 1), f"an integer of {MAX_INT_DIGITS + 1} digits")
    refused("[" + "1" * 5000 + "]", "an integer of 5000 digits")  # int() itself refuses 4301+
    refused("123", "an integer of 3 digits (at most 2)", max_int_digits=2)
    for text in ("1e999", "-1e999", "[1.5e400]"):
        refused(text, "too large")
    for text in ("NaN", "[Infinity]", "-Infinity"):
        refused(text, "is not a JSON number")
    assert parse_json("1e-999") == 0.0
    assert parse_json("1." + "0" * 5000 + "1") == 1.0


@pytest.mark.parametrize("text", ["[" * 30_000, "[" * 65_536, '{"a":' * 30_000,
                                  "[]," * 300_000, '"' + "\\\\" * 300_000])
def test_hostile_texts_are_answered_fast(text):
    start = time.perf_counter()
    with pytest.raises(JSONInputError):
        parse_json(text, max_bytes=1 << 20)
    assert time.perf_counter() - start < 1.0


@given(st.text(alphabet=st.sampled_from('[]{}",:0123456789.eE-+ truefalsnNIiy\\ua'),
               max_size=40) | st.text(max_size=20))
def test_any_text_is_json_loads_value_or_refused(text):
    try:
        expected = json.loads(text)
    except ValueError:  # JSONDecodeError, or too many digits for int()
        expected = JSONInputError
    try:
        got = parse_json(text)
    except JSONInputError:
        return
    assert expected is not JSONInputError
    assert json.dumps(got) == json.dumps(expected)


JSON = st.recursive(st.none() | st.booleans() | st.integers(-10**19, 10**19)
                    | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
                    lambda inner: st.lists(inner, max_size=4)
                    | st.dictionaries(st.text(), inner, max_size=4), max_leaves=20)


@given(JSON)
def test_json_within_the_limits_reads_back_as_written(value):
    text = json.dumps(value)
    assert json.dumps(parse_json(text)) == text
