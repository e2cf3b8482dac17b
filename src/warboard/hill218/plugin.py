"""The card games as warboard sees them: one engine, two rulesets (``core.registry``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from warboard.core.registry import GameInfo


def _card_game(name: str, title: str, env_name: str, window: int,
               levels: Mapping[str, Mapping[str, Any]] | None = None,
               handicap: tuple[str, ...] = ()) -> GameInfo:
    return GameInfo(
        name, title,
        engine="warboard.hill218.game",
        interchange="warboard.hill218.interchange",
        knowledge="warboard.hill218.knowledge",
        encoding="warboard.hill218.encoding",
        terminal="warboard.hill218.terminal",
        cli="warboard.hill218.cli",
        bench="warboard.hill218.bench",
        vector="warboard.hill218.vector",
        server_setup="warboard.hill218.state:tune_for_server",
        hidden_information=True,
        env_name=env_name,
        levels=levels or {},
        model_params={"window": window},
        setup_options=("quick_start", *handicap),
    )


GAMES = (
    # expert's 1000 iterations scored 54.5% against hard over 200 games; it searches twice as
    # long (about 0.4 s a decision on a quiet core)
    # a model's window: 3,787 action ids on hill218 (11), 10,189 on ogre218 (9)
    # master reads the model trained by self-play that ships beside the rulesets (docs/ai.md)
    _card_game("hill218", "The Battle for Hill 218", "Hill218", 11,
               levels={"expert": {"iterations": 2000},
                       # its beliefs cost this model games (docs/ai.md, "Beliefs")
                       "master": {"model": "warboard.hill218:models/hill218.npz",
                                  "beliefs": False}}),
    _card_game("ogre218", "Ogre: Objective 218", "Ogre218", 9,
               levels={"master": {"model": "warboard.hill218:models/ogre218.npz"}},
               handicap=("damaged_ogres",)),
)
