"""Game knowledge for The Battle for Hill 218 and Ogre: Objective 218 (docs/ai.md).

Everything here reads a state only through public facts and the acting seat's own cards, so a
determinized state (``game.sample_state``) gives the same answers as the true one.
"""

from __future__ import annotations

import math
import random
from typing import Any

from warboard.ai.knowledge import Knowledge
from warboard.hill218.actions import Deploy, Strike
from warboard.hill218.beliefs import believed_deals
from warboard.hill218.grid import base_cell, unpack
from warboard.hill218.native_search import native_model_search, native_search


def evaluate_cards(state: Any, seat: int) -> float:
    """A value in (-1, 1) for ``seat`` (documented in docs/ai.md):

    material on the board (each unit by its end-count weight), strikes left, cards still to
    deploy, supply reach (empty cells open to deployment), and the bases: an empty own base is
    a liability and a big one when the enemy's supply reaches it; the same for the enemy base.
    """
    if state.is_terminal():
        return state.returns()[seat]
    from warboard.hill218.state import BASES

    other = 1 - seat
    units = state.rules.units
    material = [0, 0]
    for code in state.cells.values():
        material[code & 1] += units[code >> 1].counts_as
    reserve = [sum(state.hands[s]) + state.decks[s].size() for s in (0, 1)]
    score = (1.0 * (material[seat] - material[other])
             + 0.8 * (state.strikes[seat] - state.strikes[other])
             + 0.25 * (reserve[seat] - reserve[other]))
    reach = [_reach(state, s) for s in (0, 1)]
    score += 0.08 * (len(reach[seat]) - len(reach[other]))
    for s, sign in ((seat, 1.0), (other, -1.0)):
        base = BASES[s]
        if base not in state.cells:
            threatened = base in reach[1 - s]
            score -= sign * (3.0 if threatened else 0.7)
    return math.tanh(score / 5.0)


def _reach(state: Any, seat: int) -> frozenset[int]:
    """Cells where ``seat``'s first unit type could deploy by supply (its mobility)."""
    return state.supplied_deploy_cells(seat, 0)


def card_rollout_policy(state: Any, rng: random.Random, candidates: int = 3) -> None:
    """One step of a fast, sensible rollout: take the enemy base when a sampled play does,
    else prefer the sampled play that hits most; burials are random."""
    from warboard.hill218.sampler import STRIKE, play_choice, random_play
    from warboard.hill218.state import BASES, PLAY

    if state.phase != PLAY:
        state.apply(rng.choice(state.legal_actions()))
        return
    enemy_base = BASES[1 - state.to_move]
    best, best_score = None, -1.0
    for _ in range(candidates):
        choice = random_play(state, rng)
        uid, cell, hits = choice
        if uid != STRIKE and cell == enemy_base:
            best = choice
            break
        score = len(hits) - (0.6 if uid == STRIKE else 0.0) + rng.random() * 0.1
        if score > best_score:
            best, best_score = choice, score
    assert best is not None
    play_choice(state, best)


BASE_CELLS = (unpack(base_cell(0)), unpack(base_cell(1)))  # each seat's base as (x, y)


def card_action_prior(state: Any, action: Any) -> float:
    """A cheap guess at how good a play is, from the play alone: taking the enemy base wins,
    hits are good, a strike spends a scarce card, refilling an empty own base is urgent."""
    if not isinstance(action, Deploy):
        return 0.6 if isinstance(action, Strike) else 0.0
    seat = state.to_move
    if action.at == BASE_CELLS[1 - seat]:
        return 10.0
    return len(action.attacks) + (2.0 if action.at == BASE_CELLS[seat] else 0.0)


KNOWLEDGE = Knowledge(evaluate=evaluate_cards, action_prior=card_action_prior,
                      rollout_policy=card_rollout_policy, native_search=native_search,
                      native_model_search=native_model_search, beliefs=believed_deals)
