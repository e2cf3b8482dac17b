"""Campaigns on the server (docs/server-api.md#campaigns): a campaign's battles are normal
stored games linked by a ``campaigns`` row; when one ends, the next is stored in the same
transaction with the same seat tokens, and each game's state carries the campaign's progress.

Over a real server process (SQLite, restarted between the battles) against the computer, and
in-process for a battle played out to the engine's own end and for the refusals."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from server_helpers import TIMEOUT, UNLIMITED_ENV, LiveServer, ServerProcess, free_port
from warboard.core.registry import make_game
from warboard.holdtheline import campaign as campaign_files
from warboard.holdtheline.campaign import parse_campaign
from warboard.server.storage import CampaignData, CampaignStep, SeatData, Storage
from warboard.server.tables import Tables


def serve(tmp_path: Path, port: int) -> ServerProcess:
    argv = [sys.executable, "-m", "warboard.cli", "serve", "--port", str(port),
            "--database-url", f"sqlite:///{tmp_path / 'games.db'}", "--ai-workers", "0"]
    return ServerProcess(argv, tmp_path, port, UNLIMITED_ENV)


def next_state(ws: ClientConnection, after: int = -1) -> dict[str, Any]:
    while True:
        msg = json.loads(ws.recv(timeout=TIMEOUT))
        assert msg.get("type") != "error", msg
        if msg.get("type") == "state" and msg["version"] > after:
            return msg


def resign(port: int, game_id: str, token: str) -> dict[str, Any]:
    """Resign ``game_id`` over its WebSocket once it is this seat's turn (the computer moves
    first if it is to); the state that says it is over."""
    with connect(f"ws://127.0.0.1:{port}/ws/games/{game_id}?token={token}") as ws:
        state = next_state(ws)
        while not state["legal"]:
            state = next_state(ws, state["version"])
        ws.send(json.dumps({"type": "resign"}))
        while state["status"] != "over":
            state = next_state(ws)
    return state


def test_a_campaign_against_the_computer_goes_on_across_a_restart(tmp_path: Path) -> None:
    port = free_port()
    with serve(tmp_path, port) as server:
        listed = httpx.get(f"{server.base}/api/campaigns").json()["campaigns"]
        christmas = next(c for c in listed if c["name"] == "washingtons_christmas")
        assert christmas["game"] == "holdtheline"
        assert [g["options"] for g in christmas["games"]] == [{"scenario": "trenton"},
                                                               {"scenario": "princeton"}]
        created = httpx.post(f"{server.base}/api/games", json={
            "game": "holdtheline", "mode": "ai", "ai_level": "easy",
            "campaign": "washingtons_christmas"}).json()
        first, token, campaign_id = created["id"], created["token"], created["campaign"]
        state = httpx.get(f"{server.base}/api/games/{first}",
                          params={"token": token}).json()
        assert state["options"] == {"scenario": "trenton"}
        assert state["campaign"]["index"] == 0 and state["campaign"]["next_game"] is None
        # the Americans (seat 0) resign Trenton: the Hessians are credited their 10 VP
        over = resign(port, first, token)
        second = over["campaign"]["next_game"]
        assert over["campaign"]["games"] == [first, second]
        progress = over["campaign"]["progress"]
        assert progress["totals"] == {"american": 0, "british": 10}
        assert progress["next"] == "princeton" and not progress["over"]
        server.stop()

    with serve(tmp_path, port) as server:  # the campaign was stored with the end
        state = httpx.get(f"{server.base}/api/games/{second}", params={"token": token}).json()
        assert state["options"] == {"scenario": "princeton"}
        assert state["seat"] == 0 and state["players"] == ["human", "ai:easy"]
        assert state["campaign"]["index"] == 1
        over = resign(port, second, token)
        progress = over["campaign"]["progress"]
        assert over["campaign"]["next_game"] is None
        assert progress["over"] and progress["winner"] == "british"
        assert progress["totals"] == {"american": 0, "british": 17}  # 10 and 7 won on time
        shown = httpx.get(f"{server.base}/api/campaigns/{campaign_id}",
                          params={"token": token}).json()
        assert shown["games"] == [first, second] and shown["progress"] == progress
        assert [r["options"] for r in shown["records"]] == [{"scenario": "trenton"},
                                                            {"scenario": "princeton"}]
        # the British move first at Princeton: the computer played after the restart
        assert any(e.get("seat") == 1 for e in shown["records"][1]["events"])
        assert httpx.get(f"{server.base}/api/campaigns/{campaign_id}",
                         params={"token": "not-a-seat"}).status_code == 403
        assert httpx.get(f"{server.base}/api/campaigns/AAAAAAAAAAAA").status_code == 404


@pytest.fixture()
def tutorial_twice(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A packaged campaign of the tutorial twice, for battles short enough to play out."""
    data = {"title": "Twice", "summary": "The tutorial twice.", "history": "A test.",
            "battles": ["tutorial", "tutorial"]}
    twice = parse_campaign("twice.toml", data, "twice")
    monkeypatch.setattr(campaign_files, "campaign_names", lambda: ("twice",))
    monkeypatch.setattr(campaign_files, "_packaged", lambda name: twice)
    yield "twice"


def play_out(live: LiveServer, game_id: str, tokens: dict[str, str]) -> dict[str, Any]:
    """Play a hotseat game to its end with the first legal play each time; the last state."""
    socks = {s: live.ws(game_id, tokens[str(s)]) for s in (0, 1)}
    try:
        latest = {s: next_state(socks[s]) for s in (0, 1)}
        for _ in range(2000):
            if latest[0]["status"] == "over":
                return latest[0]
            seat = next(s for s in (0, 1) if latest[s]["legal"])
            version = latest[seat]["version"]
            socks[seat].send(json.dumps({"type": "play", "action": latest[seat]["legal"][-1],
                                         "version": version, "request_id": f"r{version}"}))
            latest = {s: next_state(socks[s], after=version) for s in (0, 1)}
        raise AssertionError("the battle did not end")
    finally:
        for ws in socks.values():
            ws.close()


def test_a_battle_played_to_its_end_starts_the_next_with_the_same_tokens(
        tmp_path: Path, tutorial_twice: str) -> None:
    with LiveServer(f"sqlite:///{tmp_path / 'games.db'}") as live, \
            httpx.Client(base_url=live.base, timeout=TIMEOUT) as http:
        created = http.post("/api/games", json={"game": "holdtheline", "mode": "hotseat",
                                                "campaign": tutorial_twice}).json()
        over = play_out(live, created["id"], created["tokens"])
        summary = over["result"]["summary"]
        banked = over["campaign"]["progress"]["played"][0]
        assert banked["reason"] == summary["reason"] and banked["reason"] in ("vp", "time")
        if summary["reason"] == "vp":  # each side banks what it holds
            assert list(banked["banked"].values()) == summary["vp"]
        second = over["campaign"]["next_game"]
        for seat, token in created["tokens"].items():  # the same tokens hold the next seats
            state = http.get(f"/api/games/{second}", params={"token": token}).json()
            assert state["seat"] == int(seat) and state["status"] == "playing"
            assert state["campaign"]["progress"]["totals"] == banked["banked"]


def test_a_campaign_is_refused_what_it_cannot_be(tmp_path: Path) -> None:
    with LiveServer(f"sqlite:///{tmp_path / 'games.db'}") as live, \
            httpx.Client(base_url=live.base, timeout=TIMEOUT) as http:
        unknown = http.post("/api/games", json={"game": "holdtheline", "campaign": "nope"})
        assert unknown.status_code == 422 and "unknown campaign" in unknown.json()["error"]
        none = http.post("/api/games", json={"game": "hill218", "campaign": "x"})
        assert none.status_code == 422 and "no campaigns" in none.json()["error"]
        timed = http.post("/api/games", json={
            "game": "holdtheline", "campaign": "washingtons_christmas", "mode": "friend",
            "clock": {"initial": 300}})
        assert timed.status_code == 422 and "without clocks" in timed.json()["error"]
        plain = http.post("/api/games", json={"game": "holdtheline", "mode": "ai",
                                              "ai_level": "easy"}).json()
        state = http.get(f"/api/games/{plain['id']}", params={"token": plain["token"]}).json()
        assert state["campaign"] is None and plain["campaign"] is None


def test_a_battles_end_stores_the_next_battle_with_the_same_token(database_url: str) -> None:
    """In SQLite and PostgreSQL: the next game and the progress are written with the end, the
    token hash kept in the campaign's row (a token hash is unique among the seat rows), and a
    second end of the same game writes nothing."""
    storage = Storage(database_url)
    try:
        seats = [SeatData(0, "human", None, "a" * 64, joined=True),
                 SeatData(1, "ai", "easy", None, joined=True)]
        first = Tables._new_game(make_game("holdtheline", {"scenario": "trenton"}), "ai", seats,
                                 None, False)
        first.campaign = CampaignData("C" * 12, "holdtheline", "washingtons_christmas", "ai",
                                      [first.id], [[None, None]], {"played": 0})
        storage.create_game(first)
        second = Tables._new_game(make_game("holdtheline", {"scenario": "princeton"}), "ai",
                                  seats, None, False)
        second.campaign = first.campaign
        resigned = {"abandoned": True, "by": 0, "how": "resigned"}
        step = CampaignStep(first.campaign.id, {"played": 1}, second)
        assert storage.update_game(first.id, "over", resigned, None, None, step)
        loaded = storage.load_game(second.id)
        assert loaded is not None and loaded.campaign is not None
        assert [s.token_hash for s in loaded.seats] == ["a" * 64, None]
        assert loaded.campaign.games == [first.id, second.id]
        assert loaded.campaign.progress == {"played": 1}
        again = storage.load_game(first.id)
        assert again is not None and again.seats[0].token_hash == "a" * 64
        assert not storage.update_game(first.id, "over", resigned, None, None, step)
        campaign = storage.load_campaign(first.campaign.id)
        assert campaign is not None and campaign.games == [first.id, second.id]
        assert campaign.seats == [[None, None], ["a" * 64, None]]
        # the token lists both battles (the second's seat held in the campaign's row)
        listed = storage.games_for_tokens(["a" * 64, "b" * 64])
        assert {(g.id, g.seat) for g in listed} == {(first.id, 0), (second.id, 0)}
    finally:
        storage.close()
