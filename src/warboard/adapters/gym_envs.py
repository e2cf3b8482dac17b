"""The registered Gymnasium environments (extra ``rl``): ``warboard/NAME-v0`` for each game
with an encoding and an ``env_name`` in its descriptor (``warboard/Hill218-v0``,
``warboard/Ogre218-v0``, ``warboard/HoldTheLine-v0``), each a ``gym_env.SingleSeatEnv``.

Importing this module registers them; ``gymnasium.make`` imports it itself when the id names
it (``gymnasium.make("warboard.adapters.gym_envs:warboard/Hill218-v0")``). Gymnasium 1.x
loads no plugins from entry points, so nothing registers them before an import.
"""

from __future__ import annotations

import gymnasium

from warboard.core import registry


def env_ids() -> dict[str, str]:
    """Game name -> its environment's id."""
    return {g.name: f"warboard/{g.env_name}-v0" for g in registry.games()
            if g.env_name is not None and g.encoding is not None}


def register_envs() -> None:
    """Register the id of every game of ``env_ids`` (one registered already is left as it is).
    ``gymnasium.make(id, **kwargs)`` passes ``seat``, ``opponent``, ``layout``,
    ``render_mode`` and the game's parameters (``scenario``, ``window``, ...) on to
    ``SingleSeatEnv``; ``gymnasium.make_vec(id, num_envs, ...)`` builds the game's native vector
environment where it has one (``warboard.adapters.vector``), else Gymnasium's ``SyncVectorEnv``
of single environments."""
    for game, env_id in env_ids().items():
        if env_id in gymnasium.registry:
            continue
        native = registry.info(game).vector is not None
        gymnasium.register(env_id, entry_point="warboard.adapters.gym_env:SingleSeatEnv",
                           vector_entry_point=("warboard.adapters.vector:gym_vector_env"
                                               if native else None),
                           kwargs={"game": game})


register_envs()
