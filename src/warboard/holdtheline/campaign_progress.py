"""A campaign under way: the battles played (each one's winner and the VP each side banked),
the next battle, the running totals and, once every battle is played, the winner.

Scoring (rulebook 12, contract §9, docs/rules-decisions.md "Campaigns"): a battle won on VP
banks what each side holds at its end; a battle won on time credits the winner the VP its
scenario needs to win (its ``vp_target``; with none, what it holds) and the loser what it held;
a battle drawn at the turn limit banks what each side holds. A battle the players did not play
out (a resignation, a flag) is scored as one won on time by the side left standing. The
campaign's winner has the larger total; equal totals are a draw. Totals are kept by side name,
as a side need not hold the same seat in every battle."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from warboard.core.errors import WarboardError
from warboard.holdtheline.campaign import Campaign, parse_campaign
from warboard.holdtheline.state import HtlState
from warboard.holdtheline.victory import vp_total


@dataclass(frozen=True)
class Battle:
    """One battle played: its winner (a side name, ``None`` for a draw), why it ended, and
    the VP each side banked; ``record``: where its record is (the terminal's file)."""

    scenario: str
    winner: str | None
    reason: str
    banked: dict[str, int]
    record: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"scenario": self.scenario, "winner": self.winner, "reason": self.reason,
                "banked": dict(self.banked), "record": self.record}


def bank(state: HtlState, ruled_winner: int | None = None) -> tuple[int | None, str,
                                                                     tuple[int, int]]:
    """(winner seat, reason, VP each seat banks) of a finished battle: the engine's own end
    when ``state`` is terminal, else the result a player or the server ruled (``ruled_winner``:
    the seat left standing, ``None`` for a draw), scored as an end on time."""
    held = (vp_total(state, 0), vp_total(state, 1))
    if state.result is not None:
        winner, reason = state.result["winner"], str(state.result["reason"])
    else:
        winner, reason = ruled_winner, "ruled"
    if winner is None or reason == "vp":
        return winner, reason, held
    target = state.scenario.sides[winner].vp_target
    credited = held[winner] if target is None else max(target, held[winner])
    banked = (credited, held[1]) if winner == 0 else (held[0], credited)
    return winner, reason, banked


@dataclass
class Progress:
    """A campaign and the battles played so far, in order."""

    campaign: Campaign
    played: list[Battle] = field(default_factory=list)

    @property
    def next_index(self) -> int | None:
        """The index of the battle to play next (``None`` once the campaign is over)."""
        return len(self.played) if len(self.played) < len(self.campaign.battles) else None

    @property
    def next_battle(self) -> str | None:
        index = self.next_index
        return None if index is None else self.campaign.battles[index]

    @property
    def over(self) -> bool:
        return self.next_index is None

    @property
    def totals(self) -> dict[str, int]:
        """The VP each side banked so far, by side name (the campaign's order)."""
        return {side: sum(b.banked[side] for b in self.played) for side in self.campaign.sides}

    @property
    def winner(self) -> str | None:
        """The side with the larger total once the campaign is over (``None``: a draw, or
        not over)."""
        a, b = (self.totals[s] for s in self.campaign.sides)
        if not self.over or a == b:
            return None
        return self.campaign.sides[0] if a > b else self.campaign.sides[1]

    def add(self, state: HtlState, ruled_winner: int | None = None,
            record: str | None = None) -> Battle:
        """Score the finished battle ``state`` (the next one's) and add it."""
        if self.next_battle != state.scenario.name:
            raise WarboardError(f"campaign {self.campaign.name}: the battle to play is "
                                f"{self.next_battle}, not {state.scenario.name}")
        winner, reason, banked = bank(state, ruled_winner)
        sides = [s.name for s in state.scenario.sides]
        battle = Battle(state.scenario.name, None if winner is None else sides[winner], reason,
                        dict(zip(sides, banked, strict=True)), record)
        self.played.append(battle)
        return battle

    def to_json(self) -> dict[str, Any]:
        c = self.campaign
        return {"campaign": {"name": c.name, "title": c.title, "summary": c.summary,
                             "history": c.history, "battles": list(c.battles)},
                "played": [b.to_json() for b in self.played], "next": self.next_battle,
                "totals": self.totals, "over": self.over, "winner": self.winner}

    @classmethod
    def from_json(cls, data: Mapping[str, Any], where: str = "campaign") -> Progress:
        """Read ``to_json``'s data back (the campaign is validated again: its scenarios must
        still exist); ``where`` names the data in error messages."""
        if not isinstance(data, Mapping) or not isinstance(data.get("campaign"), Mapping):
            raise WarboardError(f"{where}: not a saved campaign (no 'campaign' object)")
        c = data["campaign"]
        campaign = parse_campaign(where, {k: c.get(k) for k in
                                          ("title", "summary", "history", "battles")},
                                  str(c.get("name")))
        progress = cls(campaign)
        played = data.get("played")
        if not isinstance(played, list) or len(played) > len(campaign.battles):
            raise WarboardError(f"{where}: played: must be a list of at most "
                                f"{len(campaign.battles)} battles")
        for i, b in enumerate(played):
            progress.played.append(_battle(b, campaign, i, f"{where}: played[{i}]"))
        return progress


def _battle(data: Any, campaign: Campaign, index: int, where: str) -> Battle:
    sides = set(campaign.sides)
    try:
        battle = Battle(data["scenario"], data["winner"], str(data["reason"]),
                        {str(k): int(v) for k, v in data["banked"].items()}, data.get("record"))
    except (TypeError, KeyError, AttributeError, ValueError) as exc:
        raise WarboardError(f"{where}: not a battle ({exc})") from None
    if (battle.scenario != campaign.battles[index] or set(battle.banked) != sides
            or battle.winner not in (*sides, None)):
        raise WarboardError(f"{where}: not the campaign's battle {campaign.battles[index]} "
                            f"between {' and '.join(campaign.sides)}")
    return battle
