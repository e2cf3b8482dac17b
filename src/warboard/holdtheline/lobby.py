"""What the web lobby shows of Hold the Line (``GameInfo.scenarios``)."""

from __future__ import annotations

from typing import Any

from warboard.holdtheline.scenario_file import list_scenarios, load_scenario


def scenario_summaries() -> list[dict[str, Any]]:
    """Every packaged scenario: name, title, one-line summary, sides (seat 0 first) and who
    moves first, in the order of ``warboard scenarios``."""
    out = []
    for name, title, summary in list_scenarios():
        sc = load_scenario(name)
        out.append({"name": name, "title": title, "summary": summary, "date": sc.date or None,
                    "turns": sc.turn_limit, "first": sc.first,
                    "sides": [{"name": side.name, "label": side.display_name,
                               "home_edges": list(side.home_edges)} for side in sc.sides]})
    return out
