"""Hold the Line behind the core protocol: a scenario with its options fixed.

``make_game("holdtheline", {"scenario": "trenton", "options": {"leader_ratings": True}})``: the
scenario is a packaged scenario's name (never a path), or a ``Scenario`` object from Python (a
file read by ``load_scenario_file``, tests); or ``{"scenario_toml": TEXT}``, a scenario of one's
own given whole (the web editor's, ``warboard.holdtheline.setups``): the game's options then
carry it, so a stored game and a record replay without any file. The game's options are
merged over the scenario's own (``scenario.options``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from warboard.core.i18n import Msg, msg
from warboard.core.protocol import JSON, Game
from warboard.holdtheline import actions as act
from warboard.holdtheline.board import Board
from warboard.holdtheline.hexes import Hex
from warboard.holdtheline.options import OPTIONS, Options
from warboard.holdtheline.pieces import Roster
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
        unknown = set(options) - {"scenario", "scenario_toml", "options"}
        if unknown:
            raise ValueError(f"unknown option {sorted(unknown)[0]!r} for holdtheline; "
                             "options: scenario, scenario_toml, options")
        text = options.get("scenario_toml")
        if text is not None:
            scenario = _custom(options, text)
        if scenario is None:
            scenario = options.get("scenario", DEFAULT_SCENARIO)
        if not isinstance(scenario, Scenario):
            from warboard.holdtheline.scenario_file import load_scenario

            scenario = load_scenario(scenario)
        rules = options.get("options", {})
        if not isinstance(rules, Mapping):
            raise ValueError("option options must be a table of optional rules")
        self.name = name
        self.scenario = scenario
        self.opts = Options.from_mapping({**scenario.options, **rules})
        self.options: dict[str, Any] = ({"scenario_toml": text} if text is not None
                                        else {"scenario": scenario.name})
        if rules:
            self.options["options"] = dict(rules)
        self.tables = TABLES
        self.board = Board.shared(scenario, TABLES, self.opts.hills_clear)
        self.roster = scenario_roster(scenario)

    # ------------------------------------------------------------------ protocol

    def new_initial_state(self) -> HtlState:
        return HtlState(self)

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

        return HtlNarrator(self.scenario)

    def describe_seats(self) -> tuple[str, str]:
        return (self.scenario.sides[0].display_name, self.scenario.sides[1].display_name)

    def undo_refusal(self, state: Any, events: Sequence[Mapping[str, JSON]],
                     seat: int) -> Msg | None:
        """Back over the seat's own actions only, never past a die roll or the other side's
        decision."""
        if not events:
            return msg("rules.undo.nothingYet")
        last = events[-1].get("seat")
        if last is None:
            return msg("rules.undo.pastDie")
        if last != seat:
            return msg("rules.undo.notYours")
        return None

    def public_data(self) -> dict[str, Any]:
        """The terrain and unit tables for a client's labels and map key, and the optional
        rules (``GET /api/rules/{game}``): the same for every scenario."""
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
            # the optional rules by name, for the scenario editor's choices
            "options": {name: {"rule": rule, "text": text}
                        for name, (rule, text) in OPTIONS.items()},
        }

    def __repr__(self) -> str:
        return f"HoldTheLineGame({self.scenario.name!r}, {self.opts.to_json()!r})"


def _custom(options: Mapping[str, Any], text: object) -> Scenario:
    """The scenario of the option ``scenario_toml``; ``ValueError`` saying what is wrong."""
    from warboard.core.errors import DataFileError
    from warboard.holdtheline.setups import scenario_from_text

    if "scenario" in options:
        raise ValueError("options scenario and scenario_toml exclude each other")
    if not isinstance(text, str):
        raise ValueError("option scenario_toml must be a scenario's TOML text")
    try:
        return scenario_from_text(text)
    except DataFileError as exc:
        raise ValueError(f"option scenario_toml: {exc}") from None


def scenario_roster(scenario: Scenario) -> Roster:
    """The pieces of a scenario in state order: per side its units then its reinforcements'
    units (leaders likewise); ``ValueError`` when an id is used twice."""
    units: dict[str, int] = {}
    leaders: dict[str, int] = {}
    unit_arrival: dict[str, Hex] = {}
    leader_arrival: dict[str, Hex] = {}
    for side in scenario.sides:
        groups = [(side.units, side.leaders, False)] + [
            (r.units, r.leaders, True) for r in side.reinforcements]
        for side_units, side_leaders, later in groups:
            for u in side_units:
                if u.id in units:
                    raise ValueError(f"scenario {scenario.name}: unit id {u.id!r} is used twice")
                units[u.id] = len(units)
                if later:
                    unit_arrival[u.id] = u.at
            for ld in side_leaders:
                if ld.id in leaders:
                    raise ValueError(f"scenario {scenario.name}: leader id {ld.id!r} is used "
                                     "twice")
                leaders[ld.id] = len(leaders)
                if later:
                    leader_arrival[ld.id] = ld.at
    return Roster(units, leaders, unit_arrival, leader_arrival)


def make_game(name: str, options: Mapping[str, Any] | None = None) -> HoldTheLineGame:
    if name != "holdtheline":
        raise ValueError(f"unknown game {name!r}")
    options = dict(options or {})
    scenario = options.get("scenario")
    if isinstance(scenario, Scenario):
        options.pop("scenario")
        return HoldTheLineGame(name, options, scenario=scenario)
    return HoldTheLineGame(name, options)

