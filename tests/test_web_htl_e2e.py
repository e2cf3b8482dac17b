"""The Hold the Line table (src/warboard/web/js/htl/) in a real browser against the real server.

Playwright drives Debian's Chromium (``apt-get install chromium``); the module is skipped when
either is missing. Games are played the way a person plays: click a unit with a gold ring, then
an outlined destination or target. Screenshots go to a temporary directory (printed), or to
``$WARBOARD_E2E_SHOTS`` when that is set.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

playwright_api = pytest.importorskip(
    "playwright.sync_api",
    reason="the browser tests need the playwright package (pip install playwright)")

import web_helpers  # noqa: E402
from warboard.holdtheline.scenario_file import load_scenario, scenario_names  # noqa: E402
from web_helpers import (  # noqa: E402
    CHROMIUM,
    finish_hotseat_game,
)

if not CHROMIUM.exists():
    pytest.skip(f"the browser tests need Chromium at {CHROMIUM} (apt-get install chromium, "
                "or WARBOARD_CHROMIUM=/path/to/chromium)",
                allow_module_level=True)

expect = playwright_api.expect
PHONE = {"width": 390, "height": 844}
MY_TURN = '#app[data-mine="true"][data-busy="false"]'
OVER = ".turn-banner.over"
AI_FAILED = '.toast.error:has-text("computer player failed")'


class Tab(web_helpers.Tab):
    """A browser tab whose confirm dialogs (ending a turn with AP left) are accepted."""

    def __init__(self, browser, base: str, **context) -> None:
        super().__init__(browser, base, accept_dialogs=True, **context)


@pytest.fixture
def tab(browser, server):
    t = Tab(browser, server, viewport={"width": 1366, "height": 900})
    yield t
    t.close()


def start_htl(tab: Tab, *, mode: str = "ai", seat: str = "0",
              scenario: str = "tutorial") -> None:
    page = tab.page
    tab.goto("/")
    page.locator("label[for=game-holdtheline]").click()
    expect(page.locator(f"#scenario option[value={scenario}]")).to_have_count(1)
    page.select_option("#scenario", scenario)
    page.locator(f"label[for=mode-{mode}]").click()
    if mode == "ai":
        page.select_option("#ai-level", "easy")
    if mode != "hotseat":
        page.locator(f"label[for=seat-{seat}]").click()
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url(re.compile(r"/play/"))
    page.locator(".htl-svg").wait_for()


def version(page) -> int:
    return int(page.locator("#app").get_attribute("data-version"))


def wait_version_above(page, v: int, timeout: float = 20_000) -> None:
    page.wait_for_function(
        f"() => +document.getElementById('app').dataset.version > {v}"
        " && document.getElementById('app').dataset.busy === 'false'", timeout=timeout)


def unit_hexes(page) -> dict[str, str]:
    """unit id -> "col,row" for every counter on the board."""
    return page.eval_on_selector_all(
        ".hl-units .counter", "els => Object.fromEntries(els.map(e => [e.dataset.unit,"
        " e.dataset.hex]))")


def move_a_unit(page) -> tuple[str, str, str]:
    """Click a unit that can act and one of its outlined destinations; returns (unit, from, to)
    once the server has taken the move."""
    unit = page.locator(".hl-units .counter.can-act").first
    uid = unit.get_attribute("data-unit")
    start = unit.get_attribute("data-hex")
    unit.click()
    dest = page.locator(".hl-over .dest").first
    expect(dest).to_be_visible()
    expect(page.locator(".ap-badge").first).to_contain_text("AP")
    to = dest.get_attribute("data-hex")
    v = version(page)
    dest.click()
    if page.locator(".htl-menu:not([hidden]) .btn.option").count():
        page.locator(".htl-menu .btn.option").first.click()
    wait_version_above(page, v)
    return uid, start, to


def test_tutorial_against_the_easy_ai(tab: Tab, shots: Path) -> None:
    page = tab.page
    start_htl(tab, mode="ai")
    assert "#token" not in page.url
    page.wait_for_selector(MY_TURN, timeout=60_000)
    expect(page.locator(".track.turn-track li.now")).to_have_text("1")
    expect(page.locator(".time-out")).to_have_text(
        "After turn 10: more VP wins, equal VP is a draw.")
    expect(page.locator(".dice-group").first).to_contain_text("action die")
    page.screenshot(path=str(shots / "htl-ai-start.png"))

    # a unit with a gold ring, then a green hex: the move is made
    uid, start, to = move_a_unit(page)
    assert unit_hexes(page)[uid] == to != start
    expect(page.locator(".htl-log")).to_contain_text(f"{uid} moves")

    # undo takes it back
    v = version(page)
    page.locator(".htl-undo").click()
    wait_version_above(page, v)
    assert unit_hexes(page)[uid] == start
    expect(page.locator(".htl-undo")).to_be_disabled()  # back at the action die: no more undo

    # play a few turns: fire when a target is outlined, else move; end the turn when done
    fired = False
    for _ in range(40):
        if page.locator(OVER).count():
            break
        page.wait_for_selector(f"{MY_TURN}, {OVER}, {AI_FAILED}", timeout=90_000)
        assert not page.locator(AI_FAILED).count(), page.locator(AI_FAILED).first.inner_text()
        if page.locator(OVER).count():
            break
        if page.locator(".htl-prompt.mine button").count():
            page.locator(".htl-prompt.mine button").first.click()
        elif page.locator(".hl-over .choice-hex").count():
            page.locator(".hl-over .choice-hex").first.click()
        elif fire_if_possible(page, shots):
            fired = True
        elif page.locator(".hl-units .counter.can-act").count():
            move_a_unit(page)
            continue
        else:
            page.locator(".htl-end").click()
        page.wait_for_timeout(200)
        if fired and page.locator(".die-cell").count() > 3:
            break
    expect(page.locator(".htl-log li").first).to_be_visible()
    page.screenshot(path=str(shots / "htl-ai-later.png"), full_page=True)
    if fired:
        texts = page.locator(".die-cell .die-text").all_inner_texts()
        assert any(re.search(r"hit|miss", t) for t in texts), texts


def fire_if_possible(page, shots: Path) -> bool:
    """Select each unit that can act until one has an outlined target; fire at it."""
    units = page.locator(".hl-units .counter.can-act")
    for i in range(units.count()):
        page.keyboard.press("Escape")
        units.nth(i).click()
        target = page.locator(".hl-over .target")
        if target.count():
            expect(page.locator(".hit-badge").first).to_contain_text("×")
            expect(page.locator(".los-line").first).to_be_attached()
            page.screenshot(path=str(shots / "htl-targets.png"))
            v = version(page)
            target.first.click()
            if page.locator(".htl-menu:not([hidden]) .btn.option").count():
                page.locator(".htl-menu .btn.option").first.click()
            wait_version_above(page, v)
            return True
    page.keyboard.press("Escape")
    return False


def test_undo_of_a_move_in_a_hotseat_game(tab: Tab, shots: Path) -> None:
    page = tab.page
    start_htl(tab, mode="hotseat")
    page.wait_for_selector(MY_TURN)
    expect(page.locator(".htl-undo")).to_be_disabled()
    uid, start, _ = move_a_unit(page)
    expect(page.locator(".htl-undo")).to_be_enabled()
    page.screenshot(path=str(shots / "htl-moved.png"))
    v = version(page)
    page.locator(".htl-undo").click()
    wait_version_above(page, v)
    assert unit_hexes(page)[uid] == start
    # the same unit can act again
    expect(page.locator(f'.counter.can-act[data-unit="{uid}"]')).to_have_count(1)

    # ending the turn rolls the other side's action die: nothing to take back past it
    move_a_unit(page)
    v = version(page)
    page.locator(".htl-end").click()
    wait_version_above(page, v)
    expect(page.locator(".htl-undo")).to_be_disabled()
    expect(page.locator(".turn-banner")).to_contain_text("British")


def test_invite_game_between_two_browsers(browser, server, shots: Path) -> None:
    host = Tab(browser, server, viewport={"width": 1280, "height": 860})
    guest = Tab(browser, server, viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        start_htl(host, mode="friend", seat="0")
        link = host.page.locator(".invite-url").input_value()
        assert "#token=" in link
        guest.page.goto(link)
        guest.page.locator(".htl-svg").wait_for()
        expect(host.page.locator(".invite-url")).to_have_count(0)  # the friend has arrived

        # a phone held upright gets the board turned a quarter: taller than wide
        box = guest.page.locator(".htl-svg").bounding_box()
        assert box["height"] > box["width"]

        host.page.wait_for_selector(MY_TURN)
        uid, _, to = move_a_unit(host.page)
        guest.page.wait_for_function(
            f"() => document.querySelector('.counter[data-unit=\"{uid}\"]')?.dataset.hex"
            f" === '{to}'")
        expect(guest.page.locator(".turn-banner")).to_contain_text("Americans")
        v = version(host.page)
        host.page.locator(".htl-end").click()
        wait_version_above(host.page, v)

        # the guest's turn: tap a unit, then a destination
        guest.page.wait_for_selector(MY_TURN)
        guest.page.screenshot(path=str(shots / "htl-phone-guest.png"), full_page=True)
        g_uid, _, g_to = move_a_unit(guest.page)
        host.page.wait_for_function(
            f"() => document.querySelector('.counter[data-unit=\"{g_uid}\"]')?.dataset.hex"
            f" === '{g_to}'")
        expect(host.page.locator(".htl-log")).to_contain_text(f"{g_uid} moves")
        host.page.screenshot(path=str(shots / "htl-host.png"))
    finally:
        host.close()
        guest.close()


def test_lobby_offers_the_scenarios_and_their_sides(tab: Tab) -> None:
    page = tab.page
    tab.goto("/")
    page.locator("label[for=game-holdtheline]").click()
    expect(page.locator("#scenario option[value=trenton]")).to_have_count(1)
    page.select_option("#scenario", "trenton")
    expect(page.locator(".scenario-about")).to_contain_text("Delaware")
    expect(page.locator("label[for=seat-1] .choice-label")).to_have_text("Hessians")
    page.locator("label[for=game-hill218]").click()  # the card games' form is unchanged
    expect(page.locator("label[for=seat-1] .choice-label")).to_have_text("North")
    expect(page.locator("#quick-start")).to_be_visible()


def step(page) -> int:
    return int(page.locator("#app").get_attribute("data-step"))


def test_replay_of_a_finished_game(browser, server, shots: Path) -> None:
    created = finish_hotseat_game(server, "holdtheline", seed=3, options={"scenario": "tutorial"})
    game_id = created["id"]
    tab = Tab(browser, server, viewport={"width": 1366, "height": 900})
    try:
        page = tab.page
        # the game-over card links to the replay
        tab.goto(f"/play/{game_id}#token={created['tokens']['0']}")
        page.locator(".end-card .replay-link").click()
        page.wait_for_url(re.compile(r"/replay/"))
        page.locator(".htl-replay-page .htl-svg").wait_for()
        n = int(page.locator(".replay-slider").get_attribute("max"))
        assert n > 20
        expect(page.locator(".step-label")).to_have_text(f"Step 0 of {n}")
        expect(page.locator(".turn-banner.over")).to_contain_text("Game over")
        expect(page.locator(".replay-log li.future").first).to_be_visible()

        # step forward: the first step is the action die, in words, in the tray and the log
        page.keyboard.press("ArrowRight")
        assert step(page) == 1
        expect(page.locator(".htl-event")).to_contain_text("action die")
        expect(page.locator(".dice-group").first).to_contain_text("action die")
        expect(page.locator(".replay-log li.current:not(.log-turn)")).to_contain_text("action die")

        # to the next decision: a unit or leader has moved (or fired), the last mark drawn
        before = unit_hexes(page)
        page.get_by_role("button", name="Next decision").click()
        assert step(page) == 2
        expect(page.locator(".step-kind")).not_to_have_text("die")
        if "ends turn" not in page.locator(".htl-event").inner_text():
            expect(page.locator(".hl-last .last-move, .hl-last .last-fire")).to_have_count(1)
        page.keyboard.press("ArrowLeft")
        assert step(page) == 1 and unit_hexes(page) == before

        # jump with the slider, then with a line of the log
        page.locator(".replay-slider").fill(str(n // 2))
        assert step(page) == n // 2
        page.screenshot(path=str(shots / "htl-replay-middle.png"))
        line = page.locator(".replay-log li:not(.log-turn)").nth(5)
        target = int(line.get_attribute("data-frame"))
        line.locator("button").click()
        assert step(page) == target
        expect(line).to_have_class(re.compile("current"))

        # play, then pause
        page.get_by_role("button", name="Play").click()
        page.wait_for_function(f"() => +document.getElementById('app').dataset.step > {target + 1}")
        page.get_by_role("button", name="Pause").click()
        paused = step(page)
        page.wait_for_timeout(1000)
        assert step(page) == paused

        # the end: the final board, the whole log, the result
        page.keyboard.press("End")
        assert step(page) == n
        expect(page.locator(".replay-log li.future")).to_have_count(0)
        page.evaluate("() => window.scrollTo(0, 0)")  # the controls stick to the top
        page.screenshot(path=str(shots / "htl-replay-end.png"), full_page=True)
        page.keyboard.press("Home")
        assert step(page) == 0

        # the lobby lists the finished game with its replay
        tab.goto("/")
        page.locator(f'.game-row a[href="/replay/{game_id}"]').click()
        page.wait_for_url(re.compile(r"/replay/"))
        expect(page.locator(".step-label")).to_have_text(f"Step 0 of {n}")
    finally:
        tab.close()

    # on a phone held upright, watched without a seat: the board turned a quarter
    phone = Tab(browser, server, viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        page = phone.page
        phone.goto(f"/replay/{game_id}")
        page.locator(".htl-replay-page .htl-svg").wait_for()
        box = page.locator(".htl-svg").bounding_box()
        assert box["height"] > box["width"]
        page.get_by_role("button", name="Step forward").tap()
        page.get_by_role("button", name="Next decision").tap()
        assert step(page) == 2
        controls = page.locator(".replay-controls").bounding_box()
        assert controls["x"] >= 0 and controls["x"] + controls["width"] <= PHONE["width"] + 1
        page.screenshot(path=str(shots / "htl-replay-phone.png"))
        page.evaluate("() => window.scrollTo(0, 0)")
        page.screenshot(path=str(shots / "htl-replay-phone-full.png"), full_page=True)
    finally:
        phone.close()


def test_fixture_marks_reinforcements_to_come(tab: Tab, shots: Path) -> None:
    page = tab.page
    tab.goto("/rules")
    # the rules page mounts once its rulesets have come; the fixture takes its place after
    # that (mounted before, it was replaced by the rules when they came last: a flaky test)
    expect(page.locator(".rules-page")).to_be_visible()
    page.evaluate("async () => (await import('/static/js/htl/table.js'))"
                  ".showFixture(document.getElementById('app'))")
    mark = page.locator('.reinforce-mark[data-reinforce="12,0"]')
    expect(mark).to_have_count(1)
    expect(mark.locator(".reinforce-label")).to_have_text("+2 T3")
    expect(mark.locator("title")).to_contain_text("Knyphausen")
    page.locator(".htl-svg").screenshot(path=str(shots / "htl-fixture-reinforcements.png"))


def test_leader_ratings_are_assigned_with_buttons(tab: Tab, server, shots: Path) -> None:
    """Option 11.6 at the table: a button per assignment, the scenario's first; after the
    computer's own assignment the first side's turn begins."""
    created = web_helpers.http_json("POST", server + "/api/games", {
        "game": "holdtheline", "mode": "ai", "seat": 0, "ai_level": "easy",
        "options": {"scenario": "princeton", "options": {"leader_ratings": True}}})
    page = tab.page
    tab.goto(created["url"])
    page.wait_for_selector(MY_TURN)
    prompt = page.locator(".htl-prompt.mine")
    expect(prompt).to_contain_text("which leader gets which rating")
    buttons = prompt.locator(".prompt-buttons .btn")
    expect(buttons).to_have_count(2)
    expect(buttons.first).to_have_text("Mercer 1/1, Washington 2/2")
    page.screenshot(path=str(shots / "htl-ratings.png"))
    buttons.nth(1).click()
    # "... is assigning the leader ratings" while the computer assigns, then the British turn:
    # its AP, or a decision its first fire left us (a leader's escape, a retreat)
    expect(page.locator(".turn-banner")).to_contain_text(
        re.compile(r"\bAP\b|Choose where"), timeout=20_000)
    prompt = page.locator(".htl-prompt")
    assert prompt.is_hidden() or "rating" not in prompt.inner_text()


def test_a_campaign_from_the_lobby_goes_on_to_the_next_battle(tab: Tab) -> None:
    page = tab.page
    tab.goto("/")
    page.locator("label[for=game-holdtheline]").click()
    campaign = "#scenario option[value='campaign:washingtons_christmas']"
    expect(page.locator(campaign)).to_have_count(1)
    page.select_option("#scenario", "campaign:washingtons_christmas")
    expect(page.locator(".scenario-about")).to_contain_text("Trenton and Princeton")
    page.locator("label[for=mode-ai]").click()
    page.select_option("#ai-level", "easy")
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url(re.compile(r"/play/"))
    expect(page.locator(".campaign.panel")).to_contain_text("battle 1 of 2")
    first = page.url
    page.get_by_role("button", name="Resign").click()  # the dialog is accepted
    expect(page.locator(".campaign-totals")).to_contain_text("British 10 VP")
    page.locator(".end-card .next-battle").click()  # the end dialog's
    page.wait_for_url(lambda url: url != first)
    expect(page.locator(".campaign.panel")).to_contain_text("battle 2 of 2")
    page.locator(".htl-svg").wait_for()


@pytest.mark.parametrize("scenario", [n for n in scenario_names() if n != "tutorial"])
def test_every_battle_starts_from_the_lobby_and_takes_a_move(tab: Tab, scenario: str) -> None:
    """Each battle's board, counters and time-out line at the table, and a move on it (the
    computer moves first where the British do)."""
    sc = load_scenario(scenario)
    start_htl(tab, mode="ai", scenario=scenario)
    page = tab.page
    page.wait_for_selector(f"{MY_TURN}, {AI_FAILED}", timeout=90_000)
    assert not page.locator(AI_FAILED).count(), page.locator(AI_FAILED).first.inner_text()
    expect(page.locator(".htl-svg g.hex")).to_have_count(sc.cols * sc.rows)
    on_board = sum(len(side.units) for side in sc.sides)
    assert len(unit_hexes(page)) <= on_board  # the first side may have lost a unit already
    expect(page.locator(".time-out")).to_contain_text(f"After turn {sc.turn_limit}")
    for _ in range(10):  # the computer's fire may leave a decision (a retreat) first
        page.wait_for_selector(MY_TURN, timeout=90_000)
        if page.locator(".hl-units .counter.can-act").count():
            break
        choice = page.locator(".htl-prompt.mine button, .hl-over .choice-hex")
        assert choice.count(), "my turn, with neither a unit to act nor a choice to make"
        v = version(page)
        choice.first.click()
        wait_version_above(page, v)
    uid, start, to = move_a_unit(page)
    assert unit_hexes(page)[uid] == to != start
