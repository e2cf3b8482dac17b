"""The lobby in Chromium against the real server: a signed-in player posts an open game, a
second browser takes it from the lobby's list, a move is played by clicking, and a third
browser (not signed in) watches it from the lobby's live list: both players see the spectator
count, the spectator sees no hand, no legal plays and no chat (checked in the very frames its
WebSocket received), and a chat line with markup reaches the other player as text."""

from __future__ import annotations

import json
import random
import re
import time
from typing import Any

import pytest

playwright_api = pytest.importorskip(
    "playwright.sync_api",
    reason="the browser tests need the playwright package (pip install playwright)")

from test_server import FORBIDDEN_KEYS, keys_in  # noqa: E402
from web_helpers import (  # noqa: E402
    CHROMIUM,
    MY_TURN,
    Tab,
    http_json,
    play_by_clicking,
)

if not CHROMIUM.exists():
    pytest.skip(f"the browser tests need Chromium at {CHROMIUM} (apt-get install chromium, "
                "or WARBOARD_CHROMIUM=/path/to/chromium)", allow_module_level=True)

expect = playwright_api.expect
MARKUP = '<img src=x onerror="window.pwned=1">hello'


def signed_in(browser: Any, server: str, name: str) -> Tab:
    """A browser whose player is ``name`` (signed up through the API, kept as the page
    keeps it)."""
    player = http_json("POST", server + "/api/players", {"name": name})
    tab = Tab(browser, server, viewport={"width": 1280, "height": 900})
    tab.goto("/rules")
    tab.page.evaluate("p => localStorage.setItem('warboard.player', JSON.stringify(p))", player)
    return tab


def frames_of(tab: Tab) -> list[dict[str, Any]]:
    """Every message the page's WebSockets receive from now on."""
    frames: list[dict[str, Any]] = []
    tab.page.on("websocket", lambda ws: ws.on(
        "framereceived", lambda payload: frames.append(json.loads(payload))))
    return frames


def test_post_take_play_and_watch_from_the_lobby(browser: Any, server: str) -> None:
    poster = signed_in(browser, server, "Web_Poster")
    taker = signed_in(browser, server, "Web_Taker")
    watcher = Tab(browser, server, viewport={"width": 1280, "height": 900})
    try:
        poster.goto("/")
        page = poster.page
        page.locator("label[for=game-hill218]").click()
        page.locator("label[for=mode-open]").click()
        page.locator("label[for=seat-0]").click()
        page.locator("#quick-start").set_checked(True)
        page.get_by_role("button", name="Start the game").click()
        page.wait_for_url(re.compile(r"/play/"))
        game_id = page.url.rsplit("/", 1)[1]

        taker.goto("/")
        row = taker.page.locator(f'.open-games .game-row[data-id="{game_id}"]')
        expect(row).to_contain_text("Web_Poster")
        row.locator("button.take").click()
        taker.page.wait_for_url(re.compile(rf"/play/{game_id}$"))
        for t in (poster, taker):
            t.page.locator(".board-svg").wait_for()
            expect(t.page.locator("#app")).to_have_attribute("data-phase", "play")

        # a move, by whoever is to play (the first player is drawn)
        deadline = time.monotonic() + 20
        while not (movers := [t for t in (poster, taker) if t.page.locator(MY_TURN).count()]):
            assert time.monotonic() < deadline, "nobody's turn came"
            poster.page.wait_for_timeout(100)
        version = int(movers[0].page.locator("#app").get_attribute("data-version"))
        play_by_clicking(movers[0].page, random.Random(5))
        for t in (poster, taker):
            t.page.wait_for_function(
                "v => Number(document.getElementById('app').dataset.version) > v", arg=version)

        frames = frames_of(watcher)
        watcher.goto("/")
        live = watcher.page.locator(f'.live-games .game-row[data-id="{game_id}"]')
        expect(live).to_contain_text("Web_Poster vs Web_Taker")
        live.locator("a.watch").click()
        watcher.page.locator(".board-svg").wait_for()
        expect(watcher.page.locator("#app")).to_have_attribute("data-seat", "null")
        for t in (poster, taker, watcher):
            expect(t.page.locator(".social")).to_have_attribute("data-spectators", "1")
            expect(t.page.locator(".watchers").first).to_contain_text("1 spectator watching")
        expect(watcher.page.locator(".hand-panel")).to_be_hidden()
        expect(watcher.page.locator(".chat")).to_have_count(0)

        # the players chat; the line is text on the other's page, and never reaches the watcher
        poster.page.locator(".chat-input").fill(MARKUP)
        poster.page.locator(".chat-form button").click()
        line = taker.page.locator(".chat-line")
        expect(line).to_contain_text(MARKUP)
        assert line.locator("img").count() == 0
        assert taker.page.evaluate("window.pwned") is None
        taker.page.locator(".chat-input").fill("hi back")
        taker.page.locator(".chat-form button").click()
        expect(poster.page.locator(".chat-line").last).to_contain_text("hi back")
        watcher.page.reload()  # one more state for the watcher, after the chat
        watcher.page.locator(".board-svg").wait_for()

        states = [f for f in frames if f["type"] == "state"]
        assert states and all(f["seat"] is None and f["legal"] == [] for f in states)
        assert all(f["type"] in ("state", "spectators", "thinking") for f in frames), frames
        for frame in frames:
            assert not FORBIDDEN_KEYS & set(keys_in(frame)), frame
        assert MARKUP not in json.dumps(frames) and "hi back" not in json.dumps(frames)
    finally:
        for t in (poster, taker, watcher):
            t.close()
