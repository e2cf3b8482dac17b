"""The Hint button in a real browser (issue 14, point 8): in an unrated game against the
computer, in the player's turn, it says the play the strongest level would make, one of the
plays the player may make; it is not there in a friend's game, nor for a spectator."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

playwright_api = pytest.importorskip(
    "playwright.sync_api",
    reason="the browser tests need the playwright package (pip install playwright)")

from web_helpers import CHROMIUM, MY_TURN, Tab, http_json  # noqa: E402

if not CHROMIUM.exists():
    pytest.skip(f"the browser tests need Chromium at {CHROMIUM}", allow_module_level=True)

expect = playwright_api.expect
HINT = re.compile(r"^Hint \((master|expert)\): (.+)$")


def opened(browser: Any, server: str, **fields: Any) -> tuple[Tab, list[dict[str, Any]]]:
    """A tab on a new game made with ``fields``; the messages its page's sockets receive."""
    tab = Tab(browser, server, accept_dialogs=True, viewport={"width": 1440, "height": 900})
    tab.page.add_init_script("localStorage.setItem('warboard.pace', 'instant')")
    received: list[dict[str, Any]] = []
    tab.page.on("websocket", lambda ws: ws.on(
        "framereceived", lambda frame: received.append(json.loads(frame))))
    created = http_json("POST", server + "/api/games", fields)
    tab.goto(created["url"])
    tab.page.locator(".board-svg, .htl-svg").first.wait_for()
    return tab, received


@pytest.mark.parametrize("game, options", [("hill218", {"quick_start": True}),
                                           ("holdtheline", {"scenario": "tutorial"})])
def test_the_hint_button_says_a_legal_play(browser, server, game: str,
                                           options: dict[str, Any]) -> None:
    tab, received = opened(browser, server, game=game, mode="ai", ai_level="easy", seat=0,
                           options=options)
    page = tab.page
    page.locator(MY_TURN).wait_for(timeout=60_000)
    button = page.locator(".hint-btn")
    expect(button).to_be_visible()
    expect(page.locator(".hint-line")).to_be_hidden()
    button.click()
    line = page.locator(".hint-line")
    expect(line).to_have_text(HINT, timeout=60_000)
    expect(button).to_be_enabled()
    hinted = HINT.match(line.inner_text())
    assert hinted is not None
    # the strongest level that plays the game: master where a model ships
    assert hinted.group(1) == {"hill218": "master", "holdtheline": "expert"}[game]
    # what the server said: a play of the seat's latest state, at its version, and the text
    hint = next(m for m in received if m["type"] == "hint")
    state = [m for m in received if m["type"] == "state"][-1]
    assert hint["version"] == state["version"] and hint["action"] in state["legal"]
    assert hinted.group(2) == hint["text"]
    tab.close()


def test_no_hint_between_two_people_at_one_screen(browser, server) -> None:
    tab = Tab(browser, server, viewport={"width": 1440, "height": 900})
    tab.goto("/")
    page = tab.page
    page.locator("label[for=game-hill218]").click()
    page.locator("label[for=mode-hotseat]").click()
    page.locator("#quick-start").set_checked(True)
    page.get_by_role("button", name="Start the game").click()
    curtain = page.locator(".curtain")
    curtain.get_by_role("button", name=re.compile("^I am ")).click()
    tab.page.locator(MY_TURN).wait_for(timeout=60_000)
    expect(tab.page.locator(".hint-btn")).to_be_hidden()
    tab.close()
