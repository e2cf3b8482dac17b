"""Hold the Line as warboard sees it (``core.registry``)."""

from __future__ import annotations

from warboard.core.registry import GameInfo

GAMES = (
    GameInfo(
        "holdtheline", "Hold the Line",
        engine="warboard.holdtheline.game",
        interchange="warboard.holdtheline.interchange",
        knowledge="warboard.holdtheline.knowledge",
        encoding="warboard.holdtheline.encoding",
        terminal="warboard.holdtheline.terminal",
        cli="warboard.holdtheline.cli",
        bench="warboard.holdtheline.bench",
        scenarios="warboard.holdtheline.lobby:scenario_summaries",
        series="warboard.holdtheline.campaign_series:CAMPAIGNS",
        ladder_options="warboard.holdtheline.cli:ladder_options",
        custom_setups="warboard.holdtheline.setups:SETUPS",
        env_name="HoldTheLine",
        # ~70 legal actions per position and a slower engine (docs/ai.md)
        levels={"medium": {"iterations": 120}, "hard": {"iterations": 300},
                "expert": {"iterations": 1500, "exploration": 0.5}},
    ),
)
