"""Fixed shapes for Hold the Line (``holdtheline``): planes over the scenario's map, and action
ids that number every legal action, each by its outcome (docs/adapters.md, "Hold the Line").

The map is fixed (``cols × rows`` hexes, offset coordinates), so there is no window. A move's id
does not hold its path: it is the unit (or leader), the kind of move, the destination as a hex
offset from where the unit stands, the set of enemy leaders / VP counters taken on the way (a
bit mask over the scenario's enemy leaders and counters), and for a force march (option 11.8)
the hex before the last. The engine lists exactly one path per such outcome
(docs/holdtheline-engine.md, "Actions"), so the ids are one-to-one over the legal actions of a
position; numbering a move needs the position (where the unit stands, where the enemy leaders
are), which is why this encoding provides ``action_ids(state, actions)``. Every field has a
proven bound (a path of at most ``a`` hexes ends at most ``a`` hexes away, and so on), so every
legal action has an id; should one ever not fit, or two legal actions meet at one id,
:class:`EncodingError` is raised — nothing is ever mapped to another action.

``action(seat, id)`` decodes an id into an :class:`IdMeaning` (what the id stands for, without a
path); the adapters show the real action (with its path) when the id is legal in the position.
Chance: a die with face ``v`` (1..6; the action die 1..3) is chance id ``v - 1``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any, NamedTuple

import numpy as np

from warboard.adapters.encodings import Encoding, Param
from warboard.core.errors import WarboardError
from warboard.core.protocol import JSON, Action
from warboard.core.registry import make_game
from warboard.holdtheline import hexes
from warboard.holdtheline.actions import (
    Advance,
    Allocate,
    Assault,
    AssignRatings,
    Die,
    Displace,
    End,
    Escape,
    Evade,
    Exit,
    Fire,
    Move,
    Rally,
    Retreat,
)
from warboard.holdtheline.combat import fire_range
from warboard.holdtheline.options import OPTIONS
from warboard.holdtheline.ratings import assignments
from warboard.holdtheline.serialize import pending_to_json, position_fields
from warboard.holdtheline.tables import TABLES
from warboard.holdtheline.terminal.render import board_text, track_text

Hex = tuple[int, int]
Cube = tuple[int, int, int]

KINDS = ("regular", "elite", "light", "militia", "dragoon", "artillery")
TERRAINS = tuple(TABLES.terrain)
MAX_MP = max(TABLES.units[k].max_mp for k in KINDS)
LEADER_RANGE = 3  # a leader alone moves at most 3 hexes (tables.toml [leader])
DECISION_KINDS = ("allocate", "retreat", "displace", "escape", "advance", "evade")
PENDING_KINDS = ("fire", "assault", "force_march")
# the fields of a view that write_public reads (HtlEncoding.view), but the units and leaders
# (made there); the objectives and exits never change, so it draws them from the first
# position's
VIEW_FIELDS = ("vp_counters", "pending", "vp", "vp_target", "phase",
               "to_move", "active", "first", "turn", "ap", "leaders_lost", "command_ap",
               "exited")
ID_CACHE_SIZE = 1 << 16  # the id parts an encoding remembers per seat (HtlEncoding._parts)


class EncodingError(WarboardError):
    """A legal action of Hold the Line has no id, or two legal actions would share one. The
    bounds of the layout are proven for every scenario and option (docs/adapters.md), so this
    means the engine changed under the encoding."""


class IdMeaning(NamedTuple):
    """What an action id stands for (``encoding.action(seat, id)``): the parts of the id, not a
    path. ``offset`` is a cube offset from the unit's (leader's) hex; ``hex`` an absolute hex."""

    kind: str  # end advance evade allocate retreat displace escape leader_move move move_fire
    #            force_march fire assault rally exit assign_ratings
    unit: str | None = None
    leader: str | None = None
    hex: Hex | None = None
    offset: Cube | None = None
    bonus: bool = False
    captures: tuple[str, ...] = ()  # enemy leaders and VP counters taken on the way
    fire_offset: Cube | None = None  # dragoon move-fire: the target from the end hex
    stop_direction: int | None = None  # force march: the hex before the last, from the end
    yes: bool | None = None
    leader_dice: bool = False
    ratings: tuple[tuple[str, tuple[int, int]], ...] = ()  # assign_ratings: (leader, rating)


def parameters(name: str) -> dict[str, Param]:
    params: dict[str, Param] = {"scenario": "tutorial"}
    for option in OPTIONS:
        if option == "ap_adjust":
            params["ap_adjust_0"] = params["ap_adjust_1"] = 0
        else:
            params[option] = False
    return params


def make_encoding(name: str, params: Mapping[str, Param]) -> HtlEncoding:
    rules: dict[str, Any] = {}
    for option in OPTIONS:
        if option == "ap_adjust":
            pair = [params["ap_adjust_0"], params["ap_adjust_1"]]
            if any(pair):
                rules[option] = pair
        elif params[option]:
            rules[option] = params[option]
    options: dict[str, Any] = {"scenario": params["scenario"]}
    if rules:
        options["options"] = rules
    return HtlEncoding(name, dict(params), make_game(name, options))


def _cube_offsets(radius: int) -> tuple[Cube, ...]:
    """Cube offsets at distance 1..radius, nearest first (then by coordinates)."""
    out = [(q, r, -q - r) for q in range(-radius, radius + 1)
           for r in range(-radius, radius + 1) if 1 <= max(abs(q), abs(r), abs(q + r)) <= radius]
    return tuple(sorted(out, key=lambda c: (max(map(abs, c)), c)))


@lru_cache(maxsize=1 << 16)  # hex pairs of a map: each move's id asks for one
def _offset(a: Hex, b: Hex) -> Cube:
    (ax, ay, az), (bx, by, bz) = hexes.to_cube(a), hexes.to_cube(b)
    return (bx - ax, by - ay, bz - az)


def offset_hex(a: Hex, off: Cube) -> Hex:
    """The hex at cube offset ``off`` from ``a`` (to read an :class:`IdMeaning`)."""
    x, y, z = hexes.to_cube(a)
    return hexes.to_offset((x + off[0], y + off[1], z + off[2]))


class _Block(NamedTuple):
    """One field of the layout: ``size`` ids from ``base``, ``shape`` the mixed-radix digits."""

    base: int
    shape: tuple[int, ...]

    def id(self, *digits: int) -> int:
        out = 0
        for d, n in zip(digits, self.shape, strict=True):
            if not 0 <= d < n:
                raise IndexError
            out = out * n + d
        return self.base + out

    def digits(self, action_id: int) -> list[int]:
        rest = action_id - self.base
        out = []
        for n in reversed(self.shape):
            rest, d = divmod(rest, n)
            out.append(d)
        return out[::-1]

    @property
    def size(self) -> int:
        return int(np.prod(self.shape)) if self.shape else 1

    def stride(self, digit: int) -> int:
        """What one more in ``digit`` adds to an id."""
        return math.prod(self.shape[digit + 1:])  # not numpy's: a few ints


class _SeatLayout:
    """The ids of one seat: its own units and leaders, in scenario order."""

    def __init__(self, enc: HtlEncoding, seat: int, state: Any) -> None:
        opts = enc.game.opts
        self.units = [u.id for u in state.units if u.side == seat]
        self.kinds = [u.kind for u in state.units if u.side == seat]
        self.leaders = [L.id for L in state.leaders if L.side == seat]
        self.unit_no = {uid: j for j, uid in enumerate(self.units)}
        self.leader_no = {lid: i for i, lid in enumerate(self.leaders)}
        # what a move of this seat may take: enemy leaders, then VP counters it may capture
        self.capture_names = ([L.id for L in state.leaders if L.side != seat]
                              + [c[0] for c in state.counters if c[1] != seat])
        # bits by name: the state's lists of leaders and counters shrink as pieces are taken
        self.capture_bit = {name: k for k, name in enumerate(self.capture_names)}
        masks = self.masks = 1 << len(self.capture_names)
        # a leader alone takes enemy leaders only (§8.1): the low bits of the mask
        self.leader_masks = 1 << sum(L.side != seat for L in state.leaders)
        n_units, n_leaders, cells = len(self.units), len(self.leaders), enc.cells
        nxt = 0

        def block(*shape: int) -> _Block:
            nonlocal nxt
            b = _Block(nxt, tuple(shape))
            nxt += b.size
            return b

        self.end = block()
        self.advance = block(2)
        self.evade = block(2)
        self.allocate = block(max(1, n_units))
        self.retreat = block(max(1, n_units), cells)
        self.displace = block(max(1, n_units), cells)
        self.escape = block(max(1, n_leaders), cells)
        self.leader_offsets = _cube_offsets(LEADER_RANGE)
        self.leader_move = block(max(1, n_leaders), len(self.leader_offsets),
                                 self.leader_masks)
        self.unit_blocks: list[dict[str, Any]] = []
        for kind in self.kinds:
            ut = TABLES.units[kind]
            a = ut.movement
            b: dict[str, Any] = {"near": _cube_offsets(a), "far": _cube_offsets(a + 1)}
            # leader: 0 = none, 1 + i = own leader i
            b["move"] = block(1 + n_leaders, len(b["near"]), masks)
            if kind != "artillery" and n_leaders:
                b["bonus"] = block(n_leaders, len(b["far"]), masks)
            if kind == "dragoon":
                rf = max(fire_range(ut, opts, False), fire_range(ut, opts, True))
                b["fire_offsets"] = _cube_offsets(rf)
                b["move_fire"] = block(1 + n_leaders, len(b["near"]), masks,
                                       len(b["fire_offsets"]))
            if ut.infantry and opts.force_march:
                b["force_march"] = block(1 + n_leaders, len(b["far"]), masks, 6)
            b["fire"] = block(cells)
            if ut.close:
                b["assault"] = block(6, 2 if opts.leader_ratings else 1)
            if kind != "artillery" and n_leaders:
                b["rally"] = block(n_leaders)
            b["exit"] = block()
            b["index"] = {name: {off: k for k, off in enumerate(b[name])}
                          for name in ("near", "far", "fire_offsets") if name in b}
            self.unit_blocks.append(b)
        self.leader_offset_no = {off: k for k, off in enumerate(self.leader_offsets)}
        # option 11.6: the seat's assignments of its leaders' ratings, as the opening lists them
        self.assignments = assignments(state, seat) if opts.leader_ratings else []
        self.assignment_no = {a: k for k, a in enumerate(self.assignments)}
        self.assign = block(len(self.assignments)) if self.assignments else None
        self.size = nxt
        # every block, for decoding: (base, name, unit slot or None)
        self.starts: list[tuple[int, str, int | None]] = []
        for name in ("end", "advance", "evade", "allocate", "retreat", "displace", "escape",
                     "leader_move"):
            self.starts.append((getattr(self, name).base, name, None))
        if self.assign is not None:
            self.starts.append((self.assign.base, "assign", None))
        for j, b in enumerate(self.unit_blocks):
            for name in ("move", "bonus", "move_fire", "force_march", "fire", "assault",
                         "rally", "exit"):
                if name in b:
                    self.starts.append((b[name].base, name, j))
        self.starts.sort()


class HtlEncoding(Encoding):
    """The :class:`~warboard.adapters.encodings.Encoding` of Hold the Line with a scenario and
    options fixed."""

    hidden_information = False
    num_chance_outcomes = 6

    def __init__(self, name: str, params: dict[str, Param], game: Any) -> None:
        self.name, self.params, self.game = name, params, game
        sc = game.scenario
        self.cols, self.rows = sc.cols, sc.rows
        self.cells = sc.cols * sc.rows
        self.board_size = (sc.rows, sc.cols)
        state = game.new_initial_state()
        self.layouts = (_SeatLayout(self, 0, state), _SeatLayout(self, 1, state))
        self.num_actions = max(lay.size for lay in self.layouts)
        # _id_parts by (class, action, hex it is numbered from), per seat: units stand still most of
        # the time, so a position's moves are mostly those of earlier positions
        self._parts: tuple[dict[tuple[type, Action, Hex | None], tuple[int, int]], ...] = ({}, {})
        # the moves' by (move, hex): a move's class needs no key
        self._move_parts_memo: tuple[dict[tuple[Action, Hex], tuple[int, int]], ...] = ({}, {})
        view = state.observation(None)
        self.turn_limit = max(1, int(view["turn_limit"]))
        opts = game.opts
        command = max([1, *(int(n) for side in view["command_ap_by_turn"] for n in side)])
        die = max([0, *(int(n) for side in view["action_die"] for n in side)])
        self.max_ap = command + max(0, *opts.ap_adjust) + die
        self.max_vp = max(1, *view["vp_target"]) if view["vp_target"] else 1
        n_units = len(state.units)
        self.n_units = (max(1, sum(u.side == 0 for u in state.units)),
                        max(1, sum(u.side == 1 for u in state.units)))
        self.n_leaders = (max(1, sum(L.side == 0 for L in state.leaders)),
                          max(1, sum(L.side == 1 for L in state.leaders)))
        # Bounds per game (docs/adapters.md): each side's turn has at most max_ap activations
        # and the end; an activation waits for at most 2 + 3 · (units) decisions (allocation,
        # evade, retreats and displacements of each unit in the hexes, escapes, advance) and
        # rolls at most 12 + 2 · (units + leaders) dice. Generous on purpose.
        per_activation = 2 + 3 * n_units
        turns = 2 * self.turn_limit
        self.max_decisions = turns * (1 + self.max_ap * (1 + per_activation))
        self.max_chance_events = turns * (1 + self.max_ap * (12 + 2 * (n_units
                                                                        + len(state.leaders))))

        self.plane_names = (
            *(f"terrain {t}" for t in TERRAINS),
            *(f"own {k}" for k in KINDS), *(f"enemy {k}" for k in KINDS),
            "own MP (infantry/dragoons)", "own MP (artillery)",
            "enemy MP (infantry/dragoons)", "enemy MP (artillery)",
            "own acted", "enemy acted", "own fired at", "enemy fired at",
            "own leader", "enemy leader", "leader acted", "leader hits",
            "own VP counter", "enemy VP counter", "own objective", "enemy objective",
            "own exit", "enemy exit",
            "pending attacker", "pending target", "decision hexes", "decision unit",
        )
        self.public_names = (
            "to move", "active", "first", "phase ap", "phase act", "turn", "AP",
            "VP own", "VP enemy", "VP target own", "VP target enemy",
            "leaders lost own", "leaders lost enemy", "command AP own", "command AP enemy",
            "exited own", "exited enemy", "eliminated own", "eliminated enemy",
            "waiting own", "waiting enemy", "pending",
            *(f"pending {k}" for k in PENDING_KINDS),
            *(f"decision {k}" for k in DECISION_KINDS),
            "pending dice", "pending hits",
        )
        self.private_names: tuple[str, ...] = ()
        self._plane = {name: i for i, name in enumerate(self.plane_names)}
        P = self._plane
        # the planes that never change in a game (terrain, objectives, exits), per seat
        fixed = np.zeros((2, len(self.plane_names), sc.rows, sc.cols), np.float32)
        index = {t: i for i, t in enumerate(TERRAINS)}
        for r in range(sc.rows):
            for c in range(sc.cols):
                fixed[:, index[sc.terrain_at((c, r))], r, c] = 1.0
        for seat in (0, 1):
            for o in view["objectives"]:
                c, r = o["at"]
                fixed[seat, P["own objective" if o["side"] == seat else "enemy objective"],
                      r, c] = 1.0
            for e in view["exits"]:
                for c, r in e["hexes"]:
                    fixed[seat, P["own exit" if e["side"] == seat else "enemy exit"], r, c] = 1.0
        self._fixed = fixed
        # observe_flat: the flat vector as it starts (the fixed planes, zeros after them), and
        # each plane's offset in it (a 1-d memoryview's item assignment is the cheapest)
        self._n_board = len(self.plane_names) * self.cells
        size = self._n_board + len(self.public_names) + len(self.private_names)
        self._blank = np.zeros((2, size), np.float32)
        self._blank[:, :self._n_board] = fixed.reshape(2, -1)
        plane_off = {name: i * self.cells for name, i in self._plane.items()}
        self._plane_off = plane_off
        self._vp_target = view["vp_target"]
        # a unit's planes by side (own, enemy) and kind: kind, MP, acted, fired at
        self._unit_planes = tuple(
            {k: (P[f"{who} {k}"],
                 P[f"{who} MP ({'artillery' if k == 'artillery' else 'infantry/dragoons'})"],
                 P[f"{who} acted"], P[f"{who} fired at"]) for k in KINDS}
            for who in ("own", "enemy"))
        self._unit_offsets = tuple({k: tuple(i * self.cells for i in v) for k, v in d.items()}
                                   for d in self._unit_planes)
        # observe_flat: each unit's _unit_offsets by id, per seat (a unit's side and kind are
        # fixed)
        self._unit_slots = tuple({u.id: self._unit_offsets[u.side != seat][u.kind]
                                  for u in state.units} for seat in (0, 1))

    # ------------------------------------------------------------------ actions

    def hex_index(self, h: Hex) -> int:
        return h[1] * self.cols + h[0]

    def hex(self, index: int) -> Hex:
        row, col = divmod(index, self.cols)
        return (col, row)

    def action_ids(self, state: Any, actions: Sequence[Action]) -> list[int | None]:
        """The ids of ``actions`` (the legal actions of ``state``, for its seat to act); raises
        :class:`EncodingError` if one has no id or two share one."""
        seat = state.current_player()
        lay = self.layouts[seat]
        memo = self._parts[seat]
        if len(memo) >= ID_CACHE_SIZE or len(self._move_parts_memo[seat]) >= ID_CACHE_SIZE:
            memo.clear()
            self._move_parts_memo[seat].clear()
        units = {u.id: u.at for u in state.units}
        leaders = {L.id: L.at for L in state.leaders}
        # does a path meet an enemy leader or VP counter (few do)? then its captures are summed
        capture = _capture_bits(lay, state)
        disjoint = capture.keys().isdisjoint
        moves, others = self._move_parts_memo[seat], memo
        get_move, get_other = moves.get, others.get
        out: list[int | None] = []
        append = out.append
        action: Action = None
        try:
            for action in actions:
                cls = action.__class__
                if cls is Move:  # most legal actions: numbered from the unit's (leader's) hex
                    who = action.unit  # type: ignore[attr-defined]
                    at = units[who] if who is not None else leaders[action.leader]  # type: ignore[attr-defined]
                    key: Any = (action, at)
                    parts = get_move(key)
                    if parts is None:
                        parts = moves[key] = self._id_parts(lay, action, at)
                    part, stride = parts
                    if stride and not disjoint(action.path):  # type: ignore[attr-defined]
                        part += stride * _move_captures(lay, capture, action)  # type: ignore[arg-type]
                    append(part)
                    continue
                at = units[action.unit] if cls is Assault else None  # type: ignore[attr-defined]
                # the class too: actions are named tuples, and Fire(u, h) == Retreat(u, h)
                key = (cls, action, at)
                parts = get_other(key)
                if parts is None:
                    parts = others[key] = self._id_parts(lay, action, at)
                append(parts[0])
        except (KeyError, IndexError, ValueError) as exc:
            raise self._no_id(seat, action, exc) from exc
        if len(set(out)) < len(out):
            seen: dict[int | None, Action] = {}
            for action, action_id in zip(actions, out, strict=True):
                if action_id in seen:
                    raise EncodingError(f"holdtheline: legal actions {seen[action_id]!r} and "
                                        f"{action!r} would share action id {action_id} "
                                        f"(parameters {self.params})")
                seen[action_id] = action
        return out

    def action_id(self, seat: int, action: Action, state: Any = None) -> int:
        """The id of ``action`` for ``seat``. Moves, assaults and rallies are numbered from the
        position (``state``, the one ``action`` is legal in); without it they raise
        ``ValueError``. A legal action that does not fit raises :class:`EncodingError`."""
        lay = self.layouts[seat]
        try:
            at = None
            if isinstance(action, Move | Assault):
                if state is None:
                    raise ValueError("needs the position")
                at = (state.units[state.unit_index(action.unit)].at if action.unit is not None
                      else state.leaders[state.leader_index(action.leader)].at)
            part, stride = self._id_parts(lay, action, at)
            if stride:
                assert isinstance(action, Move)
                part += stride * _move_captures(lay, _capture_bits(lay, state), action)
            return part
        except (KeyError, IndexError, ValueError) as exc:
            if state is None and isinstance(action, Move | Assault):
                raise ValueError(f"holdtheline: the id of {action!r} depends on the position; "
                                 "pass state") from exc
            raise self._no_id(seat, action, exc) from exc

    def _no_id(self, seat: int, action: Action, exc: Exception) -> EncodingError:
        return EncodingError(f"holdtheline: {action!r} of seat {seat} has no action id "
                             f"(parameters {self.params}): {exc!r}")

    def _id_parts(self, lay: _SeatLayout, action: Action, at: Hex | None) -> tuple[int, int]:
        """``action``'s id but for the enemy pieces a move takes on its way, and what their bit
        mask is multiplied by (0: the id has no such digit). ``at``: the hex of the moving
        (assaulting) unit or leader. A function of ``action`` and ``at`` alone."""
        if isinstance(action, Move):  # most legal actions are moves
            assert at is not None
            return self._move_parts(lay, action, at)
        if isinstance(action, End):
            return lay.end.id(), 0
        if isinstance(action, Advance):
            return lay.advance.id(int(action.yes)), 0
        if isinstance(action, Evade):
            return lay.evade.id(int(action.yes)), 0
        if isinstance(action, Allocate):
            return lay.allocate.id(lay.unit_no[action.unit]), 0
        if isinstance(action, Retreat):
            return lay.retreat.id(lay.unit_no[action.unit], self._cell(action.to)), 0
        if isinstance(action, Displace):
            return lay.displace.id(lay.unit_no[action.unit], self._cell(action.to)), 0
        if isinstance(action, Escape):
            return lay.escape.id(lay.leader_no[action.leader], self._cell(action.to)), 0
        if isinstance(action, Exit):
            return lay.unit_blocks[lay.unit_no[action.unit]]["exit"].id(), 0
        if isinstance(action, Fire):
            return lay.unit_blocks[lay.unit_no[action.unit]]["fire"].id(
                self._cell(action.target)), 0
        if isinstance(action, Rally):
            return lay.unit_blocks[lay.unit_no[action.unit]]["rally"].id(
                lay.leader_no[action.leader]), 0
        if isinstance(action, AssignRatings):
            if lay.assign is None:
                raise IndexError("leader ratings are assigned only with option 11.6")
            return lay.assign.id(lay.assignment_no[action]), 0
        if isinstance(action, Assault):
            assert at is not None
            direction = _direction(_offset(at, action.target))
            return lay.unit_blocks[lay.unit_no[action.unit]]["assault"].id(
                direction, int(action.leader_dice)), 0
        raise TypeError(f"not a decision of Hold the Line: {action!r}")

    def _cell(self, h: Hex) -> int:
        if not (0 <= h[0] < self.cols and 0 <= h[1] < self.rows):
            raise IndexError(f"hex {h} is off the map")
        return self.hex_index(h)

    def _move_parts(self, lay: _SeatLayout, action: Move, at: Hex) -> tuple[int, int]:
        end = action.path[-1]
        # the blocks' ids written out (_Block.id's): the digits are in range by construction
        # (the indices raise KeyError for an offset out of range)
        if action.unit is None:  # a leader alone
            block = lay.leader_move
            return (block.base + (lay.leader_no[action.leader] * block.shape[1]
                                  + lay.leader_offset_no[_offset(at, end)]) * lay.leader_masks), 1
        b = lay.unit_blocks[lay.unit_no[action.unit]]
        who = 0 if action.leader is None else 1 + lay.leader_no[action.leader]
        off = _offset(at, end)
        masks = lay.masks
        if action.force_march:
            block = b["force_march"]
            n_far = block.shape[1]
            return (block.base + ((who * n_far + b["index"]["far"][off]) * masks) * 6
                    + _direction(_offset(end, action.path[-2]))), 6
        if action.bonus:
            if who == 0:
                raise IndexError("a bonus move without a leader")
            block = b["bonus"]
            return block.base + ((who - 1) * block.shape[1] + b["index"]["far"][off]) * masks, 1
        if action.fire is not None:
            block = b["move_fire"]
            n_fire = block.shape[3]
            return (block.base + ((who * block.shape[1] + b["index"]["near"][off]) * masks)
                    * n_fire + b["index"]["fire_offsets"][_offset(end, action.fire)]), n_fire
        block = b["move"]
        return block.base + (who * block.shape[1] + b["index"]["near"][off]) * masks, 1

    def action(self, seat: int, action_id: int) -> IdMeaning:
        """What ``action_id`` stands for, for ``seat`` (an :class:`IdMeaning`, not a path)."""
        lay = self.layouts[seat]
        if not 0 <= action_id < lay.size:
            raise ValueError(f"action id {action_id} is not used by seat {seat} "
                             f"(ids 0..{lay.size - 1}; the game has {self.num_actions})")
        k = max(i for i, (base, _, _) in enumerate(lay.starts) if base <= action_id)
        _, name, j = lay.starts[k]
        if j is None:
            block = getattr(lay, name)
            d = block.digits(action_id)
            if name == "end":
                return IdMeaning("end")
            if name in ("advance", "evade"):
                return IdMeaning(name, yes=bool(d[0]))
            if name == "allocate":
                return IdMeaning(name, unit=self._name(lay.units, d[0]))
            if name in ("retreat", "displace"):
                return IdMeaning(name, unit=self._name(lay.units, d[0]), hex=self.hex(d[1]))
            if name == "escape":
                return IdMeaning(name, leader=self._name(lay.leaders, d[0]), hex=self.hex(d[1]))
            if name == "assign":
                return IdMeaning("assign_ratings",
                                 ratings=lay.assignments[action_id - block.base].ratings)
            return IdMeaning(name, leader=self._name(lay.leaders, d[0]),
                             offset=lay.leader_offsets[d[1]],
                             captures=tuple(n for k, n in enumerate(lay.capture_names)
                                            if d[2] >> k & 1))
        b = lay.unit_blocks[j]
        unit = lay.units[j]
        d = b[name].digits(action_id)
        if name == "exit":
            return IdMeaning(name, unit=unit)
        if name == "fire":
            return IdMeaning(name, unit=unit, hex=self.hex(d[0]))
        if name == "assault":
            return IdMeaning(name, unit=unit, offset=hexes.DIRECTIONS[d[0]],
                             leader_dice=bool(d[1]))
        if name == "rally":
            return IdMeaning(name, unit=unit, leader=lay.leaders[d[0]])
        if name == "bonus":
            d = [d[0] + 1, *d[1:]]
        leader = None if d[0] == 0 else lay.leaders[d[0] - 1]
        far = name in ("bonus", "force_march")
        offset = b["far" if far else "near"][d[1]]
        captures = tuple(n for k, n in enumerate(lay.capture_names) if d[2] >> k & 1)
        kind = "move" if name == "bonus" else name
        return IdMeaning(kind, unit=unit, leader=leader, offset=offset, bonus=name == "bonus",
                         captures=captures,
                         fire_offset=b["fire_offsets"][d[3]] if name == "move_fire" else None,
                         stop_direction=d[3] if name == "force_march" else None)

    @staticmethod
    def _name(names: list[str], k: int) -> str:
        if k >= len(names):
            raise ValueError("this id names no unit or leader of the seat")
        return names[k]

    def action_text(self, seat: int, action_id: int) -> str:
        """A readable form of an id that is not a legal action of the position at hand."""
        m = self.action(seat, action_id)
        parts = [m.kind] + [f"{f}={v}" for f, v in zip(m._fields[1:], m[1:], strict=True)
                            if v not in (None, False, ())]
        return " ".join(str(p) for p in parts)

    def chance_id(self, outcome: Action) -> int:
        if isinstance(outcome, Die) and 1 <= outcome.value <= 6:
            return outcome.value - 1
        raise TypeError(f"not a chance outcome of Hold the Line: {outcome!r}")

    def chance_outcome(self, chance_id: int) -> Action:
        if not 0 <= chance_id < 6:
            raise ValueError(f"chance id {chance_id} is not in 0..5")
        return Die(chance_id + 1)

    # ------------------------------------------------------------------ observations

    def board_text(self, view: Mapping[str, JSON]) -> str:
        """The terminal's map and turn track, without colours (seat 1's ids in lower case)."""
        return f"{board_text(view, plain=True).plain}\n{track_text(view).plain}"

    def view(self, state: Any, seat: int) -> Mapping[str, JSON]:
        # the position's JSON but the map, the log and the scenario's tables: most of its cost;
        # the units and leaders with only the fields write_public reads (the same values)
        view = position_fields(state, VIEW_FIELDS)
        view["units"] = [{"id": u.id, "side": u.side, "kind": u.kind, "mp": u.mp,
                          "at": None if u.at is None else [u.at[0], u.at[1]],
                          "status": u.status, "acted": u.acted, "fired_at": u.fired_at}
                         for u in state.units]
        view["leaders"] = [{"side": L.side, "at": None if L.at is None else [L.at[0], L.at[1]],
                            "hits": L.hits, "acted": L.acted, "status": L.status}
                           for L in state.leaders]
        return view

    def write_public(self, view: Mapping[str, JSON], seat: int, board: np.ndarray,
                     public: np.ndarray) -> None:
        P = self._plane
        board[:] = self._fixed[seat]
        cells: Any = board.data  # a memoryview: its item assignment costs a fraction of numpy's
        eliminated, waiting = [0, 0], [0, 0]
        for u in view["units"]:
            side = 0 if u["side"] == seat else 1
            if u["status"] != "board" or u["at"] is None:
                if u["status"] == "eliminated":
                    eliminated[side] += 1
                elif u["status"] == "waiting":
                    waiting[side] += 1
                continue
            c, r = u["at"]
            kind, mp, acted, fired_at = self._unit_planes[side][u["kind"]]
            cells[kind, r, c] = 1.0
            cells[mp, r, c] = min(1.0, u["mp"] / MAX_MP)
            if u["acted"]:
                cells[acted, r, c] = 1.0
            if u["fired_at"]:
                cells[fired_at, r, c] = 1.0
        for L in view["leaders"]:
            if L["status"] != "board" or L["at"] is None:
                continue
            c, r = L["at"]
            cells[P["own leader" if L["side"] == seat else "enemy leader"], r, c] = 1.0
            if L["acted"]:
                cells[P["leader acted"], r, c] = 1.0
            cells[P["leader hits"], r, c] = min(1.0, L["hits"] / 2)
        for v in view["vp_counters"]:
            c, r = v["at"]
            cells[P["own VP counter" if v["side"] == seat else "enemy VP counter"], r, c] = 1.0
        pending = [0.0] * (1 + len(PENDING_KINDS) + len(DECISION_KINDS) + 2)
        if view["pending"]:
            self._write_pending(view["pending"], {u["id"]: u["at"] for u in view["units"]},
                                cells, pending)
        values = self._public_values(view, seat, eliminated, waiting, pending)
        public[:] = values
        # np.clip's own cost is several times that of the two ufuncs on so short an array
        np.minimum(np.maximum(public, 0.0, out=public), 1.0, out=public)

    def observe_flat(self, state: Any, seat: int) -> np.ndarray:
        """``flat_observation(self, state, seat)`` (the same values, bit for bit), written from
        the state's units and leaders without making ``view``'s dicts."""
        out = self._blank[seat].copy()
        cells: Any = out.data
        cols = self.cols
        off = self._plane_off
        planes = self._unit_offsets
        eliminated, waiting = [0, 0], [0, 0]
        slots = self._unit_slots[seat]
        for u in state.units:
            at = u.at
            if u.status != "board" or at is None:
                side = 0 if u.side == seat else 1
                if u.status == "eliminated":
                    eliminated[side] += 1
                elif u.status == "waiting":
                    waiting[side] += 1
                continue
            h = at[1] * cols + at[0]
            kind, mp, acted, fired_at = slots.get(u.id) or planes[u.side != seat][u.kind]
            cells[kind + h] = 1.0
            x = u.mp / MAX_MP
            cells[mp + h] = x if x < 1.0 else 1.0  # min(1.0, x)
            if u.acted:
                cells[acted + h] = 1.0
            if u.fired_at:
                cells[fired_at + h] = 1.0
        own_leader, enemy_leader = off["own leader"], off["enemy leader"]
        leader_acted, leader_hits = off["leader acted"], off["leader hits"]
        for L in state.leaders:
            at = L.at
            if L.status != "board" or at is None:
                continue
            h = at[1] * cols + at[0]
            cells[(own_leader if L.side == seat else enemy_leader) + h] = 1.0
            if L.acted:
                cells[leader_acted + h] = 1.0
            cells[leader_hits + h] = min(1.0, L.hits / 2)
        own_vp, enemy_vp = off["own VP counter"], off["enemy VP counter"]
        for _, side, at in state.counters:
            cells[(own_vp if side == seat else enemy_vp) + at[1] * cols + at[0]] = 1.0
        pending = [0.0] * (1 + len(PENDING_KINDS) + len(DECISION_KINDS) + 2)
        p = pending_to_json(state, state.pending) if state.pending is not None else None
        if p:
            placed = {u.id: (None if u.at is None else [u.at[0], u.at[1]]) for u in state.units}
            rows = self.rows
            self._write_pending(p, placed, out[:self._n_board].reshape(-1, rows, cols).data,
                                pending)
        view = {"vp": [state.vp_total(0), state.vp_total(1)], "vp_target": self._vp_target,
                "to_move": state.current_player(), "active": state.active,
                "first": state.scenario.first, "phase": state.phase, "turn": state.turn,
                "ap": state.ap, "leaders_lost": state.leaders_lost,
                "command_ap": [state.command_ap(0), state.command_ap(1)],
                "exited": state.exited}
        # clipped to [0, 1] here, as write_public's ufuncs do after the float32 cast (the same
        # floats: a value rounds to 0 or 1 in float32 only from inside [0, 1]); the blank's
        # zeros need no writing. Item by item through the memoryview: cheaper than a slice,
        # its assignment and two ufuncs on so few values
        k = self._n_board
        for v in self._public_values(view, seat, eliminated, waiting, pending):
            if v:
                cells[k] = v if 0.0 <= v <= 1.0 else (0.0 if v < 0.0 else 1.0)
            k += 1
        return out

    def _write_pending(self, p: Mapping[str, Any], placed: Mapping[str, Any], cells: Any,
                       pending: list[float]) -> None:
        """The planes and values of a pending attack or decision ``p`` (its JSON); ``placed``:
        each unit's hex by id, ``cells`` the board's planes (a 3-d memoryview)."""
        P = self._plane
        pending[0] = 1.0
        if p.get("kind") in PENDING_KINDS:
            pending[1 + PENDING_KINDS.index(p["kind"])] = 1.0
        for key, plane in (("origin", "pending attacker"), ("target", "pending target")):
            if p.get(key) is not None:
                c, r = p[key]
                cells[P[plane], r, c] = 1.0
        d = p.get("decision")
        if d:
            if d["kind"] in DECISION_KINDS:
                pending[1 + len(PENDING_KINDS) + DECISION_KINDS.index(d["kind"])] = 1.0
            for c, r in d.get("choices") or ():
                cells[P["decision hexes"], r, c] = 1.0
            for uid in [d.get("unit"), *(d.get("units") or ())]:
                at = placed.get(uid)
                if at is not None:
                    cells[P["decision unit"], at[1], at[0]] = 1.0
        pending[-2] = min(1.0, len(p.get("dice") or ()) / 6)
        pending[-1] = min(1.0, (p.get("hits") or 0) / 6)

    def _public_values(self, view: Mapping[str, Any], seat: int, eliminated: list[int],
                       waiting: list[int], pending: list[float]) -> list[Any]:
        enemy = 1 - seat
        vp, target = view["vp"], view["vp_target"] or [self.max_vp, self.max_vp]
        vp_scale = max(self.max_vp, *target, 1)
        n_own, n_enemy = self.n_units[seat], self.n_units[enemy]
        phase = view["phase"]
        return [
            view["to_move"] == seat, view["active"] == seat, view["first"] == seat,
            phase == "ap", phase == "act", min(view["turn"], self.turn_limit) / self.turn_limit,
            min(view["ap"], self.max_ap) / self.max_ap,
            min(vp[seat], vp_scale) / vp_scale, min(vp[enemy], vp_scale) / vp_scale,
            target[seat] / vp_scale, target[enemy] / vp_scale,
            min(view["leaders_lost"][seat], self.n_leaders[seat]) / self.n_leaders[seat],
            min(view["leaders_lost"][enemy], self.n_leaders[enemy]) / self.n_leaders[enemy],
            min(view["command_ap"][seat], self.max_ap) / self.max_ap,
            min(view["command_ap"][enemy], self.max_ap) / self.max_ap,
            min(view["exited"][seat], n_own) / n_own, min(view["exited"][enemy], n_enemy) / n_enemy,
            eliminated[0] / n_own, eliminated[1] / n_enemy,
            waiting[0] / n_own, waiting[1] / n_enemy,
            *pending,
        ]

    def write_private(self, view: Mapping[str, JSON], private: np.ndarray) -> None:
        """Nothing is private in Hold the Line."""


def _direction(off: Cube) -> int:
    return hexes.DIRECTIONS.index(off)


def _capture_bits(lay: _SeatLayout, state: Any) -> dict[Hex, int]:
    """The bits of the enemy leaders and VP counters a move of ``lay``'s seat may take, by the
    hex each stands on in ``state``."""
    bit = lay.capture_bit
    out: dict[Hex, int] = {}
    for h, i in state.leader_at().items():
        k = bit.get(state.leaders[i].id)
        if k is not None:
            out[h] = 1 << k
    for h, i in state.counter_at().items():
        k = bit.get(state.counters[i][0])
        if k is not None:
            out[h] = out.get(h, 0) | 1 << k
    return out


def _move_captures(lay: _SeatLayout, capture: dict[Hex, int], move: Move) -> int:
    """The capture digit of ``move``: what its path takes (a leader alone: leaders only)."""
    mask = _captures(capture, move.path)
    return mask if move.unit is not None else mask & (lay.leader_masks - 1)


def _captures(capture: dict[Hex, int], path: Sequence[Hex]) -> int:
    """The bit mask of the pieces of ``capture`` (``_capture_bits``) a move along ``path``
    takes."""
    mask = 0
    for h in path:
        mask |= capture.get(h, 0)
    return mask


