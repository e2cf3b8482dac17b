"""Builders for Hold the Line test positions: scenarios made in Python, states put in the
``act`` phase with a chosen number of AP, actions from JSON, dice fed one by one.

Seat 0 is "american" (home edge south), seat 1 "british" (home edge north) unless told.
Hexes are ``(col, row)`` in the odd-r layout; a row is a straight line, so attacks along one
row have simple lines of sight.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from warboard.core.protocol import CHANCE
from warboard.holdtheline.actions import Die, action_from_json
from warboard.holdtheline.game import HoldTheLineGame
from warboard.holdtheline.hexes import Hex
from warboard.holdtheline.scenario import (
    LeaderSetup,
    Reinforcement,
    Scenario,
    Side,
    UnitSetup,
)
from warboard.holdtheline.state import HtlState

START_MP = {"regular": 4, "elite": 4, "light": 3, "militia": 2, "dragoon": 2, "artillery": 2}


def u(id: str, kind: str, at: Hex, mp: int | None = None) -> UnitSetup:
    return UnitSetup(id, kind, mp if mp is not None else START_MP[kind], at)


def ldr(id: str, at: Hex, rating: tuple[int, int] = (1, 1)) -> LeaderSetup:
    return LeaderSetup(id, id.capitalize(), at, rating)


def scenario(a: Iterable[UnitSetup] = (), b: Iterable[UnitSetup] = (),
             a_leaders: Iterable[LeaderSetup] = (), b_leaders: Iterable[LeaderSetup] = (),
             terrain: Mapping[Hex, str] | None = None, *, cols: int = 13, rows: int = 9,
             first: int = 0, command_ap: tuple[tuple[int, ...], tuple[int, ...]] = ((3,), (3,)),
             action_die: tuple[tuple[int, int, int], tuple[int, int, int]] = ((1, 2, 3),
                                                                              (1, 2, 3)),
             turn_limit: int = 10, time_out_winner: int | None = None,
             homes: tuple[tuple[str, ...], tuple[str, ...]] = (("south",), ("north",)),
             vp_target: tuple[int | None, int | None] = (None, None),
             counters: tuple[tuple[Hex, ...], tuple[Hex, ...]] = ((), ()),
             objectives: tuple[tuple[tuple[Hex, int], ...], tuple[tuple[Hex, int], ...]] = ((),
                                                                                            ()),
             exits: tuple[tuple[Hex, ...], tuple[Hex, ...]] = ((), ()),
             exit_vp: tuple[tuple[int, int], tuple[int, int]] = ((0, 0), (0, 0)),
             reinforcements: tuple[tuple[Reinforcement, ...], tuple[Reinforcement, ...]] = ((),
                                                                                           ()),
             options: Mapping[str, Any] | None = None, name: str = "test") -> Scenario:
    units = (tuple(a), tuple(b))
    leaders = (tuple(a_leaders), tuple(b_leaders))
    sides = tuple(
        Side(name=("american", "british")[s], home_edges=homes[s], command_ap=command_ap[s],
             action_die=action_die[s], units=units[s], leaders=leaders[s],
             vp_counters=counters[s], vp_target=vp_target[s], objectives=objectives[s],
             exit_hexes=exits[s], exit_vp=exit_vp[s], reinforcements=reinforcements[s])
        for s in range(2))
    return Scenario(name=name, title=name, history="", cols=cols, rows=rows,
                    terrain=dict(terrain or {}), sides=(sides[0], sides[1]), first=first,
                    turn_limit=turn_limit, time_out_winner=time_out_winner,
                    options=dict(options or {}))


def game(sc: Scenario, options: Mapping[str, Any] | None = None) -> HoldTheLineGame:
    return HoldTheLineGame("holdtheline", {"options": dict(options)} if options else {},
                           scenario=sc)


def start(sc: Scenario, ap: int = 6, options: Mapping[str, Any] | None = None) -> HtlState:
    """The first side's turn 1 after its action die, with exactly ``ap`` AP."""
    s = game(sc, options).new_initial_state()
    s.apply(Die(3))
    s.ap = ap
    s.forget_legal_actions()
    return s


def act(s: HtlState, **data: Any) -> None:
    """Apply an action given as JSON fields (hexes as tuples or lists)."""
    fixed = {k: ([list(h) for h in v] if k == "path" else
                 list(v) if isinstance(v, tuple) else v) for k, v in data.items()}
    s.apply(action_from_json(fixed))


def action(**data: Any) -> Any:
    fixed = {k: ([list(h) for h in v] if k == "path" else
                 list(v) if isinstance(v, tuple) else v) for k, v in data.items()}
    return action_from_json(fixed)


def roll(s: HtlState, *values: int) -> None:
    for v in values:
        assert s.current_player() == CHANCE, f"no die expected before {v}: {s.pending!r}"
        s.apply(Die(v))


def events(s: HtlState, type: str | None = None, **match: Any) -> list[dict[str, Any]]:
    return [e for e in s.events if (type is None or e["type"] == type)
            and all(e.get(k) == v for k, v in match.items())]


def legal_json(s: HtlState) -> list[dict[str, Any]]:
    return [s.game.action_to_json(a) for a in s.legal_actions()]


def of_type(s: HtlState, kind: str) -> list[Any]:
    return [a for a in s.legal_actions() if s.game.action_to_json(a)["type"] == kind]


def destinations(s: HtlState, unit: str | None = None, leader: str | None = None,
                 **flags: Any) -> set[Hex]:
    """End hexes of the legal moves of ``unit`` (with ``leader``) having exactly ``flags``."""
    out = set()
    for a in s.legal_actions():
        j = s.game.action_to_json(a)
        if j["type"] != "move" or j.get("unit") != unit or j.get("leader") != leader:
            continue
        if all(j.get(k, False) == v for k, v in flags.items()) and not (
                set(k for k in ("bonus", "fire", "force_march") if k in j) - set(flags)):
            out.add(tuple(j["path"][-1]))
    return out  # type: ignore[return-value]
