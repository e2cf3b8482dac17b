"""The players' HTTP API (docs/server-api.md, "Players"): sign up with a name, who am I, move a
key to another device by a one-time transfer code (a link and its QR code), a player's
profile, a game's leaderboard. Every route is under the request quota (``/api/``); creating a
player is limited per client as well (``players_per_hour``)."""

from __future__ import annotations

import asyncio
import io
from datetime import timedelta
from typing import Annotated, Any

import segno
from fastapi import APIRouter, Depends, Request
from fastapi import Path as PathParam
from pydantic import BaseModel, ConfigDict, Field

from warboard.core import registry
from warboard.core.i18n import msg
from warboard.server import tokens
from warboard.server.messages import (
    Refused,
    TooMany,
    no_such,
    parse_body,
    read_body,
    unavailable,
    unknown_game,
)
from warboard.server.players import (
    Player,
    name_key,
    new_player_id,
    new_transfer_code,
    require_player,
    valid_name,
)
from warboard.server.quotas import Quotas, client_of
from warboard.server.storage import Storage, StorageConflict, StorageError, now

TRANSFER_MINUTES = 10  # how long a transfer code may be used
PROFILE_GAMES = 20  # the latest games a profile lists
LEADERBOARD_SIZE = 100
QR_SCALE = 4  # pixels a module of the transfer link's QR code
SignedIn = Annotated[Player, Depends(require_player)]  # module level: FastAPI resolves it here


class NewPlayer(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(max_length=100)


class TransferCode(BaseModel):
    model_config = ConfigDict(extra="forbid")
    code: str = Field(min_length=1, max_length=40)


def qr_svg(text: str) -> str:
    """``text`` as a QR code, an SVG document."""
    out = io.BytesIO()
    segno.make(text, error="m").save(out, kind="svg", scale=QR_SCALE, xmldecl=False)
    return out.getvalue().decode()


def player_routes(storage: Storage, quotas: Quotas) -> APIRouter:
    """The routes, on ``storage``, with creation counted by ``quotas``."""
    routes = APIRouter()

    @routes.post("/api/players", status_code=201)
    async def create_player(request: Request) -> dict[str, str]:
        client = client_of(request.scope)
        name = valid_name(parse_body(await read_body(request), NewPlayer).name)
        wait = quotas.new_player(client)
        if wait is not None:
            raise TooMany(msg("server.tooManyPlayers", most=quotas.players_per_hour), wait)
        player, key = Player(new_player_id(), name), tokens.new_token()
        try:
            await storage.write(storage.create_player, player, name_key(name),
                                tokens.hash_token(key))
        except StorageConflict:
            raise Refused(msg("server.nameTaken", name=repr(name)), 409) from None
        except StorageError as exc:
            raise unavailable(msg("server.playerUnstored"), exc) from None
        return {"id": player.id, "name": player.name, "key": key}

    @routes.get("/api/players/me")
    async def me(player: SignedIn) -> dict[str, str]:
        return {"id": player.id, "name": player.name}

    @routes.post("/api/players/me/transfer", status_code=201)
    async def transfer(request: Request, player: SignedIn) -> dict[str, Any]:
        code = new_transfer_code()
        expires = now() + timedelta(minutes=TRANSFER_MINUTES)
        try:
            await storage.write(storage.add_transfer, player.id, tokens.hash_token(code),
                                expires)
        except StorageError as exc:
            raise unavailable(msg("server.transferUnstored"), exc) from None
        link = f"{request.base_url}#transfer={code}"
        return {"code": code, "link": link, "expires": expires.isoformat(timespec="seconds"),
                "qr_svg": await asyncio.to_thread(qr_svg, link)}

    @routes.post("/api/players/transfer")
    async def redeem(request: Request) -> dict[str, str]:
        code = parse_body(await read_body(request), TransferCode).code.strip().lower()
        key = tokens.new_token()
        try:
            player = await storage.write(storage.redeem_transfer, tokens.hash_token(code),
                                         tokens.hash_token(key))
        except StorageError as exc:
            raise unavailable(msg("server.transferUnread"), exc) from None
        if player is None:
            raise Refused(msg("server.transferUnknown", minutes=TRANSFER_MINUTES), 410)
        return {"id": player.id, "name": player.name, "key": key}

    @routes.get("/api/players/{player_id}")
    async def profile(player_id: str = PathParam(max_length=40)) -> dict[str, Any]:
        try:
            found = (await storage.read(storage.profile, player_id, PROFILE_GAMES)
                     if tokens.is_game_id(player_id) else None)
        except StorageError as exc:
            raise unavailable(msg("server.playerUnread"), exc) from None
        if found is None:
            raise no_such(msg("server.thing.player"), player_id)
        return {"id": found.player.id, "name": found.player.name,
                "ratings": {game: {"rating": round(r.rating, 1),
                                   "deviation": round(r.deviation, 1), "games": r.games}
                            for game, r in found.ratings.items()},
                "games": found.games}

    @routes.get("/api/leaderboard/{game}")
    async def leaderboard(game: str = PathParam(max_length=40)) -> dict[str, Any]:
        if game not in registry.game_names():
            raise unknown_game(game)
        try:
            standings = await storage.read(storage.leaderboard, game, LEADERBOARD_SIZE)
        except StorageError as exc:
            raise unavailable(msg("server.leaderboardUnread"), exc) from None
        return {"game": game, "players": [
            {"rank": rank, "id": s.id, "name": s.name, "rating": round(s.rating, 1),
             "deviation": round(s.deviation, 1), "games": s.games}
            for rank, s in enumerate(standings, 1)]}

    return routes
