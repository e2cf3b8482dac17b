"""Campaigns (rulebook 12): scenarios played in order, their VP added up. Each is a TOML file
of ``campaigns/`` (its name the file's stem), validated on load with errors
``FILE: FIELD: PROBLEM``; a campaign names packaged scenarios only, all with the same two
sides (the totals are kept by side, whichever seat a side is in each battle)."""

from __future__ import annotations

import reprlib
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from warboard.core.datafile import (
    Fields,
    known_name,
    load_packaged_toml,
    load_toml,
    packaged_names,
    type_name,
)
from warboard.core.errors import DataFileError
from warboard.holdtheline.scenario import Scenario
from warboard.holdtheline.scenario_file import load_scenario, scenario_names

PACKAGE = "warboard.holdtheline.campaigns"
MAX_BATTLES = 12


@dataclass(frozen=True)
class Campaign:
    name: str  # the file's stem, e.g. "washingtons_christmas"
    title: str
    summary: str
    history: str
    battles: tuple[str, ...]  # scenario names, in the order they are played
    sides: tuple[str, str]  # the side names, as the first battle's seats hold them

    def scenario(self, index: int) -> Scenario:
        return load_scenario(self.battles[index])

    def side_labels(self) -> dict[str, str]:
        """Each side's name to how the campaign calls it (american -> American)."""
        first = self.scenario(0)
        return {side.name: side.name.replace("_", " ").capitalize() for side in first.sides}


@cache
def campaign_names() -> tuple[str, ...]:
    """The packaged campaigns' names, sorted."""
    return packaged_names(PACKAGE)


@cache
def _packaged(name: str) -> Campaign:
    path, data = load_packaged_toml(PACKAGE, f"{name}.toml")
    return parse_campaign(path, data, name)


def load_campaign(name: object) -> Campaign:
    """A packaged campaign by name; anything else (a path included) is a ``ValueError`` that
    lists the names."""
    return _packaged(known_name(name, campaign_names(), "campaign"))


def list_campaigns() -> list[Campaign]:
    """Every packaged campaign, in the order of its first battle's date."""
    return sorted((_packaged(n) for n in campaign_names()),
                  key=lambda c: (c.scenario(0).date, c.name))


def load_campaign_file(path: str | Path) -> Campaign:
    """A campaign file of one's own (named after its stem)."""
    name, data = load_toml(path)
    return parse_campaign(name, data, Path(path).stem)


def parse_campaign(path: str, data: dict[str, Any], name: str) -> Campaign:
    """Validate a campaign's TOML data; ``path`` names the file in error messages."""
    top = Fields(path, "", data)
    title, summary, history = (top.str(k) for k in ("title", "summary", "history"))
    if "\n" in summary:
        raise top.error("summary", "must be one line")
    battles = top.raw("battles")
    if not isinstance(battles, list) or not 1 <= len(battles) <= MAX_BATTLES:
        raise top.error("battles", f"must be a list of 1 to {MAX_BATTLES} scenario names, not "
                                   f"{type_name(battles)}"
                        + (f" of {len(battles)}" if isinstance(battles, list) else ""))
    scenarios = [_battle(path, i, b) for i, b in enumerate(battles)]
    top.finish()
    sides = (scenarios[0].sides[0].name, scenarios[0].sides[1].name)
    for i, scenario in enumerate(scenarios):
        if {s.name for s in scenario.sides} != set(sides):
            raise DataFileError(path, f"battles[{i}]", f"{scenario.name} is fought by "
                                f"{' and '.join(s.name for s in scenario.sides)}, not the "
                                f"campaign's sides ({' and '.join(sides)})")
    return Campaign(name=name, title=title, summary=summary, history=history.strip(),
                    battles=tuple(s.name for s in scenarios), sides=sides)


def _battle(path: str, index: int, value: object) -> Scenario:
    where = f"battles[{index}]"
    if not isinstance(value, str):
        raise DataFileError(path, where, f"must be a scenario name, not {type_name(value)}")
    if value not in scenario_names():
        raise DataFileError(path, where, f"unknown scenario {reprlib.repr(value)}; scenarios: "
                                         f"{', '.join(scenario_names())}")
    return load_scenario(value)
