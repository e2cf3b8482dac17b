"""One game between two agents, through the core protocol only."""

from __future__ import annotations

import random
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from warboard.ai.agent import Agent, decide, make_agent
from warboard.core.protocol import CHANCE, Game, State, sample_chance
from warboard.core.record import Recorder
from warboard.core.registry import make_game


@dataclass(frozen=True)
class MatchSpec:
    game: str
    options: dict[str, Any]
    agents: tuple[str, str]  # agent spec for seat 0, seat 1
    seed: int
    time_caps: bool = True  # False: levels use their iteration budgets only
    # every search decides in this many seconds, its iteration budget lifted (equal time)
    seconds: float | None = None
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
    agents = (make_agent(spec.agents[0], spec.time_caps, spec.seconds),
              make_agent(spec.agents[1], spec.time_caps, spec.seconds))
    recorder = Recorder(game, spec.seed, list(spec.agents)) if spec.keep_record else None
    played = play_game(game, agents, spec.seed, recorder)
    return MatchResult(spec, played.returns, played.decisions, played.think_seconds,
                       played.state.observation(None).get("result"),
                       None if recorder is None else recorder.record.to_json())


@dataclass(frozen=True)
class Played:
    state: State  # the final position
    returns: tuple[float, float]
    decisions: tuple[int, int]
    think_seconds: tuple[float, float]


def play_out(state: State, agents: Mapping[int, Agent], rng: random.Random) -> State:
    """``state`` played to its end by ``agents`` (by seat), chance and every agent drawing from
    the one ``rng`` (the benchmarks' games); returns it."""
    while not state.is_terminal():
        player = state.current_player()
        if player == CHANCE:
            state.apply(sample_chance(state, rng))
        else:
            state.apply(decide(agents[player], state, rng))
    return state


def play_game(game: Game, agents: tuple[Agent, Agent], seed: int,
              recorder: Recorder | None = None) -> Played:
    """One game of ``agents`` (seat 0's, seat 1's) from ``game``'s initial position (the
    recorder's, which records it, when given); chance and each seat draw from their own
    generators seeded from ``seed``."""
    chance_rng = random.Random(f"{seed}:chance")
    agent_rngs = [random.Random(f"{seed}:seat{s}") for s in (0, 1)]
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
    return Played(state, (returns[0], returns[1]), (decisions[0], decisions[1]),
                  (think[0], think[1]))
