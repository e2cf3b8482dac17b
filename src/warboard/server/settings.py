"""What a host may set about the table server: the limits on what one client may spend, how long
unplayed games are kept, which proxies are trusted. Read from ``WARBOARD_*`` environment variables
(``WARBOARD_GAMES_PER_MINUTE=60``) by pydantic-settings, each checked on start-up; the defaults
fit a club server. docs/security.md explains each one.

A *client* is the address a request comes from (the one a trusted proxy names, behind one).
"""

from __future__ import annotations

import textwrap

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict


class ServerSettings(BaseSettings):
    """The server's limits and housekeeping; a limit of 0 turns that limit off."""

    model_config = SettingsConfigDict(env_prefix="WARBOARD_", extra="ignore", frozen=True)

    games_per_minute: int = Field(
        default=30, ge=0,
        description="new games one client may create a minute")
    messages_per_second: int = Field(
        default=20, ge=0,
        description="WebSocket messages one client may send a second, over all its connections")
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
    max_header_bytes: int = Field(
        default=16 * 1024, ge=1024,
        description="the largest request line and headers read (431 beyond)")
    rate_limit_storage: str = Field(
        default="memory://", pattern=r"^(memory://|rediss?://.+)$",
        description="where the rate limits are counted: memory:// (this process) or "
                    "redis://HOST:PORT (shared by several server processes; extra 'redis')")
    forwarded_allow_ips: str = Field(
        default="127.0.0.1",
        description="proxies trusted to name the client in X-Forwarded-For (comma-separated "
                    "addresses, or *)")

def settings_help() -> str:
    """Every setting with its environment variable and default, for ``warboard serve --help``."""
    lines = ["settings (environment variables; a limit of 0 turns it off):"]
    for name, field in ServerSettings.model_fields.items():
        lines.append(f"  WARBOARD_{name.upper()} (default: {field.default})")
        lines.extend(textwrap.wrap(str(field.description), 88, initial_indent="      ",
                                   subsequent_indent="      "))
    return "\n".join(lines)
