"""The post-game analysis in the browser's replay (issue 14, point 7): the button, its
progress, the win-probability chart with the labelled decisions, each side's summary, the
labels in the log and the better play drawn on the board, in headless Chromium against a real
server whose analyses are judged by ``medium`` (docs/server-api.md, "Post-game analysis").
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

playwright_api = pytest.importorskip(
    "playwright.sync_api",
    reason="the browser tests need the playwright package (pip install playwright)")

from web_helpers import (  # noqa: E402
    CHROMIUM,
    Tab,
    finish_hotseat_game,
    http_json,
    running_server,
    serious,
)

if not CHROMIUM.exists():
    pytest.skip(f"the browser tests need Chromium at {CHROMIUM} (apt-get install chromium, "
                "or WARBOARD_CHROMIUM=/path/to/chromium)",
                allow_module_level=True)

expect = playwright_api.expect
ANALYSED_MS = 180_000  # a whole game judged by medium on a busy 2-core machine
# the card board's and the hex board's marks of a better play
BETTER_MARK = ".last-at.better, .last-hit.better, .better-at"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_server(tmp_path_factory.mktemp("analysis-server"),
                        env={"WARBOARD_ANALYSIS_LEVEL": "medium",
                             "WARBOARD_ANALYSIS_SECONDS": "600",
                             # the same game, dice included, and so the same analysis every run
                             "WARBOARD_SEEDED_GAMES": "true"}) as base:
        yield base


def analysis_of(server: str, game_id: str, token: str) -> dict[str, Any]:
    return http_json("GET", f"{server}/api/games/{game_id}/analysis?token={token}")


def drawn_on_the_board(game: str, best: dict[str, Any]) -> bool:
    """Whether the board marks this play (placements and strikes; moves and fire)."""
    if game == "holdtheline":
        return best.get("type") in ("move", "fire", "assault")
    return best.get("play") in ("deploy", "strike")


def analyse_in_the_page(page: Any) -> None:
    panel = page.locator(".analysis-panel")
    expect(panel).to_contain_text("judges every decision")
    panel.get_by_role("button", name="Analyse this game").click()
    expect(panel.locator(".analysis-chart")).to_be_visible(timeout=ANALYSED_MS)


# Hill 218's replay is asked with its button, Hold the Line's from the end of the game
@pytest.mark.parametrize(("game", "options", "seats"), [
    ("hill218", {"quick_start": True}, ["South"]),
    ("holdtheline", {"scenario": "tutorial"}, None),
])
def test_a_finished_game_shows_its_analysis(browser, server, shots, game, options, seats):
    created = finish_hotseat_game(server, game, seed=3, options=options, chance_seed=3)
    game_id, token = created["id"], created["tokens"]["0"]
    t = Tab(browser, server, viewport={"width": 1280, "height": 900})
    try:
        page = t.page
        if game == "hill218":
            t.goto(f"/replay/{game_id}#token={token}")
            analyse_in_the_page(page)
        else:
            t.goto(f"/play/{game_id}#token={token}")
            page.locator(".end-card").get_by_role("link", name="Analyse the game").click()
            page.wait_for_url(re.compile(rf"/replay/{game_id}$"))
            expect(page.locator(".analysis-chart")).to_be_visible(timeout=ANALYSED_MS)
        analysis = analysis_of(server, game_id, token)
        assert analysis["status"] == "done"
        labelled = [j for j in analysis["decisions"] if j["label"]]
        assert labelled, "random play makes mistakes a search finds"
        panel = page.locator(".analysis-panel")
        # a point on the chart and a button for each labelled decision; a badge in the log
        expect(panel.locator(".analysis-point")).to_have_count(len(labelled))
        expect(panel.locator(".moment")).to_have_count(len(labelled))
        assert 0 < page.locator(".replay-log .judged").count() <= len(labelled)
        # each side with decisions shown has its summary: in a card game the reader's only
        names = panel.locator(".analysis-sides tbody th").all_inner_texts()
        assert names == seats if seats else len(names) == 2
        drawn = next((j for j in labelled if drawn_on_the_board(game, j["best"])), None)
        assert drawn is not None
        # going to a labelled decision says what it lost and draws the better play
        panel.locator(f".moment[data-ply='{drawn['ply']}']").click()
        expect(page.locator(".step-label")).to_have_text(re.compile(rf"Step {drawn['ply']} of"))
        note = panel.locator(".analysis-note")
        expect(note).to_contain_text(re.compile(
            rf"{drawn['label'].capitalize()}, chance of winning .* Better: .+ "
            rf"\({round(100 * drawn['best_win_probability'])}%\)"))
        expect(page.locator(BETTER_MARK).first).to_be_visible()
        assert serious(page) == [], "the analysed replay passes the accessibility audit"
        page.locator(".board-host, .htl-board-host").screenshot(
            path=str(shots / f"analysis-{game}-better-play.png"))
        panel.scroll_into_view_if_needed()
        page.screenshot(path=str(shots / f"analysis-{game}.png"))
        # the next step with no judgement of its own keeps the board free of it
        page.get_by_role("button", name="Back to the start").click()
        expect(note).to_have_text("")
        expect(page.locator(BETTER_MARK)).to_have_count(0)
        # made once and kept: the reloaded replay shows it without asking again, on a phone too
        page.set_viewport_size({"width": 390, "height": 844})
        page.reload()
        expect(page.locator(".analysis-chart")).to_be_visible()
        expect(page.get_by_role("button", name="Analyse this game")).to_have_count(0)
        overflow = page.evaluate(
            "() => document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 0, f"the analysed replay is {overflow}px wider than the phone"
        panel.scroll_into_view_if_needed()
        page.screenshot(path=str(shots / f"analysis-{game}-phone.png"))
    finally:
        t.close()
