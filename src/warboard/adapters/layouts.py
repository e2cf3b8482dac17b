"""The observation layouts of the environments (docs/adapters.md, "Observation layouts").

* ``flat``: the encoding's vector (``adapters.base.flat_observation``), a ``Box`` of shape
  ``(N,)``: what ``MlpPolicy`` and ``MaskablePPO`` take, the mask coming from
  ``action_masks()``.
* ``chw``: the same values as ``{"board": (C, H, W), "vector": (V,)}``, the board planes for a
  convolutional network and the public then private values beside them (``MultiInputPolicy``);
  ``board`` is the flat vector's first ``C·H·W`` values reshaped, ``vector`` the rest (not
  ``values``, a name ``torch.nn.ModuleDict`` keeps for itself).
* ``dict``: ``{"observation": (N,), "action_mask": (A,) int8}``, PettingZoo's classic games'
  shape, with the mask in the observation.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

import numpy as np
from gymnasium import spaces

from warboard.adapters.base import observation_size
from warboard.adapters.encodings import Encoding

Layout = Literal["flat", "chw", "dict"]
LAYOUTS: tuple[Layout, ...] = ("flat", "chw", "dict")

Observation = np.ndarray | dict[str, np.ndarray]


def check_layout(layout: str) -> Layout:
    if layout not in LAYOUTS:
        raise ValueError(f"layout must be one of {', '.join(LAYOUTS)}, not {layout!r}")
    return layout  # type: ignore[return-value]


def board_shape(encoding: Encoding) -> tuple[int, int, int]:
    """(C, H, W): the encoding's planes and the (rows, cols) of each."""
    return (len(encoding.plane_names), *encoding.board_size)


def observation_space(encoding: Encoding, layout: Layout) -> spaces.Space:
    size = observation_size(encoding)
    if layout == "flat":
        return spaces.Box(0.0, 1.0, (size,), np.float32)
    if layout == "chw":
        shape = board_shape(encoding)
        return spaces.Dict({
            "board": spaces.Box(0.0, 1.0, shape, np.float32),
            "vector": spaces.Box(0.0, 1.0, (size - int(np.prod(shape)),), np.float32),
        })
    return spaces.Dict({
        "observation": spaces.Box(0.0, 1.0, (size,), np.float32),
        "action_mask": spaces.Box(0, 1, (encoding.num_actions,), np.int8),
    })


def arrange(encoding: Encoding, layout: Layout, flat: np.ndarray,
            mask: Callable[[], np.ndarray]) -> Observation:
    """The observation in ``layout`` from the flat vector (views of it, no copies); ``mask``
    gives the bool mask, asked for by the ``dict`` layout only (and copied: every observation
    holds arrays of its own)."""
    if layout == "flat":
        return flat
    if layout == "chw":
        shape = board_shape(encoding)
        n_board = int(np.prod(shape))
        return {"board": flat[:n_board].reshape(shape), "vector": flat[n_board:]}
    return {"observation": flat, "action_mask": mask().astype(np.int8)}
