"""One game between two agents, through the core protocol only."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Any

from warboard.ai.agent import decide, make_agent
from warboard.core.protocol import CHANCE, sample_chance
from warboard.core.record import Recorder
from warboard.core.registry import make_game


@dataclass(frozen=True)
class MatchSpec:
    game: str
    options: dict[str, Any]
    agents: tuple[str, str]  # agent spec for seat 0, seat 1
    seed: int
    time_caps: bool = True  # False: levels use their iteration budgets only
    keep_record: bool = False  # True: the result carries the game's full record


@dataclass(frozen=True)
class MatchResult:
    spec: MatchSpec
    returns: tuple[float, float]
    decisions: tuple[int, int]
    think_seconds: tuple[float, float]
    summary: dict[str, Any] | None
    record: dict[str, Any] | None = None  # the full record as JSON (docs/records.md), if kept


def play_match(spec: MatchSpec) -> MatchResult:
    """Play one game. Chance and each agent have their own seeded generators, so a match is
    reproducible when the agents' budgets are iterations. A kept record names the agents as its
    players and the match's seed as its seed; keeping it changes nothing in the game."""
    game = make_game(spec.game, spec.options)
    agents = [make_agent(spec.agents[0], spec.time_caps), make_agent(spec.agents[1],
                                                                     spec.time_caps)]
    chance_rng = random.Random(f"{spec.seed}:chance")
    agent_rngs = [random.Random(f"{spec.seed}:seat{s}") for s in (0, 1)]
    recorder = Recorder(game, spec.seed, list(spec.agents)) if spec.keep_record else None
    state = game.new_initial_state() if recorder is None else recorder.state
    apply = state.apply if recorder is None else recorder.apply
    decisions = [0, 0]
    think = [0.0, 0.0]
    while not state.is_terminal():
        seat = state.current_player()
        if seat == CHANCE:
            apply(sample_chance(state, chance_rng))
            continue
        start = time.perf_counter()
        action = decide(agents[seat], state, agent_rngs[seat])
        think[seat] += time.perf_counter() - start
        decisions[seat] += 1
        apply(action)
    returns = state.returns()
    return MatchResult(spec, (returns[0], returns[1]), (decisions[0], decisions[1]),
                       (think[0], think[1]), state.observation(None).get("result"),
                       None if recorder is None else recorder.record.to_json())
