"""What the web lobby shows of Hold the Line (``GameInfo.scenarios``)."""

from __future__ import annotations

from typing import Any

from warboard.holdtheline.scenario_file import list_names, load_scenario, summary_json


def scenario_summaries() -> list[dict[str, Any]]:
    """Every packaged scenario: name, title, one-line summary, sides (seat 0 first) and who
    moves first, in the order of ``warboard scenarios``."""
    return [summary_json(load_scenario(name)) for name in list_names()]
