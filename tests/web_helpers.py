"""Helpers for the browser tests (tests/test_web_e2e.py): the real server in a subprocess, a
headless Chromium, moves made by clicking, and games finished through the API."""

from __future__ import annotations

import contextlib
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from server_helpers import UNLIMITED_ENV

# Debian's chromium package by default (.ci/run installs it); WARBOARD_CHROMIUM names another
# Chromium or Chrome executable
CHROMIUM = Path(os.environ.get("WARBOARD_CHROMIUM") or "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync"]

# the table marks itself while a play is on its way (data-busy) and when it is the seat's turn
MY_TURN = '#app[data-busy="false"] .turn-banner.mine'
OVER = ".turn-banner.over"
PLAYABLE_CARD = ".hand-card:not(.unusable):not(.idle)"  # a card the seat may play now


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def running_server(db_dir: Path, startup: float = 60.0,
                   env: dict[str, str] | None = None) -> Iterator[str]:
    """``warboard serve`` on a free port with a fresh SQLite file (and the settings ``env``
    gives, ``WARBOARD_*`` variables); yields its base URL."""
    port = free_port()
    log = (db_dir / "server.log").open("wb")
    proc = subprocess.Popen(
        [sys.executable, "-m", "warboard.cli", "serve", "--port", str(port),
         "--database-url", f"sqlite:///{db_dir / 'web.db'}"],
        stdout=log, stderr=subprocess.STDOUT, env={**UNLIMITED_ENV, **(env or {})})
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + startup
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"the server exited with {proc.returncode}: "
                                   + (db_dir / "server.log").read_text()[-2000:])
            try:
                with urllib.request.urlopen(base + "/api/health", timeout=2) as r:
                    if json.load(r).get("ok"):
                        break
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("the server did not answer /api/health in time")
            time.sleep(0.2)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()


def screenshots_dir(tmp_path_factory: Any, name: str) -> Path:
    """``$WARBOARD_E2E_SHOTS`` when that is set, else a fresh temporary directory ``name``
    (printed)."""
    env = os.environ.get("WARBOARD_E2E_SHOTS")
    path = Path(env) if env else tmp_path_factory.mktemp(name)
    path.mkdir(parents=True, exist_ok=True)
    print(f"\nscreenshots: {path}")
    return path


def save_screenshot(page: Any, name: str, fallback: Path | None = None) -> Path:
    """A screenshot of ``page`` as ``name``.png, a test artefact: under ``$WARBOARD_ARTEFACTS``
    when that is set, else under ``fallback`` (a test's tmp_path), else the system's temporary
    directory."""
    env = os.environ.get("WARBOARD_ARTEFACTS")
    folder = Path(env) if env else fallback or Path(tempfile.gettempdir()) / "warboard-artefacts"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.png"
    page.screenshot(path=str(path))
    return path


class Tab:
    """A browser context with one page, collecting the page's script errors; with
    ``accept_dialogs``, confirm dialogs are accepted."""

    def __init__(self, browser: Any, base: str, *, accept_dialogs: bool = False,
                 **context: Any) -> None:
        self.context = browser.new_context(**context)
        self.context.set_default_timeout(20_000)
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))
        if accept_dialogs:
            self.page.on("dialog", lambda d: d.accept())
        self.base = base

    def goto(self, path: str) -> None:
        self.page.goto(self.base + path)

    def close(self) -> None:
        self.context.close()
        assert not self.errors, f"errors in the page: {self.errors}"


@contextlib.contextmanager
def chromium(playwright_api: Any) -> Iterator[Any]:
    """Debian's Chromium, headless, through Playwright's sync API."""
    with playwright_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield b
        b.close()


def http_json(method: str, url: str, body: Any = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, method=method,
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.load(r)


def finish_hotseat_game(base: str, game: str = "hill218", seed: int = 0,
                        options: dict[str, Any] | None = None,
                        chance_seed: int | None = None) -> dict[str, Any]:
    """Create a hot-seat game (quick start, unless ``options`` says otherwise) and play it to
    the end with random legal plays over the WebSocket; returns the creation answer (id,
    tokens). With ``chance_seed`` (a server whose ``seeded_games`` is on) the game's dice come
    from it too, so the whole game is the same on every run."""
    created, _ = play_hotseat(base, lambda msg: msg["status"] == "over", game=game,
                              rng=random.Random(seed), options=options, chance_seed=chance_seed)
    return created


def play_hotseat(base: str, until: Any, *, game: str = "hill218", rng: random.Random,
                 options: dict[str, Any] | None = None, prefer: Any = None,
                 chance_seed: int | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
    """Create a hot-seat game (quick start, unless ``options`` says otherwise; its chance drawn
    from ``chance_seed`` when one is given) and make random legal plays over the WebSocket
    (among those ``prefer(msg, play)`` accepts, when there are any) until ``until(msg)`` holds
    for seat 0's state message; returns the creation answer (id, tokens) and that message.
    Fails when the game ends first (unless ``until`` accepts it)."""
    from websockets.sync.client import connect

    body = {"game": game, "options": {"quick_start": True} if options is None else options,
            "mode": "hotseat"}
    if chance_seed is not None:
        body["seed"] = chance_seed
    created = http_json("POST", base + "/api/games", body)
    ws_base = base.replace("http://", "ws://")
    socks = {s: connect(f"{ws_base}/ws/games/{created['id']}?token={created['tokens'][str(s)]}")
             for s in (0, 1)}
    try:
        latest = {s: next_state(socks[s]) for s in (0, 1)}
        for _ in range(400):
            if until(latest[0]):
                return created, latest[0]
            if latest[0]["status"] == "over":
                raise AssertionError("the game ended first")
            seat = next(s for s in (0, 1) if latest[s]["legal"])
            version = latest[seat]["version"]
            legal = latest[seat]["legal"]
            liked = [p for p in legal if prefer(latest[seat], p)] if prefer else []
            socks[seat].send(json.dumps({
                "type": "play", "action": rng.choice(liked or legal),
                "version": version, "request_id": f"t{version}"}))
            for s in (0, 1):
                latest[s] = next_state(socks[s], after=version)
        raise AssertionError("the game did not end in 400 plays")
    finally:
        for ws in socks.values():
            ws.close()


def next_state(ws: Any, after: int = -1) -> dict[str, Any]:
    while True:
        msg = json.loads(ws.recv(timeout=20))
        if msg.get("type") == "error":
            raise AssertionError(f"refused: {msg}")
        if msg.get("type") == "state" and msg["version"] > after:
            return msg


# ------------------------------------------------------------------------------- clicking


def units_on_board(page: Any) -> dict[str, str]:
    """cell "x,y" -> "s0"/"s1" for every unit drawn on the board."""
    return page.eval_on_selector_all(
        ".layer-units .unit",
        "els => Object.fromEntries(els.map(e => [e.dataset.cell,"
        " e.classList.contains('s0') ? 's0' : 's1']))")


def click_clear_of_controls(page: Any, locator: Any, rng: random.Random) -> str | None:
    """Click one of ``locator``'s elements, preferring those not under the zoom buttons;
    returns its cell ("x,y")."""
    n = locator.count()
    assert n, "nothing to click"
    controls = page.locator(".board-controls").bounding_box()
    order = list(range(n))
    rng.shuffle(order)

    def covered(i: int) -> bool:
        box = locator.nth(i).bounding_box()
        if box is None or controls is None:
            return box is None
        cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        return (controls["x"] - 4 <= cx <= controls["x"] + controls["width"] + 4
                and controls["y"] - 4 <= cy <= controls["y"] + controls["height"] + 4)

    pick = next((i for i in order if not covered(i)), order[0])
    cell = locator.nth(pick).get_attribute("data-cell")
    locator.nth(pick).click()
    return cell


def play_by_clicking(page: Any, rng: random.Random) -> dict[str, Any]:
    """Make one decision on ``page`` (it must be the seat's turn) the way a player would.
    Returns what was done: {"kind": "bury" | "deploy" | "strike", "cell": "x,y" or None}."""
    if page.locator('#app[data-phase="bury"]').count():
        # setup: two cards in order, then confirm
        for _ in range(2):
            page.locator(PLAYABLE_CARD).first.click()
        page.get_by_role("button", name="Put under deck").click()
        return {"kind": "bury", "cell": None}
    cards = page.locator(PLAYABLE_CARD)
    if cards.count():
        cards.nth(rng.randrange(cards.count())).click()
        places = page.locator(".layer-overlay .place")
        places.first.wait_for()
        deployed = click_clear_of_controls(page, places, rng)
        # several hit sequences: pick the targets in order until the play goes
        while page.locator(".layer-overlay .target").count() and page.evaluate(
                "() => document.getElementById('app').dataset.busy === 'false'"):
            click_clear_of_controls(page, page.locator(".layer-overlay .target"), rng)
        return {"kind": "deploy", "cell": deployed}
    page.locator(".strike-btn").click()
    click_clear_of_controls(page, page.locator(".layer-overlay .target"), rng)
    return {"kind": "strike", "cell": None}


def wait_turn_or_over(page: Any, timeout: float = 60_000) -> bool:
    """Wait until the seat may play (True) or the game is over (False)."""
    page.wait_for_selector(f"{MY_TURN}, {OVER}", timeout=timeout)
    return page.locator(OVER).count() == 0


def serious(page: Any) -> list[str]:
    """axe-core's serious and critical findings on the page as it is now, one line each (needs
    axe-playwright-python, of the ``test`` extra)."""
    from axe_playwright_python.sync_playwright import Axe

    found = Axe().run(page).response["violations"]
    return [f"{v['id']} ({v['impact']}): {v['help']} at "
            + "; ".join(" ".join(n["target"]) for n in v["nodes"][:5])
            for v in found if v["impact"] in ("serious", "critical")]
