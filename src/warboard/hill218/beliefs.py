"""Beliefs about the opponent's cards: determinizations weighed by the opponent's last turn.

A seat's view shows the opponent's last turn (``last_turn``: the position it began in and the
plays made in it). A seat draws only at the start of its turn, so during that turn the opponent
held exactly the hand it holds now plus the cards it played then. ``believed_deals`` draws
determinizations of the view as ``sample_state`` does (the unseen cards dealt at random), weighs
each by the likelihood of that turn's plays under an opponent model (``policy``: a trained
model's ``play_priors``) had the opponent held that hand, and resamples by those weights
(importance resampling). Each play's probability is mixed with a uniform choice among the legal
plays (``TRUST``), so that a deal the model finds unlikely is made rarer, never impossible: the
opponent is not the model.

Only the view is read, as ``sample_state`` reads it; the searching seat's own cards stay as they
are now in the rebuilt turn (the opponent saw only their number).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from warboard.ai.knowledge import PlayPriors
from warboard.hill218.determinize import sample_state
from warboard.hill218.state import PLAY, STRIKE_KEY, CardState, TurnPlay, TurnStart

PROPOSALS = 64  # deals drawn and weighed at each decision
TRUST = 0.9  # the model's share of each play's probability; the rest is uniform


def believed_deals(game: Any, view: Mapping[str, Any], policy: PlayPriors,
                   rng: random.Random, proposals: int = PROPOSALS) -> list[CardState] | None:
    """``proposals`` determinizations of ``view`` drawn in proportion to how well each explains
    the opponent's last turn under ``policy``; ``None`` where there is nothing to weigh (no turn
    of the opponent's with a play seen yet), and the search draws uniformly."""
    turn = view.get("last_turn")
    if turn is None or turn["seat"] == view.get("seat") or not turn["plays"]:
        return None
    deals = [sample_state(game, view, rng) for _ in range(proposals)]
    last = deals[0].last_turn
    assert last is not None  # read from the view by sample_state
    start, plays = last
    likelihoods: dict[tuple[int, ...], float] = {}
    weights = []
    for deal in deals:
        hand = tuple(deal.hands[start.seat])
        if hand not in likelihoods:
            likelihoods[hand] = turn_likelihood(deal, start, plays, policy)
        weights.append(likelihoods[hand])
    return rng.choices(deals, weights, k=proposals)


def turn_likelihood(deal: CardState, start: TurnStart,
                    plays: Sequence[TurnPlay],
                    policy: PlayPriors) -> float:
    """The probability of ``plays`` under ``policy`` (mixed with uniform) for the opponent
    holding ``deal``'s hand plus the cards it played in that turn."""
    state = turn_state(deal, start, plays)
    likelihood = 1.0
    for play in plays:
        action = state.play_action(play)
        legal = state.legal_actions()
        probs = policy(state, legal)
        likelihood *= TRUST * probs[legal.index(action)] + (1 - TRUST) / len(legal)
        state.apply(action)
    return likelihood


def turn_state(deal: CardState, start: TurnStart,
               plays: Sequence[TurnPlay]) -> CardState:
    """The position the opponent's turn began in, the opponent holding ``deal``'s hand and the
    cards it then played."""
    state = CardState(deal.game)
    seat = start.seat
    state.cells = dict(start.cells)
    state.strikes = list(start.strikes)
    state.destroyed = [list(start.destroyed[0]), list(start.destroyed[1])]
    state.hands = [deal.hands[0][:], deal.hands[1][:]]
    for uid, _, _ in plays:
        if uid != STRIKE_KEY:
            state.hands[seat][uid] += 1
    state.decks = [deal.decks[0].copy(), deal.decks[1].copy()]
    state.phase = PLAY
    state.to_move = seat
    state.plays_left = start.plays
    state.turn = start.turn
    state.first_player = deal.first_player
    state.first_turn_pending = False
    return state
