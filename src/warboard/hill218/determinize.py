"""Information sets: full states consistent with everything one seat knows.

``sample_state(game, view, rng)`` rebuilds a complete state from a seat's observation: the board,
discards, strikes and counts are public; the seat's own hand, deck contents and the two cards it
put under its deck are its own. The opponent's unseen cards — its whole card set minus what is
on the board or destroyed — are dealt at random into its hand and (unordered) deck, so the
opponent's hidden cards are never read, only resampled. Search agents use it to draw
determinizations; the result is an ordinary state whose later draws are chance events.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from warboard.core.errors import PositionError
from warboard.hill218.grid import pack
from warboard.hill218.serialize import turn_from_json
from warboard.hill218.state import BURY, PLAY, CardState, Deck, Turn


def sample_state(game: Any, view: Mapping[str, Any], rng: random.Random) -> CardState:
    seat = view.get("seat")
    if seat not in (0, 1) or "hand" not in view:
        raise PositionError("sample_state needs a seat's own view (observation(seat))")
    if view["phase"] not in (PLAY, BURY):
        raise PositionError(f"no decision is pending in phase {view['phase']!r}")
    rules = game.rules
    ids = rules.unit_ids
    n = len(rules.units)
    state = CardState(game)
    for e in view["board"]:
        state.cells[pack(e["x"], e["y"])] = ids[e["unit"]] * 2 + e["seat"]
    state.strikes = list(view["strikes"])
    state.destroyed = [_counts(view["destroyed"][s], ids, n) for s in (0, 1)]
    state.phase = view["phase"]
    state.turn = view["turn"]
    state.first_turn_pending = view["turn"] == 0
    state.first_player = view["first_player"]
    state.last_turn = _last_turn(view.get("last_turn"), rules)
    if state.phase == PLAY:
        state.to_move = view["to_move"]
        state.plays_left = view["plays_left"]
    else:
        state.setup_seat = view["to_move"]

    # the seat's own cards, exactly as it knows them
    state.hands[seat] = _counts(view["hand"], ids, n)
    bottom = [ids[name] for name in view["bottom"]]
    pool = _counts(view["deck"], ids, n)
    for uid in bottom:
        pool[uid] -= 1
    state.decks[seat] = Deck([], pool, bottom)

    # the opponent's unseen cards, dealt at random
    other = 1 - seat
    unseen = _unseen(state, game, other)
    rng.shuffle(unseen)
    hand_size, deck_size = view["hand_sizes"][other], view["deck_sizes"][other]
    if len(unseen) != hand_size + deck_size:
        raise PositionError(f"the view is inconsistent: {len(unseen)} unseen cards for seat "
                            f"{other}, but hand {hand_size} + deck {deck_size}")
    hand = [0] * n
    for uid in unseen[:hand_size]:
        hand[uid] += 1
    state.hands[other] = hand
    state.decks[other] = Deck([], _counts_of(unseen[hand_size:], n), [])
    return state


# the last view's turn read, with that view's entry (a search samples one view thousands of
# times); one tuple replaced whole, so that a thread never pairs one view with another's turn
_read_turn: tuple[Any, Turn | None] = (None, None)


def _last_turn(shown: Any, rules: Any) -> Turn | None:
    global _read_turn
    if shown is None:
        return None
    read = _read_turn
    if read[0] is not shown:
        read = _read_turn = (shown, turn_from_json(shown, "last_turn", rules))
    return read[1]


def _counts(by_name: dict[str, int], ids: dict[str, int], n: int) -> list[int]:
    counts = [0] * n
    for name, k in by_name.items():
        counts[ids[name]] = k
    return counts


def _counts_of(uids: list[int], n: int) -> list[int]:
    counts = [0] * n
    for uid in uids:
        counts[uid] += 1
    return counts


def _unseen(state: CardState, game: Any, seat: int) -> list[int]:
    """``seat``'s cards that are neither on the board nor destroyed, as a list of unit ids.

    A hit-changed card (a damaged Ogre) uses up a card of its own kind while the deck has such
    cards (handicap option), else the card it replaced; a destroyed one likewise.
    """
    rules = state.rules
    left = game.deck_counts(seat)
    for code in state.cells.values():
        if code & 1 == seat:
            _use(left, code >> 1, 1, rules.origin)
    for uid, k in enumerate(state.destroyed[seat]):
        if rules.origin[uid] < 0 and k:  # destroyed cards of a family are counted at its root
            leaf = uid
            while rules.hit_becomes[leaf] >= 0:
                leaf = rules.hit_becomes[leaf]
            _use(left, leaf, k, rules.origin)
    return [uid for uid, k in enumerate(left) for _ in range(k)]


def _use(left: list[int], uid: int, k: int, origin: tuple[int, ...]) -> None:
    """Take ``k`` cards of kind ``uid`` from ``left``, then of the kinds it replaced."""
    while k and uid >= 0:
        own = min(k, left[uid])
        left[uid] -= own
        k -= own
        uid = origin[uid]
    if k:
        raise PositionError("the view shows more cards than the deck holds")
