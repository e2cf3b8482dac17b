"""Keyboard and screen readers (issue 13, point 4): an axe-core audit of the lobby, both tables,
a replay and the rules page at desktop and phone sizes finds nothing serious; the card board has
a keyboard cursor (arrow keys, Enter, Escape) whose cells are named for what is on them, a play
takes a few keys, and the focus is never dropped to the page when the table redraws.

Screenshots go where ``screenshots_dir`` says (``$WARBOARD_E2E_SHOTS`` or a temporary directory).
"""

from __future__ import annotations

import re
from typing import Any

import pytest

playwright_api = pytest.importorskip(
    "playwright.sync_api",
    reason="the browser tests need the playwright package (pip install playwright)")
pytest.importorskip(
    "axe_playwright_python.sync_playwright",
    reason="the audit needs axe-playwright-python (pip install -e '.[test]')")

from web_helpers import (  # noqa: E402
    CHROMIUM,
    MY_TURN,
    PLAYABLE_CARD,
    serious,
)
from web_pages import PAGES, SETTLED_TURN, SIZES, ai_game, open_page, open_tab  # noqa: E402

if not CHROMIUM.exists():
    pytest.skip(f"the browser tests need Chromium at {CHROMIUM} (apt-get install chromium, "
                "or WARBOARD_CHROMIUM=/path/to/chromium)",
                allow_module_level=True)

expect = playwright_api.expect
FOCUSED_PIECE = "() => document.activeElement.dataset.focusKey || null"
CELL_NAME = re.compile(r"^-?\d+,-?\d+: \S")
FOCUSED = ("() => { const e = document.activeElement; return e && e !== document.body"
           " ? {cell: e.dataset.cell || null, label: e.getAttribute('aria-label'),"
           " key: e.dataset.focusKey || null} : null; }")


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("name", PAGES)
def test_the_audit_finds_nothing_serious(browser, server, shots, name, size):
    t = open_tab(browser, server, size)
    try:
        page = t.page
        open_page(t, server, name)
        if name == "hill218":
            # the table in the middle of a play too: a card chosen, its squares lit
            page.locator(MY_TURN).wait_for()
            page.locator(PLAYABLE_CARD).first.click()
            page.locator(".layer-overlay .place").first.wait_for()
        assert serious(page) == []
        page.screenshot(path=str(shots / f"a11y-{name}-{size}.png"))
    finally:
        t.close()


def focused(page: Any) -> dict[str, Any] | None:
    return page.evaluate(FOCUSED)


@pytest.mark.parametrize("size", SIZES)
def test_a_play_with_the_keyboard(browser, server, shots, size):
    t = open_tab(browser, server, size)
    try:
        page = t.page
        t.goto(ai_game(server, "hill218"))
        page.locator(MY_TURN).wait_for()
        # the board is one tab stop, not one per square
        assert page.locator(".board-svg [tabindex='0']").count() == 1
        names = page.locator(".layer-keys .kcell").evaluate_all(
            "els => els.map(e => e.getAttribute('aria-label'))")
        assert names and all(CELL_NAME.match(n) for n in names), names
        assert any(n.startswith("0,0: ") and "no card" in n for n in names), names

        # Enter on a card: the focus goes to the board, on a legal square
        card = page.locator(PLAYABLE_CARD).first
        unit = card.get_attribute("data-unit")
        card.focus()
        page.keyboard.press("Enter")
        f = focused(page)
        assert f and f["cell"] and "legal: place" in f["label"], f
        page.screenshot(path=str(shots / f"keys-place-{size}.png"))

        # the arrows move the cursor (South's board: right is +x, up is +y)
        x, y = (int(v) for v in f["cell"].split(","))
        page.keyboard.press("ArrowUp")
        moved = focused(page)
        assert moved and moved["cell"] in (f"{x},{y + 1}", f["cell"]), moved  # the edge stops it
        page.keyboard.press("ArrowDown")
        page.keyboard.press("ArrowRight")
        right = focused(page)
        assert right and right["cell"] in (f"{x + 1},{y}", f"{x},{y}"), right
        page.keyboard.press("ArrowLeft")
        assert focused(page)["cell"] == f"{x},{y}"

        # Escape takes the choice back; the focus stays on the board
        page.keyboard.press("Escape")
        expect(page.locator(".layer-overlay .place")).to_have_count(0)
        after = focused(page)
        assert after and after["cell"] == f"{x},{y}", after
        assert "legal" not in after["label"]

        # again, and Enter plays: two keys from the card to the play, the focus kept
        page.locator(f'.hand-card[data-unit="{unit}"]').focus()
        page.keyboard.press("Enter")
        version = int(page.locator("#app").get_attribute("data-version"))
        while page.locator(".layer-overlay .place, .layer-overlay .target").count():
            assert "legal" in focused(page)["label"]
            page.keyboard.press("Enter")  # a deploy, then its hits in order if it asks
            if int(page.locator("#app").get_attribute("data-version")) > version:
                break
        page.wait_for_function(
            "v => Number(document.getElementById('app').dataset.version) > v", arg=version)
        assert focused(page) is not None, "the focus was dropped to the page"
        expect(page.locator(".log")).to_contain_text(re.compile(r"South deploys"))

        # a card pressed twice is let go, and the focus stays on it
        page.locator(SETTLED_TURN).wait_for(timeout=60_000)
        card = page.locator(PLAYABLE_CARD).first
        key = card.get_attribute("data-focus-key")
        card.focus()
        page.keyboard.press("Space")
        page.locator(f'.hand-card[data-focus-key="{key}"]').focus()
        page.keyboard.press("Space")
        expect(page.locator(".layer-overlay .place")).to_have_count(0)
        assert focused(page)["key"] == key
    finally:
        t.close()


def test_a_board_card_close_up_with_the_keyboard(browser, server):
    t = open_tab(browser, server, "desktop")
    try:
        page = t.page
        t.goto(ai_game(server, "hill218"))
        page.locator(MY_TURN).wait_for()
        page.locator(PLAYABLE_CARD).first.focus()
        page.keyboard.press("Enter")
        page.keyboard.press("Enter")  # deployed: the computer answers
        page.locator(SETTLED_TURN).wait_for(timeout=60_000)
        cell = page.locator(".layer-units .unit").first.get_attribute("data-cell")
        page.locator(f'.layer-keys [data-cell="{cell}"]').focus()
        assert re.search(r"your |South's |North's ", focused(page)["label"])
        page.keyboard.press("Enter")  # no play being made: the card close up
        zoom = page.get_by_role("dialog")
        expect(zoom).to_contain_text(f"at {cell}")
        assert focused(page)["label"] is None  # on its Close button
        page.keyboard.press("Escape")
        expect(page.get_by_role("dialog")).to_have_count(0)
        assert focused(page)["cell"] == cell
    finally:
        t.close()


def test_the_arrow_keys_move_over_the_hold_the_line_board(browser, server):
    t = open_tab(browser, server, "desktop")
    try:
        page = t.page
        t.goto(ai_game(server, "holdtheline", {"scenario": "tutorial"}))
        page.locator('#app[data-mine="true"][data-busy="false"]').wait_for(timeout=90_000)
        start = page.locator(".hl-units .counter.can-act").first
        start.focus()
        seen = {start.get_attribute("data-hex")}
        for key in ("ArrowRight", "ArrowLeft", "ArrowUp", "ArrowDown") * 2:
            page.keyboard.press(key)
            f = page.evaluate("() => { const e = document.activeElement;"
                              " return [e.dataset.hex || null, e.getAttribute('aria-label')]; }")
            assert f[0] and f[1], f  # still on the board, on something named
            seen.add(f[0])
        assert len(seen) > 1, "the arrows moved nowhere"
        # a redraw keeps the focus where it was: the phone turned upright turns the board a
        # quarter, which draws every piece again
        was = page.evaluate(FOCUSED_PIECE)
        assert was, "the focus is on no piece"
        box = page.locator("svg.htl-svg").get_attribute("viewBox")
        page.set_viewport_size({"width": 390, "height": 844})
        expect(page.locator("svg.htl-svg")).not_to_have_attribute("viewBox", box)
        assert page.evaluate(FOCUSED_PIECE) == was
        page.keyboard.press("Enter")  # the unit in focus: selected, its moves lit
        expect(page.locator(".hl-over .dest, .hl-over .target").first).to_be_attached()
    finally:
        t.close()
