"""The browser's words of the packaged Hold the Line scenarios and campaigns in Japanese
(``scenarios/ja/``, ``campaigns/ja/``: docs/scenarios.md, "Translations"), checked against the
files they translate, and the optional rules' descriptions in both catalogues."""

from __future__ import annotations

import copy
import tomllib
from pathlib import Path

import pytest

from warboard.core.datafile import load_packaged_toml
from warboard.core.errors import DataFileError
from warboard.core.i18n import catalogue
from warboard.holdtheline.campaign import list_campaigns
from warboard.holdtheline.campaign_series import Campaigns
from warboard.holdtheline.lobby import scenario_summaries
from warboard.holdtheline.options import OPTIONS
from warboard.holdtheline.scenario_file import PACKAGE, load_scenario, scenario_names
from warboard.holdtheline.translations import LANGUAGES, parse_scenario_words, scenario_words

WEB_I18N = Path(__file__).resolve().parents[1] / "src/warboard/web/i18n"
ASCII_LETTERS = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")


def test_the_client_languages_are_the_catalogues_folders() -> None:
    assert sorted(("en", *LANGUAGES)) == sorted(p.name for p in WEB_I18N.iterdir() if p.is_dir())


@pytest.mark.parametrize("name", scenario_names())
def test_every_place_leader_and_summary_of_a_scenario_is_said_in_japanese(name: str) -> None:
    scenario = load_scenario(name)
    words = scenario_words(scenario)["ja"]
    leaders = {x.name for side in scenario.sides for x in side.leaders}
    leaders |= {x.name for side in scenario.sides for r in side.reinforcements for x in r.leaders}
    assert set(words["names"]) == set(scenario.places.values()) | leaders
    said = [words["summary"], *words["names"].values()]
    assert all(text.strip() and not set(text) & ASCII_LETTERS for text in said), said


def test_the_lobby_lists_send_each_language_s_words() -> None:
    scenarios = {s["name"]: s for s in scenario_summaries()}
    assert scenarios["trenton"]["words"]["ja"]["names"]["King Street"] == "キング通り"
    assert scenarios["trenton"]["words"]["ja"]["names"]["Washington"] == "ワシントン"
    campaigns = Campaigns().summaries()
    assert len(campaigns) == len(list_campaigns())
    for c in campaigns:
        summary = c["words"]["ja"]["summary"]
        assert summary and summary != c["summary"] and not set(summary) & ASCII_LETTERS


def _trenton() -> tuple[str, dict]:
    return load_packaged_toml(PACKAGE, "ja/trenton.toml")


@pytest.mark.parametrize(("change", "field", "problem"), [
    (lambda d: d["places"].pop("5,4"), "places", "has no words for 5,4"),
    (lambda d: d["places"].update({"0,0": "どこか"}), "places.0,0", "not one of the scenario's"),
    (lambda d: d["leaders"].update({"Lafayette": "ラファイエット"}), "leaders.Lafayette",
     "not one of the scenario's leaders"),
    (lambda d: d["leaders"].update({"Greene": ""}), "leaders.Greene", "non-empty string"),
    (lambda d: d.update({"summary": "一行目\n二行目"}), "summary", "must be one line"),
    (lambda d: d.update({"history": "…"}), "history", "not a known field"),
])
def test_a_broken_words_file_says_file_field_and_problem(change, field, problem) -> None:
    path, data = _trenton()
    data = copy.deepcopy(data)
    change(data)
    with pytest.raises(DataFileError) as err:
        parse_scenario_words(path, data, load_scenario("trenton"))
    assert err.value.path.endswith("scenarios/ja/trenton.toml")
    assert err.value.field == field and problem in err.value.problem


def test_the_optional_rules_are_described_in_both_catalogues() -> None:
    """English as the engine says it (the editor shows the server's text where a catalogue has
    none), Japanese of its own."""
    for name, (_, text) in OPTIONS.items():
        assert catalogue("en")[f"names.holdtheline.option.{name}"] == text
        assert catalogue("ja")[f"names.holdtheline.option.{name}"] != text


def test_the_words_files_are_shipped_in_the_package() -> None:
    pyproject = tomllib.loads((Path(__file__).resolve().parents[1] / "pyproject.toml").read_text())
    shipped = pyproject["tool"]["setuptools"]["package-data"]["warboard.holdtheline"]
    for lang in LANGUAGES:
        assert {f"scenarios/{lang}/*.toml", f"campaigns/{lang}/*.toml"} <= set(shipped)
