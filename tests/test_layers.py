"""The layers point one way (docs/architecture.md): only a game's package knows the game.

Outside ``warboard.hill218`` and ``warboard.holdtheline`` no module names a game or imports a
game package (the registry lists the packages, once); the game packages do not import each
other; ``core`` imports no layer above it; the server does not import the terminal. A toy game
registered from here plays through the generic layers.
"""

from __future__ import annotations

import ast
import random
import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, ClassVar

import pytest

from warboard.ai.agent import decide, make_agent
from warboard.ai.match import MatchSpec, play_match
from warboard.core import registry
from warboard.core.protocol import CHANCE, TERMINAL, Game, State
from warboard.core.record import Recorder, export_for_seat, replay_state
from warboard.core.registry import GameInfo
from warboard.core.session import Session

SRC = Path(__file__).resolve().parent.parent / "src" / "warboard"
GAME_PACKAGES = {package.rsplit(".", 1)[1] for package in registry.GAME_PACKAGES}
GAME_WORDS = re.compile(r"\b(" + "|".join(sorted({*registry.game_names(), *GAME_PACKAGES}))
                        + r")\b")


def modules() -> Iterator[tuple[str, ast.Module]]:
    for path in sorted(SRC.rglob("*.py")):
        name = ".".join(path.relative_to(SRC.parent).with_suffix("").parts)
        yield name.removesuffix(".__init__"), ast.parse(path.read_text(encoding="utf-8"))


def imported(tree: ast.Module, module: str) -> set[str]:
    """Every module ``tree`` imports, absolute."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, f"{module}: warboard imports absolutely"
            out.add(node.module or "")
            out.update(f"{node.module}.{alias.name}" for alias in node.names)
    return out


def package_of(module: str) -> str | None:
    """The game package ``module`` belongs to, if any."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in GAME_PACKAGES else None


def layer(module: str) -> str:
    return module.split(".")[1] if "." in module else module


def test_only_a_games_package_names_it():
    offences = []
    for module, tree in modules():
        if package_of(module) is not None or module == "warboard.core.registry":
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                found = GAME_WORDS.search(node.value)
                if found:
                    offences.append(f"{module}:{node.lineno}: {found.group(0)!r}")
        for name in imported(tree, module):
            if package_of(name) is not None:
                offences.append(f"{module}: imports {name}")
    assert offences == []


def test_game_packages_do_not_import_each_other():
    offences = [f"{module}: imports {name}" for module, tree in modules()
                if package_of(module) is not None
                for name in imported(tree, module)
                if package_of(name) not in (None, package_of(module))]
    assert offences == []


@pytest.mark.parametrize(("lower", "upper"), [
    ("core", ("ai", "adapters", "terminal", "server", "cli", "loadtest", "web")),
    ("server", ("terminal", "cli")),
])
def test_layers_point_one_way(lower, upper):
    offences = [f"{module}: imports {name}" for module, tree in modules()
                if layer(module) == lower
                for name in imported(tree, module)
                if name.startswith("warboard.") and layer(name) in upper]
    assert offences == []


def test_the_registry_lists_each_game_once_with_its_package():
    names = registry.game_names()
    assert len(names) == len(set(names)) and names[0] == registry.default_game()
    for game in registry.games():
        assert game.engine.split(".")[1] in GAME_PACKAGES
        assert registry.make_game(game.name).name == game.name


# ----------------------------------------------------------------------------- a fourth game

class Nim(Game):
    """Take 1 or 2 from a pile of 7; whoever takes the last one wins. Each seat's first move
    is hidden from the other, and a chance event decides who starts."""

    name = "toy-nim"
    options: ClassVar[dict[str, Any]] = {}
    num_seats = 2

    def new_initial_state(self) -> NimState:
        return NimState(self)

    def action_to_json(self, action: Any) -> Any:
        return action

    def action_from_json(self, data: Any, state: State) -> Any:
        return data

    def action_to_text(self, action: Any) -> str:
        return f"take {action}"

    def state_from_json(self, data: Mapping[str, Any]) -> NimState:
        state = NimState(self)
        state.pile, state.to_move, state.moves = data["pile"], data["to_move"], data["moves"]
        return state

    def sample_state(self, view: Mapping[str, Any], rng: random.Random) -> NimState:
        return self.state_from_json(view)

    def visible_to(self, state: State, action: Any, seat: int) -> bool:
        return state.current_player() == seat or len(state.to_json()["moves"]) >= 2


def make_game(name: str, options: Mapping[str, Any] | None) -> Nim:
    """This module is the toy game's engine (``GameInfo.engine``)."""
    return Nim()


class NimState(State):
    def __init__(self, game: Nim) -> None:
        self.game = game
        self.pile = 7
        self.to_move: int | None = None
        self.moves: list[int] = []

    def current_player(self) -> int:
        if self.pile == 0:
            return TERMINAL
        return CHANCE if self.to_move is None else self.to_move

    def legal_actions(self) -> list[Any]:
        return [n for n in (1, 2) if n <= self.pile] if self.to_move is not None else []

    def chance_outcomes(self) -> list[tuple[Any, float]]:
        return [(0, 0.5), (1, 0.5)] if self.to_move is None else []

    def apply(self, action: Any) -> None:
        if self.to_move is None:
            self.to_move = action
            return
        self.pile -= action
        self.moves.append(action)
        if self.pile:
            self.to_move = 1 - self.to_move

    def is_terminal(self) -> bool:
        return self.pile == 0

    def returns(self) -> tuple[float, float]:
        if self.pile:
            return (0.0, 0.0)
        return (1.0, -1.0) if self.to_move == 0 else (-1.0, 1.0)

    def observation(self, seat: int | None) -> dict[str, Any]:
        return {"seat": seat, **self.to_json()}

    def clone(self) -> NimState:
        return self.game.state_from_json(self.to_json())

    def to_json(self) -> dict[str, Any]:
        return {"pile": self.pile, "to_move": self.to_move, "moves": list(self.moves)}


@pytest.fixture
def nim() -> Iterator[str]:
    registry.register(GameInfo("toy-nim", "Toy Nim", engine=__name__))
    yield "toy-nim"
    registry.unregister("toy-nim")


def test_a_fourth_game_registered_once_plays_through_the_generic_layers(nim):
    assert nim in registry.game_names()
    game = registry.make_game(nim)
    assert decide(make_agent("random"), _first_decision(game), random.Random(1)) in (1, 2)
    result = play_match(MatchSpec(nim, {}, ("medium", "greedy"), seed=3))
    assert sorted(result.returns) == [-1.0, 1.0]

    session = Session(game, seed=5, players=["a", "b"], readers=(0, 1, None))
    session.resolve_chance()
    while not session.state.is_terminal():
        session.apply(session.state.legal_actions()[0])
        session.resolve_chance()
    assert session.log(0) == [] and session.game.undo_refusal(session.state, [], 0)
    record = session.recorder.record
    assert replay_state(record).to_json() == session.state.to_json()
    seen = export_for_seat(record, 0).events
    assert any(e.get("hidden") for e in seen) and not all(e.get("hidden") for e in seen[1:])


def _first_decision(game: Game) -> State:
    recorder = Recorder(game, seed=1)
    recorder.apply(0)
    return recorder.state
