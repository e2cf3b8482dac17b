"""Following the other side's plays in a real browser (issue 13, points 2 and 6): the computer's
plays come one at a time at the player's pace, "skip" shows the real state at once, the last
turn's plays stay marked until the player's next play; Hold the Line moves slide and attacks
show their dice beside the target; the end card says what each side needed and had.

Screenshots go to ``$WARBOARD_ARTEFACTS`` (else the test's temporary directory).
"""

from __future__ import annotations

import random
import re
import urllib.parse
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
    finish_hotseat_game,
    http_json,
    play_by_clicking,
    play_hotseat,
    save_screenshot,
    wait_turn_or_over,
)

if not CHROMIUM.exists():
    pytest.skip(f"the browser tests need Chromium at {CHROMIUM}", allow_module_level=True)

expect = playwright_api.expect
DESKTOP = {"width": 1440, "height": 900}
PHONE = {"width": 390, "height": 844}
SLOW_MS = 2200  # js/playback.js PACES.slow

# what the table shows over time: each change of the step on screen (data-playback) or of the
# version, with the highlighted log line and the marks of the play followed now
RECORD = """() => {
  const app = document.getElementById('app');
  window.__follow = [];
  const note = () => window.__follow.push({
    t: performance.now(), step: app.dataset.playback, version: +app.dataset.version,
    now: [...document.querySelectorAll('.log-now')].map((li) => li.textContent).join(' | '),
    marks: document.querySelectorAll('.layer-last .now, .hl-last .now').length,
    sliding: document.querySelectorAll('.sliding').length,
    running: document.getAnimations().filter((a) => a.playState === 'running'
      && a.effect.getComputedTiming().duration > 50).length,
    rolls: [...document.querySelectorAll('.hl-fx .roll-badge')].map((b) => ({
      text: b.querySelector('.roll-text').textContent, dice: b.querySelectorAll('.die').length,
      hits: b.dataset.hits, hit_dice: b.querySelectorAll('.die.hit').length })),
  });
  new MutationObserver(note).observe(app, { attributes: true,
    attributeFilter: ['data-playback', 'data-version'] });
  new MutationObserver(() => { if (document.querySelector('.sliding')) note(); })
    .observe(app, { subtree: true, attributes: true, attributeFilter: ['class'] });
}"""


def open_tab(browser: Any, server: str, *, size: dict[str, int] = DESKTOP,
             pace: str | None = "slow", **context: Any) -> Tab:
    """A tab whose pace is `pace` (None: the page's own default)."""
    tab = Tab(browser, server, accept_dialogs=True, viewport=size, **context)
    if pace is not None:
        tab.page.add_init_script(f"localStorage.setItem('warboard.pace', '{pace}')")
    return tab


def start_ai_game(tab: Tab, game: str = "hill218", **options: Any) -> None:
    """Open a game against the easy computer, seat 0, from the API (the lobby is tested
    elsewhere)."""
    created = http_json("POST", tab.base + "/api/games", {
        "game": game, "mode": "ai", "ai_level": "easy", "seat": 0, "options": options})
    tab.goto(created["url"])
    tab.page.locator(".board-svg, .htl-svg").first.wait_for()


def followed_steps(page: Any) -> list[dict[str, Any]]:
    """The followed plays recorded, each the first record of its step."""
    out: list[dict[str, Any]] = []
    for r in page.evaluate("() => window.__follow"):
        if r["step"] not in (None, "0") and (not out or (r["step"], r["version"])
                                              != (out[-1]["step"], out[-1]["version"])):
            out.append(r)
    return out


def play_until_the_ai_has_played_twice(page: Any, rng: random.Random) -> list[dict[str, Any]]:
    """Play by clicking until the computer's reply brought two plays; the followed steps."""
    for _ in range(12):
        assert wait_turn_or_over(page, timeout=60_000)
        page.evaluate(RECORD)
        play_by_clicking(page, rng)
        if not page.locator('#app[data-phase="bury"]').count():
            page.wait_for_function("() => document.getElementById('app').dataset.busy === 'false'")
        assert wait_turn_or_over(page, timeout=60_000)
        steps = followed_steps(page)
        if len(steps) >= 2:
            return steps
    raise AssertionError("the computer never made two plays in a turn")


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_computers_plays_come_one_at_a_time(browser, server, size, tmp_path: Path) -> None:
    tab = open_tab(browser, server, size=size)
    page = tab.page
    try:
        start_ai_game(tab, quick_start=True)
        steps = play_until_the_ai_has_played_twice(page, random.Random(3))
        first, second = steps[0], steps[1]
        assert (first["step"], second["step"]) == ("1", "2")
        assert second["version"] > first["version"]
        # the second waited for the first's time on screen
        assert second["t"] - first["t"] >= SLOW_MS * 0.9
        # each highlighted its own log line and its mark on the board
        assert first["now"] and second["now"] and first["now"] != second["now"]
        assert first["marks"] >= 1 and second["marks"] >= 1
        # the play arriving moves (a card flying in, a strike landing, the mark glowing)
        assert any(r["running"] for r in page.evaluate("() => window.__follow")
                   if r["step"] not in (None, "0"))
        # done: the real state, both plays still marked, the newest said beside the banner
        expect(page.locator("#app")).to_have_attribute("data-playback", "0")
        expect(page.locator(".playback-skip")).to_be_hidden()
        expect(page.locator(".playback-caption")).to_contain_text("North")
        assert page.locator(".log-recent").count() >= 2
        page.evaluate("window.scrollTo(0, 0)")
        save_screenshot(page, f"follow-cards-after-ai-{'phone' if size == PHONE else 'desktop'}",
                        tmp_path)
    finally:
        tab.close()


def play_until_plays_wait(page, rng: random.Random) -> None:
    """Play by clicking until the computer's answer has a play waiting behind another (its
    second play held back by the playback); at most 12 turns."""
    for _ in range(12):
        assert wait_turn_or_over(page, timeout=60_000)
        play_by_clicking(page, rng)
        try:
            page.wait_for_function(
                "() => +document.getElementById('app').dataset.playbackQueued > 0",
                timeout=8_000)
            return
        except playwright_api.TimeoutError:
            continue
    raise AssertionError("no play ever waited behind another")


def test_skip_shows_the_final_state_at_once(browser, server, tmp_path: Path) -> None:
    tab = open_tab(browser, server)
    page = tab.page
    try:
        start_ai_game(tab, quick_start=True)
        play_until_plays_wait(page, random.Random(5))
        expect(page.locator(".playback-skip")).to_be_visible()
        save_screenshot(page, "follow-cards-playing", tmp_path)
        page.locator(".playback-skip").click()
        # at once, far sooner than the slow pace would have shown it
        expect(page.locator(MY_TURN)).to_be_visible(timeout=SLOW_MS // 2)
        expect(page.locator("#app")).to_have_attribute("data-playback", "0")
        expect(page.locator("#app")).to_have_attribute("data-playback-queued", "0")
    finally:
        tab.close()


def test_a_click_while_plays_wait_only_finishes_them(browser, server) -> None:
    tab = open_tab(browser, server)
    page = tab.page
    try:
        start_ai_game(tab, quick_start=True)
        play_until_plays_wait(page, random.Random(8))
        version = int(page.locator("#app").get_attribute("data-version"))
        page.locator(".board-svg").click(position={"x": 20, "y": 20})
        # the click showed the real state and did nothing else: no card chosen, no play
        expect(page.locator(MY_TURN)).to_be_visible(timeout=SLOW_MS // 2)
        assert int(page.locator("#app").get_attribute("data-version")) > version
        expect(page.locator(".layer-overlay .place")).to_have_count(0)
    finally:
        tab.close()


def test_the_pace_is_remembered(browser, server) -> None:
    tab = open_tab(browser, server, pace=None)
    page = tab.page
    try:
        start_ai_game(tab, quick_start=True)
        pace = page.locator(".playback-pace")
        expect(pace).to_have_value("normal")  # the default
        pace.select_option("fast")
        assert page.evaluate("() => localStorage.getItem('warboard.pace')") == "fast"
        page.reload()
        expect(page.locator(".playback-pace")).to_have_value("fast")
    finally:
        tab.close()


def test_the_last_turns_plays_stay_marked_until_the_next_play(browser, server) -> None:
    tab = open_tab(browser, server, pace="fast")
    page = tab.page
    try:
        start_ai_game(tab, quick_start=True)
        play_until_the_ai_has_played_twice(page, random.Random(11))
        expect(page.locator("#app")).to_have_attribute("data-playback", "0")
        north = page.locator(".layer-last .last-at.s1, .layer-last .last-hit")
        assert north.count() >= 2  # both of the computer's plays
        assert page.locator(".log-recent").count() >= 2
        marked = north.count()
        # a page drawn again (a card chosen) keeps them, and so does a reload (the state's
        # `plays`)
        page.locator(".hand-card:not(.unusable):not(.idle)").first.click()
        assert north.count() == marked
        page.keyboard.press("Escape")
        page.reload()
        page.wait_for_selector(MY_TURN)
        expect(north).to_have_count(marked)
        # the player's next play clears them: only its own mark is left
        version = int(page.locator("#app").get_attribute("data-version"))
        play_by_clicking(page, random.Random(1))
        page.wait_for_function(
            "v => +document.getElementById('app').dataset.version > v", arg=version)
        # the first of the player's two plays this turn: the computer has not answered yet
        expect(page.locator(MY_TURN)).to_be_visible()
        expect(page.locator(".layer-last .last-at.s1")).to_have_count(0)
        expect(page.locator(".layer-last rect").first).to_be_attached()  # its own mark
        expect(page.locator(".log-recent, .log-now")).to_have_count(0)
        expect(page.locator(".playback-caption")).to_have_text("")
    finally:
        tab.close()


def test_reduced_motion_shows_the_plays_without_motion(browser, server, tmp_path: Path) -> None:
    tab = open_tab(browser, server, reduced_motion="reduce")
    page = tab.page
    try:
        start_ai_game(tab, quick_start=True)
        steps = play_until_the_ai_has_played_twice(page, random.Random(3))
        # still one at a time, at the pace
        assert [s["step"] for s in steps[:2]] == ["1", "2"]
        assert steps[1]["t"] - steps[0]["t"] >= SLOW_MS * 0.9
        # but nothing moves
        records = page.evaluate("() => window.__follow")
        assert not any(r["running"] for r in records), records
        save_screenshot(page, "follow-cards-reduced-motion", tmp_path)
    finally:
        tab.close()


# ------------------------------------------------------------------------------- Hold the Line


def fire_once(page: Any) -> bool:
    """Fire with the first unit that has a target it can hit; False when none has."""
    for i in range(page.locator(".hl-units .counter.can-act").count()):
        page.keyboard.press("Escape")
        page.locator(".hl-units .counter.can-act").nth(i).click()
        targets = page.locator(".hl-over .target:not(.no-hit)")
        if not targets.count():
            continue
        v = int(page.locator("#app").get_attribute("data-version"))
        targets.first.click()
        if page.locator(".htl-menu:not([hidden]) .btn.option").count():
            page.locator(".htl-menu .btn.option").first.click()
        page.wait_for_function(
            "v => +document.getElementById('app').dataset.version > v", arg=v)
        return True
    page.keyboard.press("Escape")
    return False


def test_htl_moves_slide_and_attacks_show_their_dice(browser, server, tmp_path: Path) -> None:
    tab = open_tab(browser, server, pace="normal")
    page = tab.page
    try:
        start_ai_game(tab, "holdtheline", scenario="tutorial")
        slid = False
        rolls: list[dict[str, Any]] = []
        for _ in range(10):
            page.wait_for_selector(MY_TURN, timeout=90_000)
            if slid and rolls:
                break
            page.evaluate(RECORD)
            if fire_once(page) and page.locator(".hl-fx .roll-badge").count():
                page.wait_for_function("() => document.querySelector('.hl-fx .roll-badge')"
                                       "?.getAnimations().length === 0")
                save_screenshot(page, "follow-htl-fire", tmp_path)
            if page.locator(MY_TURN).count():
                v = int(page.locator("#app").get_attribute("data-version"))
                page.locator(".htl-end").click()
                page.wait_for_function(
                    "v => +document.getElementById('app').dataset.version > v", arg=v)
            # the computer's turn, one play at a time: a move's counter slides along its path
            page.wait_for_selector(MY_TURN, timeout=90_000)
            records = page.evaluate("() => window.__follow")
            slid = slid or any(r["sliding"] for r in records)
            rolls += [roll for r in records for roll in r["rolls"]]
        assert slid, "no move of the computer slid"
        assert rolls, "no attack was made in ten turns"
        # each attack's dice beside its target: the hit number and the hits, as the dice say
        for roll in rolls:
            assert re.fullmatch(r"hit on (\d\+|any roll) · \d+ hits?", roll["text"]), roll
            assert roll["dice"] >= 1
            assert roll["hits"] == str(roll["hit_dice"]), roll
    finally:
        tab.close()


def test_htl_fire_that_cannot_hit_is_marked(browser, server, tmp_path: Path) -> None:
    tab = open_tab(browser, server)
    page = tab.page
    try:
        tab.goto("/rules")
        expect(page.locator(".rules-page")).to_be_visible()
        page.evaluate("async () => (await import('/static/js/htl/table.js'))"
                      ".showFixture(document.getElementById('app'))")
        page.locator('.htl-actor-list [data-actor="u:A4"]').click()
        no_hit = page.locator('.hl-over .target.no-hit[data-hex="3,2"]')
        expect(no_hit).to_have_count(1)
        expect(page.locator(".hit-badge.no-hit")).to_have_text("cannot hit")
        expect(page.locator('.hl-over .target:not(.no-hit)[data-hex="6,3"]')).to_have_count(1)
        # in the list of fires it comes last, said as such
        fires = page.locator(".opt-group .btn.option.fire")
        expect(fires.last).to_have_class(re.compile("cannot-hit"))
        expect(fires.last).to_contain_text("cannot hit")
        expect(fires.first).not_to_have_class(re.compile("cannot-hit"))
        save_screenshot(page, "follow-htl-cannot-hit", tmp_path)
    finally:
        tab.close()


# ------------------------------------------------------------------------------- the end card


def final_state(server: str, created: dict[str, Any], seat: int = 0) -> dict[str, Any]:
    token = urllib.parse.quote(created["tokens"][str(seat)])
    return http_json("GET", f"{server}/api/games/{created['id']}?token={token}")


def open_end_card(browser: Any, server: str, created: dict[str, Any], size=DESKTOP) -> Tab:
    tab = open_tab(browser, server, size=size)
    tab.goto(f"/play/{created['id']}#token={created['tokens']['0']}")
    expect(tab.page.locator(".end-card")).to_be_visible()
    return tab


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_htl_end_card_says_what_each_side_needed_and_had(browser, server, size,
                                                          tmp_path: Path) -> None:
    created = finish_hotseat_game(server, "holdtheline", seed=3, options={"scenario": "trenton"})
    view = final_state(server, created)["view"]
    assert any(view["vp_target"])  # Trenton's Americans play for VP
    tab = open_end_card(browser, server, created, size)
    try:
        needs = tab.page.locator(".end-card .end-needs")
        for s in (0, 1):
            if view["vp_target"][s]:
                expect(needs).to_contain_text(
                    f"needed {view['vp_target'][s]} VP and had {view['vp'][s]}")
        if view.get("time_out_winner") is not None:
            expect(needs).to_contain_text(
                f"needed to hold out to the end of turn {view['turn_limit']}")
        assert needs.locator("li").count() >= 1
        save_screenshot(tab.page, f"follow-htl-end-{'phone' if size == PHONE else 'desktop'}",
                        tmp_path)
    finally:
        tab.close()


def test_a_destroyed_ogre_is_one_card_on_the_end_card(browser, server, tmp_path: Path) -> None:
    for seed in range(40):
        created = finish_hotseat_game(server, "ogre218", seed=seed, options={"quick_start": True})
        destroyed = final_state(server, created)["view"]["destroyed"]
        lost = [s for s in (0, 1) if destroyed[s].get("damaged_ogre")]
        if lost:
            break
    else:
        raise AssertionError("no game destroyed an Ogre")
    seat = lost[0]
    cards = sum(destroyed[seat].values()) - destroyed[seat]["damaged_ogre"]
    tab = open_end_card(browser, server, created)
    try:
        card = tab.page.locator(".end-card")
        row = card.locator(".end-counts tbody tr").nth(seat)
        expect(row.locator("td").nth(1)).to_have_text(str(cards))
        expect(card.locator(".end-needs")).to_contain_text("Units counted: South")
        expect(card.locator(".end-needs")).to_contain_text("an Ogre counts 2")
        # the counters beside the board list it once too: no chip for its damaged side
        rules = http_json("GET", f"{server}/api/rules/ogre218")
        damaged = next(u["abbrev"] for u in rules["units"] if u["name"] == "damaged_ogre")
        chips = tab.page.locator(f".seats .seat-row.s{seat} .lost-chip").all_inner_texts()
        assert chips and not any(c.endswith(damaged) for c in chips), chips
        save_screenshot(tab.page, "follow-ogre-end", tmp_path)
    finally:
        tab.close()


def test_replay_labels_both_burials_as_setup(browser, server) -> None:
    created = finish_hotseat_game(server, "hill218", seed=2, options={})
    tab = open_tab(browser, server)
    page = tab.page
    try:
        tab.goto(f"/replay/{created['id']}#token={created['tokens']['0']}")
        expect(page.locator(".step-label")).to_have_text(re.compile(r"Step 0 of \d+"))
        labels: list[str] = []
        for i in range(1, 40):
            page.get_by_role("button", name="Step forward").click()
            expect(page.locator(".step-label")).to_contain_text(f"Step {i} of")
            labels.append(page.locator(".event-text").inner_text())
            if "deploys" in labels[-1]:
                break
        burials = [t for t in labels if "under its deck" in t]
        assert len(burials) == 2, labels
        assert all(t.startswith("Setup: ") for t in burials), burials
    finally:
        tab.close()


def test_htl_replay_shows_an_attacks_dice_beside_its_target(browser, server) -> None:
    # random plays, attacks first: the server's dice are its own, and a game of random moves
    # alone may end without a die rolled against a target
    created, _ = play_hotseat(server, lambda msg: msg["status"] == "over", game="holdtheline",
                              rng=random.Random(3), options={"scenario": "tutorial"},
                              prefer=lambda msg, play: play["type"] in ("fire", "assault"))
    tab = open_tab(browser, server)
    page = tab.page
    try:
        tab.goto(f"/replay/{created['id']}#token={created['tokens']['0']}")
        page.locator(".htl-replay-page .htl-svg").wait_for()
        n = int(page.locator(".replay-slider").get_attribute("max"))
        badge = page.locator(".hl-fx .roll-badge")
        for i in range(1, n + 1):
            page.get_by_role("button", name="Step forward").click()
            expect(page.locator(".step-label")).to_contain_text(f"Step {i} of")
            if badge.count() and badge.first.locator(".die").count():
                break
        else:
            raise AssertionError("no attack in the whole replay")
        expect(badge.first).to_contain_text(re.compile(r"hit on|cannot hit"))
    finally:
        tab.close()
