"""The browser client (src/warboard/web) in a real browser against the real server.

Playwright drives Debian's Chromium (``apt-get install chromium``; ``playwright install`` is
not needed). The module is skipped when either is missing. Screenshots of the table are written
to a temporary directory (printed), or to ``$WARBOARD_E2E_SHOTS`` when that is set.
"""

from __future__ import annotations

import random
import re

import pytest

playwright_api = pytest.importorskip(
    "playwright.sync_api",
    reason="the browser tests need the playwright package (pip install playwright)")

from web_helpers import (  # noqa: E402
    CHROMIUM,
    MY_TURN,
    OVER,
    PLAYABLE_CARD,
    Tab,
    finish_hotseat_game,
    http_json,
    play_by_clicking,
    units_on_board,
    wait_turn_or_over,
)

if not CHROMIUM.exists():
    pytest.skip(f"the browser tests need Chromium at {CHROMIUM} (apt-get install chromium, "
                "or WARBOARD_CHROMIUM=/path/to/chromium)",
                allow_module_level=True)

expect = playwright_api.expect
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def tab(browser, server):
    t = Tab(browser, server, viewport={"width": 1366, "height": 860})
    yield t
    t.close()


def start_game(page, *, mode: str = "ai", level: str = "easy", game: str = "hill218",
               quick: bool = True, seat: str = "0") -> None:
    page.locator(f"label[for=game-{game}]").click()
    page.locator(f"label[for=mode-{mode}]").click()
    if mode == "ai":
        page.select_option("#ai-level", level)
    if mode != "hotseat":
        page.locator(f"label[for=seat-{seat}]").click()
    page.locator("#quick-start").set_checked(quick)
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url(re.compile(r"/play/"))
    page.locator(".board-svg").wait_for()


def test_quick_start_game_against_easy_ai_to_the_end(tab, shots):
    page = tab.page
    tab.goto("/")
    expect(page.get_by_role("heading", name="New game")).to_be_visible()
    start_game(page)
    assert "#token" not in page.url  # the seat's key never stays in the address bar
    rng = random.Random(7)
    plays = 0
    while wait_turn_or_over(page, timeout=90_000):
        if plays <= 4 and page.locator(PLAYABLE_CARD).count():
            # a card chosen: its places light up (a screenshot of the table, the latest of the
            # first few turns); Escape takes the choice back
            page.locator(PLAYABLE_CARD).first.click()
            expect(page.locator(".layer-overlay .place").first).to_be_visible()
            page.screenshot(path=str(shots / "table-desktop.png"))
            page.keyboard.press("Escape")
            expect(page.locator(".layer-overlay .place")).to_have_count(0)
        version = int(page.locator("#app").get_attribute("data-version"))
        did = play_by_clicking(page, rng)
        plays += 1
        page.wait_for_function(
            "v => Number(document.getElementById('app').dataset.version) > v", arg=version)
        if did["kind"] == "deploy":
            # the server took the play: the log tells it (the unit may already be hit again)
            cell = re.escape(f"({did['cell']})")
            expect(page.locator(".log")).to_contain_text(re.compile(rf"South deploys [^\n]*{cell}"))
        assert plays < 200
    end = page.locator(".end-card")
    expect(end).to_be_visible(timeout=10_000)
    expect(end.locator("h2")).to_have_text(re.compile(r"You win!|You lose|Draw"))
    expect(end).to_contain_text(re.compile(r"base|unit count|Draw"))
    expect(end.locator(".end-counts tbody tr")).to_have_count(2)
    expect(end.get_by_role("link", name="Watch the replay")).to_be_visible()
    expect(end.get_by_role("link", name="New game")).to_be_visible()
    page.wait_for_timeout(500)  # the end screen fades in
    page.screenshot(path=str(shots / "end-desktop.png"))
    assert plays >= 1
    # the socket took the log's new lines only (?log=new): what the page joined and shows is
    # the seat's whole log, line for line
    game_id = page.url.split("/play/")[1].split("#")[0]
    token = page.evaluate(f"JSON.parse(localStorage.getItem('warboard.games'))['{game_id}'].token")
    whole = http_json("GET", f"{tab.base}/api/games/{game_id}?token={token}")["log"]
    assert page.locator(".log li:not(.log-turn)").all_inner_texts() == whole and len(whole) > 10

    # the board can still be looked at: close the end screen, pan and zoom
    end.get_by_role("button", name="Look at the board").click()
    svg = page.locator(".board-svg")
    before = svg.get_attribute("viewBox")
    box = svg.bounding_box()
    page.mouse.move(box["x"] + 200, box["y"] + 200)
    page.mouse.down()
    page.mouse.move(box["x"] + 300, box["y"] + 260, steps=5)
    page.mouse.up()
    panned = svg.get_attribute("viewBox")
    assert panned != before
    page.mouse.wheel(0, -300)
    zoomed = svg.get_attribute("viewBox")
    assert float(zoomed.split()[2]) < float(panned.split()[2])  # zoomed in: a narrower box
    page.get_by_role("button", name="Zoom out").click()
    assert float(svg.get_attribute("viewBox").split()[2]) > float(zoomed.split()[2])

    # the lobby lists the game, finished
    tab.goto("/")
    expect(page.locator(".game-row.over")).to_have_count(1)


def test_invite_link_game_between_two_browsers(browser, server, shots):
    host = Tab(browser, server, viewport={"width": 1280, "height": 820})
    guest = Tab(browser, server, viewport={"width": 1280, "height": 820})
    try:
        host.goto("/")
        start_game(host.page, mode="friend", quick=False)
        link = host.page.locator(".invite-url")
        expect(link).to_be_visible()
        invite = link.input_value()
        assert "/play/" in invite and "#token=" in invite
        guest.page.goto(invite)
        guest.page.locator(".board-svg").wait_for()
        assert "#token" not in guest.page.url
        # the guest holds the other seat; both see the game start (setup burials first)
        expect(host.page.locator(".invite")).to_have_count(0, timeout=10_000)
        for t in (host, guest):
            expect(t.page.locator("#app")).to_have_attribute("data-phase", re.compile("bury|play"))
        rng = random.Random(3)
        deploys = 0
        for _ in range(40):
            mover = next((t for t in (host, guest) if t.page.locator(MY_TURN).count()), None)
            if mover is None:  # the server is dealing, or a message is on its way
                host.page.wait_for_timeout(300)
                continue
            other = guest if mover is host else host
            version = int(mover.page.locator("#app").get_attribute("data-version"))
            did = play_by_clicking(mover.page, rng)
            # both pages move on to the next version
            for t in (mover, other):
                t.page.wait_for_function(
                    "v => Number(document.getElementById('app').dataset.version) > v", arg=version)
            if did["kind"] == "deploy":
                deploys += 1
                mine = units_on_board(mover.page)[did["cell"]]
                expect(other.page.locator(f'.layer-units .unit.{mine}[data-cell="{did["cell"]}"]')
                       ).to_have_count(1)
                assert units_on_board(other.page) == units_on_board(mover.page)
            if deploys >= 5 or host.page.locator(OVER).count():
                break
        assert deploys >= 4
        # each sees the other's moves in the log too
        host_log = host.page.locator(".log").inner_text()
        guest_log = guest.page.locator(".log").inner_text()
        assert "South deploys" in host_log and "North deploys" in host_log
        assert "South deploys" in guest_log and "North deploys" in guest_log
        host.page.screenshot(path=str(shots / "friend-host.png"))
        guest.page.screenshot(path=str(shots / "friend-guest.png"))

        # the invite worked once: the guest keeps the seat with a token of its own, and the
        # link opens nothing more for anyone, the host included (whose own seat is kept)
        guest.page.reload()
        guest.page.locator(".board-svg").wait_for()
        seat = guest.page.locator("#app").get_attribute("data-seat")
        game_path = invite.split("#")[0].replace(server, "")
        for t in (host, stranger := Tab(browser, server)):
            t.goto("/")  # from another page: a new hash alone would not open the link
            t.page.goto(invite)
            expect(t.page.locator(".notice.error")).to_contain_text("works once")
            t.errors.remove("Failed to load resource: the server responded with a status of "
                            "403 (Forbidden)")  # the refusal itself, and nothing else
        stranger.close()
        host.goto(game_path)
        host.page.locator(".board-svg").wait_for()
        assert seat in ("0", "1")
        assert host.page.locator("#app").get_attribute("data-seat") == str(1 - int(seat))
    finally:
        host.close()
        guest.close()


def test_replay_step_back_and_jump(browser, server, shots):
    created = finish_hotseat_game(server, seed=5)
    t = Tab(browser, server, viewport={"width": 1280, "height": 820})
    try:
        page = t.page
        t.goto(f"/replay/{created['id']}#token={created['tokens']['0']}")
        label = page.locator(".step-label")
        expect(label).to_have_text(re.compile(r"Step 0 of \d+"))
        total = int(re.search(r"of (\d+)", label.inner_text()).group(1))
        assert total > 20
        page.get_by_role("button", name="Step forward").click()
        expect(label).to_have_text(f"Step 1 of {total}")
        expect(page.locator(".event-text")).to_contain_text("plays first")
        page.get_by_role("button", name="Next play").click()
        step = int(re.search(r"Step (\d+)", label.inner_text()).group(1))
        assert step > 1
        expect(page.locator(".event-text")).to_contain_text(re.compile(r"deploys|Strike|Missile"))
        page.get_by_role("button", name="Step back").click()
        expect(label).to_have_text(f"Step {step - 1} of {total}")
        # the slider jumps; arrow keys on it step
        slider = page.locator(".replay-slider")
        slider.evaluate("(el, v) => { el.value = v; el.dispatchEvent(new Event('input')); }",
                        total // 2)
        expect(label).to_have_text(f"Step {total // 2} of {total}")
        slider.focus()
        page.keyboard.press("ArrowRight")
        expect(label).to_have_text(f"Step {total // 2 + 1} of {total}")
        page.get_by_role("button", name="To the end").click()
        expect(label).to_have_text(f"Step {total} of {total}")
        expect(page.locator(".layer-units .unit").first).to_be_visible()
        # the seat's own hand is shown, the other's never
        expect(page.locator(".hand-panel h2")).to_contain_text("South's hand")
        page.get_by_role("button", name="Back to the start").click()
        expect(page.locator(".layer-units .unit")).to_have_count(0)
        # the browser that played a hot-seat game holds both seats: it may switch records
        page.evaluate("g => localStorage.setItem('warboard.games', JSON.stringify({[g.id]: g}))",
                      {"id": created["id"], "mode": "hotseat", "seat": 0,
                       "tokens": created["tokens"]})
        page.reload()
        page.get_by_role("button", name="As North").click()
        expect(page.locator(".mode-tag")).to_have_text("as North saw it")
        page.get_by_role("button", name="To the end").click()
        page.screenshot(path=str(shots / "replay-desktop.png"))
    finally:
        t.close()


def test_phone_sized_table_has_no_horizontal_overflow(browser, server, shots):
    t = Tab(browser, server, viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    try:
        page = t.page
        t.goto("/")
        page.screenshot(path=str(shots / "lobby-phone.png"))
        rng = random.Random(1)
        for _ in range(3):  # random plays may end a game early (a base taken): start another
            t.goto("/")
            start_game(page, game="ogre218")
            plays = 0
            # a few plays, then stop on a turn with a card to play (not only an Ogre or a strike)
            while wait_turn_or_over(page) and (plays < 4
                                               or not page.locator(PLAYABLE_CARD).count()):
                play_by_clicking(page, rng)
                plays += 1
            if page.locator(OVER).count() == 0:
                break
        assert page.locator(PLAYABLE_CARD).count(), "three games ended before the checks"
        overflow = page.evaluate(
            "() => document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 0, f"the page is {overflow}px wider than the phone"
        board = page.locator(".board-area").bounding_box()
        hand = page.locator(".hand-panel").bounding_box()
        assert board["width"] <= PHONE["width"]
        assert board["y"] + board["height"] <= hand["y"] + 1  # the board on top, the hand below
        assert board["height"] >= 300
        page.locator(PLAYABLE_CARD).first.tap()
        expect(page.locator(".layer-overlay .place").first).to_be_visible()
        page.screenshot(path=str(shots / "table-phone.png"))
        page.screenshot(path=str(shots / "table-phone-full.png"), full_page=True)
        # one finger drags the board (touch events through the DevTools protocol)
        svg = page.locator(".board-svg")
        svg.scroll_into_view_if_needed()
        before = svg.get_attribute("viewBox")
        box = svg.bounding_box()
        x, y = box["x"] + box["width"] / 3, box["y"] + box["height"] / 3
        cdp = t.context.new_cdp_session(page)
        cdp.send("Input.dispatchTouchEvent",
                 {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
        for i in range(1, 6):
            cdp.send("Input.dispatchTouchEvent", {
                "type": "touchMove", "touchPoints": [{"x": x + 12 * i, "y": y + 9 * i}]})
        cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        expect(svg).not_to_have_attribute("viewBox", before)
        assert page.evaluate("() => window.scrollX") == 0  # the board moved, not the page
        for path in ("/rules", "/"):
            t.goto(path)
            page.wait_for_load_state("networkidle")
            overflow = page.evaluate(
                "() => document.documentElement.scrollWidth - document.documentElement.clientWidth")
            assert overflow <= 0, f"{path} is {overflow}px wider than the phone"
    finally:
        t.close()


def test_hot_seat_hides_the_hand_between_turns(tab):
    page = tab.page
    tab.goto("/")
    start_game(page, mode="hotseat")
    curtain = page.locator(".curtain")
    expect(curtain).to_be_visible()
    title = curtain.locator("h2").inner_text()
    first = "South" if "South" in title else "North"
    other = "North" if first == "South" else "South"
    expect(page.locator(".hand-card")).to_have_count(0)  # nothing of either hand on screen
    curtain.get_by_role("button", name=f"I am {first}").click()
    expect(curtain).to_be_hidden()
    # the curtain may go up on the other seat's state, before this seat's own has come
    expect(page.locator(MY_TURN)).to_have_count(1)
    rng = random.Random(2)
    # the first player's very first turn is one play; then the device goes to the other
    play_by_clicking(page, rng)
    expect(curtain).to_be_visible()
    expect(curtain.locator("h2")).to_have_text(f"Pass the device to {other}")
    expect(page.locator(".hand-card")).to_have_count(0)
    curtain.get_by_role("button", name=f"I am {other}").click()
    expect(page.locator(MY_TURN)).to_have_count(1)
    expect(page.locator(".hand-card").first).to_be_visible()


def test_the_new_game_form_offers_master_only_where_a_model_ships(tab):
    """The levels of the chosen game (the lobby's ``computer_levels``): master plays the card
    games, which ship their models; choosing Hold the Line while master is chosen falls back to
    expert, and master, started on hill218, is the computer's level in the game."""
    page = tab.page
    tab.goto("/")
    master = page.locator("#ai-level option[value=master]")
    expect(master).to_be_enabled()
    page.select_option("#ai-level", "master")
    page.locator("label[for=game-holdtheline]").click()
    expect(master).to_be_disabled()
    expect(page.locator("#ai-level")).to_have_value("expert")
    page.locator("label[for=game-ogre218]").click()
    expect(master).to_be_enabled()
    page.locator("label[for=game-hill218]").click()
    expect(master).to_be_enabled()
    start_game(page, level="master")
    expect(page.locator("body")).to_contain_text("master")


def test_rules_page_covers_both_games(tab):
    page = tab.page
    tab.goto("/rules")
    expect(page.get_by_role("heading", name="The Battle for Hill 218")).to_be_visible()
    expect(page.get_by_role("heading", name="Ogre: Objective 218")).to_be_visible()
    expect(page.locator(".rules-units")).to_have_count(2)
    expect(page.locator("body")).to_contain_text("Damaged Ogre")


def test_picker_asks_for_the_hits_in_order(tab):
    """The contract's Ogre example: from (1,0) three hit sequences; the table asks for the
    first hit, then the second, and sends a play only once exactly one legal play is left."""
    tab.goto("/rules")
    legal = [
        {"play": "deploy", "unit": "ogre", "at": [-1, -2], "attacks": []},
        {"play": "deploy", "unit": "ogre", "at": [1, 0], "attacks": [[1, 1], [1, 1]]},
        {"play": "deploy", "unit": "ogre", "at": [1, 0], "attacks": [[1, 1], [2, 1]]},
        {"play": "deploy", "unit": "ogre", "at": [1, 0], "attacks": [[2, 1], [1, 1]]},
        {"play": "strike", "target": [2, 1]},
    ]
    out = tab.page.evaluate("""async (legal) => {
        const { Picker, placesByUnit } = await import("/static/js/picker.js");
        const p = new Picker();
        p.setLegal(legal);
        const r = {places: placesByUnit(legal)};
        p.selectUnit("ogre");
        r.cells = p.overlay().places;
        r.preview = p.preview([1, 0]);
        r.quiet = p.clickCell([-1, -2]);  // one play there: sent at once
        p.selectUnit("ogre");
        r.first = p.clickCell([1, 0]);
        r.firstTargets = p.nextTargets();
        r.wrong = p.clickCell([5, 5]);
        r.second = p.clickCell([1, 1]);
        r.secondTargets = p.nextTargets();
        r.hitCount = p.hitCount();
        r.done = p.clickCell([2, 1]);
        p.reset();
        p.selectUnit("ogre");
        p.clickCell([1, 0]);
        r.direct = p.clickCell([2, 1]);  // only one sequence starts there
        p.startStrike();
        r.strikeTargets = p.overlay().targets;
        r.strike = p.clickCell([2, 1]);
        return r;
    }""", legal)
    assert out["places"] == {"ogre": 2}
    assert sorted(out["cells"]) == [[-1, -2], [1, 0]]
    assert sorted(out["preview"]) == [[1, 1], [2, 1]]
    assert out["quiet"] == legal[0]
    assert out["first"] is None and sorted(out["firstTargets"]) == [[1, 1], [2, 1]]
    assert out["wrong"] is None
    assert out["second"] is None and sorted(out["secondTargets"]) == [[1, 1], [2, 1]]
    assert out["hitCount"] == 2
    assert out["done"] == legal[2]
    assert out["direct"] == legal[3]
    assert out["strikeTargets"] == [[2, 1]] and out["strike"] == legal[4]


def test_a_message_sent_while_the_socket_opens_goes_once_it_is_open(tab):
    """A click on a table whose socket is still connecting (the page draws from its first
    HTTP fetch, before the socket opens) is not lost: here a resignation sent right after the
    socket is made, while it is certainly still connecting, ends the game."""
    created = http_json("POST", tab.base + "/api/games",
                        {"game": "hill218", "mode": "ai", "ai_level": "easy", "seat": 0})
    tab.goto("/rules")
    out = tab.page.evaluate("""async ([id, token]) => {
        const { GameSocket } = await import("/static/js/api.js");
        return await new Promise((resolve, reject) => {
          const socket = new GameSocket(id, token, {
            onState: (msg) => {
              if (msg.status === "over") resolve({ sentWhile, result: msg.result });
            },
            onError: (msg) => reject(new Error(msg.message)),
          });
          const sentWhile = socket.ws.readyState;
          socket.resign();
          setTimeout(() => reject(new Error("no end came")), 15000);
        });
    }""", [created["id"], created["token"]])
    assert out["sentWhile"] == 0  # WebSocket.CONNECTING
    assert out["result"]["by"] == 0 and out["result"]["how"] == "resigned"


def test_clocks_count_down_and_a_waiting_game_shows_in_the_title(tab, server):
    """A hot-seat game on a clock: both clocks on the table, the running one counting down; a
    correspondence game waiting for this browser's move: the header's badge and "(1)" in the
    title."""
    page = tab.page
    tab.goto("/")
    page.select_option("#clock", "300+3")
    start_game(page, mode="hotseat")
    clocks = page.locator(".clocks .clock")
    expect(clocks).to_have_count(2)
    running = page.locator(".clocks .clock.running .clock-time")
    first = running.inner_text()
    expect(running).not_to_have_text(first, timeout=5_000)  # it counts down
    assert page.locator(".clocks .clock:not(.running) .clock-time").inner_text() == "5:00"
    tab.goto("/")
    page.select_option("#clock", "1d")
    start_game(page, mode="hotseat")  # one of its seats is to move: 1 waiting
    expect(page.locator(".waiting-badge")).to_have_text("1 waiting")
    expect(page).to_have_title(re.compile(r"^\(1\) "))
