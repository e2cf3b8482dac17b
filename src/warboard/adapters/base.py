"""What every adapter does the same way: legal action ids, chance ids, observation arrays."""

from __future__ import annotations

import numpy as np

from warboard.adapters.encodings import Encoding
from warboard.core.errors import WarboardError
from warboard.core.protocol import Action, State


class WindowOverflowError(WarboardError):
    """A seat must play, but none of its legal plays has an action id (every one lies outside
    the encoding's window). Never seen with the default window (docs/adapters.md)."""


def legal_action_ids(encoding: Encoding, state: State) -> dict[int, Action]:
    """The legal plays of the seat to act that have an id, by id in ascending order.

    Plays without an id are left out, never replaced by another play; when that leaves none,
    ``WindowOverflowError`` is raised rather than letting the game go on by other rules.
    """
    legal = state.legal_actions()
    ids = encoding.action_ids(state, legal)
    by_id = {i: a for i, a in zip(ids, legal, strict=True) if i is not None}
    if len(by_id) < len(ids) - ids.count(None):
        seen: dict[int, Action] = {}
        for action, action_id in zip(legal, ids, strict=True):
            if action_id is None:
                continue
            if action_id in seen:
                raise AssertionError(f"{encoding.name}: plays {seen[action_id]!r} and "
                                     f"{action!r} share action id {action_id}")
            seen[action_id] = action
    if legal and not by_id:
        raise WindowOverflowError(
            f"{encoding.name}: all {len(legal)} legal plays of seat {state.current_player()} "
            f"lie outside the encoding's window (parameters {encoding.params}); use a larger "
            f"window")
    return dict(sorted(by_id.items()))


def chance_ids(encoding: Encoding, state: State) -> list[tuple[int, float]]:
    """The chance outcomes of ``state`` as ``(chance id, probability)``, ids ascending."""
    return sorted((encoding.chance_id(outcome), p) for outcome, p in state.chance_outcomes())


def observation_size(encoding: Encoding) -> int:
    rows, cols = encoding.board_size
    return (len(encoding.plane_names) * rows * cols + len(encoding.public_names)
            + len(encoding.private_names))


def flat_observation(encoding: Encoding, state: State, seat: int) -> np.ndarray:
    """``seat``'s observation as one float32 vector: the board planes (plane, row, column
    order), then the public values, then the private ones (docs/adapters.md); the encoding's
    ``observe_flat``."""
    return encoding.observe_flat(state, seat)
