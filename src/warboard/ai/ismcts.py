"""Information-set Monte-Carlo tree search (single observer, open loop).

Each iteration draws one state from the acting seat's information set
(``game.sample_state``), then walks a tree of *actions* shared by all those draws:

* selection considers, among the actions legal in this draw, the best few by a prior (the
  number grows with the node's visits: progressive widening), expands the best untried one,
  else picks the child with the best UCT score plus a fading prior bias; UCT uses how often a
  child was *available* in place of the parent's visits (ISMCTS's answer to actions that exist
  only in some draws);
* chance nodes (card draws, dice) are not branched on: their outcome is drawn through the core
  protocol each time they are passed (open loop), so no game's chance details are needed;
* after expanding one node, a rollout with the game's fast policy runs for at most
  ``rollout_depth`` decisions and the game's evaluation scores where it stops;
* values are backed up from the point of view of the seat that chose each action.

At the root the prior is the evaluation of each action's result (what the greedy agent
uses); deeper down it is the game's cheap action prior. Budgets are iterations (reproducible
with a seed) and/or seconds.

With ``beliefs`` on, a search reading a model's policy (``Knowledge.play_priors``) draws its
determinizations from the game's beliefs (``Knowledge.beliefs``): deals weighed by how well they
explain the opponent's observed plays under that policy, the opponent modelled as playing as the
model does.

Where the game's knowledge has a compiled form of this search (``Knowledge.native_search``: the
card games where their C extension is built) it runs instead, unless the agent is made
with ``native=False``; it takes other random numbers, so a seed gives other (equally good) games
with and without it.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from warboard.ai.agent import Agent, view_seat
from warboard.ai.knowledge import Knowledge, knowledge_for
from warboard.core.protocol import CHANCE, Action, Game, sample_chance

MIN_SECONDS = 0.001  # a compiled search's least time: at least one iteration runs in it


class Node:
    __slots__ = ("avail", "children", "prior", "seat", "value", "visits")

    def __init__(self, seat: int, prior: float = 0.0) -> None:
        self.seat = seat  # the seat whose action led here
        self.children: dict[Action, Node] = {}
        self.visits = 0
        self.value = 0.0
        self.avail = 1
        self.prior = prior


@dataclass(frozen=True)
class Searched:
    """What a search found: the play it would make, and for each root play it tried its
    visits and mean value (in [-1, 1], for the seat to act)."""

    best: Action
    plays: dict[Action, tuple[int, float]]


class ISMCTSAgent(Agent):
    def __init__(self, iterations: int | None = 1000, seconds: float | None = None,
                 exploration: float = 0.5, rollout_depth: int = 0, widening: float = 4.0,
                 prior_weight: float = 0.5, name: str = "ismcts",
                 per_game: dict[str, dict[str, Any]] | None = None,
                 knowledge: Knowledge | None = None, native: bool = True,
                 beliefs: bool = False) -> None:
        if iterations is None and seconds is None:
            raise ValueError("give a budget: iterations, seconds or both")
        self.iterations = iterations
        self.seconds = seconds
        self.exploration = exploration
        self.rollout_depth = rollout_depth
        self.widening = widening
        self.prior_weight = prior_weight
        self.name = name
        self.last_iterations = 0
        self.last_native = False  # did the last search run compiled?
        # game name -> its own values of any of SETTINGS (levels.GAME_LEVELS)
        self.per_game = dict(per_game or {})
        # what the search knows of the game (a trained model's); None: the game's own
        self.knowledge = knowledge
        # use the knowledge's compiled search where it applies (False: always this module's)
        self.native = native
        # weigh determinizations by the opponent's observed plays (where the knowledge can)
        self.beliefs = beliefs

    SETTINGS = ("iterations", "seconds", "rollout_depth", "exploration", "widening",
                "prior_weight", "beliefs")

    def settings(self, game_name: str) -> dict[str, Any]:
        """The search's budget and parameters for a game (its own values, if it has some)."""
        own = self.per_game.get(game_name, {})
        return {k: own.get(k, getattr(self, k)) for k in self.SETTINGS}

    def budget(self, game_name: str) -> tuple[int | None, float | None, int]:
        """Iterations, seconds and rollout depth for a game."""
        cfg = self.settings(game_name)
        return (cfg["iterations"], cfg["seconds"], cfg["rollout_depth"])

    def act(self, game: Game, view: dict[str, Any], legal: Sequence[Action],
            rng: random.Random) -> Action:
        if len(legal) == 1:
            return legal[0]
        return self.search(game, view, legal, rng).best

    def search(self, game: Game, view: dict[str, Any], legal: Sequence[Action],
               rng: random.Random, include: Action | None = None) -> Searched:
        """Search from ``view`` (draws of what it does not show); ``include``, when given, is
        always among the root's plays tried, the first, however low its prior (to judge a
        play)."""
        cfg = self.settings(game.name)
        iterations, seconds, depth = cfg["iterations"], cfg["seconds"], cfg["rollout_depth"]
        search = (cfg["exploration"], cfg["widening"], cfg["prior_weight"])
        know = self.knowledge or knowledge_for(game)
        deadline = None if seconds is None else time.perf_counter() + seconds
        deals = None
        if cfg["beliefs"] and know.beliefs is not None and know.play_priors is not None:
            deals = know.beliefs(game, view, know.play_priors, rng)
        if self.native and know.native_search is not None:
            if deadline is not None:  # the time the beliefs took is the search's
                cfg["seconds"] = max(deadline - time.perf_counter(), MIN_SECONDS)
            stats = know.native_search(game, view, legal, cfg, rng, include, deals)
            if stats is not None:
                self.last_iterations = stats.iterations
                self.last_native = True
                return _searched(stats.plays)
        self.last_native = False
        seat = view_seat(view)
        root = Node(1 - seat)
        base = game.sample_state(view, rng)
        beyond = None if know.horizon is None else know.horizon(base)
        if know.play_priors is not None:
            root_priors = dict(zip(legal, know.play_priors(base, legal), strict=True))
        else:
            root_priors = {}
            for action in legal:
                after = base.clone()
                after.apply(action)
                root_priors[action] = know.evaluate(after, seat)
        limit = iterations if iterations is not None else 1 << 62
        done = 0
        # at least one iteration, so that a root child exists however short the time
        while done < limit and (done == 0 or deadline is None or time.perf_counter() < deadline):
            state = game.sample_state(view, rng) if deals is None else rng.choice(deals).clone()
            self._iterate(root, state, rng, know, root_priors, depth, search, beyond, include)
            done += 1
        self.last_iterations = done
        return _searched({a: (c.visits, c.value / max(c.visits, 1), root_priors[a])
                          for a, c in root.children.items() if a in root_priors})

    def _iterate(self, root: Node, state: Any, rng: random.Random, know: Knowledge,
                 root_priors: dict[Action, float], depth: int,
                 search: tuple[float, float, float], beyond: Any = None,
                 include: Action | None = None) -> None:
        c, widening, w = search
        node = root
        path = [root]
        while not state.is_terminal():
            player = state.current_player()
            if player == CHANCE:
                state.apply(sample_chance(state, rng))
                continue
            if beyond is not None and beyond(state):
                break  # the game's search horizon (e.g. the end of the turn): a leaf
            legal = state.legal_actions()
            if node is root:
                weights = [root_priors.get(a, 0.0) for a in legal]
            elif know.play_priors is not None:
                weights = know.play_priors(state, legal)
            else:
                weights = [know.action_prior(state, a) for a in legal]
            scored = sorted(zip(weights, legal, strict=True), key=lambda pa: pa[0],
                            reverse=True)
            width = max(1, int(widening * math.sqrt(node.visits + 1)))
            allowed = scored[:width]
            if node is root and include is not None:  # first: expanded however few iterations
                allowed = [(root_priors[include], include),
                           *(pa for pa in allowed if pa[1] != include)]
            children = node.children
            expand = None
            for p, a in allowed:
                child = children.get(a)
                if child is None:
                    if expand is None:
                        expand = (p, a)
                else:
                    child.avail += 1
            if expand is not None:
                p, action = expand
                child = Node(player, p)
                children[action] = child
                state.apply(action)
                path.append(child)
                break
            best_score, action, best_child = -math.inf, None, None
            for _, a in allowed:
                ch = children[a]
                score = (ch.value / ch.visits + c * math.sqrt(math.log(ch.avail) / ch.visits)
                         + w * ch.prior / (ch.visits + 1))
                if score > best_score:
                    best_score, action, best_child = score, a, ch
            # every allowed play has a child here (none was left to expand), so one is chosen
            assert best_child is not None
            state.apply(action)
            node = best_child
            path.append(node)
        values = self._rollout(state, rng, know, depth)
        for n in path:
            n.visits += 1
            n.value += values[n.seat]

    def _rollout(self, state: Any, rng: random.Random, know: Knowledge,
                 depth: int) -> tuple[float, float]:
        decisions = 0
        while not state.is_terminal() and decisions < depth:
            if state.current_player() == CHANCE:
                state.apply(sample_chance(state, rng))
            else:
                know.rollout_policy(state, rng)
                decisions += 1
        if state.is_terminal():
            r = state.returns()
            return (r[0], r[1])
        v = know.evaluate(state, 0)
        return (v, -v)


def _searched(plays: dict[Action, tuple[int, float, float]]) -> Searched:
    """The most visited root play (ties: the better mean value, then prior, then the first
    tried) with each play's visits and mean value."""
    best = max((visits, value, prior, i, a)
               for i, (a, (visits, value, prior)) in enumerate(plays.items()))
    return Searched(best[4], {a: (visits, value) for a, (visits, value, _) in plays.items()})
