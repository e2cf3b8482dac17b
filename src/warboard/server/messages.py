"""The JSON the server reads and writes (docs/server-api.md), as pydantic models.

Client input is read in two steps — JSON, then the model — so each refusal says what was wrong:
``parse_create`` for ``POST /api/games`` and ``parse_client_message`` for WebSocket messages.
Anything refused raises ``Refused`` with an HTTP status that fits.
"""

from __future__ import annotations

import json
import logging
import math
from collections.abc import Iterable, Mapping
from typing import Annotated, Any, Literal, TypeVar

import orjson
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, ValidationError
from starlette.requests import Request

from warboard.ai.levels import Level
from warboard.core.i18n import Msg, english, msg
from warboard.core.jsonlimits import JSONInputError, parse_json
from warboard.core.registry import default_game, game_names
from warboard.server.storage import CHAT_MAX_LENGTH, GameSummary, StorageError
from warboard.server.tokens import TOKEN_MAX_LENGTH

log = logging.getLogger(__name__)

MAX_MESSAGE_BYTES = 64 * 1024  # the largest body or WebSocket message read

RequestId = Annotated[str, Field(min_length=1, max_length=100)]
Model = TypeVar("Model", bound=BaseModel)


class Refused(Exception):
    """A request or message that is refused; nothing changed. ``status`` is the HTTP status;
    ``msg`` says why in any language (``core.i18n``), ``message`` in English."""

    def __init__(self, message: Msg, status: int = 400,
                 request_id: str | None = None) -> None:
        self.msg = message
        self.message = english(message)
        super().__init__(self.message)
        self.status = status
        self.request_id = request_id

    @property
    def headers(self) -> dict[str, str] | None:
        """HTTP headers the refusal carries."""
        return None

    def body(self) -> dict[str, Any]:
        """The JSON body of the refusal's HTTP answer."""
        return error_body(self.msg)


def error_body(message: Msg) -> dict[str, Any]:
    """An HTTP error's JSON body: the English (``error``) and the message (``msg``)."""
    return {"error": english(message), "msg": message}


def unavailable(message: Msg, exc: StorageError) -> Refused:
    """The refusal (503) of a request the database failed; the failure is logged."""
    log.error("%s", exc)
    return Refused(msg("server.unavailable", what=message, error=str(exc)), 503)


def no_such(what: Msg, key: str) -> Refused:
    """The refusal (404) of a request for a ``what`` (a ``server.thing`` message) not found."""
    return Refused(msg("server.noSuch", what=what, name=repr(key)), 404)


def unknown_game(game: str) -> Refused:
    """The refusal (404) of a request for a game that is not registered."""
    return Refused(msg("server.unknownGame", game=repr(game), games=", ".join(game_names())),
                   404)


class TooMany(Refused):
    """A client over one of its limits (429): it may try again in ``retry_after`` seconds."""

    def __init__(self, message: Msg, retry_after: float) -> None:
        self.retry_after = max(1, math.ceil(retry_after))
        super().__init__(msg("server.tryAgain", refusal=message, seconds=self.retry_after),
                         429)

    @property
    def headers(self) -> dict[str, str] | None:
        return {"Retry-After": str(self.retry_after)}


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


# ----------------------------------------------------------------------------- client → server

MAX_CLOCK_SECONDS = 24 * 3600  # the longest real-time clock (initial time, increment)
MAX_CLOCK_DAYS = 14  # the longest correspondence turn (well within idle_expiry_days)


class RealClock(_Strict):
    """Real time: ``initial`` seconds each, ``increment`` more each turn (Fischer)."""

    initial: float = Field(gt=0, le=MAX_CLOCK_SECONDS)
    increment: float = Field(default=0, ge=0, le=MAX_CLOCK_SECONDS)

    def spec(self) -> dict[str, float]:
        return {"initial": self.initial, "increment": self.increment}


class CorrespondenceClock(_Strict):
    """Correspondence: ``days`` for each turn (fractions allowed)."""

    days: float = Field(gt=0, le=MAX_CLOCK_DAYS)

    def spec(self) -> dict[str, float]:
        return {"days": self.days}


class CreateGame(_Strict):
    """``POST /api/games``."""

    game: str = Field(default_factory=default_game)
    options: dict[str, Any] = Field(default_factory=dict)
    mode: Literal["ai", "friend", "hotseat", "open"] = "ai"
    ai_level: Level = "medium"
    seat: Literal[0, 1, "random"] = 0  # "random": drawn by the server
    rated: StrictBool = False  # every human seat must then be a signed-in player's
    clock: RealClock | CorrespondenceClock | None = None
    # a series of the game (its campaign) to play from its first game: the options are its
    campaign: str | None = Field(default=None, min_length=1, max_length=64)
    # a stored scenario of one's own (POST /api/scenarios) to play: its id, never a path
    custom_scenario: str | None = Field(default=None, pattern=r"^[a-z0-9]{1,16}$")
    # the game's seed, where the server takes one (its seeded_games setting)
    seed: int | None = Field(default=None, ge=0, lt=2**63)


class TokenBody(_Strict):
    """``POST /api/games/{id}/rematch``: the seat's token in the finished game."""

    token: str = Field(min_length=1, max_length=TOKEN_MAX_LENGTH)


class AnalysisBody(_Strict):
    """``POST /api/games/{id}/analysis``: the reader's seat token (none: a spectator)."""

    token: str | None = Field(default=None, min_length=1, max_length=TOKEN_MAX_LENGTH)


class PlayMessage(_Strict):
    type: Literal["play"]
    action: dict[str, Any]
    version: StrictInt
    request_id: RequestId


class ResignMessage(_Strict):
    type: Literal["resign"]
    request_id: RequestId | None = None


class UndoMessage(_Strict):
    """Take back this seat's last decision (none came from the other seat or chance since)."""

    type: Literal["undo"]
    version: StrictInt
    request_id: RequestId


class HintRequest(_Strict):
    """The play the computer's strongest level would make for this seat now (an unrated game
    against the computer only); answered with a ``hint`` message to this connection."""

    type: Literal["hint"]
    version: StrictInt
    request_id: RequestId | None = None


class ClaimMessage(_Strict):
    """Claim the game (``win`` or ``draw``) from an opponent who left a real-time game."""

    type: Literal["claim"]
    outcome: Literal["win", "draw"]
    request_id: RequestId | None = None


class ChatSend(_Strict):
    """A line for the game's chat (cleaned, then at most ``CHAT_MAX_LENGTH`` characters)."""

    type: Literal["chat"]
    text: str = Field(max_length=4 * CHAT_MAX_LENGTH)


class MuteMessage(_Strict):
    """Stop (or start again) reading the other seat's chat."""

    type: Literal["mute"]
    muted: StrictBool


ClientMessage = (PlayMessage | ResignMessage | UndoMessage | ClaimMessage | ChatSend
                 | MuteMessage | HintRequest)

CLIENT_MESSAGES: dict[str, type[ClientMessage]] = {
    "play": PlayMessage, "resign": ResignMessage, "undo": UndoMessage, "claim": ClaimMessage,
    "chat": ChatSend, "mute": MuteMessage, "hint": HintRequest}


# ----------------------------------------------------------------------------- server → client

class LastDecision(BaseModel):
    seat: int
    action: dict[str, Any]


class GameState(BaseModel):
    """A game as one seat (or a spectator, ``seat`` null) may see it."""

    id: str
    game: str
    options: dict[str, Any]
    mode: str
    rated: bool = False  # its end changes the players' ratings
    seat: int | None
    version: int
    status: Literal["waiting", "playing", "over"]
    result: dict[str, Any] | None
    players: list[str]
    view: dict[str, Any]
    legal: list[dict[str, Any]]
    # the log's lines from line log_from on: 0 (the whole log) but on a WebSocket opened with
    # ?log=new, whose client keeps the lines before log_from and replaces the others
    log_from: int = 0
    log: list[str]
    # the messages of the log's lines, one each ({key, params}: web/i18n, docs/server-api.md)
    log_msg: list[dict[str, Any]] = Field(default_factory=list)
    # once over: the end's title and reason for this seat ({"text", "msg"} each)
    end: dict[str, Any] | None = None
    last: LastDecision | None
    # the decisions of the other seat's run so far (since this seat last decided; a spectator:
    # of the seat that decided last), those this reader learnt, oldest first
    plays: list[LastDecision] = Field(default_factory=list)
    hints: list[dict[str, Any]] | None = None  # parallel to legal, for games with action_hints
    undo: bool = False  # this seat may take back its last decision now
    clocks: dict[str, Any] | None = None  # the game's clocks (``Clock.message``, ``claim``)
    # only over HTTP, to the first user of an invite: the seat's own token from now on
    seat_token: str | None = None
    rematch: str | None = None  # the id of the game offered as this one's rematch
    spectators: int = 0  # how many watch it (changes come as ``spectators`` messages)
    campaign: dict[str, Any] | None = None  # the series it is a game of (docs/server-api.md)


class ChatMessage(BaseModel):
    """Chat lines for a seat (never for a spectator): ``replace`` — the whole chat as the seat
    reads it now (on connecting, on a mute), else one new line; ``muted``: whether the seat
    muted the other."""

    type: Literal["chat"] = "chat"
    lines: list[dict[str, Any]]
    muted: bool
    replace: bool


class SpectatorsMessage(BaseModel):
    """How many spectators watch the game (to the seats and the spectators alike)."""

    type: Literal["spectators"] = "spectators"
    count: int


class StateMessage(GameState):
    type: Literal["state"] = "state"


class ErrorMessage(BaseModel):
    """A refusal or failure: ``message`` in English, ``msg`` in any language (``core.i18n``)."""

    type: Literal["error"] = "error"
    message: str
    msg: dict[str, Any] | None = None
    request_id: str | None = None


class SeatMessage(BaseModel):
    """To the first user of an invite, before anything else: the seat is now theirs, and
    ``seat_token`` is its token from now on (the invite grants nothing more)."""

    type: Literal["seat"] = "seat"
    seat: int
    seat_token: str


class ThinkingMessage(BaseModel):
    type: Literal["thinking"] = "thinking"
    seat: int


class HintMessage(BaseModel):
    """A hint: the play ``level`` would make at ``version`` (as the legal actions list it)."""

    type: Literal["hint"] = "hint"
    version: int
    level: str
    action: Any
    text: str  # in the terminal's notation
    request_id: str | None = None


def encode(message: Mapping[str, Any]) -> str:
    """A message as the JSON text sent to a client: compact, non-ASCII characters as they are
    (UTF-8 on the wire). orjson: the standard library's encoder took a tenth of the server's
    CPU at a blitz pace (docs/load.md); keys that are not strings are written as strings, as
    ``json.dumps`` does."""
    try:
        return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()
    except orjson.JSONEncodeError:  # an integer beyond 64 bits, which orjson does not write
        return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


def error_message(message: Msg, request_id: str | None = None) -> dict[str, Any]:
    """An ``error`` message as JSON data."""
    return ErrorMessage(message=english(message), msg=message,
                        request_id=request_id).model_dump(mode="json")


class GameCreated(BaseModel):
    """The answer to ``POST /api/games``."""

    id: str
    game: str
    mode: str
    seat: int
    token: str
    tokens: dict[str, str] | None = None  # hotseat: both seats' tokens
    invite: str | None = None  # friend: the other seat's link
    url: str
    campaign: str | None = None  # the id of the campaign it starts


class OpenGame(BaseModel):
    """A game of the lobby waiting for an opponent: ``seat`` is the one a taker gets."""

    id: str
    game: str
    options: dict[str, Any]
    rated: bool
    clock: dict[str, Any] | None
    seat: int
    poster: str | None
    created: str


class LiveGame(BaseModel):
    """A game of the lobby being played, that anyone may watch."""

    id: str
    game: str
    options: dict[str, Any]
    rated: bool
    clock: dict[str, Any] | None
    players: list[str | None]
    spectators: int
    updated: str


class LobbyListing(BaseModel):
    """``GET /api/lobby``: the open games, the live ones, and the computer's levels (always
    there to play)."""

    open: list[OpenGame]
    live: list[LiveGame]
    computer: list[str]  # every level
    computer_levels: dict[str, list[str]] = Field(default_factory=dict)  # each game's levels


class GameList(BaseModel):
    games: list[GameSummary]  # pydantic validates the storage's dataclass as it is


# ----------------------------------------------------------------------------- reading

def describe(errors: Iterable[Mapping[str, Any]]) -> str:
    """Validation errors in one line: ``version: Input should be a valid integer``."""
    parts = []
    for err in errors:
        where = ".".join(str(p) for p in err.get("loc", ()))
        parts.append(f"{where}: {err.get('msg')}" if where else str(err.get("msg")))
    return "; ".join(parts)


def invalid_input(errors: Iterable[Mapping[str, Any]]) -> Msg:
    """Validation errors as a message (their words are pydantic's English)."""
    return msg("server.invalid", errors=describe(errors))


def _json(data: bytes | str, what: Msg) -> Any:
    """Client JSON, read within limits (size, nesting, digits) before anything else sees it."""
    size = len(data.encode("utf-8") if isinstance(data, str) else data)
    if size > MAX_MESSAGE_BYTES:
        raise Refused(msg("server.tooLarge", what=what, size=size, most=MAX_MESSAGE_BYTES),
                      413)
    try:
        return parse_json(data)
    except JSONInputError as exc:
        raise Refused(msg("server.badJson", what=what, reason=str(exc)), 400) from None


async def read_body(request: Request) -> bytes:
    """A request's body, refused (413) as soon as it grows over ``MAX_MESSAGE_BYTES``."""
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_MESSAGE_BYTES:
            raise Refused(msg("server.bodyTooLarge", most=MAX_MESSAGE_BYTES), 413)
    return bytes(body)


def parse_body(body: bytes, model: type[Model]) -> Model:
    """A JSON request body (none: ``{}``) read as ``model``; 422 saying what is wrong."""
    data = _json(body or b"{}", msg("server.theBody"))
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise Refused(invalid_input(exc.errors(include_url=False)), 422) from None


def parse_create(body: bytes) -> CreateGame:
    return parse_body(body, CreateGame)


def parse_client_message(text: str) -> ClientMessage:
    data = _json(text, msg("server.theMessage"))
    request_id = data.get("request_id") if isinstance(data, dict) else None
    request_id = request_id if isinstance(request_id, str) else None
    kind = data.get("type") if isinstance(data, dict) else None
    model = CLIENT_MESSAGES.get(kind) if isinstance(kind, str) else None
    if model is None:
        raise Refused(msg("server.unknownType", type=repr(kind),
                          types=", ".join(CLIENT_MESSAGES)), 400, request_id)
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise Refused(invalid_input(exc.errors(include_url=False)), 422, request_id) from None
