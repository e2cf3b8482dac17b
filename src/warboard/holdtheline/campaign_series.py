"""Hold the Line's campaigns as the server sees them: the game's ``Series``
(``GameInfo.series``, ``core.protocol.Series``), over ``campaign`` and ``campaign_progress``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from warboard.core.errors import WarboardError
from warboard.core.protocol import State
from warboard.holdtheline.campaign import Campaign, list_campaigns, load_campaign
from warboard.holdtheline.campaign_progress import Progress
from warboard.holdtheline.scenario_file import load_scenario
from warboard.holdtheline.state import HtlState
from warboard.holdtheline.translations import campaign_words


def campaign_json(campaign: Campaign) -> dict[str, Any]:
    """A campaign's summary: what ``warboard campaigns --json`` and the lobby list."""
    return {"name": campaign.name, "title": campaign.title, "summary": campaign.summary,
            "sides": [{"name": n, "label": label}
                      for n, label in campaign.side_labels().items()],
            "games": [{"options": {"scenario": s}, "title": load_scenario(s).title}
                      for s in campaign.battles]}


class Campaigns:
    """The ``Series`` of Hold the Line: its packaged campaigns."""

    def summaries(self) -> list[dict[str, Any]]:
        """The lobby's list: ``campaign_json`` and what it says in the client's other languages."""
        return [{**campaign_json(c), "words": campaign_words(c)} for c in list_campaigns()]

    def start(self, name: str) -> dict[str, Any]:
        return Progress(load_campaign(name)).to_json()

    def next_options(self, progress: Mapping[str, Any]) -> dict[str, Any] | None:
        scenario = _read(progress).next_battle
        return None if scenario is None else {"scenario": scenario}

    def finish(self, progress: Mapping[str, Any], state: State,
               ruled_winner: int | None) -> dict[str, Any]:
        read = _read(progress)
        assert isinstance(state, HtlState)
        read.add(state, ruled_winner)
        return read.to_json()

    def seat_sides(self, options: Mapping[str, Any]) -> tuple[str, str]:
        a, b = load_scenario(options.get("scenario")).sides
        return a.name, b.name


def _read(progress: Mapping[str, Any]) -> Progress:
    try:
        return Progress.from_json(progress)
    except WarboardError as exc:  # the protocol's error for progress that does not read
        raise ValueError(str(exc)) from exc


CAMPAIGNS = Campaigns()
