"""The card games' cards in a real browser (issue 13, points 1 and 7): each card on the board
and in the hand draws its ruleset's diagrams, cut-off units are marked, an Ogre shows its hits,
the strike button wears its ruleset's icon; the header's sound toggle.

The diagrams are checked against the ruleset TOML files read here, not against what the server
sends. Screenshots go where ``screenshots_dir`` says (``$WARBOARD_E2E_SHOTS`` or a temporary
directory).
"""

from __future__ import annotations

import random
import re
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

playwright_api = pytest.importorskip(
    "playwright.sync_api",
    reason="the browser tests need the playwright package (pip install playwright)")

from web_helpers import (  # noqa: E402
    CHROMIUM,
    MY_TURN,
    Tab,
    play_by_clicking,
    play_hotseat,
    running_server,
)

if not CHROMIUM.exists():
    pytest.skip(f"the browser tests need Chromium at {CHROMIUM} (apt-get install chromium, "
                "or WARBOARD_CHROMIUM=/path/to/chromium)",
                allow_module_level=True)

expect = playwright_api.expect
RULESETS = Path(__file__).resolve().parents[1] / "src/warboard/hill218/rulesets"
SIZES = {"desktop": {"width": 1440, "height": 900}, "phone": {"width": 390, "height": 844}}


def open_tab(browser: Any, server: str, size: str) -> Tab:
    if size == "phone":
        return Tab(browser, server, viewport=SIZES[size], device_scale_factor=2, is_mobile=True,
                   has_touch=True)
    return Tab(browser, server, viewport=SIZES[size])


# ------------------------------------------------------------------ the ruleset, from its TOML

Mark = tuple[int, int, str]


def ruleset(game: str) -> dict[str, Any]:
    return tomllib.loads((RULESETS / f"{game}.toml").read_text())


def resolve(value: Any, shapes: dict[str, Any]) -> set[tuple[int, int]]:
    """A diagram as the file writes it (a shape name, or a list of names and [dx, dy])."""
    items = [value] if isinstance(value, str) else value
    out: set[tuple[int, int]] = set()
    for item in items:
        out |= resolve(shapes[item], shapes) if isinstance(item, str) else {(item[0], item[1])}
    return out


def expected_marks(data: dict[str, Any], unit: str) -> dict[str, set[Mark]]:
    shapes, u = data.get("shapes", {}), data["units"][unit]
    attack = {(dx, dy, kind) for kind in ("combined", "individual")
              for dx, dy in resolve(u["attack"].get(kind, []), shapes)}
    return {"attack": attack,
            "supply": {(dx, dy, "supply") for dx, dy in resolve(u["supply"], shapes)},
            "support": {(dx, dy, "support") for dx, dy in resolve(u["support"], shapes)}}


def expected_hits(data: dict[str, Any], unit: str) -> tuple[int, int]:
    """(hits taken, hits in all) along the hit_becomes chain."""
    units = data["units"]
    taken = 0
    name = unit
    while (before := next((n for n, u in units.items() if u.get("hit_becomes") == name), None)):
        taken, name = taken + 1, before
    left = 0
    name = unit
    while (name := units[name].get("hit_becomes")):
        left += 1
    return taken, taken + left + 1


# ------------------------------------------------------------------ what the page draws

DRAWN = """(card) => {
  const self = card.querySelector('.dg-attack .d-self').getBoundingClientRect();
  const marks = (which) => [...card.querySelectorAll(`.dg-${which} .dg-mark`)].map((m) => {
    const r = m.getBoundingClientRect();
    return {dx: +m.dataset.dx, dy: +m.dataset.dy, kind: m.dataset.kind,
            x: r.x + r.width / 2 - (self.x + self.width / 2),
            y: r.y + r.height / 2 - (self.y + self.height / 2), size: self.width};
  });
  const face = (card.querySelector('.card') || card).getBoundingClientRect();
  const parts = card.querySelectorAll('.dg rect, .dg-mark, .hit-pips, .cut-badge');
  const inside = [...parts].every((el) => {
    const r = el.getBoundingClientRect();
    return r.left >= face.left - 1 && r.right <= face.right + 1 && r.top >= face.top - 1
      && r.bottom <= face.bottom + 1;
  });
  const pips = card.querySelector('.hit-pips');
  return {attack: marks('attack'), supply: marks('supply'), support: marks('support'), inside,
          badges: card.querySelectorAll('.cut-badge').length,
          pips: pips && [+pips.dataset.taken, +pips.dataset.total,
                         pips.querySelectorAll('.pip.taken').length,
                         pips.querySelectorAll('.pip').length]};
}"""


def check_face(drawn: dict[str, Any], data: dict[str, Any], unit: str, forward_up: bool) -> None:
    """The drawn marks are the unit's diagrams, each on the side of the unit it points to."""
    want = expected_marks(data, unit)
    for which in ("attack", "supply", "support"):
        assert {(m["dx"], m["dy"], m["kind"]) for m in drawn[which]} == want[which], (unit, which)
    turn = 1 if forward_up else -1

    def side(v: float, size: float) -> int:
        return 0 if abs(v) < size / 4 else 1 if v > 0 else -1

    for m in drawn["attack"]:
        # screen x grows to the right and y downwards; forward (+dy) is up for its owner
        assert side(m["x"], m["size"]) == turn * (m["dx"] > 0) - turn * (m["dx"] < 0), (unit, m)
        assert side(-m["y"], m["size"]) == turn * (m["dy"] > 0) - turn * (m["dy"] < 0), (unit, m)
    taken, total = expected_hits(data, unit)
    if total == 1:
        assert drawn["pips"] is None, unit
    else:
        assert drawn["pips"] == [taken, total, taken, total], unit


def has_cut_and_supplied(msg: dict[str, Any]) -> bool:
    """A cut-off unit and a supplied one on the board, South to play with a card and a strike."""
    board = msg["view"]["board"]
    plays = {p.get("play") for p in msg["legal"]}
    return (any(not e["supplied"] for e in board) and any(e["supplied"] for e in board)
            and {"deploy", "strike"} <= plays)


def north_strikes_an_ogre(msg: dict[str, Any], play: dict[str, Any]) -> bool:
    if msg["seat"] != 1 or play.get("play") != "strike":
        return False
    at = {(e["x"], e["y"]): e["unit"] for e in msg["view"]["board"]}
    return at.get(tuple(play["target"])) == "ogre"


def luminance(rgb: str) -> float:
    def channel(v: float) -> float:
        v /= 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4
    r, g, b = (float(x) for x in re.findall(r"[\d.]+", rgb)[:3])
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def contrast(a: str, b: str) -> float:
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


# ------------------------------------------------------------------ the tests


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server that takes a game's seed, so that a test's game is the same on every run."""
    with running_server(tmp_path_factory.mktemp("cards-server"),
                        env={"WARBOARD_SEEDED_GAMES": "true"}) as base:
        yield base


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("game", ["hill218", "ogre218"])
def test_cards_draw_their_diagrams_supply_and_hits(browser, server, shots, game, size):
    data = ruleset(game)
    if game == "ogre218":
        # a damaged Ogre on the board: random plays, North striking an Ogre whenever it can
        def wanted(msg: dict[str, Any]) -> bool:
            return has_cut_and_supplied(msg) and any(
                e["unit"] == "damaged_ogre" for e in msg["view"]["board"])
        prefer = north_strikes_an_ogre
    else:
        wanted, prefer = has_cut_and_supplied, None
    # the plays and the server's chance from one seed: the same game, reaching the wanted
    # position, on every run (seed 1 does for both rulesets; not every seed does)
    created, msg = play_hotseat(server, wanted, game=game, rng=random.Random(1),
                                prefer=prefer, chance_seed=1)
    t = open_tab(browser, server, size)
    try:
        page = t.page
        t.goto(f"/play/{created['id']}#token={created['tokens']['0']}")
        page.locator(MY_TURN).wait_for()
        board = {f"{e['x']},{e['y']}": e for e in msg["view"]["board"]}
        # each list read in one go: a state message may redraw the table at any time
        cards = page.eval_on_selector_all(".layer-units .unit", f"els => els.map(e => ({{"
                                          f"cell: e.dataset.cell, unit: e.dataset.unit,"
                                          f" classes: [...e.classList], drawn: ({DRAWN})(e)}}))")
        assert sorted(c["cell"] for c in cards) == sorted(board)
        for card in cards:
            entry = board[card["cell"]]
            assert card["unit"] == entry["unit"]
            # the board is not turned for South: South's cards face up, North's down
            check_face(card["drawn"], data, entry["unit"], forward_up=entry["seat"] == 0)
            assert ("unsupplied" in card["classes"]) == (not entry["supplied"]), entry
            assert card["drawn"]["badges"] == (0 if entry["supplied"] else 1), entry
            assert card["drawn"]["inside"], f"a diagram spills out of the {entry['unit']} card"
        if game == "ogre218":
            dog = page.locator('.layer-units .unit[data-unit="damaged_ogre"]').first
            expect(dog.locator(".hit-pips .pip.taken")).to_have_count(1)
            expect(dog.locator("title")).to_contain_text("1 of 2 hits taken")

        hand = page.eval_on_selector_all(".hand-card", f"els => els.map(e => ({{"
                                         f"unit: e.dataset.unit,"
                                         f" drawn: ({DRAWN})(e.querySelector('svg.card-face'))}}))")
        assert hand
        for card in hand:
            check_face(card["drawn"], data, card["unit"], forward_up=True)
        page.screenshot(path=str(shots / f"cards-{game}-{size}.png"))
        page.locator(".hand-panel").screenshot(path=str(shots / f"hand-{game}-{size}.png"))

        # the strike card: its ruleset's own icon; pressed, its "left" badge stays readable
        strike = page.locator(".strike-btn")
        icon = data.get("strike_icon", "airplane")
        expect(strike.locator(".strike-icon")).to_have_attribute("data-icon", icon)
        assert strike.locator(".strike-icon svg path").get_attribute("d"), "an icon with no picture"
        strike.click()
        expect(strike).to_have_attribute("aria-pressed", "true")
        # the pointer still over it, as after a click: its words and its badge readable
        for part in (strike, strike.locator(".badge")):
            colours = part.evaluate(
                "b => [getComputedStyle(b).color, getComputedStyle(b).backgroundColor]")
            assert contrast(*colours) >= 4.5, colours
        strike.screenshot(path=str(shots / f"strike-{game}-{size}.png"))
    finally:
        t.close()


def test_the_two_strike_cards_have_different_icons():
    """Hill 218's Air Strike flies a plane; Ogre 218's Cruise Missile has its own picture."""
    icons = {game: ruleset(game).get("strike_icon", "airplane") for game in ("hill218", "ogre218")}
    assert icons == {"hill218": "airplane", "ogre218": "missile"}


@pytest.mark.parametrize("size", SIZES)
def test_sound_toggle_is_off_by_default_turns_on_and_persists(browser, server, size):
    t = open_tab(browser, server, size)
    try:
        page = t.page
        t.goto("/")
        toggle = page.get_by_role("button", name="Sound")
        expect(toggle).to_be_visible()
        expect(toggle).to_have_attribute("aria-pressed", "false")
        assert page.evaluate("() => localStorage.getItem('warboard.sound')") is None
        overflow = page.evaluate(
            "() => document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 0, f"the header is {overflow}px wider than the page"
        toggle.click()
        expect(toggle).to_have_attribute("aria-pressed", "true")
        # the click is the gesture that lets the page make sound: a short confirmation plays
        expect(toggle).to_have_attribute("data-played", "play")
        page.reload()
        toggle = page.get_by_role("button", name="Sound")
        expect(toggle).to_have_attribute("aria-pressed", "true")

        # a game against the computer: a play of ours and its answer make the sounds
        page.locator("label[for=game-hill218]").click()
        page.locator("label[for=mode-ai]").click()
        page.locator("#quick-start").set_checked(True)
        page.get_by_role("button", name="Start the game").click()
        page.locator(MY_TURN).wait_for()
        page.evaluate("""() => {
          window.heard = [];
          const el = document.getElementById('sound-toggle');
          // one callback may bring several changes: each one's old value, then the latest
          new MutationObserver((changes) => {
            window.heard.push(...changes.map((c) => c.oldValue), el.dataset.played);
          }).observe(el, {attributes: true, attributeOldValue: true,
                          attributeFilter: ['data-played']});
        }""")
        rng = random.Random(2)
        for _ in range(4):  # our plays to the end of the turn; the computer's; ours again
            page.locator(MY_TURN).wait_for()
            if "turn" in page.evaluate("() => window.heard"):
                break
            version = int(page.locator("#app").get_attribute("data-version"))
            play_by_clicking(page, rng)
            page.wait_for_function(
                "v => Number(document.getElementById('app').dataset.version) > v", arg=version)
        assert {"play", "turn"} <= set(page.evaluate("() => window.heard"))

        toggle.click()
        expect(toggle).to_have_attribute("aria-pressed", "false")
        assert page.evaluate("() => localStorage.getItem('warboard.sound')") == "off"
    finally:
        t.close()
