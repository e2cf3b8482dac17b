"""The log and the end of a game in Japanese, in headless Chromium (``locale="ja-JP"``): a game of
each of the three games played to its end, its log, end card and replay banner said by the
Japanese catalogues from the server's messages (warboard.core.i18n), at desktop and phone
sizes; no English sentence of the catalogues is left in the log."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

playwright_api = pytest.importorskip(
    "playwright.sync_api",
    reason="the browser tests need playwright (pip install warboard[web-test])")

from warboard.core.i18n import catalogue, say  # noqa: E402
from warboard.holdtheline.scenario_file import load_scenario  # noqa: E402
from warboard.holdtheline.translations import scenario_words  # noqa: E402
from web_helpers import (  # noqa: E402
    CHROMIUM,
    Tab,
    finish_hotseat_game,
    http_json,
    save_screenshot,
)

if not CHROMIUM.exists():
    pytest.skip(f"the browser tests need Chromium at {CHROMIUM} (apt-get install chromium, "
                "or WARBOARD_CHROMIUM=/path/to/chromium)",
                allow_module_level=True)

expect = playwright_api.expect
DESKTOP = {"width": 1440, "height": 900}
PHONE = {"width": 390, "height": 844}
TUTORIAL = {"scenario": "tutorial"}
# a seed each whose random game ends within play_hotseat's 400 plays
GAMES = [("hill218", None, 5, DESKTOP), ("ogre218", None, 5, PHONE),
         ("holdtheline", TUTORIAL, 3, DESKTOP), ("holdtheline", TUTORIAL, 3, PHONE)]


def english_sentences() -> set[str]:
    """The English catalogue's log and end sentences without their placeholders' parts: none of
    them may be seen on a Japanese page."""
    out = set()
    for key, template in catalogue("en").items():
        if key.startswith(("log.", "end.")):
            out |= {part.strip() for part in re.split(r"\{\w+\}", template)
                    if len(part.strip()) > 6}
    return out


def japanese(said: dict[str, Any]) -> str:
    return say(said["msg"], "ja")


@pytest.mark.parametrize("game,options,seed,size", GAMES,
                         ids=[f"{g}-{s['width']}" for g, _, _, s in GAMES])
def test_the_log_end_card_and_replay_banner_of_a_finished_game_are_japanese(
        browser, server, tmp_path: Path, game: str, options: dict[str, Any] | None, seed: int,
        size: dict[str, int]) -> None:
    created = finish_hotseat_game(server, game, seed=seed, options=options)
    token = created["tokens"]["0"]
    state = http_json("GET", f"{server}/api/games/{created['id']}?token={token}")
    # Hold the Line's log is its events', each with its message
    said = state["log_msg"] or [e["msg"] for e in state["view"]["events"] if e.get("text")]
    # the table says the scenario's places and leaders by their Japanese names too
    names = (scenario_words(load_scenario(options["scenario"]))["ja"]["names"]
             if game == "holdtheline" else None)
    lines = [say(m, "ja", names) for m in said]
    assert len(lines) == len(state["log"]) > 5
    tab = Tab(browser, server, viewport=size, locale="ja-JP")
    try:
        page = tab.page
        tab.goto(f"/play/{created['id']}#token={token}")
        expect(page.locator("html")).to_have_attribute("lang", "ja")
        end = page.locator(".end-card")
        expect(end).to_be_visible(timeout=10_000)
        # the page holds seat 0's token only: it is seat 0's table ("あなたの勝ち！")
        expect(end.locator("h2")).to_have_text(japanese(state["end"]["title"]))
        expect(end.locator(".end-reason")).to_have_text(japanese(state["end"]["reason"]))
        save_screenshot(page, f"i18n-end-{game}-{size['width']}", tmp_path)
        end.locator(".end-buttons button").last.click()
        expect(end).to_be_hidden()
        shown = page.locator(".log li:not(.log-turn)")
        expect(shown).to_have_count(len(lines))
        assert shown.all_inner_texts() == lines
        english = english_sentences()
        text = page.locator(".log").inner_text()
        assert not [s for s in english if s in text], text[:2000]
        save_screenshot(page, f"i18n-log-{game}-{size['width']}", tmp_path)

        tab.goto(f"/replay/{created['id']}#token={token}")
        banner = say({"key": "end.common.banner",
                      "params": {"reason": state["end"]["reason"]["msg"]}}, "ja")
        expect(page.locator(".turn-banner.over")).to_have_text(banner)
        save_screenshot(page, f"i18n-replay-{game}-{size['width']}", tmp_path)
    finally:
        tab.close()
