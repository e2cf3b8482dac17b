"""Self-play games that teach a model, and the games that judge it (``ai.training``).

Both seats search with the same knowledge (a model, or at first the game's hand-written
evaluation) and the same budget. At each decision the seat's observation vector, the legal
plays' ids and how the search shared its visits among them (the policy target) are kept; when
the game ends every kept decision learns its seat's result (the value target). The first
decisions of each seat are drawn in proportion to the visits, so that games differ.
"""

from __future__ import annotations

import hashlib
import io
import random
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from warboard.adapters.encodings import make_encoding
from warboard.ai.ismcts import ISMCTSAgent
from warboard.ai.knowledge import Knowledge
from warboard.ai.match import play_game
from warboard.ai.model import PolicyValueModel, model_knowledge, observation_size
from warboard.core.protocol import CHANCE, sample_chance
from warboard.core.registry import make_game


@dataclass(frozen=True)
class SearchSpec:
    """A search for training: its iterations and exploration, and the model file's bytes it
    reads its values and priors from (``None``: the game's own knowledge). Bytes rather than a
    path, so that a worker on another machine (Ray) needs nothing but the job."""

    iterations: int
    exploration: float
    model: bytes | None = None
    value_weight: float = 1.0  # the model's share of the value (model_knowledge)
    # the compiled search where the game has one (TrainConfig.compiled); by default the Python
    # search, so that a run is the same function of its configuration and seed on every machine
    compiled: bool = False

    def agent(self, name: str) -> ISMCTSAgent:
        knowledge = None if self.model is None else _model_knowledge(
            hashlib.sha256(self.model).hexdigest(), self.model, self.value_weight)
        return ISMCTSAgent(iterations=self.iterations, exploration=self.exploration,
                           name=name, knowledge=knowledge, native=self.compiled)


@lru_cache(maxsize=4)
def _model_knowledge(digest: str, data: bytes, value_weight: float) -> Knowledge:
    model = PolicyValueModel.from_file(io.BytesIO(data), f"model {digest[:12]}")
    return model_knowledge(model, value_weight)


@dataclass(frozen=True)
class SelfPlayJob:
    game: str
    options: dict[str, Any]
    params: dict[str, Any]  # the encoding's (the game's options among them)
    search: SearchSpec
    seed: int
    explore_decisions: int  # each seat's first decisions drawn by visits


@dataclass(frozen=True)
class Samples:
    """Decisions to learn from: ``obs`` (n × observation size), the legal ids of each
    (``ids[starts[k]:starts[k + 1]]``) with their target probabilities ``probs``, and the
    deciding seat's result ``outcome``."""

    obs: np.ndarray
    starts: np.ndarray
    ids: np.ndarray
    probs: np.ndarray
    outcome: np.ndarray

    def __len__(self) -> int:
        return len(self.outcome)

    @staticmethod
    def join(parts: list[Samples]) -> Samples:
        offsets = np.cumsum([0] + [len(p.ids) for p in parts])
        starts = [p.starts[:-1] + off for p, off in zip(parts, offsets, strict=False)]
        return Samples(np.concatenate([p.obs for p in parts]),
                       np.concatenate([*starts, offsets[-1:]]).astype(np.int64),
                       np.concatenate([p.ids for p in parts]),
                       np.concatenate([p.probs for p in parts]),
                       np.concatenate([p.outcome for p in parts]))

    def arrays(self) -> dict[str, Any]:
        return {"obs": self.obs, "starts": self.starts, "ids": self.ids, "probs": self.probs,
                "outcome": self.outcome}


def play_selfplay(job: SelfPlayJob) -> Samples:
    """One self-play game and its decisions as samples."""
    game = make_game(job.game, job.options)
    encoding = make_encoding(job.game, job.params)
    agent = job.search.agent("selfplay")
    chance_rng = random.Random(f"{job.seed}:chance")
    rng = random.Random(f"{job.seed}:search")
    state = game.new_initial_state()
    obs: list[np.ndarray] = []
    ids: list[int] = []
    probs: list[float] = []
    starts = [0]
    seats: list[int] = []
    made = [0, 0]
    while not state.is_terminal():
        seat = state.current_player()
        if seat == CHANCE:
            state.apply(sample_chance(state, chance_rng))
            continue
        legal = state.legal_actions()
        if len(legal) == 1:
            state.apply(legal[0])
            continue
        searched = agent.search(game, state.observation(seat), legal, rng)
        visits = {a: v for a, (v, _) in searched.plays.items()}
        action = searched.best
        if made[seat] < job.explore_decisions:
            tried = list(visits)
            action = rng.choices(tried, weights=[visits[a] for a in tried])[0]
        made[seat] += 1
        total = sum(visits.values())
        for play, play_id in zip(legal, encoding.action_ids(state, legal), strict=True):
            if play_id is not None:
                ids.append(play_id)
                probs.append(visits.get(play, 0) / total)
        starts.append(len(ids))
        obs.append(encoding.observe_flat(state, seat))
        seats.append(seat)
        state.apply(action)
    returns = state.returns()
    return Samples(np.array(obs, np.float16).reshape(len(obs), observation_size(encoding)),
                   np.array(starts, np.int64), np.array(ids, np.int32),
                   np.array(probs, np.float32),
                   np.array([returns[s] for s in seats], np.float32))


@dataclass(frozen=True)
class DuelJob:
    game: str
    options: dict[str, Any]
    searches: tuple[SearchSpec, SearchSpec]  # seat 0's, seat 1's
    seed: int


def play_duel(job: DuelJob) -> tuple[float, float]:
    """One judging game between two searches; its returns."""
    game = make_game(job.game, job.options)
    agents = (job.searches[0].agent("seat0"), job.searches[1].agent("seat1"))
    return play_game(game, agents, job.seed).returns

