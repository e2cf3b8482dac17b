"""``warboard campaigns [NAME] [--json]``: the packaged campaigns, or one of them."""

from __future__ import annotations

import json
from typing import Any

from warboard.holdtheline.campaign import Campaign, list_campaigns, load_campaign
from warboard.holdtheline.campaign_series import campaign_json
from warboard.holdtheline.scenario_file import print_columns

SCORING = ("Each battle is played in order. A battle won on VP banks the VP each side holds "
           "at its end; a side that wins on time is credited the VP its scenario needs to win "
           "(or what it holds, with no VP target), the loser what it held; a draw banks what "
           "each side holds. The larger campaign total wins; equal totals are a draw.")


def describe(campaign: Campaign) -> str:
    """A campaign as text: its battles in order, how it is scored, its history note."""
    lines = [f"{campaign.title} — {campaign.name}", campaign.summary, "", "Battles, in order:"]
    for i, name in enumerate(campaign.battles, 1):
        scenario = campaign.scenario(i - 1)
        lines.append(f"  {i}. {scenario.title}" + (f" ({scenario.date})" if scenario.date
                                                    else "") + f" — {name}")
    labels = campaign.side_labels()
    lines += ["", f"Sides: {' and '.join(labels.values())}.", "", "Scoring:",
              *_wrap(SCORING), "", "History:", *_wrap(campaign.history), "",
              f"Play it: warboard play holdtheline --campaign {campaign.name}"]
    return "\n".join(lines)


def _wrap(text: str) -> list[str]:
    import textwrap

    return textwrap.wrap(text, 96, initial_indent="  ", subsequent_indent="  ")


def details_json(campaign: Campaign) -> dict[str, Any]:
    return {**campaign_json(campaign), "history": campaign.history, "scoring": SCORING}


def run_campaigns(args: Any) -> int:
    """``warboard campaigns [NAME] [--json]``."""
    if args.name:
        campaign = load_campaign(args.name)
        print(json.dumps(details_json(campaign)) if args.json else describe(campaign))
        return 0
    campaigns = list_campaigns()
    if args.json:
        print(json.dumps({"campaigns": [campaign_json(c) for c in campaigns]}))
        return 0
    rows = [(c.name, c.title, ", ".join(c.battles), c.summary) for c in campaigns]
    print_columns(("name", "title", "battles (in order)", "summary"), rows)
    print("\n'warboard campaigns NAME' shows one; 'warboard play holdtheline --campaign NAME' "
          "plays it.")
    return 0
