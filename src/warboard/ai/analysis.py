"""Post-game analysis: each decision of a record judged by a search from what its seat knew.

For every decision the search is given only that seat's view at that moment (the rest is drawn
by the game's ``sample_state``, as when the computer plays), with the play that was made always
among those it tries. A play's *win probability* is ``(value + 1) / 2`` of its mean search value
for the seat that made it (the search's estimate, not a calibrated one); the *loss* is how much
less it is than that of the search's own choice, and ``THRESHOLDS`` label it. docs/ai.md.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from warboard.ai.ismcts import ISMCTSAgent
from warboard.ai.levels import agent_for_level
from warboard.core.protocol import CHANCE, Action, State
from warboard.core.record import Record

# the least loss of win probability for each label, the worst first
THRESHOLDS = (("blunder", 0.20), ("mistake", 0.10), ("inaccuracy", 0.05))


@dataclass(frozen=True)
class Judgement:
    """One decision: the play made and the search's choice, with their win probabilities."""

    ply: int  # the event's number in the record, from 1 (the replay's step)
    seat: int
    played: Any  # as JSON (the record's form)
    win_probability: float
    best: Any
    best_win_probability: float
    label: str | None  # None: within the least threshold
    played_text: str  # in the game's notation
    best_text: str

    @property
    def loss(self) -> float:
        return max(0.0, self.best_win_probability - self.win_probability)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Judgement:
        return cls(**{name: data[name] for name in cls.__dataclass_fields__})

    def to_json(self) -> dict[str, Any]:
        return {"ply": self.ply, "seat": self.seat, "played": self.played,
                "win_probability": round(self.win_probability, 4), "best": self.best,
                "best_win_probability": round(self.best_win_probability, 4),
                "loss": round(self.loss, 4), "label": self.label,
                "played_text": self.played_text, "best_text": self.best_text}


def label_for(loss: float) -> str | None:
    return next((name for name, least in THRESHOLDS if loss >= least), None)


def searcher(level: str, iterations: int | None = None,
             seconds: float | None = None) -> ISMCTSAgent:
    """The search of ``level`` on its iteration budget, or on ``iterations``; with no time cap
    (an analysis replays exactly), or ``seconds`` a decision at most (bounded, as the server's
    analyses are)."""
    budget: dict[str, Any] = {"seconds": seconds}
    if iterations is not None:
        budget["iterations"] = iterations
    agent = agent_for_level(level, **budget)
    if not isinstance(agent, ISMCTSAgent):
        raise ValueError(f"level {level!r} does not search; analyse with a searching level")
    return agent


def judge(agent: ISMCTSAgent, state: State, played: Action, rng: random.Random,
          ply: int) -> Judgement:
    """The decision ``played`` of the seat to act in ``state``, judged from that seat's view
    only (the one place where the true state meets the search, as in ``decide``)."""
    seat = state.current_player()
    game = state.game
    found = agent.search(game, state.observation(seat), state.legal_actions(), rng,
                         include=played)
    value = found.plays[played][1]
    best = found.best if found.plays[found.best][1] > value else played
    win, best_win = (value + 1) / 2, (found.plays[best][1] + 1) / 2
    return Judgement(ply, seat, game.action_to_json(played), win, game.action_to_json(best),
                     best_win, label_for(best_win - win), game.action_to_text(played),
                     game.action_to_text(best))


def decisions(record: Record) -> Iterator[tuple[int, State, Action]]:
    """Each decision of a full record: its ply, the state before it and the play made."""
    if record.view is not None:
        raise ValueError("a record exported for one seat cannot be analysed: it does not "
                         "hold the game's full states; analyse the full record")
    game = record.make_game()
    state = game.new_initial_state()
    for ply, event in enumerate(record.events, 1):
        action = game.action_from_json(event["action"], state)
        if state.current_player() != CHANCE:
            yield ply, state.clone(), action
        state.apply(action)


def analyse(record: Record, agent: ISMCTSAgent, seed: int = 1,
            progress: Callable[[int, int], None] | None = None) -> list[Judgement]:
    """Every decision of ``record`` judged; each search has its own seeded generator, so an
    analysis replays exactly. ``progress(done, total)`` after each decision."""
    points = list(decisions(record))
    judged = []
    for done, (ply, state, played) in enumerate(points, 1):
        judged.append(judge(agent, state, played, random.Random(f"{seed}:{ply}"), ply))
        if progress is not None:
            progress(done, len(points))
    return judged


def shown_to(judged: list[Judgement], reader: int | None,
             private_views: bool) -> list[Judgement]:
    """The judgements ``reader`` (a seat, ``None``: a spectator) may see. Where the seats'
    views hold something private (``Game.private_views``), a seat sees its own only: another
    seat's value and better play were found from what that seat held and the reader never saw
    (its hand); a spectator, none."""
    if not private_views:
        return judged
    return [j for j in judged if j.seat == reader]


def summary(judged: list[Judgement]) -> dict[int, dict[str, Any]]:
    """Each seat's accuracy (100 × (1 − its mean loss)), its labels counted, and its biggest
    loss (``ply`` and ``loss``)."""
    sides = {}
    for seat in (0, 1):
        own = [j for j in judged if j.seat == seat]
        worst = max(own, key=lambda j: j.loss, default=None)
        sides[seat] = {
            "decisions": len(own),
            "accuracy": round(100 * (1 - sum(j.loss for j in own) / len(own)), 1) if own else None,
            **{name: sum(1 for j in own if j.label == name) for name, _ in THRESHOLDS},
            "biggest_loss": None if worst is None else {"ply": worst.ply,
                                                        "loss": round(worst.loss, 4)}}
    return sides
