"""The card games' hidden information redealt, for the tests that a seat's decisions (the
computer's, the analysis') depend only on what that seat can see."""

from __future__ import annotations

import random

from warboard.hill218.state import CardState


def reshuffled(state: CardState, seed: int) -> CardState:
    """The same state for the seat to act, with the opponent's hidden cards dealt anew."""
    seat = state.current_player()
    other = 1 - seat
    rng = random.Random(seed)
    twin = state.clone()
    hidden = ([u for u, k in enumerate(state.hands[other]) for _ in range(k)]
              + [u for u, k in enumerate(state.decks[other].pool) for _ in range(k)])
    rng.shuffle(hidden)
    hand = [0] * len(state.hands[other])
    pool = [0] * len(hand)
    size = sum(state.hands[other])
    for u in hidden[:size]:
        hand[u] += 1
    for u in hidden[size:]:
        pool[u] += 1
    twin.hands[other] = hand
    twin.decks[other].pool = pool
    twin.decks[other].pool_n = sum(pool)
    assert twin.observation(seat) == state.observation(seat)
    return twin
