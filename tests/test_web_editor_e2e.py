"""The scenario editor (src/warboard/web/js/htl/editor.js) in a real browser against the real
server: a packaged file uploaded and downloaded unchanged, a small battle drawn by clicking, a
live error shown on its hex and fixed, the battle saved and opened again by its link, and a game
of it started against the computer and played one move. One test: the browser tests are slow."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

playwright_api = pytest.importorskip(
    "playwright.sync_api",
    reason="the browser tests need the playwright package (pip install playwright)")

from test_web_htl_e2e import MY_TURN, Tab, move_a_unit  # noqa: E402
from warboard.holdtheline.scenario_file import load_scenario  # noqa: E402
from warboard.holdtheline.setups import scenario_from_text  # noqa: E402
from web_helpers import CHROMIUM, chromium, screenshots_dir  # noqa: E402

if not CHROMIUM.exists():
    pytest.skip(f"the browser tests need Chromium at {CHROMIUM}", allow_module_level=True)

expect = playwright_api.expect
PACKAGED = Path(__file__).resolve().parent.parent / "src/warboard/holdtheline/scenarios"
STATUS = ".editor-status"


def click_hex(page, at: str) -> None:
    """Click hex ``at``: on its piece when it has one (the piece is drawn over it)."""
    piece = page.locator(f'.hl-units [data-hex="{at}"]')
    (piece.first if piece.count() else page.locator(f'.hl-terrain [data-hex="{at}"]')).click()


def tool(page, name: str, side: str | None = None) -> None:
    page.select_option("#editor-tool", name)
    if side is not None:
        page.select_option("#editor-side", side)


def test_draw_check_save_and_play_a_battle(server: str,
                                           tmp_path_factory: pytest.TempPathFactory) -> None:
    shots: Path = screenshots_dir(tmp_path_factory, "editor-screenshots")
    with chromium(playwright_api) as browser:
        tab = Tab(browser, server, viewport={"width": 1366, "height": 900})
        page = tab.page
        tab.goto("/")
        page.locator(".site-nav a[href='/editor']").click()  # the lobby links to it
        expect(page.locator(".editor-help")).to_contain_text("waterway hexes")
        # a packaged file uploaded and downloaded is the same scenario
        page.set_input_files("#editor-upload", str(PACKAGED / "tutorial.toml"))
        expect(page.locator("#editor-title")).to_have_value("The Forage War")
        expect(page.locator(STATUS)).to_have_attribute("data-ok", "true")
        with page.expect_download() as download:
            page.locator("#editor-download").click()
        text = Path(download.value.path()).read_text()
        assert dataclasses.replace(scenario_from_text(text), name="tutorial") \
            == load_scenario("tutorial")
        page.get_by_role("button", name="New").click()
        expect(page.locator("#editor-title")).to_have_value("My battle")
        # a small board, a few hexes painted
        page.fill("#editor-cols", "6")
        page.fill("#editor-rows", "5")
        expect(page.locator(".hl-terrain .hex")).to_have_count(30)
        tool(page, "terrain")
        page.select_option("#editor-brush", "forest")
        click_hex(page, "2,2")
        page.select_option("#editor-brush", "waterway")
        click_hex(page, "0,2")
        click_hex(page, "1,2")
        page.select_option("#editor-brush", "bridge")
        click_hex(page, "3,2")
        expect(page.locator('.hl-terrain .t-forest[data-hex="2,2"]')).to_have_count(1)
        expect(page.locator('.hl-terrain .t-bridge[data-hex="3,2"]')).to_have_count(1)
        # a unit and a leader per side
        for side, at in (("american", "2,4"), ("british", "2,0")):
            tool(page, "unit", side)
            page.select_option("#editor-kind", "regular")
            click_hex(page, at)
            tool(page, "leader", side)
            page.fill("#editor-lname", f"{side.capitalize()} chief")
            click_hex(page, at)
        expect(page.locator(".hl-units .counter")).to_have_count(2)
        expect(page.locator(".hl-units .leader")).to_have_count(2)
        page.fill("#editor-american-ap", "3")
        page.fill("#editor-british-ap", "2")
        page.fill("#editor-turns", "4")
        page.fill("#editor-american-vp", "2")
        expect(page.locator(STATUS)).to_have_attribute("data-ok", "true")
        # a mistake: a British unit on the Americans' hex, named and marked on the board
        tool(page, "unit", "british")
        click_hex(page, "2,4")
        expect(page.locator(STATUS)).to_have_attribute("data-ok", "false")
        expect(page.locator(STATUS)).to_contain_text("sides.british.units[1]")
        expect(page.locator(STATUS)).to_contain_text("enemy unit")
        expect(page.locator('.hl-over .choice-hex[data-hex="2,4"]')).to_have_count(1)
        expect(page.locator("#editor-save")).to_be_disabled()
        page.screenshot(path=str(shots / "editor-error.png"))
        page.get_by_role("button", name="Remove unit B2").click()
        expect(page.locator(STATUS)).to_have_attribute("data-ok", "true")
        expect(page.locator(".hl-over .choice-hex")).to_have_count(0)
        # saved, shared, played
        page.locator("#editor-save").click()
        link = page.locator("#editor-link")
        expect(link).to_contain_text("/editor?scenario=")
        assert "/editor?scenario=" in page.url
        page.screenshot(path=str(shots / "editor-saved.png"))
        # the link opens it again, for anyone
        page.goto(link.get_attribute("href"))
        expect(page.locator(STATUS)).to_have_attribute("data-ok", "true")
        expect(page.locator("#editor-cols")).to_have_value("6")
        expect(page.locator("#editor-american-ap")).to_have_value("3")
        expect(page.locator(".hl-units .leader")).to_have_count(2)
        page.get_by_role("button", name="Play against the computer").click()
        page.wait_for_url("**/play/**")
        page.wait_for_selector(MY_TURN, timeout=60_000)
        expect(page.locator(".hl-terrain .hex")).to_have_count(30)
        uid, start, to = move_a_unit(page)
        assert (uid, start) == ("A1", "2,4") and to != start
        page.screenshot(path=str(shots / "editor-played.png"))
        tab.close()
