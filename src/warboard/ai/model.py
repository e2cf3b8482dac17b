"""A trained policy-value model, played with NumPy alone (docs/ai.md, "Self-play training").

The model reads a seat's observation vector (the game's research encoding,
``adapters.encodings``: a function of that seat's view only) and gives a probability for every
action id (the policy) and the seat's expected result in [-1, 1] (the value): two hidden ReLU
layers, then a softmax head and a tanh head. ``model_knowledge`` turns it into the search's
``Knowledge``: its value where the hand-written evaluation stood and its policy as the prior of
every play; the game's horizon and rollout policy stay.

A model is one ``.npz`` file: the weights (float16, to keep shipped files small) and ``meta``,
the JSON of what it was trained on (game, encoding parameters, generation, the training's
command). PyTorch trains it (``ai.learner``), never plays it.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import IO, Any, ClassVar

import numpy as np

from warboard.adapters.encodings import Encoding, make_encoding
from warboard.ai.ismcts import ISMCTSAgent, Searched
from warboard.ai.knowledge import Knowledge, knowledge_for
from warboard.ai.levels import level_budget
from warboard.core.protocol import CHANCE, Action, Game, State
from warboard.core.registry import info

# the arrays of a model, in the order of its layers
LAYERS = ("w1", "b1", "w2", "b2", "wp", "bp", "wv", "bv")


@dataclass(frozen=True)
class PolicyValueModel:
    arrays: Mapping[str, np.ndarray]  # LAYERS, float32
    meta: Mapping[str, Any]  # game, params (the encoding's), generation, ...

    @property
    def encoding(self) -> Encoding:
        return make_encoding(self.meta["game"], self.meta["params"])

    def predict(self, obs: np.ndarray) -> tuple[np.ndarray, float]:
        """Logits over every action id and the value, for one observation vector."""
        h = self.hidden(obs)
        return self.logits(h, slice(None)), self.value(h)

    def hidden(self, obs: np.ndarray) -> np.ndarray:
        """The second hidden layer's activations. An observation is mostly zeros (one-hot
        planes), so the first layer sums the rows of its non-zero inputs only."""
        a = self.arrays
        nz = np.flatnonzero(obs)
        h = np.maximum(obs[nz] @ a["w1"][nz] + a["b1"], 0.0)
        return np.maximum(h @ a["w2"] + a["b2"], 0.0)

    def value(self, h: np.ndarray) -> float:
        a = self.arrays
        return math.tanh(float(h @ a["wv"][:, 0] + a["bv"][0]))

    def logits(self, h: np.ndarray, ids: Any) -> np.ndarray:
        """The logits of the action ids ``ids`` (an index array or a slice)."""
        a = self.arrays
        return h @ a["wp"][:, ids] + a["bp"][ids]

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("wb") as out:
            arrays: dict[str, Any] = {k: v.astype(np.float16) for k, v in self.arrays.items()}
            np.savez_compressed(out, meta=np.array(json.dumps(dict(self.meta))), **arrays)

    @classmethod
    def load(cls, path: Path) -> PolicyValueModel:
        try:
            with path.open("rb") as file:
                return cls.from_file(file, str(path))
        except OSError as exc:
            raise ValueError(f"{path}: cannot read the model ({exc.strerror})") from exc

    @classmethod
    def from_file(cls, file: IO[bytes], name: str) -> PolicyValueModel:
        try:
            with np.load(file, allow_pickle=False) as data:
                meta = json.loads(str(data["meta"]))
                arrays = {k: data[k].astype(np.float32) for k in LAYERS}
        except (OSError, KeyError, ValueError) as exc:
            raise ValueError(f"{name}: not a warboard model ({exc})") from exc
        return cls(arrays, meta)

    def check(self, game: Game) -> None:
        """``ValueError`` unless the model was trained on ``game`` with these options (those
        that change only the setup aside: ``GameInfo.setup_options``)."""
        mine = self.encoding
        if game.name == mine.name:
            # the game's options over the model's encoding: the same parameters if the same
            setup = info(game.name).setup_options
            options = {k: v for k, v in game.options.items() if k not in setup}
            theirs = make_encoding(game.name, {**mine.params, **options})
            if theirs.params == mine.params:
                return
        raise ValueError(f"the model was trained on {mine.name} {dict(mine.game.options)}, "
                         f"not {game.name} {dict(game.options)}")


def observation_size(encoding: Encoding) -> int:
    """The length of ``encoding``'s observation vectors."""
    rows, cols = encoding.board_size
    return (len(encoding.plane_names) * rows * cols + len(encoding.public_names)
            + len(encoding.private_names))


@cache
def load_model(path: str) -> PolicyValueModel:
    """A model file, loaded once in each process."""
    return PolicyValueModel.load(Path(path))


def model_knowledge(model: PolicyValueModel, value_weight: float = 1.0) -> Knowledge:
    """The search's knowledge from ``model``: its policy as the priors, its value weighed
    ``value_weight`` against the game's hand-written evaluation (1: the model's alone, 0: the
    evaluation's alone), with the game's own horizon and rollout policy."""
    encoding = model.encoding
    base = knowledge_for(encoding.game)

    def model_value(state: State, seat: int) -> float:
        to_move = state.current_player()
        judge = 0 if to_move == CHANCE else to_move
        value = model.value(model.hidden(encoding.observe_flat(state, judge)))
        return value if judge == seat else -value

    def evaluate(state: State, seat: int) -> float:
        if state.is_terminal():
            return state.returns()[seat]
        if value_weight == 0.0:
            return base.evaluate(state, seat)
        mine = model_value(state, seat)
        if value_weight == 1.0:
            return mine
        return value_weight * mine + (1 - value_weight) * base.evaluate(state, seat)

    def play_priors(state: State, legal: Sequence[Action]) -> list[float]:
        ids = encoding.action_ids(state, legal)
        known = [i for i in ids if i is not None]
        if not known:
            return [0.0] * len(ids)
        h = model.hidden(encoding.observe_flat(state, state.current_player()))
        return policy_over(model.logits(h, known), ids)

    # the compiled search reading this model, where the game has one
    native = (None if base.native_model_search is None
              else base.native_model_search(model, value_weight))
    return replace(base, evaluate=evaluate, play_priors=play_priors, native_search=native)


def policy_over(logits: np.ndarray, ids: Sequence[int | None]) -> list[float]:
    """The softmax of ``logits``, those of the plays with an id in ``ids``' order, spread
    over the legal plays (a play without an id gets 0)."""
    weights = np.exp(logits - logits.max())
    probs = iter((weights / weights.sum()).tolist())
    return [0.0 if i is None else next(probs) for i in ids]


class ModelAgent(ISMCTSAgent):
    """The search with ``hard``'s budget for the model's game, reading the model's values and
    priors: the agent ``model:PATH`` of the arena and ladder (a trained model measured)."""

    def __init__(self, path: str, overrides: Mapping[str, Any] | None = None,
                 name: str | None = None, native: bool = True) -> None:
        """``overrides``: of the budget (``agent.search_time``)."""
        self.model = load_model(path)
        # the share of the value the model was trained to give (meta: the training's)
        value_weight = float(self.model.meta.get("value_weight", 1.0))
        budget = {**level_budget("hard", self.model.meta["game"]), **(overrides or {})}
        super().__init__(iterations=budget["iterations"], seconds=budget["seconds"],
                         exploration=budget.get("exploration", 0.5),
                         name=name or f"model:{path}",
                         knowledge=model_knowledge(self.model, value_weight), native=native,
                         beliefs=budget.get("beliefs", False))

    def search(self, game: Game, view: dict[str, Any], legal: Sequence[Action],
               rng: random.Random, include: Action | None = None) -> Searched:
        self.model.check(game)
        return super().search(game, view, legal, rng, include)


def shipped_model(resource: str) -> str:
    """The path of a model file a game ships: ``resource`` is ``package:file`` (the file
    inside that package)."""
    package, _, name = resource.partition(":")
    return str(files(package).joinpath(name))


class MasterAgent:
    """A ``model`` level (``master``): for each game, the search reading the model that game
    ships (its budget of the level names it), by that budget; a game that ships none is
    refused."""

    reads_view: ClassVar[bool] = True

    def __init__(self, level: str, overrides: Mapping[str, Any] | None = None,
                 native: bool = True) -> None:
        self.name = level
        self.overrides = dict(overrides or {})  # of every game's budget (agent.search_time)
        self.native = native  # ISMCTSAgent.native
        self.last_iterations = 0
        self.last_native = False  # did its last search run compiled (ISMCTSAgent.last_native)
        self._searches: dict[str, ModelAgent] = {}

    def search_for(self, game: str) -> ModelAgent:
        """The search for ``game`` (made once)."""
        if game not in self._searches:
            budget = level_budget(self.name, game)
            if "model" not in budget:
                raise ValueError(f"{game} ships no trained model, so the {self.name} level "
                                 f"does not play it")
            time = {"iterations": budget["iterations"], "seconds": budget["seconds"],
                    "beliefs": budget.get("beliefs", False), **self.overrides}
            self._searches[game] = ModelAgent(shipped_model(budget["model"]), time, self.name,
                                              self.native)
        return self._searches[game]

    def act(self, game: Game, view: dict[str, Any], legal: Sequence[Action],
            rng: random.Random) -> Action:
        search = self.search_for(game.name)
        action = search.act(game, view, legal, rng)
        self.last_iterations = search.last_iterations
        self.last_native = search.last_native
        return action
