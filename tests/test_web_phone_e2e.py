"""The table on a phone (issue 13, point 3, and the card diagrams of point 1): on a 390 × 844
touch screen every prompt of a play that takes several taps stays on screen beside the board,
with its Cancel; the hints say "tap"; no page scrolls sideways; the page and the board can be
pinched; a card on the board opens close up, large enough to read its diagrams.

Screenshots go where ``screenshots_dir`` says (``$WARBOARD_E2E_SHOTS`` or a temporary directory).
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

playwright_api = pytest.importorskip(
    "playwright.sync_api",
    reason="the browser tests need the playwright package (pip install playwright)")

from web_helpers import (  # noqa: E402
    CHROMIUM,
    MY_TURN,
    PLAYABLE_CARD,
    play_hotseat,
)
from web_pages import PAGES, SETTLED_TURN, SIZES, ai_game, open_page, open_tab  # noqa: E402

if not CHROMIUM.exists():
    pytest.skip(f"the browser tests need Chromium at {CHROMIUM} (apt-get install chromium, "
                "or WARBOARD_CHROMIUM=/path/to/chromium)",
                allow_module_level=True)

expect = playwright_api.expect
PHONE = SIZES["phone"]
# our turn, with none of the other side's plays still being played out (they redraw the page)
HTL_TURN = ('#app[data-mine="true"][data-busy="false"][data-playback="0"], '
            '#app[data-mine="true"][data-busy="false"]:not([data-playback])')


def on_screen(page: Any, locator: Any) -> dict[str, float]:
    """``locator``'s box, asserted wholly inside the phone's screen as it is scrolled now."""
    box = locator.bounding_box()
    assert box is not None, "not drawn"
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"] + 0.5, box
    assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"] + 0.5, box
    return box


def clear_of(box: dict[str, float], bar: dict[str, float]) -> bool:
    return box["y"] + box["height"] <= bar["y"] or box["y"] >= bar["y"] + bar["height"]


def visible_one(page: Any, selector: str, bar: dict[str, float]) -> Any:
    """One of ``selector``'s elements on screen and not under the bar (there must be one)."""
    loc = page.locator(selector)
    for i in range(loc.count()):
        box = loc.nth(i).bounding_box()
        inside = box and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"]
        if inside and clear_of(box, bar):
            return loc.nth(i)
    raise AssertionError(f"no {selector} on screen beside the prompt")


@pytest.mark.parametrize("name", PAGES)
def test_no_page_scrolls_sideways_and_pinch_zoom_is_allowed(browser, server, shots, name):
    t = open_tab(browser, server, "phone")
    try:
        page = t.page
        open_page(t, server, name)
        width = page.evaluate("() => [document.scrollingElement.scrollWidth, innerWidth]")
        assert width[0] <= width[1], f"{name} scrolls sideways: {width}"
        viewport = page.locator("meta[name=viewport]").get_attribute("content")
        assert "user-scalable=no" not in viewport.replace(" ", "")
        assert "maximum-scale" not in viewport
        page.screenshot(path=str(shots / f"phone-{name}.png"))
    finally:
        t.close()


def count_sequences(legal: list[dict[str, Any]]) -> dict[tuple[str, tuple[int, int]], int]:
    """(unit, cell) -> how many ways its attacks may go when it is deployed there."""
    seen: dict[tuple[str, tuple[int, int]], int] = {}
    for p in legal:
        if p.get("play") == "deploy" and p.get("attacks"):
            k = (p["unit"], (p["at"][0], p["at"][1]))
            seen[k] = seen.get(k, 0) + 1
    return seen


def several_hits(msg: dict[str, Any]) -> bool:
    """Seat 0 may deploy a unit whose hits at one cell are chosen one at a time."""
    return any(n > 1 for n in count_sequences(msg["legal"]).values())


def test_the_card_prompts_stay_beside_the_board(browser, server, shots):
    rng = random.Random(5)
    for _ in range(12):  # chance is the server's: a game may end before such a choice comes
        try:
            created, msg = play_hotseat(server, several_hits, game="ogre218", rng=rng)
            break
        except AssertionError as e:
            if "ended first" not in str(e):
                raise
    else:
        pytest.fail("twelve games ended before a play with hits to choose")
    t = open_tab(browser, server, "phone")
    try:
        page = t.page
        t.goto(f"/play/{created['id']}#token={created['tokens']['0']}")
        page.locator(MY_TURN).wait_for()
        # the hand lies below the board: the player scrolls down to it, taps a card (tap()
        # scrolls to it, and finds the card again if the hand is redrawn meanwhile, as it is
        # once just after the page opens; scroll_into_view_if_needed then fails on the old one)
        cards = page.locator(PLAYABLE_CARD)
        cards.last.tap()
        bar = page.locator(".hand-panel .action-bar")
        expect(bar).to_contain_text("tap a green square")
        assert "click" not in bar.inner_text()
        bar_box = on_screen(page, bar)
        on_screen(page, bar.get_by_role("button", name="Cancel"))
        assert bar.evaluate("b => getComputedStyle(b).position") == "fixed"
        # the board is in sight beside it: a green square can be tapped at once
        visible_one(page, ".layer-overlay .place", bar_box)
        page.screenshot(path=str(shots / "phone-card-place.png"))
        bar.get_by_role("button", name="Cancel").tap()
        expect(bar).to_have_count(0)
        expect(page.locator(".layer-overlay .place")).to_have_count(0)

        # a play whose hits go one at a time: each step's prompt stays on screen
        # (the table shows the state play_hotseat stopped at: nobody has played since)
        unit, at = next((u, at) for (u, at), n in count_sequences(msg["legal"]).items() if n > 1)
        page.locator(f'.hand-card[data-unit="{unit}"]').tap()
        page.locator(f'.layer-keys [data-cell="{at[0]},{at[1]}"]').wait_for(state="attached")
        tap_cell(page, at)
        # (an Ogre's two hits are chosen one by one: "hit 1 of 2")
        expect(bar).to_contain_text(re.compile(r"tap the unit to hit( \(hit 1 of \d\))?\."))
        bar_box = on_screen(page, bar)
        visible_one(page, ".layer-overlay .target", bar_box)
        page.screenshot(path=str(shots / "phone-card-hits.png"))
        page.keyboard.press("Escape")
        expect(page.locator(".layer-overlay .target")).to_have_count(0)

        # the strike: the same bar
        strike = page.locator(".strike-btn")
        if strike.is_enabled():
            strike.tap()
            expect(bar).to_contain_text("tap the enemy unit to hit")
            on_screen(page, bar)
            page.screenshot(path=str(shots / "phone-card-strike.png"))
            bar.get_by_role("button", name="Cancel").tap()
            expect(bar).to_have_count(0)
    finally:
        t.close()


def tap_cell(page: Any, cell: tuple[int, int]) -> None:
    """A tap at the centre of a board cell (the board takes taps as pointer events)."""
    box = page.locator(f'.layer-keys [data-cell="{cell[0]},{cell[1]}"]').bounding_box()
    assert box is not None
    page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def test_a_board_card_opens_close_up(browser, server, shots):
    t = open_tab(browser, server, "phone")
    try:
        page = t.page
        t.goto(ai_game(server, "hill218"))
        page.locator(MY_TURN).wait_for()
        # a play of ours and the computer's answer: cards on the board
        page.locator(PLAYABLE_CARD).first.tap()
        cell = page.locator(".layer-overlay .place").first.get_attribute("data-cell")
        tap_cell(page, cell_of(cell))
        page.locator(SETTLED_TURN).wait_for(timeout=60_000)
        # the card nearest the top of the screen: the close up does not cover it, so the click
        # that ends the tap lands on the close up's backdrop (which must not close it)
        units = page.locator(".layer-units .unit")
        unit = min((units.nth(i) for i in range(units.count())),
                   key=lambda u: u.bounding_box()["y"])
        cell = unit.get_attribute("data-cell")
        small = unit.locator(".card").bounding_box()
        assert small["width"] < 80  # too small to read its squares: hence the close up
        tap_cell(page, cell_of(cell))
        zoom = page.get_by_role("dialog")
        expect(zoom).to_contain_text(f"at {cell}")
        face = zoom.locator("svg.card-face")
        big = on_screen(page, face)
        assert big["width"] >= 200 and big["width"] >= 3 * small["width"], (big, small)
        marks = "els => els.map(e => [e.dataset.kind, e.dataset.dx, e.dataset.dy]).sort()"
        assert (face.locator(".dg-mark").evaluate_all(marks)
                == unit.locator(".dg-mark").evaluate_all(marks))
        expect(zoom).to_contain_text("attacks")
        page.screenshot(path=str(shots / "phone-card-close-up.png"))
        zoom.get_by_role("button", name="Close").tap()
        expect(page.get_by_role("dialog")).to_have_count(0)
    finally:
        t.close()


def cell_of(text: str) -> tuple[int, int]:
    x, y = (int(v) for v in text.split(","))
    return x, y


def test_the_board_pinches_and_pans(browser, server):
    t = open_tab(browser, server, "phone")
    try:
        page = t.page
        t.goto(ai_game(server, "hill218"))
        svg = page.locator(".board-svg")
        svg.wait_for()
        box = svg.bounding_box()
        cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        before = [float(v) for v in svg.get_attribute("viewBox").split()]
        cdp = page.context.new_cdp_session(page)

        def touch(kind: str, spread: float, shift: float = 0) -> None:
            points = [{"x": cx - spread + shift, "y": cy, "id": 0},
                      {"x": cx + spread + shift, "y": cy, "id": 1}]
            cdp.send("Input.dispatchTouchEvent",
                     {"type": kind, "touchPoints": [] if kind == "touchEnd" else points})

        touch("touchStart", 30)
        for spread in (50, 70, 90):
            touch("touchMove", spread)
        for shift in (10, 20, 30):  # both fingers moved together: a pan
            touch("touchMove", 90, shift)
        touch("touchEnd", 90)
        after = [float(v) for v in svg.get_attribute("viewBox").split()]
        assert after[2] < before[2] * 0.6, (before, after)  # spread fingers: zoomed in
    finally:
        t.close()


def test_hold_the_line_prompts_stay_on_screen(browser, server, shots):
    t = open_tab(browser, server, "phone", accept_dialogs=True)
    try:
        page = t.page
        # a decision first: which leader gets which rating
        t.goto(ai_game(server, "holdtheline",
                       {"scenario": "princeton", "options": {"leader_ratings": True}}))
        page.locator(HTL_TURN).wait_for()
        prompt = page.locator(".htl-prompt.mine")
        expect(prompt).to_contain_text("which leader gets which rating")
        prompt_box = on_screen(page, prompt)
        bar = page.locator(".htl-bar")
        if bar.is_visible():
            assert clear_of(prompt_box, on_screen(page, bar)), "the prompt covers the bar"
        page.screenshot(path=str(shots / "phone-htl-ratings.png"))
        prompt.locator(".prompt-buttons .btn").first.tap()

        # then the turn: a unit tapped, the bar with its Cancel at the foot of the screen
        for _ in range(10):  # the computer's fire may leave a decision (a retreat) first
            page.locator(HTL_TURN).wait_for(timeout=90_000)
            if page.locator(".hl-units .counter.can-act").count():
                break
            choice = page.locator(".htl-prompt.mine button, .hl-over .choice-hex")
            assert choice.count(), "my turn, with neither a unit to act nor a choice to make"
            if page.locator(".htl-prompt.mine").count():
                on_screen(page, page.locator(".htl-prompt.mine"))
            choice.first.tap()
            page.locator('#app[data-busy="false"]').wait_for()
        page.locator(".htl-board-area").evaluate("el => el.scrollIntoView({block: 'start'})")
        unit = visible_one(page, ".hl-units .counter.can-act", on_screen(page, bar))
        unit.tap()
        expect(bar).to_contain_text("choose a green hex")
        assert bar.evaluate("b => getComputedStyle(b).position") == "fixed"
        bar_box = on_screen(page, bar)
        cancel = bar.get_by_role("button", name="Cancel")
        on_screen(page, cancel)
        expect(page.locator(".htl-actions .hint").first).to_contain_text("Green hexes")
        page.screenshot(path=str(shots / "phone-htl-selected.png"))
        assert bar_box["y"] > PHONE["height"] / 2  # at the foot, where the thumb is
        cancel.tap()
        expect(page.locator(".hl-over .dest")).to_have_count(0)
    finally:
        t.close()
