"""Every game warboard knows: one descriptor per game, registered once by the game's package.

A game package (``warboard.hill218``, ``warboard.holdtheline``) holds everything about its
games: the engine, the AI's knowledge, the tensor encoding, the narration, the terminal front
end, its command-line options. Its ``plugin`` module lists a ``GameInfo`` for each game in
``GAMES``; the layers above ask this registry, never a game by name. The descriptor names each
part by module path, so nothing is imported before it is used (``warboard --help`` imports no
engine). ``register`` adds a game from elsewhere (a test, a program of one's own).

The packages are listed here rather than found through entry points: warboard is installed in
editable mode from one checkout, and installed metadata would name that checkout's games.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from warboard.core.protocol import JSON, CustomSetups, Game, Series

GAME_PACKAGES = ("warboard.hill218", "warboard.holdtheline")  # each with plugin.GAMES


@dataclass(frozen=True)
class GameInfo:
    """What the layers above the engine need to know of one game.

    Module parts, each optional but ``engine``, provide:

    * ``engine``: ``make_game(name, options)``, the protocol's ``Game``;
    * ``interchange``: the ``warboard rules`` queries (see ``warboard.core.interchange``);
    * ``knowledge``: ``KNOWLEDGE``, a ``warboard.ai.knowledge.Knowledge`` (evaluation, action
      prior, rollout policy, search horizon);
    * ``encoding``: ``parameters(name)`` and ``make_encoding(name, params)`` for the research
      adapters (``warboard.adapters.encodings``);
    * ``terminal``: ``run_play(args)`` and ``run_replay(record, args)`` (``warboard.terminal``);
    * ``cli``: ``add_arguments(command, group)``, the game's own options of the commands
      ``play``, ``arena``, ``bench`` and ``train``, ``game_options(name, args)``, the game's
      options from them for the arena and training, and ``add_commands(commands,
      queries)``, its own commands and ``rules`` queries (``warboard.cli``);
    * ``bench``: ``run_bench(args)``, ``warboard bench NAME``;
    * ``vector``: ``make_vector_env(name, num_envs, **options)``, a Gymnasium vector environment
      stepped natively (``warboard.adapters.vector``).

    ``server_setup`` and ``scenarios`` are ``"module:function"``: the first is called once in
    every server process before it serves (the engine's caches sized for a server), the second
    lists the game's scenarios for the lobby. ``custom_setups`` is ``"module:object"``, a
    ``warboard.core.protocol.CustomSetups``: the game lets players design their own battles
    (the web editor, ``/api/scenarios``). ``env_name`` names the game's Gymnasium
    environment, ``warboard/NAME-v0`` (``warboard.adapters.gym_envs``; it needs ``encoding``).
    ``series`` is ``"module:attribute"``, the game's ``Series`` (its campaigns: ``series_of``).
    ``ladder_options`` is ``"module:function"``: the option sets (its battles) over which
    ``warboard ladder`` plays the game, each pair on each of them (default: its default
    options alone).
    """

    name: str
    title: str
    engine: str
    interchange: str | None = None
    knowledge: str | None = None
    encoding: str | None = None
    terminal: str | None = None
    cli: str | None = None
    bench: str | None = None
    vector: str | None = None
    server_setup: str | None = None
    scenarios: str | None = None
    custom_setups: str | None = None
    env_name: str | None = None
    series: str | None = None
    ladder_options: str | None = None
    hidden_information: bool = False  # a seat may not see everything (the card games' hands)
    levels: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)  # level -> budget
    # the research encoding's parameters a trained model reads, beyond the game's options
    # (the card games' smaller window keeps the model's policy head, and its file, small)
    model_params: Mapping[str, Any] = field(default_factory=dict)
    # options that change only how a game is set up (its first position), never its rules or
    # what a trained model reads: a model trained without them plays with them (``master``)
    setup_options: tuple[str, ...] = ()


_games: dict[str, GameInfo] = {}
_loaded = False


def register(info: GameInfo) -> None:
    """Add a game (after the packaged ones); a name is registered once."""
    games = _registered()
    if info.name in games:
        raise ValueError(f"game {info.name!r} is registered already")
    games[info.name] = info


def unregister(name: str) -> None:
    """Remove a game added with ``register``."""
    _registered().pop(name, None)


def _registered() -> dict[str, GameInfo]:
    global _loaded
    if not _loaded:
        for package in GAME_PACKAGES:
            for info in importlib.import_module(f"{package}.plugin").GAMES:
                _games[info.name] = info
        _loaded = True
    return _games


def games() -> list[GameInfo]:
    """Every game, the packaged ones first, in their packages' order."""
    return list(_registered().values())


def game_names() -> list[str]:
    return list(_registered())


def default_game() -> str:
    """The game a command plays when none is named: the first one."""
    return game_names()[0]


def info(name: str) -> GameInfo:
    """The descriptor of game ``name``; ``ValueError`` when there is none."""
    games = _registered()
    if not isinstance(name, str) or name not in games:
        raise ValueError(f"unknown game {name!r}; games: {', '.join(games)}")
    return games[name]


def make_game(name: str, options: Mapping[str, Any] | None = None) -> Game:
    """The game ``name`` with ``options``; ``ValueError`` names what is wrong."""
    game = info(name)
    if options is not None and not isinstance(options, Mapping):
        raise ValueError(f"options: must be an object of option name to value, not "
                         f"{type(options).__name__}")
    made: Game = importlib.import_module(game.engine).make_game(name, options)
    return made


def series_of(name: str) -> Series | None:
    """The ``Series`` of game ``name`` (``None`` when it has none)."""
    series: Series | None = _capability(name, info(name).series, Series)
    return series


def custom_setups_of(name: str) -> CustomSetups | None:
    """The ``CustomSetups`` of game ``name`` (``None`` when it has none)."""
    setups: CustomSetups | None = _capability(name, info(name).custom_setups, CustomSetups)
    return setups


def _capability(name: str, ref: str | None, kind: type) -> Any:
    """The object ``ref`` names, checked to be a ``kind`` (``None`` for no ``ref``)."""
    if ref is None:
        return None
    found = resolve(ref)
    if not isinstance(found, kind):
        raise TypeError(f"game {name!r}: {ref} is not a {kind.__name__}")
    return found


def listed_options(name: str, options: Mapping[str, JSON]) -> dict[str, JSON]:
    """Game ``name``'s ``options`` as messages and lists show them (a custom setup's text
    left out: ``CustomSetups.listed_options``)."""
    setups = custom_setups_of(name)
    return dict(options) if setups is None else setups.listed_options(options)


def resolve(ref: str) -> Any:
    """The object named by ``"module:attribute"``."""
    module, _, attribute = ref.partition(":")
    return getattr(importlib.import_module(module), attribute)


def interchanges() -> list[ModuleType]:
    """The interchange modules of every game, each once, in the order of the games."""
    paths = dict.fromkeys(g.interchange for g in games() if g.interchange is not None)
    return [importlib.import_module(m) for m in paths]
