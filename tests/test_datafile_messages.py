"""The scenario validator's problems in the reader's language (issue 13, point 5): each problem on
the scenario check path is a message (``core.i18n``) of the ``datafile`` namespace, its English
made from the English catalogue, so ``DataFileError.problem`` reads as it always did."""

from __future__ import annotations

import datetime
import re
from pathlib import Path

import pytest

from custom_scenarios import SMALL_BATTLE
from message_keys import assert_every_key_named, assert_named_keys_in_both_catalogues
from warboard.core.datafile import Fields, type_name
from warboard.core.errors import DataFileError
from warboard.core.i18n import english, msg, say
from warboard.holdtheline.setups import SETUPS

SRC = Path(__file__).resolve().parents[1] / "src/warboard"
SOURCES = [SRC / "core/datafile.py", SRC / "holdtheline/scenario_file.py",
           SRC / "holdtheline/setups.py"]
# a problem given as plain text (a literal, an f-string): error(field, ...) or
# DataFileError(path, field, ...)
ARG = r"""(?:[^(),"]|"[^"]*"|\([^()]*\))+,\s*"""
PLAIN = re.compile(rf"""\b(?:error\({ARG}|DataFileError\({ARG}{ARG})[rf]?["']""")
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


def test_every_key_the_validators_name_is_in_both_catalogues_with_its_params() -> None:
    assert_named_keys_in_both_catalogues("datafile", SOURCES, at_least=60)


def test_every_key_of_the_catalogue_is_used() -> None:
    assert_every_key_named("datafile", SOURCES)


def test_no_problem_of_a_scenario_is_given_plain_text() -> None:
    for path in SOURCES[1:]:
        assert PLAIN.findall(path.read_text(encoding="utf-8")) == [], path


def test_the_english_of_a_message_is_the_problem() -> None:
    exc = DataFileError("x.toml", "cols", msg("datafile.tooSmall", minimum=5, value=2))
    assert exc.problem == "must be at least 5, not 2"
    assert str(exc) == "x.toml: cols: must be at least 5, not 2"
    assert exc.problem_msg == msg("datafile.tooSmall", minimum=5, value=2)
    plain = DataFileError("r.toml", "units", "must define at least one unit")
    assert plain.problem == "must define at least one unit" and plain.problem_msg is None


def test_a_type_without_a_word_is_named_by_its_type() -> None:
    assert type_name(datetime.time(12, 0)) == "time"
    assert type_name([1]) == "a list"
    with pytest.raises(DataFileError) as caught:
        Fields("x.toml", "", {"n": datetime.time(12, 0)}).int("n")
    assert caught.value.problem == "must be a whole number, not time"
    assert say(caught.value.problem_msg, "ja") == "整数にしてください(timeになっています)"


@pytest.mark.parametrize(("change", "key"), [
    (("turn_limit = 4\n", ""), "datafile.missing"),
    (("cols = 6", 'cols = "6"'), "datafile.notWhole"),
    (("turn_limit = 4", "turn_limit = 0"), "datafile.tooSmall"),
    (("turn_limit = 4", "turn_limit = 4\ncolour = 1"), "datafile.unknownField"),
    (('first = "blue"', 'first = "green"'), "datafile.notSide"),
    (('home = "south"', 'home = "up"'), "datafile.unknownEdge"),
    (('kind = "light"', 'kind = "hussar"'), "datafile.unknownKind"),
    (('kind = "light"', 'kind = "light", mp = 9'), "datafile.mpRange"),
    (('at = "3,4"', 'at = "9,4"'), "datafile.offBoard"),
    (('forest = ["2,2"]', 'forest = ["2,2", "2,2"]'), "datafile.hexTwice"),
    (('at = "2,0"}]\n', 'at = "2,4"}]\n'), "datafile.unitWithEnemy"),
    (('kind = "artillery", at = "3,4"', 'kind = "regular", at = "2,4"'),
     "datafile.overstacked"),
    (('{name = "Reyes", at = "2,0"}', '{name = "Reyes", at = "3,4"}'),
     "datafile.leaderWithEnemy"),
    (('forest = ["2,2"]', 'swamp = ["3,0"]'), "datafile.impassableHex"),
    (("title =", "title = = ="), "datafile.syntax"),
])
def test_a_broken_scenario_says_its_problem_in_japanese(change: tuple[str, str],
                                                       key: str) -> None:
    assert change[0] in SMALL_BATTLE
    [problem] = SETUPS.check_text(SMALL_BATTLE.replace(*change, 1)).problems
    assert problem.msg is not None and problem.msg["key"] == key
    assert english(problem.msg) == problem.problem
    japanese = say(problem.msg, "ja")
    assert japanese != problem.problem and JAPANESE.search(japanese)
    assert problem.to_json()["msg"] == problem.msg
