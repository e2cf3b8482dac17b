"""Players without passwords: a name and a secret key the browser keeps, sent as
``Authorization: Bearer KEY``; the server stores only the key's sha256 (``tokens.hash_token``).
A key moves to another device through a one-time transfer code that expires within minutes.

For the rest of the server: ``Player`` (id, name), and the FastAPI dependencies ``signed_in``
(the player of the request's key; ``None`` without an ``Authorization`` header; 401 for a key
that is not one) and ``require_player`` (401 without one).
"""

from __future__ import annotations

import re
import secrets
from typing import Annotated

from fastapi import Depends
from starlette.requests import HTTPConnection

from warboard.core.i18n import Msg, msg
from warboard.server import tokens
from warboard.server.messages import Refused, unavailable
from warboard.server.storage import Player, Storage, StorageError

__all__ = ["Player", "Unauthorized", "name_key", "player_of", "require_player", "signed_in",
           "valid_name"]

NAME_MIN, NAME_MAX = 3, 24
# letters and digits, with single inner spaces, dots, dashes and underscores: nothing a page
# could take for markup, and no look-alike padding
NAME = re.compile(r"[A-Za-z0-9]+(?:[ ._-][A-Za-z0-9]+)*")
TRANSFER_CODE_LENGTH = 12  # from the game ids' alphabet: easy to type, 60 bits
BEARER = "bearer"


class Unauthorized(Refused):
    """A request that needs a player's key and has none that is valid (401)."""

    def __init__(self, message: Msg) -> None:
        super().__init__(message, 401)

    @property
    def headers(self) -> dict[str, str] | None:
        return {"WWW-Authenticate": "Bearer"}


def valid_name(name: str) -> str:
    """``name`` when it follows the rule (``NAME``), else ``Refused`` (422)."""
    if not NAME_MIN <= len(name) <= NAME_MAX or NAME.fullmatch(name) is None:
        raise Refused(msg("server.badName", min=NAME_MIN, max=NAME_MAX,
                          name=repr(name[:NAME_MAX + 8])), 422)
    return name


def name_key(name: str) -> str:
    """What makes two names the same: the name casefolded."""
    return name.casefold()


def new_player_id() -> str:
    return tokens.new_game_id()  # the same alphabet and length: readable in links


def new_transfer_code() -> str:
    return "".join(secrets.choice(tokens.GAME_ID_ALPHABET) for _ in range(TRANSFER_CODE_LENGTH))


def bearer_key(authorization: str | None) -> str | None:
    """The key of an ``Authorization: Bearer KEY`` header (``None``: no header);
    ``Unauthorized`` for a header of another form."""
    if authorization is None:
        return None
    scheme, _, key = authorization.strip().partition(" ")
    key = key.strip()
    if scheme.lower() != BEARER or not key or len(key) > tokens.TOKEN_MAX_LENGTH:
        raise Unauthorized(msg("server.badAuthorization"))
    return key


async def player_of(storage: Storage, authorization: str | None) -> Player | None:
    """The player whose key the ``Authorization`` header carries; ``None`` without one."""
    key = bearer_key(authorization)
    if key is None:
        return None
    try:
        player = await storage.read(storage.player_by_key, tokens.hash_token(key))
    except StorageError as exc:
        raise unavailable(msg("server.playerUnread"), exc) from None
    if player is None:
        raise Unauthorized(msg("server.unknownKey"))
    return player


async def signed_in(connection: HTTPConnection) -> Player | None:
    """FastAPI dependency: the request's player (HTTP or WebSocket); ``None`` when it sends no
    ``Authorization`` header, 401 when its key is not a player's."""
    storage: Storage = connection.app.state.storage
    return await player_of(storage, connection.headers.get("authorization"))


async def require_player(player: Annotated[Player | None, Depends(signed_in)]) -> Player:
    """FastAPI dependency: the request's player; 401 without one."""
    if player is None:
        raise Unauthorized(msg("server.signInFirst"))
    return player
