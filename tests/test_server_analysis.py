"""Post-game analysis over real sockets (``/api/games/{id}/analysis``): a finished game's
decisions are judged once, in an AI worker process, kept in the database (a new server process
reads them back), and each reader is shown what its seat may see — in a card game a seat its
own decisions only, a spectator nothing; in Hold the Line, where nothing is private, everyone
everything."""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import update

from server_helpers import TIMEOUT, UNLIMITED, LiveServer
from test_server_storage import stored_game
from warboard.ai.analysis import label_for
from warboard.core.record import Record
from warboard.server.storage import ANALYSES, SeatData, Storage, now
from web_helpers import finish_hotseat_game

# a quick search, and a game's whole analysis within a few seconds
SETTINGS = UNLIMITED.model_copy(update={"analysis_level": "medium", "analysis_seconds": 4.0})


@pytest.fixture(scope="module")
def db_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("analysis") / "server.db"


@pytest.fixture(scope="module")
def live(db_file: Path) -> Iterator[LiveServer]:
    with LiveServer(f"sqlite:///{db_file}", settings=SETTINGS, ai_workers=1) as server:
        yield server


def analysed(http: httpx.Client, game_id: str, token: str | None) -> dict[str, Any]:
    """Start the analysis and wait for it; the answers on the way say how far it is."""
    answer = http.post(f"/api/games/{game_id}/analysis", json={"token": token})
    assert answer.status_code == 202, answer.text
    deadline = time.monotonic() + TIMEOUT * 3
    last = answer.json()
    while last["status"] != "done":
        assert last["status"] == "running", last
        assert 0 <= last["done"] <= last["total"]
        assert time.monotonic() < deadline, "the analysis did not end"
        time.sleep(0.2)
        last = http.get(f"/api/games/{game_id}/analysis", params={"token": token}).json()
    return last


def decisions_of(http: httpx.Client, game_id: str, token: str) -> list[tuple[int, int]]:
    """(ply, seat) of every decision of the game, from the seat's record."""
    record = Record.from_json(http.get(f"/api/games/{game_id}/record",
                                       params={"token": token}).json())
    return [(ply, e["seat"]) for ply, e in enumerate(record.events, 1) if e["seat"] is not None]


def check_judgements(analysis: dict[str, Any]) -> None:
    for j in analysis["decisions"]:
        assert 0 <= j["win_probability"] <= j["best_win_probability"] <= 1
        assert j["label"] == label_for(j["best_win_probability"] - j["win_probability"])
        assert (j["best"] == j["played"]) == (j["best_text"] == j["played_text"])
    assert analysis["thresholds"] == {"blunder": 0.2, "mistake": 0.1, "inaccuracy": 0.05}


def test_a_hold_the_line_game_is_analysed_once_for_everyone(live: LiveServer) -> None:
    with httpx.Client(base_url=live.base, timeout=TIMEOUT) as http:
        early = http.post("/api/games", json={"game": "holdtheline", "mode": "hotseat",
                                              "options": {"scenario": "tutorial"}}).json()
        refused = http.post(f"/api/games/{early['id']}/analysis", json={})
        assert refused.status_code == 409 and "once the game is over" in refused.json()["error"]
        created = finish_hotseat_game(live.base, "holdtheline", seed=3,
                                      options={"scenario": "tutorial"})
        game_id, token = created["id"], created["tokens"]["0"]
        assert http.get(f"/api/games/{game_id}/analysis").json()["status"] == "none"
        analysis = analysed(http, game_id, token)
        assert analysis["level"] == "medium" and analysis["seats"] == [0, 1]
        assert [(j["ply"], j["seat"]) for j in analysis["decisions"]] \
            == decisions_of(http, game_id, token)
        assert analysis["done"] == analysis["total"] == len(analysis["decisions"])
        check_judgements(analysis)
        for seat in ("0", "1"):
            side = analysis["sides"][seat]
            own = [j for j in analysis["decisions"] if j["seat"] == int(seat)]
            assert side["decisions"] == len(own)
            assert side["blunder"] == sum(j["label"] == "blunder" for j in own)
        # nothing is private: a spectator is shown the same; asking again judges nothing anew
        watched = http.get(f"/api/games/{game_id}/analysis").json()
        assert watched == analysis
        again = http.post(f"/api/games/{game_id}/analysis", json={})
        assert again.status_code == 202 and again.json() == analysis


def test_in_a_card_game_a_seat_is_shown_its_own_decisions_only(live: LiveServer,
                                                                 db_file: Path) -> None:
    with httpx.Client(base_url=live.base, timeout=TIMEOUT) as http:
        created = finish_hotseat_game(live.base, "hill218", seed=5)
        game_id, tokens = created["id"], created["tokens"]
        spectator = http.post(f"/api/games/{game_id}/analysis", json={})
        assert spectator.status_code == 403, spectator.text
        assert http.get(f"/api/games/{game_id}/analysis").status_code == 403
        shown = {seat: analysed(http, game_id, tokens[str(seat)]) for seat in (0, 1)}
        everything = decisions_of(http, game_id, tokens["0"])
        for seat, analysis in shown.items():
            assert analysis["seats"] == [seat] and list(analysis["sides"]) == [str(seat)]
            assert [(j["ply"], j["seat"]) for j in analysis["decisions"]] \
                == [d for d in everything if d[1] == seat]
            check_judgements(analysis)
        # judged once, for both seats together
        assert shown[0]["total"] == shown[1]["total"] == len(everything)
    # kept in the database: another server process reads it back as it was
    with LiveServer(f"sqlite:///{db_file}", settings=SETTINGS) as other, \
            httpx.Client(base_url=other.base, timeout=TIMEOUT) as http:
        for seat in (0, 1):
            assert http.get(f"/api/games/{game_id}/analysis",
                            params={"token": tokens[str(seat)]}).json() == shown[seat]


def test_each_client_starts_a_bounded_number_of_analyses(tmp_path: Path) -> None:
    settings = SETTINGS.model_copy(update={"analyses_per_hour": 1})
    with LiveServer(f"sqlite:///{tmp_path / 'server.db'}", settings=settings) as live, \
            httpx.Client(base_url=live.base, timeout=TIMEOUT) as http:
        first, second = (finish_hotseat_game(live.base, "hill218", seed=s) for s in (1, 2))
        analysed(http, first["id"], first["tokens"]["0"])
        # the made analysis is not counted again, a new one is
        assert http.post(f"/api/games/{first['id']}/analysis",
                         json={"token": first["tokens"]["1"]}).status_code == 202
        refused = http.post(f"/api/games/{second['id']}/analysis",
                            json={"token": second["tokens"]["0"]})
        assert refused.status_code == 429 and "Retry-After" in refused.headers
        assert http.get(f"/api/games/{second['id']}/analysis",
                        params={"token": second["tokens"]["0"]}).json()["status"] == "none"
        for forged in ({"token": "x" * 10_000}, {"token": 5}, {"seat": 0}):
            bad = http.post(f"/api/games/{first['id']}/analysis", json=forged)
            assert bad.status_code == 422, (forged, bad.text)


def test_one_process_makes_an_analysis_and_an_abandoned_one_is_taken_over(
        database_url: str) -> None:
    storage = Storage(database_url)
    try:
        game_id = "g1"
        seats = (SeatData(0, "human", joined=True), SeatData(1, "ai", "easy"))
        storage.create_game(stored_game(game_id, "over", timedelta(0), timedelta(0), seats))
        long_ago = now() - timedelta(hours=1)
        assert storage.claim_analysis(game_id, "hard", 3, long_ago)
        assert not storage.claim_analysis(game_id, "hard", 3, long_ago)  # under way
        storage.analysis_progress(game_id, 2)
        under_way = storage.analysis(game_id)
        assert under_way is not None and (under_way.done, under_way.judgements) == (2, None)
        # nobody wrote it since a moment from now: abandoned, taken over from the start
        assert storage.claim_analysis(game_id, "expert", 3, now() + timedelta(seconds=1))
        taken = storage.analysis(game_id)
        assert taken is not None and (taken.level, taken.done) == ("expert", 0)
        storage.analysis_progress(game_id, 3, [{"ply": 1}])
        assert not storage.claim_analysis(game_id, "hard", 3, now() + timedelta(hours=1))
        done = storage.analysis(game_id)
        assert done is not None and done.judgements == [{"ply": 1}]
        storage.drop_analysis(game_id)  # only one under way is dropped
        assert storage.analysis(game_id) is not None
    finally:
        storage.close()


def test_an_analysis_its_process_abandoned_is_offered_again_and_taken_over(
        live: LiveServer, db_file: Path) -> None:
    with httpx.Client(base_url=live.base, timeout=TIMEOUT) as http:
        created = finish_hotseat_game(live.base, "holdtheline", seed=4,
                                      options={"scenario": "tutorial"})
        game_id, token = created["id"], created["tokens"]["0"]
        # a process claimed it and died before writing again: its row left unwritten long ago
        storage = Storage(f"sqlite:///{db_file}")
        try:
            assert storage.claim_analysis(game_id, "medium", 5, now() - timedelta(hours=1))
            with storage.engine.begin() as db:
                db.execute(update(ANALYSES).where(ANALYSES.c.game_id == game_id)
                           .values(updated=now() - timedelta(hours=1)))
        finally:
            storage.close()
        assert http.get(f"/api/games/{game_id}/analysis").json()["status"] == "none"
        analysis = analysed(http, game_id, token)
        assert analysis["done"] == analysis["total"] == len(decisions_of(http, game_id, token))
