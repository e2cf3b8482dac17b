"""Hold the Line behind the core protocol: a scenario with its options fixed.

``make_game("holdtheline", {"scenario": "trenton", "options": {"leader_ratings": True}})``: the
scenario is a packaged scenario's name (never a path), or a ``Scenario`` object from Python (a
file read by ``load_scenario_file``, tests). The game's options are merged over the scenario's
own (``scenario.options``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from warboard.core.errors import IllegalActionError
from warboard.core.protocol import JSON, Game
from warboard.holdtheline import actions as act
from warboard.holdtheline.hexes import Hex
from warboard.holdtheline.movement import Board
from warboard.holdtheline.options import Options
from warboard.holdtheline.scenario import Scenario
from warboard.holdtheline.state import HtlState
from warboard.holdtheline.tables import TABLES

if TYPE_CHECKING:
    from warboard.holdtheline.narrate import HtlNarrator

DEFAULT_SCENARIO = "tutorial"


class HoldTheLineGame(Game):
    num_seats = 2
    describes_actions = True  # HtlState.action_hints

    def __init__(self, name: str = "holdtheline", options: Mapping[str, Any] | None = None,
                 scenario: Scenario | None = None) -> None:
        options = dict(options or {})
        unknown = set(options) - {"scenario", "options"}
        if unknown:
            raise ValueError(f"unknown option {sorted(unknown)[0]!r} for holdtheline; "
                             "options: scenario, options")
        sc = scenario if scenario is not None else options.get("scenario", DEFAULT_SCENARIO)
        if not isinstance(sc, Scenario):
            from warboard.holdtheline.scenario_file import load_scenario

            sc = load_scenario(sc)
        rules = options.get("options", {})
        if not isinstance(rules, Mapping):
            raise ValueError("option options must be a table of optional rules")
        merged = {**sc.options, **rules}
        self.name = name
        self.scenario = sc
        self.opts = Options.from_mapping(merged)
        self.options: dict[str, Any] = {"scenario": sc.name}
        if rules:
            self.options["options"] = dict(rules)
        self.tables = TABLES
        self.board = Board.shared(sc, TABLES, self.opts.hills_clear)
        self.unit_index: dict[str, int] = {}
        self.leader_index: dict[str, int] = {}
        self.unit_setup: dict[str, Hex] = {}
        self.leader_setup: dict[str, Hex] = {}
        for side in sc.sides:
            groups = [(side.units, side.leaders)] + [(r.units, r.leaders)
                                                      for r in side.reinforcements]
            for units, leaders in groups:
                for u in units:
                    if u.id in self.unit_index:
                        raise ValueError(f"scenario {sc.name}: unit id {u.id!r} is used twice")
                    self.unit_index[u.id] = len(self.unit_index)
                    self.unit_setup[u.id] = u.at
                for L in leaders:
                    if L.id in self.leader_index:
                        raise ValueError(f"scenario {sc.name}: leader id {L.id!r} is used "
                                         "twice")
                    self.leader_index[L.id] = len(self.leader_index)
                    self.leader_setup[L.id] = L.at

    # ------------------------------------------------------------------ protocol

    def new_initial_state(self) -> HtlState:
        state = HtlState(self)
        # the unit order of a state follows the scenario: side 0 (units, reinforcements), side 1
        order = {u.id: i for i, u in enumerate(state.units)}
        if order != self.unit_index:
            self.unit_index = order
        self.leader_index = {L.id: i for i, L in enumerate(state.leaders)}
        return state

    def action_to_json(self, action: Any) -> dict[str, Any]:
        return act.action_to_json(action)

    def action_from_json(self, data: Any, state: Any = None) -> Any:
        return act.action_from_json(data)

    def action_to_text(self, action: Any) -> str:
        return act.action_to_text(action)

    def state_from_json(self, data: Mapping[str, Any]) -> HtlState:
        from warboard.holdtheline.serialize import state_from_json

        return state_from_json(data, self)

    def sample_state(self, view: Mapping[str, Any], rng: Any) -> HtlState:
        """A full state consistent with a seat's view, for search: everything is public (only
        future dice are unknown), so it is the state rebuilt from the view; ``rng`` is unused.
        The last rebuild is kept and cloned, as search asks once per iteration. The state does
        not record events (``record_events`` False: its ``events`` holds only the last one, a
        new object each time, without text), which keeps search cheap."""
        from warboard.holdtheline.serialize import state_from_json

        cached = getattr(self, "_sampled", None)
        if cached is None or cached[0] is not view:
            state = state_from_json(view, self, events=False)
            state.record_events = False
            cached = self._sampled = (view, state)
            state.legal_actions()  # listed once, shared by the clones
        return cached[1].clone()

    def narrator(self) -> HtlNarrator:
        from warboard.holdtheline.narrate import HtlNarrator

        return HtlNarrator()

    def describe_seats(self) -> tuple[str, str]:
        return (self.scenario.sides[0].display_name, self.scenario.sides[1].display_name)

    def undo_refusal(self, state: Any, events: Sequence[Mapping[str, JSON]],
                     seat: int) -> str | None:
        """Back over the seat's own actions only, never past a die roll or the other side's
        decision."""
        if not events:
            return "nothing has been played yet"
        last = events[-1].get("seat")
        if last is None:
            return ("a die has been rolled since your last action (undo never goes back past "
                    "a die roll)")
        if last != seat:
            return "the last decision was not yours"
        return None

    def public_data(self) -> dict[str, Any]:
        """The terrain and unit tables for a client's labels and map key
        (``GET /api/rules/{game}``): the same for every scenario."""
        t = self.tables
        return {
            "game": self.name,
            "terrain": {name: {"combat": x.combat, "movement": x.movement,
                               "blocks_los": x.blocks_los, "morale": x.morale}
                        for name, x in t.terrain.items()},
            "units": {kind: {"label": u.label, "movement": u.movement, "fire": list(u.fire),
                             "dice": u.dice, "close": u.close, "infantry": u.infantry,
                             "max_mp": u.max_mp} for kind, u in t.units.items()},
            "leader": {"movement": t.leader_movement, "escape": t.leader_escape},
            "ap": dict(t.ap),
        }

    def __repr__(self) -> str:
        return f"HoldTheLineGame({self.scenario.name!r}, {self.opts.to_json()!r})"


def make_game(name: str, options: Mapping[str, Any] | None = None) -> HoldTheLineGame:
    if name != "holdtheline":
        raise ValueError(f"unknown game {name!r}")
    options = dict(options or {})
    sc = options.get("scenario")
    if isinstance(sc, Scenario):
        options.pop("scenario")
        return HoldTheLineGame(name, options, scenario=sc)
    return HoldTheLineGame(name, options)


def parse_action(game: HoldTheLineGame, data: Any) -> Any:
    """An action from interchange JSON; raises ``IllegalActionError`` when malformed."""
    try:
        return game.action_from_json(data)
    except IllegalActionError:
        raise
