"""Post-game analysis at the table server (docs/server-api.md, "Analysis"): a finished game's
decisions judged by ``analysis_level``'s search, each from what its seat knew
(``warboard.ai.analysis``), made once and kept in the database.

A request starts it (``POST /api/games/{id}/analysis``); its decisions are judged one by one in
the AI worker processes, in the requester's turn with the live games (``AIRunner.judge``), each
within an equal share of ``analysis_seconds``, so a game's analysis costs a bounded time. Its
progress is written as it goes, so that any server process can tell how far it is
(``GET``); the database lets one process make it (``Storage.claim_analysis``), and a process
that died while making it is taken over once its row has gone unwritten for
``ABANDONED_SECONDS``. Each reader is shown what its seat may see (``shown_to``).
"""

from __future__ import annotations

import asyncio
import logging
import time
from datetime import datetime, timedelta
from typing import Any

from fastapi import APIRouter, Query, Request

from warboard.ai.analysis import THRESHOLDS, Judgement, decisions, shown_to, summary
from warboard.ai.levels import level_budget
from warboard.core.i18n import msg
from warboard.server.ai_runner import AIRunner
from warboard.server.messages import (
    AnalysisBody,
    Refused,
    TooMany,
    parse_body,
    read_body,
    unavailable,
)
from warboard.server.quotas import Quotas, client_of
from warboard.server.settings import ServerSettings
from warboard.server.storage import OVER, AnalysisData, Storage, StorageError, now
from warboard.server.tables import Table, Tables
from warboard.server.tokens import TOKEN_MAX_LENGTH

log = logging.getLogger(__name__)

ABANDONED_SECONDS = 300.0  # an analysis under way whose row is not written this long is taken over
PROGRESS_SECONDS = 1.0  # how often an analysis under way writes how far it is


def abandoned_since() -> datetime:
    """An analysis under way whose row was last written before this was abandoned."""
    return now() - timedelta(seconds=ABANDONED_SECONDS)


def abandoned(stored: AnalysisData) -> bool:
    return stored.updated < abandoned_since()


class Analyses:
    """The analyses this process makes, and the answers about any game's."""

    def __init__(self, storage: Storage, ai: AIRunner, settings: ServerSettings,
                 quotas: Quotas) -> None:
        self.storage = storage
        self.ai = ai
        self.level = settings.analysis_level
        self.seconds = settings.analysis_seconds
        self.quotas = quotas
        self._running: dict[str, asyncio.Task[None]] = {}

    async def answer(self, table: Table, reader: int | None) -> dict[str, Any]:
        """``GET``: the analysis as ``reader`` may see it, how far it is, or ``none``."""
        self._check(table, reader)
        try:
            stored = await self.storage.read(self.storage.analysis, table.id)
        except StorageError as exc:
            raise unavailable(msg("server.analysisUnread"), exc) from None
        return self._as_seen(table, reader, stored)

    async def start(self, table: Table, reader: int | None, client: str) -> dict[str, Any]:
        """``POST``: the analysis as ``answer`` gives it, once started when it was not."""
        found = await self.answer(table, reader)
        if found["status"] != "none" or table.id in self._running:
            return found
        wait = self.quotas.new_analysis(client)
        if wait is not None:
            raise TooMany(msg("server.tooManyAnalyses", most=self.quotas.analyses_per_hour),
                          wait)
        points = await asyncio.to_thread(lambda: list(decisions(table.session.recorder.record)))
        try:
            claimed = await self.storage.write(self.storage.claim_analysis, table.id,
                                               self.level, len(points), abandoned_since())
        except StorageError as exc:
            raise unavailable(msg("server.analysisUnstored"), exc) from None
        if claimed:
            task = asyncio.create_task(self._make(table, points, client))
            self._running[table.id] = task
            task.add_done_callback(lambda _: self._running.pop(table.id, None))
        return await self.answer(table, reader)

    def _check(self, table: Table, reader: int | None) -> None:
        if table.status != OVER:
            raise Refused(msg("server.analysisAtEnd"), 409)
        if reader is None and table.game.private_views:
            raise Refused(msg("server.analysisForSeat"), 403)

    def _as_seen(self, table: Table, reader: int | None,
                 stored: AnalysisData | None) -> dict[str, Any]:
        if stored is None or (stored.judgements is None and abandoned(stored)):
            # a process that died making it left it: the next request takes it over
            return {"status": "none", "level": self.level}
        base = {"level": stored.level, "done": stored.done, "total": stored.total,
                "thresholds": {name: least for name, least in THRESHOLDS}}
        if stored.judgements is None:
            return {"status": "running", **base}
        judged = shown_to([Judgement.from_json(j) for j in stored.judgements], reader,
                          table.game.private_views)
        return {"status": "done", **base, "seats": sorted({j.seat for j in judged}),
                "decisions": [j.to_json() for j in judged],
                "sides": {str(seat): side for seat, side in summary(judged).items()
                          if side["decisions"]}}

    async def _make(self, table: Table, points: list[Any], client: str) -> None:
        """Judge every decision, writing the progress now and then and the judgements at the
        end; a failure forgets the analysis (a later request starts it again)."""
        share = self.seconds / max(1, len(points))
        seconds = min(share, level_budget(self.level, table.game.name).get("seconds") or share)
        judged: list[dict[str, Any]] = []
        written = time.monotonic()
        try:
            for ply, state, played in points:
                judged.append(await self.ai.judge(
                    table.game, state, played, self.level, seconds,
                    f"{table.seed}:analysis:{ply}", ply, client))
                if time.monotonic() - written >= PROGRESS_SECONDS:
                    await self.storage.write(self.storage.analysis_progress, table.id,
                                             len(judged))
                    written = time.monotonic()
            await self.storage.write(self.storage.analysis_progress, table.id, len(judged),
                                     judged)
        except Exception:
            log.exception("game %s: its analysis failed", table.id)
            try:
                await self.storage.write(self.storage.drop_analysis, table.id)
            except StorageError:
                log.exception("game %s: its failed analysis could not be dropped", table.id)

    async def close(self) -> None:
        """Stop the analyses under way and forget them (a later request starts them again)."""
        stopped = dict(self._running)
        for task in stopped.values():
            task.cancel()
        await asyncio.gather(*stopped.values(), return_exceptions=True)
        for game_id in stopped:
            try:
                self.storage.drop_analysis(game_id)
            except StorageError:
                log.exception("game %s: its stopped analysis could not be dropped", game_id)


def analysis_routes(tables: Tables, analyses: Analyses) -> APIRouter:
    routes = APIRouter()

    @routes.get("/api/games/{game_id}/analysis")
    async def get_analysis(game_id: str,
                           token: str | None = Query(None, max_length=TOKEN_MAX_LENGTH),
                           ) -> dict[str, Any]:
        table = await tables.get(game_id)
        return await analyses.answer(table, table.seat_of(token))

    @routes.post("/api/games/{game_id}/analysis", status_code=202)
    async def start_analysis(game_id: str, request: Request) -> dict[str, Any]:
        body = parse_body(await read_body(request), AnalysisBody)
        table = await tables.get(game_id)
        return await analyses.start(table, table.seat_of(body.token), client_of(request.scope))

    return routes
