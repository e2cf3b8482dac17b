"""The players' pages in Chromium against the real server: signing in with a name, moving the
key to a second browser by the transfer link, a profile with its rating after a rated game, the
leaderboard's order, and a hostile name (stored behind the API's back, as an older or edited
database could hold one) shown as text, never run as markup."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

playwright_api = pytest.importorskip(
    "playwright.sync_api",
    reason="the browser tests need the playwright package (pip install playwright)")

from sqlalchemy import create_engine, insert  # noqa: E402
from websockets.sync.client import connect  # noqa: E402

from warboard.server.storage import PLAYERS, RATINGS  # noqa: E402
from web_helpers import CHROMIUM, Tab, http_json, running_server  # noqa: E402

if not CHROMIUM.exists():
    pytest.skip(f"the browser tests need Chromium at {CHROMIUM} (apt-get install chromium, "
                "or WARBOARD_CHROMIUM=/path/to/chromium)", allow_module_level=True)

expect = playwright_api.expect
HOSTILE = '<img src=x onerror="window.pwned=1">'
GAME = "ogre218"


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("web-players")


@pytest.fixture(scope="module")
def server(folder: Path) -> Iterator[str]:
    with running_server(folder) as base:
        yield base


def rated_resignation(base: str, creator_key: str, friend: dict[str, Any]) -> None:
    """A rated friend game of the creator against ``friend``, who resigns at once."""
    import urllib.request

    def call(method: str, path: str, key: str, body: Any = None) -> Any:
        request = urllib.request.Request(
            base + path, method=method, data=None if body is None else json.dumps(body).encode(),
            headers={"Content-Type": "application/json", "Authorization": f"Bearer {key}"})
        with urllib.request.urlopen(request, timeout=10) as answer:
            return json.load(answer)

    created = call("POST", "/api/games", creator_key,
                   {"game": GAME, "mode": "friend", "rated": True,
                    "options": {"quick_start": True}})
    invite = created["invite"].split("#token=")[1]
    seat = call("GET", f"/api/games/{created['id']}?token={invite}", friend["key"])
    ws = base.replace("http", "ws") + f"/ws/games/{created['id']}?token={seat['seat_token']}"
    with connect(ws) as socket:
        json.loads(socket.recv(timeout=10))
        socket.send(json.dumps({"type": "resign"}))
        while (message := json.loads(socket.recv(timeout=10)))["status"] != "over":
            assert message["type"] == "state", message


def test_sign_in_move_the_key_profile_and_leaderboard(browser: Any, server: str) -> None:
    first = Tab(browser, server, accept_dialogs=True)
    page = first.page
    first.goto("/players")
    page.fill("#player-name", "Browser_Ada")
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("heading", name="Signed in as Browser_Ada")).to_be_visible()
    me = json.loads(page.evaluate("localStorage.getItem('warboard.player')"))
    assert me["name"] == "Browser_Ada" and me["key"]

    # the key moves to a second browser through the one-time link (and its QR code)
    page.get_by_role("button", name="Use on another device").click()
    expect(page.locator("img.transfer-qr")).to_be_visible()
    link = page.locator(".transfer-link").input_value()
    assert re.fullmatch(rf"{re.escape(server)}/#transfer=\w+", link)
    second = Tab(browser, server)
    second.page.goto(link)
    expect(second.page.locator(".toasts")).to_contain_text("Signed in as Browser_Ada")
    assert "#transfer" not in second.page.url
    moved = json.loads(second.page.evaluate("localStorage.getItem('warboard.player')"))
    assert moved["id"] == me["id"] and moved["key"] != me["key"]
    second.close()

    friend = http_json("POST", server + "/api/players", {"name": "Api_Grace"})
    rated_resignation(server, me["key"], friend)
    first.goto(f"/players/{me['id']}")
    expect(page.locator("h1.player-name")).to_have_text("Browser_Ada")
    row = page.locator(f".ratings tr[data-game={GAME}]")
    expect(row).to_contain_text("Ogre: Objective 218")
    expect(row.locator("td").nth(2)).to_have_text("1")
    expect(page.locator(".profile-games li")).to_have_count(1)
    expect(page.locator(".profile-games li")).to_contain_text("rated")

    first.goto(f"/leaderboard/{GAME}")
    names = page.locator(".standings tbody tr td:nth-child(2)")
    expect(names).to_have_text(["Browser_Ada", "Api_Grace"])
    expect(page.locator(".standings tr.me")).to_contain_text("Browser_Ada")
    first.close()


def test_a_hostile_name_is_shown_as_text(browser: Any, server: str, folder: Path) -> None:
    engine = create_engine(f"sqlite:///{folder / 'web.db'}")
    moment = datetime.now(UTC)
    with engine.begin() as db:
        db.execute(insert(PLAYERS).values(id="hqstyre234", name=HOSTILE, name_key="hostile",
                                          created=moment))
        db.execute(insert(RATINGS).values(player_id="hqstyre234", game=GAME, rating=2999.0,
                                          deviation=50.0, volatility=0.06, games=3,
                                          updated=moment))
    engine.dispose()
    tab = Tab(browser, server)
    page = tab.page
    for path in (f"/leaderboard/{GAME}", "/players/hqstyre234"):
        tab.goto(path)
        expect(page.get_by_text(HOSTILE).first).to_be_visible()
        assert page.locator("#app img").count() == 0
        assert page.evaluate("window.pwned") is None
    tab.close()
