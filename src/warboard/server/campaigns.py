"""Series of games on the server (a game's campaigns, ``GameInfo.series``): starting one, the
seats of its next game (each side's player follows the side), the winner of a game the server
ruled, and what a game's state says of its series.

A series is one ``campaigns`` row (``storage.CampaignData``); each of its games is a normal
stored game. When one ends, the table asks the series for the progress with it and the next
game's options, and the next game is stored in the same transaction as the end
(``Storage._advance``), with the same seat tokens and players.
"""

from __future__ import annotations

from typing import Any

from warboard.core.i18n import msg
from warboard.core.protocol import Series
from warboard.core.registry import series_of
from warboard.server.messages import Refused
from warboard.server.storage import CampaignData, SeatData, now

HUMAN = "human"


def series_for(game: str) -> Series:
    """The series of ``game``; 422 when it has none."""
    series = series_of(game)
    if series is None:
        raise Refused(msg("server.noCampaigns", game=repr(game)), 422)
    return series


def start(game: str, name: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """(progress, the first game's options) of a new series ``name`` of ``game``."""
    series = series_for(game)
    try:
        progress = series.start(name)
    except ValueError as exc:
        raise Refused(msg("server.reason", reason=str(exc)), 422) from None
    options = series.next_options(progress)
    assert options is not None, "a series has a game"
    return progress, options


def next_seats(sides: tuple[str, str], next_sides: tuple[str, str],
               seats: dict[int, SeatData]) -> list[SeatData]:
    """The seats of the next game: each side's seat (its token, player or AI level) goes to
    the seat that side plays there, joined already."""
    moment = now()
    moved = [SeatData(next_sides.index(sides[s.seat]), s.kind, s.ai_level, s.token_hash,
                      joined=True, player_id=s.player_id,
                      seen=moment if s.kind == HUMAN else None) for s in seats.values()]
    return sorted(moved, key=lambda s: s.seat)


def ruled_winner(result: dict[str, Any] | None) -> int | None:
    """The seat that won a game the server ended (a resignation, a claim; ``None``: a
    draw)."""
    if not result:
        return None
    summary = result.get("summary")
    if isinstance(summary, dict) and summary.get("winner") in (0, 1):
        return int(summary["winner"])
    by = result.get("by") if result.get("abandoned") else None
    return 1 - by if by in (0, 1) else None


def state_field(campaign: CampaignData, game_id: str) -> dict[str, Any]:
    """The ``campaign`` of a series' game's state (docs/server-api.md#campaigns)."""
    index = campaign.games.index(game_id)
    following = campaign.games[index + 1] if index + 1 < len(campaign.games) else None
    return {"id": campaign.id, "name": campaign.name, "index": index,
            "games": list(campaign.games), "next_game": following,
            "progress": campaign.progress}


def listing_json(campaign: CampaignData) -> dict[str, Any]:
    """``GET /api/campaigns/{id}`` without the records."""
    return {"id": campaign.id, "game": campaign.game, "name": campaign.name,
            "mode": campaign.mode, "games": list(campaign.games),
            "progress": campaign.progress}
