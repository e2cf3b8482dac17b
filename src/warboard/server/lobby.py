"""The lobby's listing (``GET /api/lobby``): the open games waiting for an opponent, the games
being played that anyone may watch, and the computer's levels.

It is read from the database, so every server process lists the same games whichever one they
were posted or taken on, with each live game's spectator count over all the processes
(``Audience``). A process makes it at most once every ``FRESH_SECONDS`` however many clients
poll, and answers a client that has it already (``If-None-Match``) with its ETag alone.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass

from warboard.ai.levels import LEVELS, levels_for
from warboard.core import registry
from warboard.core.i18n import msg
from warboard.server.messages import LiveGame, LobbyListing, OpenGame, encode, unavailable
from warboard.server.spectators import Audience
from warboard.server.storage import Storage, StorageError

LISTED = 50  # the most games of each kind listed, the most recently changed first
FRESH_SECONDS = 1.0  # how long a listing made is answered again as it is


@dataclass(frozen=True)
class Listing:
    """A listing as sent: its JSON text and its ETag."""

    body: bytes
    etag: str


class Lobby:
    """The listing of one server process."""

    def __init__(self, storage: Storage, audience: Audience) -> None:
        self.storage = storage
        self.audience = audience
        self._made: tuple[float, Listing] | None = None

    async def listing(self) -> Listing:
        """The current listing (made afresh when the last is over ``FRESH_SECONDS`` old)."""
        moment = time.monotonic()
        if self._made is None or moment - self._made[0] > FRESH_SECONDS:
            body = encode((await self._read()).model_dump(mode="json")).encode()
            digest = hashlib.sha256(body).hexdigest()[:20]
            self._made = (moment, Listing(body, f'"{digest}"'))
        return self._made[1]

    async def _read(self) -> LobbyListing:
        try:
            waiting = await self.storage.read(self.storage.lobby_games, "waiting", LISTED)
            playing = await self.storage.read(self.storage.lobby_games, "playing", LISTED)
        except StorageError as exc:
            raise unavailable(msg("server.lobbyUnread"), exc) from None
        return LobbyListing(
            open=[OpenGame(id=g.id, game=g.game, options=registry.listed_options(g.game, g.options),
                           rated=g.rated,
                           clock=g.clock, seat=g.names.index(None),
                           poster=next(name for name in g.names if name is not None),
                           created=g.created)
                  for g in waiting if g.names.count(None) == 1],
            live=[LiveGame(id=g.id, game=g.game, options=registry.listed_options(g.game, g.options),
                           rated=g.rated,
                           clock=g.clock, players=list(g.names),
                           spectators=self.audience.count(g.id), updated=g.updated)
                  for g in playing],
            computer=list(LEVELS),
            computer_levels={game: levels_for(game) for game in registry.game_names()})
