"""The browser's words of the packaged scenarios and campaigns in its other languages.

Beside each packaged file, one file per language says what the table shows of it in that
language: ``scenarios/ja/trenton.toml`` has the summary, the names of the places, the leaders
and the sides' labels; ``campaigns/ja/new_york.toml`` the summary (docs/scenarios.md,
"Translations"; titles are the client's catalogue's, ``names.holdtheline.*``). Each is checked
against the file it translates: every name translated, none that the scenario does not have.
The engine, the terminal and the records keep the English; the client looks the English names
up in ``names``.
"""

from __future__ import annotations

from typing import Any

from warboard.core.datafile import Fields, load_packaged_toml
from warboard.core.errors import DataFileError
from warboard.holdtheline.campaign import PACKAGE as CAMPAIGNS
from warboard.holdtheline.campaign import Campaign
from warboard.holdtheline.scenario import Scenario
from warboard.holdtheline.scenario_file import PACKAGE as SCENARIOS

# the languages of the client's catalogues besides English (warboard/web/i18n/)
LANGUAGES = ("ja",)
# side labels the client's catalogue already says (names.holdtheline.label.*)
CATALOGUED_LABELS = frozenset({"Americans", "British", "Hessians", "Loyalists"})


def scenario_words(scenario: Scenario) -> dict[str, dict[str, Any]]:
    """``{lang: {"summary": ..., "names": {english: translated}}}`` of a packaged scenario."""
    return {lang: _scenario_words(scenario, lang) for lang in LANGUAGES}


def campaign_words(campaign: Campaign) -> dict[str, dict[str, str]]:
    """``{lang: {"summary": ...}}`` of a packaged campaign."""
    out = {}
    for lang in LANGUAGES:
        path, data = load_packaged_toml(CAMPAIGNS, f"{lang}/{campaign.name}.toml")
        top = Fields(path, "", data)
        out[lang] = {"summary": _line(top, "summary")}
        top.finish()
    return out


def _scenario_words(scenario: Scenario, lang: str) -> dict[str, Any]:
    return parse_scenario_words(*load_packaged_toml(SCENARIOS, f"{lang}/{scenario.name}.toml"),
                                scenario)


def parse_scenario_words(path: str, data: dict[str, Any], scenario: Scenario) -> dict[str, Any]:
    """Validate one language's words of ``scenario``; ``path`` names the file in errors."""
    top = Fields(path, "", data)
    summary = _line(top, "summary")
    places = {f"{h[0]},{h[1]}": name for h, name in scenario.places.items()}
    names = _names(top, "places", places)
    leaders = {leader.name for side in scenario.sides
               for leader in side.leaders + tuple(x for r in side.reinforcements
                                                  for x in r.leaders)}
    names |= _names(top, "leaders", {name: name for name in leaders})
    labels = {side.display_name for side in scenario.sides} - CATALOGUED_LABELS
    names |= _names(top, "labels", {label: label for label in labels})
    top.finish()
    return {"summary": summary, "names": names}


def _line(top: Fields, key: str) -> str:
    text = top.str(key)
    if "\n" in text:
        raise top.error(key, "must be one line")
    return text


def _names(top: Fields, key: str, wanted: dict[str, str]) -> dict[str, str]:
    """The table ``key``'s words: one for each key of ``wanted`` (``wanted``: the file's key ->
    the English it translates)."""
    table = top.sub(key, {})
    for name in table.table:
        if name not in wanted:
            raise table.error(name, f"is not one of the scenario's {key}")
    missing = sorted(set(wanted) - set(table.table))
    if missing:
        raise DataFileError(top.path, table.where, f"has no words for {', '.join(missing)}")
    return {wanted[name]: table.str(name) for name in wanted}
