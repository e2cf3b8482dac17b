"""The site's pages at desktop and phone sizes, for the browser tests that go through every page
(tests/test_web_phone_e2e.py, tests/test_web_a11y_e2e.py): a tab of either size, and the
lobby, both tables, a replay and the rules page, each opened and waited for."""

from __future__ import annotations

from typing import Any

from web_helpers import Tab, finish_hotseat_game, http_json

SIZES = {"desktop": {"width": 1440, "height": 900}, "phone": {"width": 390, "height": 844}}
PAGES = ["lobby", "hill218", "holdtheline", "replay", "rules"]
# the seat's turn, with none of the other side's plays still being played out on the board
SETTLED_TURN = ('#app[data-busy="false"][data-playback="0"] .turn-banner.mine, '
                '#app[data-busy="false"]:not([data-playback]) .turn-banner.mine')
# what each page shows once it is drawn
READY = {"lobby": "#game-hill218", "hill218": ".board-svg .layer-keys .kcell",
         "holdtheline": ".htl-svg", "replay": ".replay-controls", "rules": ".rules-page"}


def open_tab(browser: Any, server: str, size: str, **context: Any) -> Tab:
    """A tab at ``size``: the phone is a touch screen (coarse pointer), as a real one."""
    if size == "phone":
        return Tab(browser, server, viewport=SIZES[size], device_scale_factor=2, is_mobile=True,
                   has_touch=True, **context)
    return Tab(browser, server, viewport=SIZES[size], **context)


def ai_game(server: str, game: str, options: dict[str, Any] | None = None) -> str:
    """A game against the easy computer player, South's (the first side's) seat; its address."""
    created = http_json("POST", server + "/api/games", {
        "game": game, "mode": "ai", "seat": 0, "ai_level": "easy",
        "options": {"quick_start": True} if options is None else options})
    return created["url"]


def page_path(server: str, name: str) -> str:
    """The address of one of PAGES (a new game or a finished one where it needs one)."""
    if name in ("hill218", "holdtheline"):
        return ai_game(server, name, {"scenario": "tutorial"} if name == "holdtheline" else None)
    if name == "replay":
        created = finish_hotseat_game(server, seed=3)
        return f"/replay/{created['id']}#token={created['tokens']['0']}"
    return {"lobby": "/", "rules": "/rules"}[name]


def open_page(tab: Tab, server: str, name: str) -> None:
    tab.goto(page_path(server, name))
    tab.page.locator(READY[name]).first.wait_for()
