"""What the web lobby shows of Hold the Line (``GameInfo.scenarios``)."""

from __future__ import annotations

from typing import Any

from warboard.holdtheline.scenario_file import list_names, load_scenario, summary_json
from warboard.holdtheline.translations import scenario_words


def scenario_summaries() -> list[dict[str, Any]]:
    """Every packaged scenario: name, title, one-line summary, sides (seat 0 first) and who
    moves first, in the order of ``warboard scenarios``; ``words``: what the table says of it
    in its other languages."""
    return [{**summary_json(s), "words": scenario_words(s)}
            for s in map(load_scenario, list_names())]
