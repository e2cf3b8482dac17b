"""What a host may set about the table server: where it listens, its database, the computer's
worker processes, its logs, the limits on what one client may spend, how long unplayed games are
kept, which proxies are trusted. docs/operations.md and docs/security.md explain each one.

Every setting comes, in this order of precedence, from a ``warboard serve`` flag (for those that
have one: ``SERVE_FLAGS``), a ``WARBOARD_*`` environment variable (``WARBOARD_PORT=8300``), a
TOML file named by ``--config FILE`` or ``WARBOARD_CONFIG`` (``port = 8300``), or its default;
pydantic-settings merges the sources and checks each value on start-up. The defaults fit a club
server.

A *client* is the address a request comes from (the one a trusted proxy names, behind one).
"""

from __future__ import annotations

import json
import os
import re
import textwrap
import tomllib
from collections.abc import Mapping
from contextvars import ContextVar
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, ValidationError, field_validator
from pydantic_settings import (
    BaseSettings,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    TomlConfigSettingsSource,
)

from warboard.server.paths import DATABASE_URL_HELP, default_database_url

ENV_PREFIX = "WARBOARD_"
CONFIG_ENV = "WARBOARD_CONFIG"  # the configuration file, when --config does not name one
# the settings that are also flags of `warboard serve` (--database-url for database_url)
SERVE_FLAGS = ("host", "port", "database_url", "ai_workers", "log_level", "log_format")
DATABASE_URL = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")
PASSWORD_IN_URL = re.compile(r"(://[^/@:]*:)[^/@]*@")

# the file --config names, while load_settings reads the settings (else WARBOARD_CONFIG's)
_config_file: ContextVar[Path | None] = ContextVar("warboard_config_file", default=None)


class SettingsError(ValueError):
    """The settings cannot be read or a value is not valid; the message says where (the flag,
    the environment variable or the file), which setting and what is wrong."""


def _default_ai_workers() -> int:
    return max(1, (os.cpu_count() or 2) - 1)


class ServerSettings(BaseSettings):
    """The server's settings; a limit of 0 turns that limit off."""

    model_config = SettingsConfigDict(env_prefix=ENV_PREFIX, extra="forbid", frozen=True)

    host: str = Field(
        default="127.0.0.1",
        description="address to listen on (127.0.0.1: this machine only; 0.0.0.0 for every "
                    "network interface)")
    port: int = Field(default=8218, ge=0, le=65535, description="port to listen on")
    database_url: str = Field(
        default_factory=default_database_url,
        description=DATABASE_URL_HELP)
    ai_workers: int = Field(
        default_factory=_default_ai_workers, ge=0,
        description="processes for the computer's decisions (default: the cores less one, at "
                    "least 1); 0 runs them in a thread of the server")
    log_level: Literal["debug", "info", "warning", "error", "critical"] = Field(
        default="info", description="the least serious log events written")
    log_format: Literal["text", "json"] = Field(
        default="text",
        description="text lines, or one JSON object per line (docs/operations.md)")
    games_per_minute: int = Field(
        default=30, ge=0,
        description="new games one client may create a minute")
    players_per_hour: int = Field(
        default=10, ge=0,
        description="new players (names with a key) one client may create an hour")
    scenarios_per_hour: int = Field(
        default=30, ge=0,
        description="custom scenarios (the web editor's) one client may store an hour")
    analyses_per_hour: int = Field(
        default=10, ge=0,
        description="post-game analyses one client may start an hour (an analysis already made "
                    "or under way is not counted)")
    messages_per_second: int = Field(
        default=20, ge=0,
        description="WebSocket messages one client may send a second, over all its connections")
    chat_per_second: int = Field(
        default=3, ge=0,
        description="chat lines one client may send a second, over all its games")
    requests_per_minute: int = Field(
        default=600, ge=0,
        description="HTTP API requests one client may make a minute (the pages and their files "
                    "are not counted)")
    sockets_per_client: int = Field(
        default=32, ge=0,
        description="WebSocket connections one client may hold open at once")
    ai_games_per_client: int = Field(
        default=4, ge=0,
        description="live games against the computer one client may have at once (live: not over, "
                    "and played in within ai_game_idle_minutes)")
    ai_game_idle_minutes: float = Field(
        default=15.0, gt=0,
        description="an unfinished game against the computer stops counting as live after this "
                    "long without a play")
    invite_expiry_hours: float = Field(
        default=24.0, gt=0,
        description="a friend game whose invite nobody opened is deleted after this long")
    idle_expiry_days: float = Field(
        default=30.0, gt=0,
        description="an unfinished game nobody played in for this long is deleted (finished games "
                    "are kept)")
    expiry_interval_minutes: float = Field(
        default=10.0, gt=0,
        description="how often expired games are looked for")
    clock_sweep_seconds: float = Field(
        default=5.0, gt=0,
        description="how often each server process looks for clocks out of time in the games it "
                    "does not hold (the games it holds have a timer of their own)")
    abandon_grace_seconds: float = Field(
        default=60.0, gt=0,
        description="in a game on a real-time clock, the opponent of a player whose connections "
                    "have all been closed this long may claim the win or a draw")
    analysis_level: str = Field(
        default="hard",
        description="the level whose search judges each decision of a finished game in its "
                    "post-game analysis (a searching level: medium, hard or expert)")
    analysis_seconds: float = Field(
        default=60.0, gt=0,
        description="the most seconds of an AI worker's time the analysis of one game may take: "
                    "each decision gets an equal share, at most the level's own cap")
    seeded_games: bool = Field(
        default=False,
        description="let a game's creator choose its seed (POST /api/games, seed), so that its "
                    "chance replays exactly: for tests and demonstrations, never for a table "
                    "strangers play at, as whoever chose the seed knows the dice (rated games "
                    "never take one)")
    max_header_bytes: int = Field(
        default=16 * 1024, ge=1024,
        description="the largest request line and headers read (431 beyond)")
    rate_limit_storage: str = Field(
        default="memory://", pattern=r"^(memory://|rediss?://.+)$",
        description="where the rate limits are counted: memory:// (this process) or "
                    "redis://HOST:PORT (shared by several server processes; extra 'redis')")
    websocket_compression: bool = Field(
        default=True,
        description="compress the WebSocket messages (permessage-deflate, which browsers "
                    "offer): a tenth of the traffic for about a sixth more of the server's CPU "
                    "a play; false for a server whose CPU is scarcer than its bandwidth "
                    "(docs/load.md)")
    forwarded_allow_ips: str = Field(
        default="127.0.0.1",
        description="proxies trusted to name the client in X-Forwarded-For (comma-separated "
                    "addresses, or *)")

    @field_validator("database_url")
    @classmethod
    def _a_url(cls, value: str) -> str:
        if not DATABASE_URL.match(value):
            raise ValueError("must be an SQLAlchemy URL such as sqlite:///warboard.db or "
                             "postgresql+psycopg://USER@HOST/DB")
        return value

    @field_validator("analysis_level")
    @classmethod
    def _a_searching_level(cls, value: str) -> str:
        from warboard.ai.levels import LEVELS

        searching = [name for name, spec in LEVELS.items() if spec["kind"] == "ismcts"]
        if value not in searching:
            raise ValueError(f"must be a level that searches: {', '.join(searching)}")
        return value

    @field_validator("log_level", "log_format", mode="before")
    @classmethod
    def _lower_case(cls, value: Any) -> Any:
        return value.lower() if isinstance(value, str) else value

    @classmethod
    def settings_customise_sources(
            cls, settings_cls: type[BaseSettings], init_settings: PydanticBaseSettingsSource,
            env_settings: PydanticBaseSettingsSource,
            dotenv_settings: PydanticBaseSettingsSource,
            file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        """Flags (the keyword arguments) over the environment over the configuration file."""
        file = config_file(_config_file.get())
        if file is None:
            return init_settings, env_settings
        return init_settings, env_settings, TomlConfigSettingsSource(settings_cls, file)

    def shown(self) -> list[str]:
        """Every setting as a line of TOML (``port = 8218``), passwords in URLs masked."""
        return [f"{name} = {json.dumps(mask(value) if isinstance(value, str) else value)}"
                for name, value in self.model_dump().items()]


def mask(text: str) -> str:
    """``text`` with the password of any URL in it shown as ``***``."""
    return PASSWORD_IN_URL.sub(r"\1***@", text)


def config_file(named: str | Path | None = None) -> Path | None:
    """The configuration file: ``named`` (``--config``), else ``WARBOARD_CONFIG``'s."""
    if named is not None:
        return Path(named)
    env = os.environ.get(CONFIG_ENV)
    return Path(env) if env else None


def flag(name: str) -> str:
    return "--" + name.replace("_", "-")


def load_settings(flags: Mapping[str, Any] | None = None,
                  config: str | Path | None = None) -> ServerSettings:
    """The settings from ``flags`` (those given), the environment, the file ``config`` (by
    default ``WARBOARD_CONFIG``'s) and the defaults; ``SettingsError`` names what is wrong."""
    flags = dict(flags or {})
    token = _config_file.set(Path(config) if config is not None else None)
    try:
        file = config_file(config)
        if file is not None and not file.is_file():
            named = "--config" if config is not None else CONFIG_ENV
            raise SettingsError(f"{named}: no configuration file {str(file)!r}")
        try:
            return ServerSettings(**flags)
        except tomllib.TOMLDecodeError as exc:
            raise SettingsError(f"{file}: not valid TOML: {exc}") from None
        except ValidationError as exc:
            raise SettingsError("; ".join(_problem(err, flags, file) for err in exc.errors()))\
                from None
    finally:
        _config_file.reset(token)


def _problem(error: Mapping[str, Any], flags: Mapping[str, Any], file: Path | None) -> str:
    """One invalid setting, named where its value came from (the sources' precedence)."""
    name = str(error["loc"][0]) if error.get("loc") else ""
    if error["type"] == "extra_forbidden":
        return (f"{file}: unknown setting {name!r} (the settings: "
                f"{', '.join(ServerSettings.model_fields)})")
    env = f"{ENV_PREFIX}{name.upper()}"
    if name in flags:
        where = flag(name)
    elif any(key.upper() == env for key in os.environ):
        where = env
    else:
        where = str(file)
    return f"{where}: {name}: {error['msg']}"


def settings_help() -> str:
    """Every setting with its environment variable and default, for ``warboard serve --help``."""
    lines = ["settings: each from its flag (those above), else its WARBOARD_* environment "
             "variable, else the TOML file of --config or WARBOARD_CONFIG (name = value), else "
             "its default; a limit of 0 turns it off:"]
    for name, field in ServerSettings.model_fields.items():
        default = field.get_default(call_default_factory=True)
        also = f", {flag(name)}" if name in SERVE_FLAGS else ""
        lines.append(f"  {ENV_PREFIX}{name.upper()}{also} (default: {default})")
        lines.extend(textwrap.wrap(str(field.description), 88, initial_indent="      ",
                                   subsequent_indent="      "))
    return "\n".join(lines)
