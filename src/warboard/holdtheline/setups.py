"""Scenarios of one's own through the server (``GameInfo.custom_setups``): the web editor's
text or model checked by the scenario files' validator, and the game options that play one.

A custom scenario is played with the game option ``scenario_toml`` (its whole text): the game's
options, and so its stored game and its record, carry the scenario itself, so that the game is
rebuilt after a restart and its record replays anywhere (docs/records.md).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from warboard.core.datafile import parse_toml
from warboard.core.errors import DataFileError
from warboard.core.i18n import msg
from warboard.core.protocol import SetupCheck, SetupProblem
from warboard.holdtheline.scenario import Scenario
from warboard.holdtheline.scenario_file import parse_scenario, summary_json
from warboard.holdtheline.scenario_toml import model_data, scenario_to_model, scenario_to_toml

CUSTOM_NAME = "custom"  # the name of every scenario played from its text
MAX_BYTES = 64 * 1024
HEX_IN_PROBLEM = re.compile(r"\bhex (\d{1,3}),(\d{1,3})\b")
HEX_TEXT = re.compile(r"^\s*(\d{1,3})\s*,\s*(\d{1,3})\s*$")
INDEX = re.compile(r"^([^\[\]]*)((?:\[\d+\])*)$")


@lru_cache(maxsize=32)  # a table's game is rebuilt from its options (restarts, AI workers)
def scenario_from_text(text: str, source: str = "scenario.toml") -> Scenario:
    """The scenario of a TOML text; ``DataFileError`` (``source: FIELD: PROBLEM``) when it is
    not a valid one. Text that is too long, or that Python cannot read as numbers (digits
    beyond its limit) or nests beyond its stack, is refused as a syntax error."""
    if len(text.encode()) > MAX_BYTES:
        raise DataFileError(source, "(size)", msg("datafile.textTooLong", most=MAX_BYTES))
    try:
        data = parse_toml(source, text)
    except (ValueError, RecursionError) as exc:
        raise DataFileError(source, "(syntax)",
                            msg("datafile.unreadable", reason=str(exc))) from None
    return parse_scenario(source, data, CUSTOM_NAME)


def _field_value(data: Any, field: str) -> Any:
    """The value at ``field`` (``sides.british.units[3].at``) in ``data``, or ``None``."""
    value = data
    for part in field.split("."):
        m = INDEX.match(part)
        if m is None or not isinstance(value, Mapping):
            return None
        value = value.get(m.group(1).strip('"'))
        for index in re.findall(r"\d+", m.group(2)):
            if not isinstance(value, list) or int(index) >= len(value):
                return None
            value = value[int(index)]
    return value


def _problem(exc: DataFileError, data: Any) -> SetupProblem:
    """The validator's error with the hex it names: in its words, or the field's value."""
    found = HEX_IN_PROBLEM.search(exc.problem)
    if found is None:
        value = _field_value(data, exc.field)
        found = HEX_TEXT.match(value) if isinstance(value, str) else None
    at = (int(found.group(1)), int(found.group(2))) if found else None
    return SetupProblem(exc.field, exc.problem, at, exc.problem_msg)


def _checked(scenario: Scenario) -> SetupCheck:
    return SetupCheck(text=scenario_to_toml(scenario), model=scenario_to_model(scenario),
                      summary=summary_json(scenario))


class HtlSetups:
    """``warboard.core.protocol.CustomSetups`` for Hold the Line."""

    def check_text(self, text: str) -> SetupCheck:
        try:
            return _checked(scenario_from_text(text))
        except DataFileError as exc:
            try:
                data: Any = parse_toml("", text)
            except (DataFileError, ValueError, RecursionError):
                data = None
            return SetupCheck(problems=(_problem(exc, data),))

    def check_model(self, model: Mapping[str, Any]) -> SetupCheck:
        data = model_data(model)
        try:
            scenario = parse_scenario("editor", data, CUSTOM_NAME)
            return _checked(scenario_from_text(scenario_to_toml(scenario)))
        except DataFileError as exc:
            return SetupCheck(problems=(_problem(exc, data),))

    def options_for(self, text: str) -> dict[str, Any]:
        return {"scenario_toml": text}

    def listed_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        listed = {k: v for k, v in options.items() if k != "scenario_toml"}
        text = options.get("scenario_toml")
        if isinstance(text, str):
            listed["scenario"] = CUSTOM_NAME
            listed["title"] = scenario_from_text(text).title
        return listed


SETUPS = HtlSetups()
