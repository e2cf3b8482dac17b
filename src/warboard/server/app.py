"""The web application: HTTP routes, the WebSocket of each game, and the browser client's files.

``build_app`` wires storage, the AI runner and the live tables into a FastAPI app (which then
owns them and closes them when it stops); on PostgreSQL the tables also listen to the other
server processes on the same database (``warboard.server.cluster``). Every refusal answers
``{"error": "English", "msg": {"key", "params"}}`` with a fitting status (docs/server-api.md).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from functools import cache, lru_cache
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import Depends, FastAPI, Query, Request, WebSocket, WebSocketDisconnect
from fastapi import Path as PathParam
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Receive, Scope, Send

import warboard
from warboard.core import registry
from warboard.core.i18n import msg
from warboard.server import campaigns, tokens
from warboard.server.ai_runner import AIRunner
from warboard.server.analyses import Analyses, analysis_routes
from warboard.server.cluster import Peers, peers_for
from warboard.server.connection import TRY_AGAIN_LATER, Connection
from warboard.server.custom_scenarios import custom_scenario_routes, with_custom_scenario
from warboard.server.lobby import Lobby
from warboard.server.messages import (
    GameCreated,
    GameList,
    LobbyListing,
    Refused,
    SeatMessage,
    StateMessage,
    TokenBody,
    TooMany,
    encode,
    error_body,
    error_message,
    invalid_input,
    no_such,
    parse_body,
    parse_create,
    read_body,
    unknown_game,
)
from warboard.server.metrics import Metrics
from warboard.server.player_routes import player_routes
from warboard.server.players import Player, player_of, require_player, signed_in
from warboard.server.quotas import Quotas, client_of
from warboard.server.settings import ServerSettings
from warboard.server.storage import Storage, StorageError
from warboard.server.tables import MAX_LISTED_TOKENS, Tables, read_found
from warboard.server.tokens import TOKEN_MAX_LENGTH

WEB_DIR = Path(warboard.__file__).resolve().parent / "web"
PAGES = ("/", "/play/{game_id}", "/replay/{game_id}", "/rules", "/players", "/players/{player_id}",
         "/leaderboard", "/leaderboard/{game}", "/editor")
POLICY_VIOLATION = 1008  # WebSocket close code for an unknown game or a bad token
UNCOUNTED = ("/api/health", "/api/ready")  # API paths outside the request quota (monitoring)
READY_SECONDS = 5.0  # the longest /api/ready waits for the database's answer
CAMPAIGN = msg("server.thing.campaign")
GAME_NAME_MAX_LENGTH = 40  # the longest game name /api/rules/{game} reads
SLOW_DOWN_SECONDS = 1.0  # the longest a refusal for going too fast is held back


async def slow_down(wait: float) -> None:
    """Hold back the answer to a client over its rate: one that asks again as soon as it is
    refused is slowed to a request a second on each connection, instead of being answered as
    fast as it can ask."""
    await asyncio.sleep(min(wait, SLOW_DOWN_SECONDS))

NOT_INSTALLED = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>warboard</title></head>
<body><h1>warboard table server</h1>
<p>The server is running, but the browser client is not installed
(the package <code>warboard.web</code> has no <code>index.html</code>).</p>
<p>The API answers under <code>/api/</code>: see <code>/api/health</code>.</p>
</body></html>
"""


class RequestQuota:
    """ASGI middleware: each client's HTTP API requests within ``requests_per_minute`` (429
    with ``Retry-After`` beyond); the pages and their files are not counted."""

    def __init__(self, app: ASGIApp, quotas: Quotas) -> None:
        self.app = app
        self.quotas = quotas

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "")
        if scope["type"] == "http" and path.startswith("/api/") and path not in UNCOUNTED:
            wait = self.quotas.request(client_of(scope))
            if wait is not None:
                refusal = TooMany(msg("server.tooManyRequests",
                                      most=self.quotas.requests_per_minute), wait)
                response = JSONResponse(refusal.body(), refusal.status, headers=refusal.headers)
                await slow_down(wait)
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


def build_app(storage: Storage, ai: AIRunner, web_dir: Path | None = WEB_DIR,
               peers: Peers | None = None, settings: ServerSettings | None = None) -> FastAPI:
    """The server's app; ``web_dir`` holds the browser client (``index.html`` and its files);
    ``peers``: the other server processes (by default, those of a PostgreSQL database);
    ``settings``: its limits (by default from the environment)."""
    settings = settings if settings is not None else ServerSettings()
    metrics = Metrics()
    quotas = Quotas(settings, metrics)
    tables = Tables(storage, ai, peers if peers is not None else peers_for(storage), settings,
                    metrics)
    metrics.watch(games_active=tables.active, ai_queue=ai.queue.waiting)
    lobby = Lobby(storage, tables.audience)
    analyses = Analyses(storage, ai, settings, quotas)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await tables.start()
        yield
        await analyses.close()
        await tables.close()
        ai.close()
        storage.close()

    app = FastAPI(title="warboard table server", version=warboard.__version__,
                  lifespan=lifespan)

    app.add_middleware(RequestQuota, quotas=quotas)
    app.state.storage = storage  # for the players' dependencies (warboard.server.players)
    app.include_router(player_routes(storage, quotas))
    app.include_router(custom_scenario_routes(storage, quotas))
    app.include_router(analysis_routes(tables, analyses))

    @app.exception_handler(Refused)
    async def refused(request: Request, exc: Refused) -> JSONResponse:
        return JSONResponse(exc.body(), exc.status, headers=exc.headers)

    @app.exception_handler(Exception)
    async def failed(request: Request, exc: Exception) -> JSONResponse:
        # a bug: logged with its traceback (by the server, which re-raises it after this answer)
        return JSONResponse(error_body(msg("server.requestFailed")), 500)

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException) -> JSONResponse:
        # Starlette's own words (an unknown path or method): English only, no ``msg``
        return JSONResponse({"error": str(exc.detail)}, exc.status_code, headers=exc.headers)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        return JSONResponse(error_body(invalid_input(exc.errors())), 422)

    @app.get("/api/health")
    async def health() -> dict[str, bool]:
        return {"ok": True}

    @app.get("/api/ready")
    async def ready() -> JSONResponse:
        checks = {"database": await database_check(storage),
                  "ai": "ok" if ai.alive() else "an AI worker process is not running"}
        failed = [f"{part}: {problem}" for part, problem in checks.items() if problem != "ok"]
        if failed:
            return JSONResponse({"ready": False, "error": f"not ready: {'; '.join(failed)}",
                                 "checks": checks}, 503)
        return JSONResponse({"ready": True, "checks": checks})

    @app.get("/metrics", include_in_schema=False)
    async def metrics_page() -> Response:
        return Response(metrics.render(), media_type=metrics.content_type)

    @app.get("/api/scenarios")
    async def scenarios() -> dict[str, Any]:
        return {"scenarios": await asyncio.to_thread(scenario_list)}

    @app.get("/api/campaigns")
    async def campaign_list() -> dict[str, Any]:
        return {"campaigns": await asyncio.to_thread(series_list)}

    @app.get("/api/campaigns/{campaign_id}")
    async def get_campaign(campaign_id: str,
                           token: str | None = Query(None, max_length=TOKEN_MAX_LENGTH),
                           ) -> dict[str, Any]:
        if not tokens.is_game_id(campaign_id):
            raise no_such(CAMPAIGN, campaign_id[:40])
        campaign = await read_found(storage, storage.load_campaign, campaign_id, CAMPAIGN)
        out = campaigns.listing_json(campaign)
        if token:  # the records of its finished games, as the token's seat knew them
            records = []
            for game_id in campaign.games:
                table = await tables.get(game_id)
                seat = table.seat_of(token)
                if seat is not None and table.status == "over":
                    records.append(table.record_for(seat))
            out["records"] = records
        return out

    @app.get("/api/rules/{game}")
    async def game_rules(game: str = PathParam(max_length=GAME_NAME_MAX_LENGTH)) -> Response:
        if game not in registry.game_names():
            raise unknown_game(game)
        return Response(await asyncio.to_thread(rules_data, game), media_type="application/json")

    async def new_game_by(request: Request) -> str:
        """The client asking for a new game (a rematch is one too), within its quota."""
        client = client_of(request.scope)
        wait = quotas.new_game(client)
        if wait is not None:
            await slow_down(wait)
            raise TooMany(msg("server.tooManyGames", most=quotas.games_per_minute), wait)
        return client

    @app.post("/api/games", status_code=201)
    async def create_game(request: Request,
                          player: Annotated[Player | None, Depends(signed_in)]) -> GameCreated:
        client = await new_game_by(request)
        wanted = await with_custom_scenario(storage, parse_create(await read_body(request)))
        return await tables.create(wanted, client, player)

    listed_tokens = Query("", max_length=MAX_LISTED_TOKENS * (TOKEN_MAX_LENGTH + 1))

    @app.get("/api/games")
    async def list_games(tokens: str = listed_tokens) -> GameList:
        return GameList(games=await tables.list_for_tokens(tokens.split(",")))

    @app.get("/api/games/{game_id}", response_model=StateMessage)
    async def get_game(game_id: str, player: Annotated[Player | None, Depends(signed_in)],
                       token: str | None = Query(None, max_length=TOKEN_MAX_LENGTH),
                       ) -> JSONResponse:
        table = await tables.get(game_id)
        seat, fresh = await table.enter(token, player)
        state = table.snapshot(seat)
        return JSONResponse(state if fresh is None else {**state, "seat_token": fresh})

    @app.get("/api/lobby", response_model=LobbyListing)
    async def lobby_listing(request: Request) -> Response:
        listing = await lobby.listing()
        headers = {"ETag": listing.etag, "Cache-Control": "no-cache"}
        if request.headers.get("if-none-match") == listing.etag:
            return Response(status_code=304, headers=headers)
        return Response(listing.body, media_type="application/json", headers=headers)

    @app.post("/api/games/{game_id}/take", status_code=201)
    async def take_seat(game_id: str,
                        player: Annotated[Player, Depends(require_player)]) -> GameCreated:
        return await tables.take(game_id, player)

    @app.post("/api/games/{game_id}/rematch", status_code=201)
    async def rematch(game_id: str, request: Request) -> GameCreated:
        client = await new_game_by(request)
        body = parse_body(await read_body(request), TokenBody)
        return await tables.rematch(game_id, body.token, client)

    @app.get("/api/games/{game_id}/record")
    async def get_record(game_id: str,
                         token: str | None = Query(None, max_length=TOKEN_MAX_LENGTH),
                         ) -> JSONResponse:
        table = await tables.get(game_id)
        seat = table.seat_of(token)
        if seat is None:
            raise Refused(msg("server.recordForSeat"), 403)
        return JSONResponse(table.record_for(seat))

    @app.get("/api/games/{game_id}/replay")
    async def get_replay(game_id: str,
                         token: str | None = Query(None, max_length=TOKEN_MAX_LENGTH),
                         ) -> Response:
        table = await tables.get(game_id)
        seat = table.seat_of(token)
        body = await asyncio.to_thread(table.replay_for, seat)
        return Response(body, media_type="application/json")

    @app.websocket("/ws/games/{game_id}")
    async def game_socket(websocket: WebSocket, game_id: str, token: str | None = None,
                          log: Literal["new"] | None = None) -> None:
        client = client_of(websocket.scope)
        await websocket.accept()
        with metrics.sockets.track_inprogress():
            if not quotas.open_socket(client):
                await refuse_socket(websocket, Refused(
                    msg("server.tooManySockets", most=quotas.sockets_per_client), 429))
                return
            try:
                try:
                    player = await player_of(storage, websocket.headers.get("authorization"))
                    table = await tables.get(game_id)
                    seat, fresh = await table.enter(token, player)
                except Refused as exc:
                    await refuse_socket(websocket, exc)
                    return
                if fresh is not None and seat is not None:
                    try:
                        await websocket.send_text(encode(SeatMessage(seat=seat,
                                                                     seat_token=fresh)
                                                         .model_dump(mode="json")))
                    except WebSocketDisconnect:
                        return  # it left while its arrival was stored: no failure
                await Connection(websocket, table, seat, client, quotas,
                                 new_log_lines=log == "new").run()
            finally:
                quotas.close_socket(client)

    _serve_client(app, web_dir)
    return app


async def database_check(storage: Storage) -> str:
    """``ok`` when the database answers a trivial query in time, else what went wrong."""
    try:
        await asyncio.wait_for(storage.read(storage.ping), READY_SECONDS)
    except StorageError as exc:
        return str(exc)
    except TimeoutError:
        return f"the database did not answer within {READY_SECONDS:g} s"
    return "ok"


async def refuse_socket(websocket: WebSocket, refusal: Refused) -> None:
    """Tell a WebSocket client why it is refused, and close it: 1013 (try again later) when the
    database failed, else 1008 (policy violation)."""
    await websocket.send_text(encode(error_message(refusal.msg)))
    code = TRY_AGAIN_LATER if refusal.status == 503 else POLICY_VIOLATION
    await websocket.close(code, refusal.message[:100])


@cache  # one entry per registered game: the name is checked first
def rules_data(game: str) -> bytes:
    """``GET /api/rules/{game}``: the game's public data (``Game.public_data``) as JSON text."""
    return encode(registry.make_game(game).public_data()).encode()


@lru_cache(maxsize=1)
def scenario_list() -> list[dict[str, Any]]:
    """The scenarios of the games that have them (``GameInfo.scenarios``), for ``GET
    /api/scenarios``."""
    return [scenario for game in registry.games() if game.scenarios is not None
            for scenario in registry.resolve(game.scenarios)()]


@lru_cache(maxsize=1)
def series_list() -> list[dict[str, Any]]:
    """Every series of games (campaigns) of the games that have them (``GameInfo.series``),
    each with its game's name, for ``GET /api/campaigns``."""
    return [{"game": game.name, **summary} for game in registry.games()
            if (series := registry.series_of(game.name)) is not None
            for summary in series.summaries()]


def _serve_client(app: FastAPI, web_dir: Path | None) -> None:
    """``index.html`` for the client's pages, its other files under ``/static``."""

    async def page() -> Response:
        index = web_dir / "index.html" if web_dir is not None else None
        if index is not None and index.is_file():
            return FileResponse(index, headers={"Cache-Control": "no-cache"})
        return HTMLResponse(NOT_INSTALLED)

    for path in PAGES:
        app.add_api_route(path, page, methods=["GET"], include_in_schema=False)
    if web_dir is not None and web_dir.is_dir():
        app.mount("/static", StaticFiles(directory=web_dir), name="static")
