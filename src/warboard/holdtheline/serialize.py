"""Hold the Line positions as JSON (docs/holdtheline-engine.md, "Observation / position JSON")
and back, validated with errors that name the field (``PositionError``).

A position is self-contained: besides the pieces it carries the scenario facts the rules need
(terrain, home edges, command AP by turn, action-die faces, VP targets, objectives, exits, the
reinforcements still to come, turn limit), so ``state_from_json(data)`` needs no scenario file.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from warboard.core.errors import PositionError
from warboard.holdtheline.board import IMPASSABLE
from warboard.holdtheline.hexes import Hex
from warboard.holdtheline.movement import stack_ok
from warboard.holdtheline.options import Options
from warboard.holdtheline.pending import Pending
from warboard.holdtheline.pieces import ELIMINATED, EXITED, ON, WAITING, Leader, Roster, Unit
from warboard.holdtheline.ratings import ASSIGN
from warboard.holdtheline.resolve import ROLLS
from warboard.holdtheline.resolve import STAGES as STAGE_STEPS
from warboard.holdtheline.scenario import (
    EDGES,
    UNIT_KINDS,
    Scenario,
    Side,
)
from warboard.holdtheline.state import ACT, AP_PHASE, OVER, HtlState
from warboard.holdtheline.tables import TABLES

if TYPE_CHECKING:
    from warboard.holdtheline.game import HoldTheLineGame

STATUSES = (ON, ELIMINATED, EXITED, WAITING)
PHASES = (ASSIGN, AP_PHASE, ACT, OVER)
STAGES = tuple(STAGE_STEPS)
NO_HEXES: tuple[Hex, ...] = ()
DECISIONS = ("evade", "allocate", "retreat", "displace", "escape", "advance")


def _h(h: Hex | None) -> list[int] | None:
    return None if h is None else [h[0], h[1]]


# ============================================================================ to JSON

def _sorted_by_row(table: Mapping[Hex, Any]) -> list[tuple[Hex, Any]]:
    return sorted(table.items(), key=lambda kv: (kv[0][1], kv[0][0]))


def _field_makers() -> dict[str, Callable[[HtlState], Any]]:
    """Each field of a position's JSON and how it is made, in the JSON's order (in a function:
    mypy reads its lambdas once ``HtlState`` is known)."""
    return {
        "game": lambda state: "holdtheline",
        "scenario": lambda state: state.scenario.name,
        "title": lambda state: state.scenario.title,
        "options": lambda state: state.opts.to_json(),
        "cols": lambda state: state.scenario.cols,
        "rows": lambda state: state.scenario.rows,
        "terrain": lambda state: [{"at": [c, r], "terrain": t} for (c, r), t in _sorted_by_row(
            state.scenario.terrain) if t != "clear"],
        "places": lambda state: [{"at": list(h), "name": n}
                                 for h, n in _sorted_by_row(state.scenario.places)],
        "sides": lambda state: [s.name for s in state.scenario.sides],
        "labels": lambda state: [s.display_name for s in state.scenario.sides],
        "home_edges": lambda state: [list(s.home_edges) for s in state.scenario.sides],
        "first": lambda state: state.scenario.first,
        "turn": lambda state: state.turn,
        "turn_limit": lambda state: state.scenario.turn_limit,
        "time_out_winner": lambda state: state.scenario.time_out_winner,
        "time_out_by_vp": lambda state: state.scenario.time_out_by_vp,
        "phase": lambda state: state.phase,
        "active": lambda state: state.active,
        "to_move": lambda state: state.current_player(),
        "ap": lambda state: state.ap,
        "command_ap": lambda state: [state.command_ap(0), state.command_ap(1)],
        "command_ap_by_turn": lambda state: [list(s.command_ap) for s in state.scenario.sides],
        "action_die": lambda state: [list(s.action_die) for s in state.scenario.sides],
        "leaders_lost": lambda state: state.leaders_lost[:],
        "vp": lambda state: [state.vp_total(0), state.vp_total(1)],
        "vp_earned": lambda state: state.vp_earned[:],
        "vp_target": lambda state: [s.vp_target for s in state.scenario.sides],
        "exited": lambda state: state.exited[:],
        "units": lambda state: [_unit_json(state, u) for u in state.units],
        "leaders": lambda state: [_leader_json(state, leader) for leader in state.leaders],
        "vp_counters": lambda state: [{"id": cid, "side": s, "at": list(h)}
                                      for cid, s, h in state.counters],
        "objectives": lambda state: _objectives(state),
        "exits": lambda state: [{"side": i, "hexes": [list(h) for h in s.exit_hexes],
                                 "vp": list(s.exit_vp), "exited": state.exited[i]}
                                for i, s in enumerate(state.scenario.sides) if s.exit_hexes],
        "attacks": lambda state: [{"target": list(t), "from": [list(h) for h in f]}
                                  for t, f in state.attacks.items()],
        "pending": lambda state: pending_to_json(state, state.pending),
        "result": lambda state: state.result,
        "events": lambda state: list(state.events),
    }


_FIELDS = _field_makers()


def position_to_json(state: HtlState) -> dict[str, Any]:
    return {name: field(state) for name, field in _FIELDS.items()}


def position_fields(state: HtlState, names: Iterable[str]) -> dict[str, Any]:
    """Only the fields ``names`` of ``position_to_json(state)``, made the same way (a reader of
    a few of them need not pay for the map and the log)."""
    return {name: _FIELDS[name](state) for name in names}


def _unit_json(state: HtlState, u: Any) -> dict[str, Any]:
    d = {"id": u.id, "side": u.side, "kind": u.kind, "mp": u.mp, "start_mp": u.start_mp,
         "at": _h(u.at), "status": u.status, "acted": u.acted, "moved": u.moved,
         "fired_at": u.fired_at}
    if u.worn:
        d["worn"] = u.worn
    if u.status == WAITING:
        d["arrive"] = u.arrive
        d["enter_at"] = _h(state.roster.unit_arrival[u.id])
        d["entry"] = [list(h) for h in u.entry]
    return d


def _leader_json(state: HtlState, leader: Any) -> dict[str, Any]:
    d = {"id": leader.id, "name": leader.name, "side": leader.side, "at": _h(leader.at),
         "rating": list(leader.rating), "hits": leader.hits, "acted": leader.acted,
         "start_at": _h(leader.start_at), "status": leader.status}
    if leader.status == WAITING:
        d["arrive"] = leader.arrive
        d["enter_at"] = _h(state.roster.leader_arrival[leader.id])
        d["entry"] = [list(h) for h in leader.entry]
    return d


def _objectives(state: HtlState) -> list[dict[str, Any]]:
    occ = state.occupancy()
    out = []
    for i, s in enumerate(state.scenario.sides):
        for h, vp in s.objectives:
            here = occ.get(h)
            out.append({"at": list(h), "side": i, "vp": vp,
                        "held": here is not None and state.units[here[0]].side == i})
    return out


def pending_to_json(state: HtlState, p: Pending | None) -> dict[str, Any] | None:
    if p is None:
        return None
    data: dict[str, Any] = {
        "kind": p.kind, "stage": p.stage, "wait": p.wait, "decider": p.decider,
        "unit": p.unit, "side": p.side, "origin": _h(p.origin), "target": _h(p.target),
        "leader": p.leader, "n_dice": p.n_dice, "hit_on": p.hit_on, "mod": p.mod,
        "dist": p.dist, "flank": p.flank, "dice": p.dice[:],
        "morale": [{"unit": e[0], "die": e[1], "need": e[2], "failed": e[3]} for e in p.morale],
        "mi": p.mi, "hits": p.hits, "ones": p.ones, "victim": p.victim,
        "elite_left": p.elite_left, "checks": p.checks[:], "retreats": p.retreats[:],
        "follow": p.follow, "after_retreat": p.after_retreat, "current": p.current,
        "displacing": p.displacing, "retreat_to": _h(p.retreat_to), "escapes": p.escapes[:],
        "eliminated": p.eliminated, "converted": p.converted,
        "path": [list(h) for h in p.path],
    }
    data["choices"] = _choices_json(state, p)
    if p.wait == "decision":
        data["decision"] = _decision_json(p)
    return data


def _choices_json(state: HtlState, p: Pending) -> list[Any]:
    if p.stage == "allocate":
        return list(p.choices)
    if p.stage in ("retreat", "displace"):
        return [{"to": list(h), "displaces": (state.units[d].id if d is not None else None)}
                for h, d in p.choices]
    if p.stage == "escape":
        return [list(h) for h in p.choices]
    return []


def _decision_json(p: Pending) -> dict[str, Any]:
    """The decision a pending activation waits for, as the tables show it."""
    decision: dict[str, Any] = {"kind": p.stage, "seat": p.decider}
    if p.stage == "allocate":
        decision["units"] = list(p.choices)
    elif p.stage == "retreat":
        decision.update(unit=p.current, choices=[list(h) for h, _ in p.choices])
    elif p.stage == "displace":
        decision.update(unit=p.displacing, choices=[list(h) for h, _ in p.choices])
    elif p.stage == "escape":
        decision.update(leader=p.current, choices=[list(h) for h in p.choices])
    return decision


# ============================================================================ from JSON

class _Reader:
    def __init__(self, data: Any) -> None:
        if not isinstance(data, Mapping):
            raise PositionError("a position must be a JSON object")
        self.data = data

    @staticmethod
    def fail(where: str, problem: str) -> PositionError:
        return PositionError(f"{where}: {problem}")

    def get(self, obj: Mapping[str, Any], key: str, where: str, default: Any = ...) -> Any:
        if key in obj:
            return obj[key]
        if default is not ...:
            return default
        raise self.fail(f"{where}{key}", "is missing")

    def whole(self, value: Any, where: str, lo: int | None = None, hi: int | None = None,
              ) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(where, f"must be a whole number, not {value!r}")
        if lo is not None and value < lo:
            raise self.fail(where, f"must be at least {lo}, not {value}")
        if hi is not None and value > hi:
            raise self.fail(where, f"must be at most {hi}, not {value}")
        return value

    def flag(self, value: Any, where: str) -> bool:
        if not isinstance(value, bool):
            raise self.fail(where, f"must be true or false, not {value!r}")
        return value

    def text(self, value: Any, where: str) -> str:
        if not isinstance(value, str) or not value:
            raise self.fail(where, f"must be a non-empty string, not {value!r}")
        return value

    def items(self, value: Any, where: str) -> list[Any]:
        if not isinstance(value, list):
            raise self.fail(where, f"must be a list, not {type(value).__name__}")
        return value

    def obj(self, value: Any, where: str) -> Mapping[str, Any]:
        if not isinstance(value, Mapping):
            raise self.fail(where, "must be an object")
        return value

    def hex_or_none(self, value: Any, where: str, cols: int, rows: int) -> Hex | None:
        return None if value is None else self.hex(value, where, cols, rows)

    def hex(self, value: Any, where: str, cols: int, rows: int) -> Hex:
        if (not isinstance(value, list) or len(value) != 2
                or not all(isinstance(n, int) and not isinstance(n, bool) for n in value)):
            raise self.fail(where, f"must be a hex [col, row], not {value!r}")
        if not (0 <= value[0] < cols and 0 <= value[1] < rows):
            raise self.fail(where, f"hex {value[0]},{value[1]} is off the {cols}x{rows} board")
        return (value[0], value[1])

    def pair(self, value: Any, where: str) -> list[Any]:
        v = self.items(value, where)
        if len(v) != 2:
            raise self.fail(where, "must have one entry per side")
        return v


def scenario_from_position(data: Mapping[str, Any]) -> Scenario:
    """The scenario facts a position carries (no pieces; those are read with the state)."""
    r = _Reader(data)
    d = r.data
    cols = r.whole(r.get(d, "cols", "", 13), "cols", 2, 60)
    rows = r.whole(r.get(d, "rows", "", 9), "rows", 2, 60)
    terrain = _read_terrain(r, d, cols, rows)
    names = r.pair(r.get(d, "sides", ""), "sides")
    labels = r.pair(r.get(d, "labels", "", list(names)), "labels")
    edges = r.pair(r.get(d, "home_edges", "", [[], []]), "home_edges")
    cmd = r.pair(r.get(d, "command_ap_by_turn", "", None) or [[3], [3]], "command_ap_by_turn")
    dice = r.pair(r.get(d, "action_die", "", [[1, 2, 3], [1, 2, 3]]), "action_die")
    targets = r.pair(r.get(d, "vp_target", "", [None, None]), "vp_target")
    objectives = _read_objectives(r, d, cols, rows)
    exits = _read_exits(r, d, cols, rows)
    sides = [_read_side(r, s, names[s], edges[s], cmd[s], dice[s], targets[s])
             for s in range(2)]
    sides = [replace(side, objectives=tuple(objectives[s]), exit_hexes=exits[s][0],
                     exit_vp=exits[s][1], label=str(labels[s] or ""))
             for s, side in enumerate(sides)]
    first = r.whole(r.get(d, "first", "", 0), "first", 0, 1)
    limit = r.whole(r.get(d, "turn_limit", "", 99), "turn_limit", 1, 999)
    tow = r.get(d, "time_out_winner", "", None)
    tow = None if tow is None else r.whole(tow, "time_out_winner", 0, 1)
    by_vp = r.get(d, "time_out_by_vp", "", False)
    if not isinstance(by_vp, bool):
        raise r.fail("time_out_by_vp", "must be true or false")
    options = r.obj(r.get(d, "options", "", {}), "options")
    places = _read_places(r, d, cols, rows)
    return Scenario(name=str(d.get("scenario") or "position"), title=str(d.get("title", "")),
                    history="", cols=cols, rows=rows, terrain=terrain,
                    sides=(sides[0], sides[1]), first=first, turn_limit=limit,
                    time_out_winner=tow, time_out_by_vp=by_vp, options=dict(options),
                    places=places)


def _read_terrain(r: _Reader, d: Mapping[str, Any], cols: int, rows: int) -> dict[Hex, str]:
    terrain: dict[Hex, str] = {}
    for i, t in enumerate(r.items(r.get(d, "terrain", "", []), "terrain")):
        w = f"terrain[{i}]"
        t = r.obj(t, w)
        h = r.hex(r.get(t, "at", w + "."), w + ".at", cols, rows)
        name = r.text(r.get(t, "terrain", w + "."), w + ".terrain")
        if name not in TABLES.terrain:
            raise r.fail(w + ".terrain", f"unknown terrain {name!r}; terrains: "
                         f"{', '.join(TABLES.terrain)}")
        if h in terrain:
            raise r.fail(w + ".at", f"hex {h[0]},{h[1]} is listed twice")
        terrain[h] = name
    return terrain


def _read_objectives(r: _Reader, d: Mapping[str, Any], cols: int, rows: int,
                     ) -> list[list[tuple[Hex, int]]]:
    """Each side's objectives (hex, VP)."""
    objectives: list[list[tuple[Hex, int]]] = [[], []]
    for i, o in enumerate(r.items(r.get(d, "objectives", "", []), "objectives")):
        w = f"objectives[{i}]"
        o = r.obj(o, w)
        s = r.whole(r.get(o, "side", w + "."), w + ".side", 0, 1)
        objectives[s].append((r.hex(r.get(o, "at", w + "."), w + ".at", cols, rows),
                              r.whole(r.get(o, "vp", w + ".", 1), w + ".vp", 0, 99)))
    return objectives


def _read_exits(r: _Reader, d: Mapping[str, Any], cols: int, rows: int,
                ) -> list[tuple[tuple[Hex, ...], tuple[int, int]]]:
    """Each side's exit hexes and exit VP ([VP, per this many units])."""
    exits: list[tuple[tuple[Hex, ...], tuple[int, int]]] = [((), (0, 0)), ((), (0, 0))]
    for i, e in enumerate(r.items(r.get(d, "exits", "", []), "exits")):
        w = f"exits[{i}]"
        e = r.obj(e, w)
        s = r.whole(r.get(e, "side", w + "."), w + ".side", 0, 1)
        hx = tuple(r.hex(h, f"{w}.hexes[{j}]", cols, rows)
                   for j, h in enumerate(r.items(r.get(e, "hexes", w + "."), w + ".hexes")))
        vp = r.pair(r.get(e, "vp", w + ".", [0, 0]), w + ".vp")
        exits[s] = (hx, (r.whole(vp[0], w + ".vp[0]", 0, 99),
                         r.whole(vp[1], w + ".vp[1]", 0, 99)))
    return exits


def _read_side(r: _Reader, s: int, name: Any, edges: Any, command_ap: Any, die: Any,
               target: Any) -> Side:
    """Side ``s``'s name, home edges, command AP by turn, action die faces and VP target."""
    name = r.text(name, f"sides[{s}]")
    home = tuple(r.items(edges, f"home_edges[{s}]"))
    for j, e in enumerate(home):
        if e not in EDGES:
            raise r.fail(f"home_edges[{s}][{j}]", f"must be one of {', '.join(EDGES)}")
    command = tuple(r.whole(v, f"command_ap_by_turn[{s}][{j}]", 0, 20)
                    for j, v in enumerate(r.items(command_ap, f"command_ap_by_turn[{s}]")))
    if not command:
        raise r.fail(f"command_ap_by_turn[{s}]", "must not be empty")
    faces = r.items(die, f"action_die[{s}]")
    if len(faces) != 3:
        raise r.fail(f"action_die[{s}]", "must give the value of faces 1, 2 and 3")
    a, b, c = (r.whole(v, f"action_die[{s}][{j}]", 0, 6) for j, v in enumerate(faces))
    vp_target = None if target is None else r.whole(target, f"vp_target[{s}]", 0, 999)
    return Side(name=name, home_edges=home, command_ap=command, action_die=(a, b, c),
                vp_target=vp_target)


def _read_places(r: _Reader, d: Mapping[str, Any], cols: int, rows: int) -> dict[Hex, str]:
    places: dict[Hex, str] = {}
    for i, pl in enumerate(r.items(r.get(d, "places", "", []), "places")):
        w = f"places[{i}]"
        pl = r.obj(pl, w)
        h = r.hex(r.get(pl, "at", w + "."), w + ".at", cols, rows)
        if h in places:
            raise r.fail(w + ".at", f"hex {h[0]},{h[1]} is named twice")
        places[h] = r.text(r.get(pl, "name", w + "."), w + ".name")
    return places


def state_from_json(data: Mapping[str, Any], game: HoldTheLineGame | None = None, *,
                    events: bool = True) -> HtlState:
    """A state from its JSON; ``PositionError`` names the field that is wrong. The state
    belongs to ``game`` when the position's scenario facts and options are the game's; else
    to a game made from the position's own facts (one per set of facts, shared). The pieces
    keep the position's order (legal actions are listed in it). ``events=False`` skips
    reading the event log (for callers that do not need the past, e.g. search): the state
    starts with an empty ``events`` list, and the events it logs from then on are numbered
    after the position's."""
    r = _Reader(data)
    d = r.data
    if d.get("game", "holdtheline") != "holdtheline":
        raise r.fail("game", f"must be \"holdtheline\", not {d.get('game')!r}")
    facts = scenario_from_position(d)
    cols, rows = facts.cols, facts.rows
    units_in = r.items(r.get(d, "units", ""), "units")
    leaders_in = r.items(r.get(d, "leaders", "", []), "leaders")
    units, unit_arrival = _read_units(r, units_in, cols, rows)
    leaders, leader_arrival = _read_leaders(r, leaders_in, cols, rows)
    counters = _read_counters(r, d, cols, rows)
    if len({u.id for u in units}) != len(units):
        raise r.fail("units", "unit ids must be unique")
    if len({leader.id for leader in leaders}) != len(leaders):
        raise r.fail("leaders", "leader ids must be unique")
    owner = _position_game(facts, game)
    _check_pieces(r, units, leaders)
    roster = Roster({u.id: i for i, u in enumerate(units)},
                    {ld.id: i for i, ld in enumerate(leaders)}, unit_arrival, leader_arrival)
    turn = r.whole(r.get(d, "turn", "", 1), "turn", 1, facts.turn_limit)
    active = r.whole(r.get(d, "active", "", facts.first), "active", 0, 1)
    phase = r.get(d, "phase", "", ACT)
    if phase not in PHASES:
        raise r.fail("phase", f"must be one of {', '.join(PHASES)}")
    ap = r.whole(r.get(d, "ap", "", 0), "ap", 0, 99)
    leaders_lost = _per_side(r, d, "leaders_lost", [0, 0], 99)
    vp_earned = _per_side(r, d, "vp_earned", d.get("vp", [0, 0]), 999)
    exited = _per_side(r, d, "exited", [0, 0], 999)
    attacks = _read_attacks(r, d, cols, rows)
    log = r.items(r.get(d, "events", "", []), "events")
    result = r.get(d, "result", "", None)
    result = dict(result) if isinstance(result, Mapping) else None
    if phase == OVER and result is None:
        raise r.fail("result", "a finished game needs its result")
    pending = _pending_from_json(r, r.get(d, "pending", "", None), roster, cols, rows)
    if pending is not None and phase != ACT:
        raise r.fail("pending", "only a side acting may have an activation under way")
    if phase == ASSIGN and not owner.opts.leader_ratings:
        raise r.fail("phase", "leader ratings are assigned only with option leader_ratings "
                     "(11.6)")
    state = HtlState.at_position(
        owner, owner.scenario, roster, units=units, leaders=leaders, counters=counters,
        turn=turn, active=active, phase=phase, ap=ap, leaders_lost=leaders_lost,
        vp_earned=vp_earned, exited=exited, attacks=attacks,
        events=[dict(e) for e in log] if events else [], n_events=len(log), result=result,
        pending=pending)
    _check_board(r, state)
    return state


def _per_side(r: _Reader, d: Mapping[str, Any], key: str, default: Any, most: int,
              ) -> list[int]:
    return [r.whole(v, f"{key}[{i}]", 0, most)
            for i, v in enumerate(r.pair(r.get(d, key, "", default), key))]


def _read_units(r: _Reader, units_in: list[Any], cols: int, rows: int,
                ) -> tuple[list[Unit], dict[str, Hex]]:
    """The combat units in the position's order, and where each waiting one enters."""
    units: list[Unit] = []
    arrival: dict[str, Hex] = {}
    for i, u in enumerate(units_in):
        w = f"units[{i}]"
        u = r.obj(u, w)
        uid = r.text(r.get(u, "id", w + "."), w + ".id")
        side = r.whole(r.get(u, "side", w + "."), w + ".side", 0, 1)
        kind = r.text(r.get(u, "kind", w + "."), w + ".kind")
        if kind not in UNIT_KINDS:
            raise r.fail(w + ".kind", f"must be one of {', '.join(UNIT_KINDS)}, not {kind!r}")
        status = r.get(u, "status", w + ".", ON)
        if status not in STATUSES:
            raise r.fail(w + ".status", f"must be one of {', '.join(STATUSES)}")
        start_mp = r.whole(r.get(u, "start_mp", w + ".", u.get("mp")), w + ".start_mp", 1,
                         TABLES.units[kind].max_mp)
        mp = r.whole(r.get(u, "mp", w + "."), w + ".mp", 0, start_mp)
        at = r.hex_or_none(r.get(u, "at", w + ".", None), w + ".at", cols, rows)
        if status == ON:
            if at is None:
                raise r.fail(w + ".at", "a unit on the board needs a hex")
            if mp < 1:
                raise r.fail(w + ".mp", "a unit on the board has at least 1 MP")
        elif status != WAITING:
            at = None
        arrive, entry = 0, NO_HEXES
        if status == WAITING:
            arrival[uid], entry, arrive = _arrival(r, u, w, cols, rows)
        unit = Unit(uid, side, kind, mp, start_mp, at, status, arrive, entry)
        unit.acted = r.flag(r.get(u, "acted", w + ".", False), w + ".acted")
        unit.moved = r.flag(r.get(u, "moved", w + ".", False), w + ".moved")
        unit.fired_at = r.flag(r.get(u, "fired_at", w + ".", False), w + ".fired_at")
        unit.worn = r.whole(r.get(u, "worn", w + ".", 0), w + ".worn", 0, start_mp)
        units.append(unit)
    return units, arrival


def _read_leaders(r: _Reader, leaders_in: list[Any], cols: int, rows: int,
                  ) -> tuple[list[Leader], dict[str, Hex]]:
    """The leaders in the position's order, and where each waiting one enters."""
    leaders: list[Leader] = []
    arrival: dict[str, Hex] = {}
    for i, data in enumerate(leaders_in):
        w = f"leaders[{i}]"
        data = r.obj(data, w)
        lid = r.text(r.get(data, "id", w + "."), w + ".id")
        name = r.text(r.get(data, "name", w + ".", lid), w + ".name")
        side = r.whole(r.get(data, "side", w + "."), w + ".side", 0, 1)
        rating = r.pair(r.get(data, "rating", w + ".", [1, 1]), w + ".rating")
        rt = (r.whole(rating[0], w + ".rating[0]", 0, 4),
              r.whole(rating[1], w + ".rating[1]", 1, 4))
        status = r.get(data, "status", w + ".", ON)
        if status not in (ON, ELIMINATED, WAITING):
            raise r.fail(w + ".status", "must be board, eliminated or waiting")
        at = r.hex_or_none(r.get(data, "at", w + ".", None), w + ".at", cols, rows)
        if status == ON and at is None:
            raise r.fail(w + ".at", "a leader on the board needs a hex")
        arrive, entry = 0, NO_HEXES
        if status == WAITING:
            arrival[lid], entry, arrive = _arrival(r, data, w, cols, rows)
            at = None
        start_at = r.hex_or_none(r.get(data, "start_at", w + ".", None), w + ".start_at", cols,
                                 rows)
        leader = Leader(lid, name, side, at, rt, status, arrive, entry)
        leader.hits = r.whole(r.get(data, "hits", w + ".", 0), w + ".hits", 0, 4)
        leader.acted = r.flag(r.get(data, "acted", w + ".", False), w + ".acted")
        leader.start_at = start_at if (start_at is not None or status != ON) else at
        leaders.append(leader)
    return leaders, arrival


def _read_counters(r: _Reader, d: Mapping[str, Any], cols: int, rows: int,
                   ) -> tuple[tuple[str, int, Hex], ...]:
    counters = []
    for i, c in enumerate(r.items(r.get(d, "vp_counters", "", []), "vp_counters")):
        w = f"vp_counters[{i}]"
        c = r.obj(c, w)
        side = r.whole(r.get(c, "side", w + "."), w + ".side", 0, 1)
        h = r.hex(r.get(c, "at", w + "."), w + ".at", cols, rows)
        counters.append((r.text(r.get(c, "id", w + ".", f"vp{i + 1}"), w + ".id"), side, h))
    return tuple(counters)


def _read_attacks(r: _Reader, d: Mapping[str, Any], cols: int, rows: int,
                  ) -> dict[Hex, tuple[Hex, ...]]:
    attacks: dict[Hex, tuple[Hex, ...]] = {}
    for i, a in enumerate(r.items(r.get(d, "attacks", "", []), "attacks")):
        w = f"attacks[{i}]"
        a = r.obj(a, w)
        t = r.hex(r.get(a, "target", w + "."), w + ".target", cols, rows)
        attacks[t] = tuple(r.hex(h, f"{w}.from[{j}]", cols, rows)
                           for j, h in enumerate(r.items(r.get(a, "from", w + "."),
                                                        w + ".from")))
    return attacks


# scenario facts, options and how the game was made -> the game of positions with them
_GAMES: dict[tuple[Any, ...], HoldTheLineGame] = {}


def _facts_key(scenario: Scenario) -> tuple[Any, ...]:
    """What a position says of its scenario (``position_to_json``), comparable and hashable."""
    return (scenario.name, scenario.title, scenario.cols, scenario.rows,
            tuple(sorted((h, t) for h, t in scenario.terrain.items() if t != "clear")),
            tuple(sorted(scenario.places.items())), scenario.first, scenario.turn_limit,
            scenario.time_out_winner, scenario.time_out_by_vp,
            tuple((s.name, s.display_name, tuple(s.home_edges), tuple(s.command_ap),
                   tuple(s.action_die), s.vp_target, tuple(s.objectives),
                   tuple(s.exit_hexes), tuple(s.exit_vp)) for s in scenario.sides))


def _position_game(facts: Scenario, game: HoldTheLineGame | None) -> HoldTheLineGame:
    """``game`` when the position's facts and options are its own, else the (shared) game made
    from the facts: named and optioned after ``game`` when the map is the game's."""
    from warboard.holdtheline.game import HoldTheLineGame

    try:
        opts = Options.from_mapping(facts.options)
    except ValueError as exc:
        raise PositionError(str(exc)) from exc
    key = _facts_key(facts)
    if game is not None:
        if game.opts == opts and _facts_key(game.scenario) == key:
            return game
        same_map = (game.scenario.name == facts.name and game.scenario.cols == facts.cols
                    and game.scenario.rows == facts.rows
                    and {k: v for k, v in game.scenario.terrain.items() if v != "clear"}
                    == {k: v for k, v in facts.terrain.items() if v != "clear"})
        if not same_map:
            game = None
    name, options = ((game.name, game.options) if game is not None else
                     ("holdtheline", {"scenario": facts.name, "options": dict(facts.options)}
                      if facts.options else {"scenario": facts.name}))
    full_key = (key, repr(opts), name, repr(options))
    owner = _GAMES.get(full_key)
    if owner is None:
        if len(_GAMES) > 64:
            _GAMES.clear()
        owner = _GAMES[full_key] = HoldTheLineGame(name, {}, scenario=facts)
        owner.options = options
    return owner


def _arrival(r: _Reader, piece: Mapping[str, Any], w: str, cols: int, rows: int
             ) -> tuple[Hex, tuple[Hex, ...], int]:
    """Where and when a waiting piece arrives: ``enter_at``, its ``entry`` hexes, ``arrive``."""
    enter_at = r.hex(r.get(piece, "enter_at", w + "."), w + ".enter_at", cols, rows)
    entry = tuple(r.hex(h, f"{w}.entry[{j}]", cols, rows)
                  for j, h in enumerate(r.items(r.get(piece, "entry", w + ".", []),
                                               w + ".entry")))
    arrive = r.whole(r.get(piece, "arrive", w + "."), w + ".arrive", 1, 999)
    return enter_at, entry, arrive


def _check_pieces(r: _Reader, units: list[Unit], leaders: list[Leader]) -> None:
    seen = {u.id for u in units}
    for leader in leaders:
        if leader.id in seen:
            raise r.fail("leaders", f"id {leader.id!r} is used by a unit too")


def _check_board(r: _Reader, state: HtlState) -> None:

    occ = state.occupancy()
    for h, here in occ.items():
        where = f"units (hex {h[0]},{h[1]})"
        if state.board.move[h] == IMPASSABLE:
            raise r.fail(where, f"a unit stands on impassable {state.board.terrain[h]}")
        if len({state.units[i].side for i in here}) > 1:
            raise r.fail(where, "units of both sides share a hex")
        if not stack_ok(state.units[i].kind for i in here):
            raise r.fail(where, "breaks the stacking limit (4.3)")
    lead: dict[Hex, str] = {}
    for leader in state.leaders:
        if leader.status != ON:
            continue
        assert leader.at is not None
        if leader.at in lead:
            raise r.fail(f"leaders (hex {leader.at[0]},{leader.at[1]})",
                         f"{lead[leader.at]} and {leader.id} share a hex (4.3)")
        lead[leader.at] = leader.id
        with_units = occ.get(leader.at)
        if with_units and state.units[with_units[0]].side != leader.side:
            raise r.fail(f"leaders (hex {leader.at[0]},{leader.at[1]})",
                         f"{leader.id} stands with enemy units")
    if len({h for _, _, h in state.counters}) != len(state.counters):
        raise r.fail("vp_counters", "two VP counters share a hex (4.3.1)")
    p = state.pending
    if p is not None and p.stage == "evade" and not any(
            state.units[i].kind == "dragoon" and state.units[i].side != p.side
            for i in occ.get(p.target, ())):
        raise r.fail("pending.target", "an evade decision needs the defending dragoon in the "
                     "target hex (11.11)")


def _pending_from_json(r: _Reader, data: Any, roster: Roster, cols: int, rows: int,
                       ) -> Pending | None:
    """An activation under way, checked so that the stage it waits at finds what it needs."""
    if data is None:
        return None
    w = "pending."
    d = r.obj(data, "pending")

    def ref(key: str, index: Mapping[str, int], what: str, default: Any = None) -> Any:
        value = r.get(d, key, w, default)
        if value is not None and (not isinstance(value, str) or value not in index):
            raise r.fail(w + key, f"must be the id of a {what} or null, not {value!r}")
        return value

    def refs(key: str, index: Mapping[str, int], what: str) -> list[str]:
        values = r.items(r.get(d, key, w, []), w + key)
        for i, v in enumerate(values):
            if not isinstance(v, str) or v not in index:
                raise r.fail(f"{w}{key}[{i}]", f"must be the id of a {what}, not {v!r}")
        return list(values)

    kind = r.get(d, "kind", w)
    if kind not in ("fire", "assault", "force_march"):
        raise r.fail(w + "kind", "must be fire, assault or force_march")
    unit = r.text(r.get(d, "unit", w), w + "unit")
    if unit not in roster.unit_index:
        raise r.fail(w + "unit", f"no unit {unit!r}")
    side = r.whole(r.get(d, "side", w), w + "side", 0, 1)
    p = Pending(kind, unit, side, r.hex(r.get(d, "origin", w), w + "origin", cols, rows),
                r.hex(r.get(d, "target", w), w + "target", cols, rows))
    stage = r.get(d, "stage", w)
    if stage not in STAGES:
        raise r.fail(w + "stage", f"unknown stage {stage!r}")
    p.stage = stage
    wait = r.get(d, "wait", w)
    if wait not in ("die", "decision"):
        raise r.fail(w + "wait", "must be \"die\" or \"decision\" (what the activation waits "
                     "for)")
    waiting = ROLLS if wait == "die" else DECISIONS
    if stage not in waiting:
        raise r.fail(w + "stage", f"{stage!r} never waits for a {wait} (stages that do: "
                     f"{', '.join(waiting)})")
    p.wait = wait
    p.decider = r.whole(r.get(d, "decider", w, side), w + "decider", 0, 1)
    p.leader = ref("leader", roster.leader_index, "leader")
    p.n_dice = r.whole(r.get(d, "n_dice", w, 0), w + "n_dice", 0, 20)
    p.hit_on = r.whole(r.get(d, "hit_on", w, 7), w + "hit_on", 0, 7)
    p.mod = r.whole(r.get(d, "mod", w, 0), w + "mod", -6, 6)
    p.dist = r.whole(r.get(d, "dist", w, 0), w + "dist", 0, 99)
    p.flank = r.flag(r.get(d, "flank", w, False), w + "flank")
    p.dice = [r.whole(v, f"{w}dice[{i}]", 1, 6) for i, v in
              enumerate(r.items(r.get(d, "dice", w, []), w + "dice"))]
    p.morale = [_morale_entry(r, m, f"{w}morale[{i}]", roster.unit_index) for i, m in
                enumerate(r.items(r.get(d, "morale", w, []), w + "morale"))]
    p.mi = r.whole(r.get(d, "mi", w, 0), w + "mi", 0, len(p.morale))
    p.hits = r.whole(r.get(d, "hits", w, 0), w + "hits", 0, 20)
    p.ones = r.whole(r.get(d, "ones", w, 0), w + "ones", 0, 20)
    p.victim = ref("victim", roster.unit_index, "unit")
    p.elite_left = r.whole(r.get(d, "elite_left", w, 0), w + "elite_left", 0, 20)
    p.checks = refs("checks", roster.leader_index, "leader")
    p.retreats = refs("retreats", roster.unit_index, "unit")
    p.follow = ref("follow", roster.leader_index, "leader")
    p.after_retreat = r.get(d, "after_retreat", w, "escape_init")
    if p.after_retreat not in ("escape_init", "after_evade"):
        raise r.fail(w + "after_retreat", "must be escape_init or after_evade")
    # a unit retreating (or displacing one) or a leader escaping
    p.current = ref("current", roster.leader_index if stage == "escape" else roster.unit_index,
                    "leader" if stage == "escape" else "unit")
    p.displacing = ref("displacing", roster.unit_index, "unit")
    p.retreat_to = r.hex_or_none(d.get("retreat_to"), w + "retreat_to", cols, rows)
    p.escapes = refs("escapes", roster.leader_index, "leader")
    p.eliminated = r.flag(r.get(d, "eliminated", w, False), w + "eliminated")
    p.converted = r.flag(r.get(d, "converted", w, False), w + "converted")
    p.path = tuple(r.hex(h, f"{w}path[{i}]", cols, rows)
                   for i, h in enumerate(r.items(r.get(d, "path", w, []), w + "path")))
    p.choices = _choices(r, r.items(r.get(d, "choices", w, []), w + "choices"), stage,
                         roster.unit_index, cols, rows)
    _check_waiting(r, p)
    return p


def _morale_entry(r: _Reader, value: Any, where: str, units: Mapping[str, int]) -> list[Any]:
    """``[unit id, die or None, need, failed or None]`` from ``{"unit", "die", "need",
    "failed"}``."""
    m = r.obj(value, where)
    uid = r.get(m, "unit", where + ".")
    if not isinstance(uid, str) or uid not in units:
        raise r.fail(where + ".unit", f"must be the id of a unit, not {uid!r}")
    die = r.get(m, "die", where + ".", None)
    failed = r.get(m, "failed", where + ".", None)
    return [uid, None if die is None else r.whole(die, where + ".die", 1, 6),
            r.whole(r.get(m, "need", where + "."), where + ".need", -20, 20),
            None if failed is None else r.flag(failed, where + ".failed")]


def _choices(r: _Reader, choices: list[Any], stage: str, units: Mapping[str, int], cols: int,
             rows: int) -> list[Any]:
    """The options of the decision at ``stage`` (none at the others)."""
    w = "pending.choices"
    if stage == "allocate":
        for i, c in enumerate(choices):
            if not isinstance(c, str) or c not in units:
                raise r.fail(f"{w}[{i}]", f"must be the id of a unit, not {c!r}")
        return list(choices)
    if stage in ("retreat", "displace"):
        out = []
        for i, c in enumerate(choices):
            c = r.obj(c, f"{w}[{i}]")
            h = r.hex(c.get("to"), f"{w}[{i}].to", cols, rows)
            dis = c.get("displaces")
            if dis is not None and (not isinstance(dis, str) or dis not in units):
                raise r.fail(f"{w}[{i}].displaces", f"must be the id of a unit or null, not "
                             f"{dis!r}")
            out.append((h, None if dis is None else units[dis]))
        return out
    if stage == "escape":
        return [r.hex(c, f"{w}[{i}]", cols, rows) for i, c in enumerate(choices)]
    return []


def _check_waiting(r: _Reader, p: Pending) -> None:
    """What the stage that waits reads when its die or decision comes."""
    w = "pending."
    if p.wait == "die":
        needs = {"morale": (p.mi < len(p.morale), "mi", "must point at a morale entry"),
                 "elite": (p.victim is not None, "victim", "must name the elite unit"),
                 "leader": (bool(p.checks), "checks", "must list the leader to check")}
    else:
        needs = {"retreat": (p.current is not None, "current", "must name the unit"),
                 "displace": (None not in (p.current, p.displacing, p.retreat_to),
                              "displacing", "needs current, displacing and retreat_to"),
                 "escape": (p.current is not None, "current", "must name the leader")}
        if p.stage in ("allocate", "retreat", "displace", "escape") and not p.choices:
            raise r.fail(w + "choices", f"a {p.stage} decision needs at least one choice")
        if p.stage == "escape" and not p.escapes:
            raise r.fail(w + "escapes", "must list the leader that escapes (an escape decision "
                         "takes it off the list)")
    ok, field, problem = needs.get(p.stage, (True, "", ""))
    if not ok:
        raise r.fail(w + field, f"{problem} (stage {p.stage} waits for a {p.wait})")
