"""The client in Japanese in a real browser (issue 13, point 5): a browser that asks for
Japanese (Playwright ``locale="ja-JP"``) gets the lobby, both tables, the replays and the rules
page in Japanese, with no English wording of the client's own catalogue left on the page; the
header's switch changes the language and the choice survives a reload.

"No English left" is checked against the English catalogue: every phrase of two words or more
that the catalogues word differently in the two languages must be absent from the page's
visible text and accessible names, outside the parts the server words (the log, the end card,
the result banner, the engine's dice sentences, scenario summaries). A key the client asks for
that the catalogue lacks is a console error, which fails every test here (``Tab.close``).
Screenshots go where ``screenshots_dir`` says.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from warboard.holdtheline import translations
from warboard.holdtheline.campaign import load_campaign
from warboard.holdtheline.scenario_file import load_scenario

playwright_api = pytest.importorskip(
    "playwright.sync_api",
    reason="the browser tests need the playwright package (pip install playwright)")

from custom_scenarios import SMALL_BATTLE  # noqa: E402
from warboard.core.i18n import msg, say  # noqa: E402
from web_helpers import (  # noqa: E402
    CHROMIUM,
    Tab,
    finish_hotseat_game,
    http_json,
)

if not CHROMIUM.exists():
    pytest.skip(f"the browser tests need Chromium at {CHROMIUM} (apt-get install chromium, "
                "or WARBOARD_CHROMIUM=/path/to/chromium)",
                allow_module_level=True)

expect = playwright_api.expect
I18N = Path(__file__).resolve().parents[1] / "src/warboard/web/i18n"
SIZES = {"desktop": {"width": 1440, "height": 900}, "phone": {"width": 390, "height": 844}}
# what the server words (its log, results and the engine's sentences) and data it sends
SERVER_WORDED = [".log", ".end-screen", ".replay-log", ".event-text", ".turn-banner.over",
                 ".playback-caption", ".scenario-about", ".game-status", ".dice-title",
                 ".dice-after", ".die-cell", ".campaign-totals"]
# the part of the catalogue the ui-log side words (the log narration and the end screens)
SERVER_NAMESPACES = {"log", "end"}


def catalogue(lang: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for path in sorted((I18N / lang).glob("*.json")):
        if path.stem not in SERVER_NAMESPACES:
            out.update(json.loads(path.read_text(encoding="utf-8")))
    return out


def english_phrases() -> set[str]:
    """The English catalogue's phrases of two words or more (the literal runs between its
    placeholders) whose Japanese text differs."""
    en, ja = catalogue("en"), catalogue("ja")
    phrases = set()
    for key, text in en.items():
        if ja.get(key) == text:
            continue
        for run in re.split(r"\{\w+\}", text.replace("*", "")):
            run = run.strip(" .,:;—()·–")
            if len(re.findall(r"[A-Za-z]{2,}", run)) >= 2:
                phrases.add(run)
    return phrases


ENGLISH = english_phrases()
JA = catalogue("ja")


def japanese_tab(browser: Any, server: str, size: str = "desktop") -> Tab:
    return Tab(browser, server, locale="ja-JP", viewport=SIZES[size],
               is_mobile=size == "phone", has_touch=size == "phone")


def page_words(page: Any) -> str:
    """The visible text of the page and the accessible names and placeholders of its elements,
    without the parts the server words."""
    return page.evaluate("""(hidden) => {
      const style = document.createElement("style");
      style.textContent = hidden.map((s) => `${s} { display: none !important; }`).join("\\n");
      document.head.append(style);
      const text = document.body.innerText;
      style.remove();
      const names = [...document.querySelectorAll("[aria-label], [title], [placeholder]")]
        .filter((el) => !hidden.some((s) => el.closest(s)))
        .flatMap((el) => ["aria-label", "title", "placeholder"]
          .map((a) => el.getAttribute(a) || ""));
      return [text, ...names].join("\\n");
    }""", SERVER_WORDED)


def scenario_words(name: str) -> dict[str, Any]:
    """The Japanese words of a packaged scenario (scenarios/ja/NAME.toml)."""
    return translations.scenario_words(load_scenario(name))["ja"]


def load_campaign_words(name: str) -> dict[str, str]:
    return translations.campaign_words(load_campaign(name))["ja"]


def assert_no_english(page: Any) -> None:
    words = page_words(page)
    left = sorted(p for p in ENGLISH if p in words)
    assert left == [], f"English left on the page: {left}"


def assert_fits(page: Any) -> None:
    """The Japanese words make the page no wider than the screen."""
    overflow = page.evaluate(
        "() => document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, f"the page is {overflow}px wider than the screen"


def assert_japanese(page: Any) -> None:
    expect(page.locator("html")).to_have_attribute("lang", "ja")
    expect(page.locator(".site-nav a[href='/rules']")).to_have_text(JA["common.navRules"])
    expect(page.locator("#lang-toggle")).to_have_text("English")


def new_game(server: str, game: str, options: dict[str, Any]) -> dict[str, Any]:
    return http_json("POST", server + "/api/games",
                     {"game": game, "options": options, "mode": "hotseat"})


@pytest.mark.parametrize("size", SIZES)
def test_the_lobby_follows_a_japanese_browser(browser, server, shots: Path, size: str) -> None:
    tab = japanese_tab(browser, server, size)
    try:
        page = tab.page
        tab.goto("/")
        expect(page.locator(".hero h1")).to_have_text(JA["lobby.hero"])
        assert_japanese(page)
        expect(page.locator(".new-game-form button[type=submit]")).to_have_text(JA["lobby.start"])
        expect(page.locator(".lobby-lists .level-list button").first).to_contain_text("と対戦")
        assert_no_english(page)
        assert_fits(page)
        page.screenshot(path=str(shots / f"i18n-lobby-{size}.png"), full_page=True)
        # Hold the Line's scenarios and sides in Japanese
        page.locator("input[value=holdtheline]").check(force=True)
        expect(page.locator("#scenario option[value=trenton]")).to_contain_text(
            JA["names.holdtheline.scenario.trenton"])
        expect(page.locator(".seat-field .choice-label").first).not_to_have_text("Americans")
        words = scenario_words("trenton")
        page.locator("#scenario").select_option("trenton")
        expect(page.locator(".scenario-about")).to_have_text(words["summary"])
        page.locator("#scenario").select_option("campaign:new_york")
        expect(page.locator("#scenario option[value='campaign:new_york']")).to_contain_text(
            JA["names.holdtheline.campaign.new_york"])
        expect(page.locator(".scenario-about")).to_contain_text(
            load_campaign_words("new_york")["summary"])
        assert_no_english(page)
    finally:
        tab.close()


@pytest.mark.parametrize(("game", "size"), [("hill218", "desktop"), ("ogre218", "phone")])
def test_a_card_table_in_japanese(browser, server, shots: Path, game: str, size: str) -> None:
    created = new_game(server, game, {"quick_start": True})
    tab = japanese_tab(browser, server, size)
    try:
        page = tab.page
        tab.goto(f"/play/{created['id']}#token={created['tokens']['0']}")
        page.locator(".board-host svg .unit, .hand-card").first.wait_for()
        assert_japanese(page)
        expect(page.locator(".turn-banner")).to_contain_text("第1手番")
        titles = page.locator(".hand-card .hc-title").all_inner_texts()
        ja_units = {v for k, v in JA.items() if k.startswith(f"names.{game}.unit.")}
        assert titles and set(titles) <= ja_units
        expect(page.locator(".seats thead")).to_contain_text(JA["table.hand"])
        assert_no_english(page)
        assert_fits(page)
        page.screenshot(path=str(shots / f"i18n-{game}-{size}.png"), full_page=True)
    finally:
        tab.close()


@pytest.mark.parametrize("size", SIZES)
def test_the_hold_the_line_table_in_japanese(browser, server, shots: Path, size: str) -> None:
    created = new_game(server, "holdtheline", {"scenario": "trenton"})
    tab = japanese_tab(browser, server, size)
    try:
        page = tab.page
        tab.goto(f"/play/{created['id']}#token={created['tokens']['0']}")
        page.locator(".htl-svg").wait_for()
        assert_japanese(page)
        expect(page.locator(".scenario-tag")).to_have_text(JA["names.holdtheline.scenario.trenton"])
        expect(page.locator(".htl-tracks")).to_contain_text(JA["htl.turn"])
        expect(page.locator(".htl-legend-panel summary")).to_have_text(JA["htl.mapKey"])
        # the scenario's places and leaders by their Japanese names, on the map and in its key
        names = scenario_words("trenton")["names"]
        king_street = re.compile(f"^{names['King Street']}$")
        expect(page.locator(".place-name", has_text=king_street)).to_have_count(1)
        expect(page.locator(".htl-legend")).to_contain_text(names["Assunpink bridge"])
        expect(page.locator(".leader[data-leader]").first).to_have_attribute(
            "aria-label", re.compile("|".join(names[n] for n in ("Washington", "Greene", "Rahl"))))
        assert "King Street" not in page_words(page)
        assert_no_english(page)
        assert_fits(page)
        page.screenshot(path=str(shots / f"i18n-htl-{size}.png"), full_page=True)
    finally:
        tab.close()


@pytest.mark.parametrize(("game", "options"),
                         [("hill218", None), ("holdtheline", {"scenario": "tutorial"})])
def test_a_replay_in_japanese(browser, server, shots: Path, game: str, options: Any) -> None:
    created = finish_hotseat_game(server, game, seed=3, options=options)
    tab = japanese_tab(browser, server)
    try:
        page = tab.page
        tab.goto(f"/replay/{created['id']}#token={created['tokens']['0']}")
        page.locator(".replay-slider").wait_for()
        assert_japanese(page)
        expect(page.locator(".replay-controls .play-btn")).to_contain_text(JA["replay.play"])
        expect(page.locator(".step-label")).to_contain_text("ステップ")
        page.locator(".replay-slider").fill("3")
        expect(page.locator(".step-label")).to_contain_text("3")
        assert_no_english(page)
        page.screenshot(path=str(shots / f"i18n-replay-{game}.png"), full_page=True)
    finally:
        tab.close()


def test_the_rules_page_in_japanese(browser, server, shots: Path) -> None:
    tab = japanese_tab(browser, server)
    try:
        page = tab.page
        tab.goto("/rules")
        expect(page.locator(".rules-page h1")).to_have_text(JA["lobby.howToPlay"])
        assert_japanese(page)
        expect(page.locator(".rules-units caption").first).to_contain_text("部隊")
        expect(page.locator(".rules-units tbody th").first).to_contain_text(
            JA["names.hill218.unit.infantry"])
        # the prose's emphasis survives the translation
        expect(page.locator("#hill218 strong").first).to_have_text("クイックスタート")
        assert_no_english(page)
        page.screenshot(path=str(shots / "i18n-rules.png"), full_page=True)
    finally:
        tab.close()


def test_the_switch_changes_the_language_and_remembers_it(browser, server, shots: Path) -> None:
    tab = japanese_tab(browser, server)
    try:
        page = tab.page
        tab.goto("/rules")
        assert_japanese(page)
        page.locator("#lang-toggle").click()
        expect(page.locator("html")).to_have_attribute("lang", "en")
        expect(page.locator(".rules-page h1")).to_have_text("How to play")
        expect(page.locator(".site-nav a[href='/rules']")).to_have_text("Rules")
        expect(page.locator("#lang-toggle")).to_have_text("日本語")
        assert page.evaluate("localStorage.getItem('warboard.lang')") == "en"
        # the check that no English is left sees English where there is some
        assert any(p in page_words(page) for p in ENGLISH)
        page.screenshot(path=str(shots / "i18n-switched-to-english.png"))
        # the choice outlives a reload, though the browser still asks for Japanese
        page.reload()
        expect(page.locator(".rules-page h1")).to_have_text("How to play")
        page.locator("#lang-toggle").click()
        expect(page.locator("html")).to_have_attribute("lang", "ja")
        expect(page.locator(".rules-page h1")).to_have_text(JA["lobby.howToPlay"])
    finally:
        tab.close()


def test_an_english_browser_gets_english_and_the_switch_to_japanese(browser, server) -> None:
    tab = Tab(browser, server, locale="en-US", viewport=SIZES["desktop"])
    try:
        page = tab.page
        tab.goto("/")
        expect(page.locator("html")).to_have_attribute("lang", "en")
        expect(page.locator(".hero h1")).to_have_text("Two armies. One hill.")
        expect(page.locator("#lang-toggle")).to_have_text("日本語")
        expect(page.locator("#lang-toggle")).to_have_attribute("lang", "ja")
        page.locator("#lang-toggle").click()
        expect(page.locator(".hero h1")).to_have_text(JA["lobby.hero"])
        assert_japanese(page)
    finally:
        tab.close()


def test_message_objects_nest_and_counts_choose_the_plural(browser, server) -> None:
    """``tMsg`` translates message objects inside the params (as the server's log entries will
    carry them); ``count`` picks the ``_one`` / ``_other`` text in English, ``_other`` in
    Japanese."""
    for locale, want in [("en-US", ["South is thinking…", "1 place", "2 places"]),
                         ("ja-JP", ["南軍が考えています…", "置ける場所 1", "置ける場所 2"])]:
        tab = Tab(browser, server, locale=locale, viewport=SIZES["desktop"])
        try:
            tab.goto("/rules")
            tab.page.locator(".rules-page h1").wait_for()
            got = tab.page.evaluate("""async () => {
              const { t, tMsg } = await import("/static/js/i18n.js");
              const south = { key: "names.hill218.side.0" };
              return [tMsg({ key: "table.thinking", params: { who: south } }),
                      t("hand.places", { count: 1 }), t("hand.places", { count: 2 })];
            }""")
            assert got == want
        finally:
            tab.close()


def test_a_refusal_of_the_server_is_said_in_japanese(browser, server) -> None:
    """A refusal's ``msg`` reaches a Japanese page in Japanese: the error an API call throws
    (what the lobby, the tables and the editor show) says it in the catalogue's words."""
    tab = japanese_tab(browser, server)
    try:
        tab.goto("/rules")
        tab.page.locator(".rules-page h1").wait_for()
        got = tab.page.evaluate("""async () => {
          const { api } = await import("/static/js/api.js");
          try {
            await api.game("nosuchgame");
          } catch (e) {
            return [e.status, e.message];
          }
          return null;
        }""")
        no_game = msg("server.noSuch", what=msg("server.thing.game"), name="'nosuchgame'")
        assert got == [404, say(no_game, "ja")]
        # the browser's own line for the 404 answer, not the client's
        tab.errors[:] = [e for e in tab.errors if "404" not in e]
    finally:
        tab.close()


def test_a_problem_of_the_editor_is_said_in_japanese(browser, server, tmp_path: Path) -> None:
    """The scenario check's ``msg`` reaches a Japanese editor in Japanese: an uploaded file's
    problem shows in the catalogue's words."""
    broken = tmp_path / "broken.toml"
    broken.write_text(SMALL_BATTLE.replace('at = "3,4"', 'at = "9,4"', 1), encoding="utf-8")
    tab = japanese_tab(browser, server)
    try:
        page = tab.page
        tab.goto("/editor")
        status = page.locator(".editor-status")
        expect(status).to_have_attribute("data-ok", "true")
        page.set_input_files("#editor-upload", str(broken))
        expect(status).to_have_attribute("data-ok", "false")
        off = msg("datafile.offBoard", hex="9,4", lastCol=5, lastRow=4)
        expect(status).to_have_text(f"✗ sides.blue.units[1].at: {say(off, 'ja')}")
    finally:
        tab.close()
