"""The Hold the Line rules engine behind the core protocol (``HtlState``).

A side's turn: a chance node rolls the action die (phase ``ap``), then the side decides
activations (phase ``act``) until it ends its turn or runs out of AP. An activation that needs
dice or decisions of the other side opens a ``Pending`` record that walks through its stages
(see ``Pending``); every die is its own chance node (1..6 at 1/6), every decision an ordinary
decision node of the seat that makes it. Everything is public.

Pieces are small mutable objects copied on ``clone``; the map is shared (``game.board``). Lookups
by hex (``occupancy``, ``leader_at``, ``counter_at``) are rebuilt on demand after a change.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from warboard.core.errors import IllegalActionError
from warboard.core.protocol import CHANCE, TERMINAL
from warboard.holdtheline import hexes
from warboard.holdtheline.actions import (
    END,
    Advance,
    Allocate,
    Assault,
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
from warboard.holdtheline.combat import (
    Profile,
    dice_count,
    die_hits,
    fire_hit_number,
    fire_range,
    natural_hit_on,
    terrain_mod,
)
from warboard.holdtheline.hexes import Hex
from warboard.holdtheline.movement import (
    IMPASSABLE,
    WATER,
    leader_paths,
    retreat_choices,
    sight_steps,
    stack_ok,
    unit_paths,
)
from warboard.holdtheline.tables import TABLES

if TYPE_CHECKING:
    from warboard.holdtheline.game import HoldTheLineGame

AP_PHASE, ACT, OVER = "ap", "act", "over"
ON, ELIMINATED, EXITED, WAITING = "board", "eliminated", "exited", "waiting"
UNITS = TABLES.units
COST = TABLES.ap
AP_DIE = tuple((Die(v), 1 / 3) for v in (1, 2, 3))
DIE6 = tuple((Die(v), 1 / 6) for v in range(1, 7))
DICE6 = tuple(Die(v) for v in range(1, 7))


class Unit:
    __slots__ = ("acted", "arrive", "at", "entry", "fired_at", "id", "kind", "moved", "mp",
                 "side", "start_mp", "status", "worn")

    def __init__(self, id: str, side: int, kind: str, mp: int, start_mp: int, at: Hex | None,
                 status: str = ON, arrive: int = 0, entry: tuple[Hex, ...] = ()) -> None:
        self.id, self.side, self.kind, self.mp, self.start_mp = id, side, kind, mp, start_mp
        self.at, self.status, self.arrive, self.entry = at, status, arrive, entry
        self.acted = False
        self.moved = False
        self.fired_at = False
        self.worn = 0  # MP lost to force-march fatigue (11.9): not rallied back (9.4)

    def copy(self) -> Unit:
        c = Unit.__new__(Unit)
        c.id, c.side, c.kind, c.mp, c.start_mp = self.id, self.side, self.kind, self.mp, \
            self.start_mp
        c.at, c.status, c.arrive, c.entry = self.at, self.status, self.arrive, self.entry
        c.acted, c.moved, c.fired_at, c.worn = self.acted, self.moved, self.fired_at, self.worn
        return c


class Leader:
    __slots__ = ("acted", "arrive", "at", "entry", "hits", "id", "name", "rating", "side",
                 "start_at", "status")

    def __init__(self, id: str, name: str, side: int, at: Hex | None, rating: tuple[int, int],
                 status: str = ON, arrive: int = 0, entry: tuple[Hex, ...] = ()) -> None:
        self.id, self.name, self.side, self.at, self.rating = id, name, side, at, rating
        self.status, self.arrive, self.entry = status, arrive, entry
        self.hits = 0
        self.acted = False
        self.start_at = at

    def copy(self) -> Leader:
        c = Leader.__new__(Leader)
        c.id, c.name, c.side, c.at, c.rating = self.id, self.name, self.side, self.at, \
            self.rating
        c.status, c.arrive, c.entry, c.hits = self.status, self.arrive, self.entry, self.hits
        c.acted, c.start_at = self.acted, self.start_at
        return c


class Pending:
    """An activation being resolved. ``stage`` says what comes next; ``wait`` is ``"die"``,
    ``"decision"`` (by ``decider``) or None while automatic steps run.

    Stages of a close combat (kind ``assault``): atk_morale (11.1) → evade (11.11) →
    morale_init → morale → attack → allocate → elite → leader → retreat_init → retreat
    (→ displace) → escape_init → escape → advance → done. Fire skips the morale and retreat
    stages; a force march (``force_march``) has the stages fm → fatigue (11.9) → done.
    """

    __slots__ = ("after_retreat", "checks", "choices", "converted", "current", "decider",
                 "dice", "displacing", "dist", "eliminated", "elite_left", "escapes", "flank",
                 "follow", "hit_on", "hits", "kind", "leader", "mi", "mod", "morale", "n_dice",
                 "ones", "origin", "path", "retreat_to", "retreats", "side", "stage", "target",
                 "unit", "victim", "wait")

    def __init__(self, kind: str, unit: str, side: int, origin: Hex, target: Hex) -> None:
        self.kind, self.unit, self.side, self.origin, self.target = kind, unit, side, origin, \
            target
        self.stage = "attack"
        self.wait: str | None = None
        self.decider = side
        self.leader: str | None = None
        self.n_dice = 0
        self.hit_on = 7
        self.mod = 0
        self.dist = 0
        self.flank = False
        self.dice: list[int] = []
        self.morale: list[list[Any]] = []  # [unit id, die or None, need, failed or None]
        self.mi = 0
        self.hits = 0
        self.ones = 0
        self.victim: str | None = None
        self.elite_left = 0
        self.checks: list[str] = []
        self.retreats: list[str] = []
        self.follow: str | None = None
        self.after_retreat = "escape_init"
        self.current: str | None = None
        self.choices: list[Any] = []
        self.displacing: str | None = None
        self.retreat_to: Hex | None = None
        self.escapes: list[str] = []
        self.eliminated = False
        self.converted = False
        self.path: tuple[Hex, ...] = ()

    def copy(self) -> Pending:
        c = Pending.__new__(Pending)
        for name in Pending.__slots__:
            v = getattr(self, name)
            if type(v) is list:
                v = [x[:] if type(x) is list else x for x in v]
            setattr(c, name, v)
        return c


class HtlState:
    """One position of a Hold the Line game (see ``warboard.core.protocol.State``).

    ``events`` is the game's log (docs/holdtheline-events.md). A state for search may set
    ``record_events = False`` (``game.sample_state`` does, and clones keep it): the log then
    holds only the last event, without its text, which makes ``apply`` and ``clone`` cheaper.
    """

    record_events = True

    def __init__(self, game: HoldTheLineGame) -> None:
        sc = game.scenario
        self.game = game
        self.sc = sc
        self.opts = game.opts
        self.board = game.board
        self.units: list[Unit] = []
        self.leaders: list[Leader] = []
        for s, side in enumerate(sc.sides):
            for us in side.units:
                self.units.append(Unit(us.id, s, us.kind, us.mp, us.mp, us.at))
            for ls in side.leaders:
                self.leaders.append(Leader(ls.id, ls.name, s, ls.at, tuple(ls.rating)))
            for rf in side.reinforcements:
                for us in rf.units:
                    self.units.append(Unit(us.id, s, us.kind, us.mp, us.mp, us.at, WAITING,
                                           rf.turn, tuple(rf.entry)))
                for ls in rf.leaders:
                    self.leaders.append(Leader(ls.id, ls.name, s, ls.at, tuple(ls.rating),
                                               WAITING, rf.turn, tuple(rf.entry)))
        for u in self.units:
            if u.status == WAITING:
                u.at = None
        for L in self.leaders:
            if L.status == WAITING:
                L.at = L.start_at = None
        counters: list[tuple[str, int, Hex]] = []
        for s, side in enumerate(sc.sides):
            for k, h in enumerate(side.vp_counters):
                counters.append((f"{side.name}_vp{k + 1}", s, h))
        self.counters: tuple[tuple[str, int, Hex], ...] = tuple(counters)
        self.turn = 1
        self.active = sc.first
        self.phase = AP_PHASE
        self.ap = 0
        self.leaders_lost = [0, 0]
        self.vp_earned = [0, 0]
        self.exited = [0, 0]
        self.pending: Pending | None = None
        self.attacks: dict[Hex, tuple[Hex, ...]] = {}
        self.events: list[dict[str, Any]] = []
        self.n_events = 0  # events logged so far (the next event's "n")
        self.result: dict[str, Any] | None = None
        self._legal: list[Any] | None = None
        self._occ: dict[Hex, list[int]] | None = None
        self._lead: dict[Hex, int] | None = None
        self._ctr: dict[Hex, int] | None = None
        self._derived: dict[Any, Any] | None = None
        self._start_side_turn()

    # ------------------------------------------------------------------ lookups

    def occupancy(self) -> dict[Hex, list[int]]:
        """Hex -> indices of the combat units there (do not modify)."""
        occ = self._occ
        if occ is None:
            occ = {}
            for i, u in enumerate(self.units):
                if u.status == ON:
                    occ.setdefault(u.at, []).append(i)
            self._occ = occ
        return occ

    def leader_at(self) -> dict[Hex, int]:
        lead = self._lead
        if lead is None:
            lead = {L.at: i for i, L in enumerate(self.leaders) if L.status == ON}
            self._lead = lead
        return lead

    def counter_at(self) -> dict[Hex, int]:
        ctr = self._ctr
        if ctr is None:
            ctr = {c[2]: i for i, c in enumerate(self.counters)}
            self._ctr = ctr
        return ctr

    def _moved(self) -> None:
        """Pieces moved (or left, or a VP counter was taken): drop the lookups by hex."""
        self._occ = None
        self._lead = None
        self._ctr = None
        self._derived = None

    # Lookups derived from where the pieces stand, for the searches of movement and fire. They
    # live in ``_derived`` (shared by clones until either changes: ``_moved`` replaces it).

    def _cache(self) -> dict[Any, Any]:
        d = self._derived
        if d is None:
            d = self._derived = {}
        return d

    def _entry_blocked(self, side: int, artillery: bool) -> list[bool]:
        """By hex index: may a combat unit of ``side`` (artillery or not) not enter or pass it?
        Impassable terrain, enemy units, a friendly unit of its own class (4.3, 6.2.6)."""
        d = self._cache()
        key = ("blk", side, artillery)
        out = d.get(key)
        if out is None:
            units = self.units
            index = self.board.index
            out = d[key] = self.board.impassable_i[:]
            for h, here in self.occupancy().items():
                if units[here[0]].side != side or any(
                        (units[i].kind == "artillery") == artillery for i in here):
                    out[index[h]] = True
        return out

    def _leader_blocked(self, side: int) -> list[bool]:
        """By hex index: may a leader of ``side`` moving alone not enter it? Impassable, enemy
        units, enemy leaders."""
        d = self._cache()
        key = ("lblk", side)
        out = d.get(key)
        if out is None:
            units, leaders = self.units, self.leaders
            index = self.board.index
            out = d[key] = self.board.impassable_i[:]
            for h, here in self.occupancy().items():
                if units[here[0]].side != side:
                    out[index[h]] = True
            for h, li in self.leader_at().items():
                if leaders[li].side != side:
                    out[index[h]] = True
        return out

    def _leader_indices(self) -> frozenset[int]:
        d = self._cache()
        out = d.get("lidx")
        if out is None:
            index = self.board.index
            out = d["lidx"] = frozenset(index[h] for h in self.leader_at())
        return out

    def _friendly_leaders(self, side: int) -> frozenset[int]:
        d = self._cache()
        key = ("fl", side)
        out = d.get(key)
        if out is None:
            leaders = self.leaders
            index = self.board.index
            out = d[key] = frozenset(index[h] for h, li in self.leader_at().items()
                                     if leaders[li].side == side)
        return out

    def _captures(self, side: int) -> dict[int, tuple[int | None, int | None]]:
        """Hex index -> (enemy leader index or None, enemy VP counter index or None) for every
        hex where a unit of ``side`` entering would take something (7.3, 3.4.8)."""
        d = self._cache()
        key = ("cap", side)
        out = d.get(key)
        if out is None:
            out = {}
            leaders = self.leaders
            index = self.board.index
            for h, li in self.leader_at().items():
                if leaders[li].side != side:
                    out[index[h]] = (li, None)
            counters = self.counters
            for h, ci in self.counter_at().items():
                if counters[ci][1] != side:
                    i = index[h]
                    out[i] = (out[i][0] if i in out else None, ci)
            d[key] = out
        return out

    def _enemies(self, side: int) -> list[tuple[int, Hex]]:
        """(hex index, hex) of the hexes holding combat units of the enemy of ``side``, in
        ``occupancy()`` order."""
        d = self._cache()
        key = ("enemy", side)
        out = d.get(key)
        if out is None:
            units = self.units
            index = self.board.index
            out = d[key] = [(index[h], h) for h, here in self.occupancy().items()
                            if units[here[0]].side != side]
        return out

    def _los_blocks(self) -> list[bool]:
        """By hex index (and ``n`` for off the board): does it block a line of sight?"""
        d = self._cache()
        out = d.get("losblk")
        if out is None:
            index = self.board.index
            out = d["losblk"] = self.board.blocks_i[:]
            for h in self.occupancy():
                out[index[h]] = True
        return out

    def _los_i(self, a: int, b: int) -> bool:
        d = self._cache()
        key = ("los", a, b)
        seen = d.get(key)
        if seen is None:
            board = self.board
            if board.dist_row(a)[b] <= 1:
                seen = True
            else:
                blk = self._los_blocks()
                seen = True
                for step in board.steps_i(a, b):
                    if len(step) == 1:
                        if blk[step[0]]:
                            seen = False
                            break
                    elif blk[step[0]] and blk[step[1]]:
                        seen = False
                        break
            d[key] = d[("los", b, a)] = seen
        return seen

    def unit_index(self, uid: str) -> int:
        i = self.game.unit_index.get(uid)
        if i is None:
            raise IllegalActionError(f"no unit {uid!r}")
        return i

    def leader_index(self, lid: str) -> int:
        i = self.game.leader_index.get(lid)
        if i is None:
            raise IllegalActionError(f"no leader {lid!r}")
        return i

    def unit(self, uid: str) -> Unit:
        return self.units[self.unit_index(uid)]

    def leader(self, lid: str) -> Leader:
        return self.leaders[self.leader_index(lid)]

    def side_name(self, seat: int) -> str:
        return self.sc.sides[seat].display_name

    def vp_total(self, seat: int) -> int:
        """VP earned (eliminations, counters) + objectives held now + exits (10, contract §5)."""
        side = self.sc.sides[seat]
        total = self.vp_earned[seat]
        if side.objectives:
            occ = self.occupancy()
            for h, vp in side.objectives:
                here = occ.get(h)
                if here and self.units[here[0]].side == seat:
                    total += vp
        if side.exit_vp[1] > 0:
            total += (self.exited[seat] // side.exit_vp[1]) * side.exit_vp[0]
        return total

    def command_ap(self, seat: int, turn: int | None = None) -> int:
        """Command AP of ``seat`` on ``turn`` before leader losses (11.12, 11.13 applied)."""
        turn = self.turn if turn is None else turn
        sides = self.sc.sides
        if self.opts.equal_command:
            cmd = max(max(s.command_ap) for s in sides)
        else:
            cmd = sides[seat].command_ap_on(turn)
        return cmd + self.opts.ap_adjust[seat]

    def los(self, a: Hex, b: Hex) -> bool:
        """8.3 / contract §3: blocking terrain or any combat unit; along a hex side both."""
        index = self.board.index
        return self._los_i(index[a], index[b])

    # ------------------------------------------------------------------ protocol

    def current_player(self) -> int:
        phase = self.phase
        if phase == ACT:
            p = self.pending
            if p is None:
                return self.active
            return CHANCE if p.wait == "die" else p.decider
        if phase == AP_PHASE:
            return CHANCE
        return TERMINAL

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def returns(self) -> tuple[float, float]:
        if self.result is None or self.result["winner"] is None:
            return (0.0, 0.0)
        return (1.0, -1.0) if self.result["winner"] == 0 else (-1.0, 1.0)

    def chance_outcomes(self) -> list[tuple[Any, float]]:
        if self.phase == AP_PHASE:
            return list(AP_DIE)
        if self.phase == ACT and self.pending is not None and self.pending.wait == "die":
            return list(DIE6)
        return []

    def sample_chance_outcome(self, rng: Any) -> Any:
        if self.phase == AP_PHASE:
            return Die(rng.randrange(3) + 1)
        if self.phase == ACT and self.pending is not None and self.pending.wait == "die":
            return DICE6[rng.randrange(6)]
        raise IllegalActionError("no die is to be rolled here")

    def legal_actions(self) -> list[Any]:
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        return list(legal)

    def clone(self) -> HtlState:
        c = HtlState.__new__(HtlState)
        c.__dict__.update(self.__dict__)
        c.units = list(map(Unit.copy, self.units))
        c.leaders = list(map(Leader.copy, self.leaders))
        c.leaders_lost = self.leaders_lost[:]
        c.vp_earned = self.vp_earned[:]
        c.exited = self.exited[:]
        c.attacks = dict(self.attacks)
        c.events = self.events[:]
        if self.pending is not None:
            c.pending = self.pending.copy()
        return c

    def to_json(self) -> dict[str, Any]:
        from warboard.holdtheline.serialize import position_to_json

        return position_to_json(self)

    def observation(self, seat: int | None = None) -> dict[str, Any]:
        from warboard.holdtheline.serialize import position_to_json

        return position_to_json(self)

    def apply(self, action: Any) -> None:
        if self.phase == OVER:
            raise IllegalActionError("the game is over")
        if self.current_player() == CHANCE:
            if not isinstance(action, Die):
                raise IllegalActionError("a die is to be rolled here")
            top = 3 if self.phase == AP_PHASE else 6
            if not (isinstance(action.value, int) and 1 <= action.value <= top):
                raise IllegalActionError(f"a die here shows 1 to {top}, not {action.value!r}")
            self._legal = None
            if self.phase == AP_PHASE:
                self._roll_ap(action.value)
            else:
                self._die(action.value)
            return
        legal = self._legal if self._legal is not None else self.legal_actions()
        if action not in legal:
            raise IllegalActionError(self._why_illegal(action))
        self._legal = None
        if self.pending is not None:
            self._decide(action)
        else:
            self._activate(action)

    def _why_illegal(self, action: Any) -> str:
        from warboard.holdtheline.actions import action_to_text

        try:
            text = action_to_text(action)
        except TypeError:
            text = repr(action)
        p = self.pending
        if p is not None:
            return (f"{text!r} is not legal: {self.side_name(p.decider)} must decide "
                    f"({p.stage} of a {p.kind})")
        if isinstance(action, Die):
            return "no die is to be rolled now"
        return f"{text!r} is not a legal action for {self.side_name(self.active)} now"

    # ------------------------------------------------------------------ events

    def _log(self, type: str, text: str | Callable[[], str], **fields: Any) -> None:
        """Record an event; ``text`` is its sentence, or makes it (called only when events are
        recorded).
        Without recording (``record_events`` False: states for search) only the last event is
        kept, without ``turn``, ``side`` and ``text``; it is a new object every time."""
        n = self.n_events
        self.n_events = n + 1
        if not self.record_events:
            fields["n"] = n
            fields["type"] = type
            self.events = [fields]
            return
        ev = {"n": n, "turn": self.turn, "side": self.active, "type": type}
        ev.update(fields)
        ev["text"] = text if isinstance(text, str) else text()
        self.events.append(ev)

    def uname(self, u: Unit) -> str:
        return f"{self.side_name(u.side)} {UNITS[u.kind].label} {u.id}"

    # ------------------------------------------------------------------ turn flow

    def _start_side_turn(self) -> None:
        side = self.active
        for u in self.units:
            u.acted = False
            u.moved = False
        for L in self.leaders:
            L.acted = False
            L.start_at = L.at
        self.attacks = {}
        self._reinforce(side)
        self.phase = AP_PHASE
        self.ap = 0
        self._moved()

    def _reinforce(self, side: int) -> None:
        occ = self.occupancy()
        for u in self.units:
            if u.status != WAITING or u.side != side or u.arrive > self.turn:
                continue
            setup = self.game.unit_setup[u.id]
            for h in (setup, *u.entry):
                if not self.board.on_board(h) or self.board.move[h] == IMPASSABLE:
                    continue
                here = occ.get(h, [])
                if here and self.units[here[0]].side != side:
                    continue
                li = self.leader_at().get(h)
                if li is not None and self.leaders[li].side != side:
                    continue
                if not stack_ok([self.units[j].kind for j in here] + [u.kind]):
                    continue
                u.status, u.at = ON, h
                self._moved()
                occ = self.occupancy()
                self._log("reinforcement", f"{self.uname(u)} arrives at {h[0]},{h[1]}",
                          unit=u.id, at=list(h))
                self._capture_counter(u, h)
                break
        for L in self.leaders:
            if L.status != WAITING or L.side != side or L.arrive > self.turn:
                continue
            setup = self.game.leader_setup[L.id]
            for h in (setup, *L.entry):
                if not self.board.on_board(h) or self.board.move[h] == IMPASSABLE:
                    continue
                here = occ.get(h, [])
                if here and self.units[here[0]].side != side:
                    continue
                if h in self.leader_at():
                    continue
                L.status, L.at, L.start_at = ON, h, h
                self._moved()
                self._log("reinforcement", f"{L.name} arrives at {h[0]},{h[1]}",
                          leader=L.id, at=list(h))
                break

    def _roll_ap(self, face: int) -> None:
        side = self.active
        value = self.sc.sides[side].action_die[face - 1]
        cmd = max(0, self.command_ap(side) - self.leaders_lost[side])
        self.ap = cmd + value
        self.phase = ACT
        remap = f" (counts {value})" if value != face else ""
        self._log("die", lambda: f"{self.side_name(side)} action die {face}{remap}: "
                  f"{self.ap} AP ({cmd} command + {value})", roll="action", value=face,
                  counts=value, command=cmd, ap=self.ap)
        if self.ap <= 0:
            self._end_side_turn()

    def _end_side_turn(self) -> None:
        side = self.active
        self._log("end", lambda: f"{self.side_name(side)} ends turn {self.turn}"
                  + (f" with {self.ap} AP unspent" if self.ap > 0 else ""))
        self.ap = 0
        self.pending = None
        order = (side, 1 - side)
        for s in order:
            target = self.sc.sides[s].vp_target
            vp = self.vp_total(s)
            if target is not None and vp >= target:
                self._finish(s, "vp", f"{self.side_name(s)} wins with {vp} VP "
                             f"(needs {target})")
                return
        second = side != self.sc.first
        if second and self.turn >= self.sc.turn_limit:
            w = self.sc.time_out_winner
            text = ("time runs out: a draw" if w is None else
                    f"time runs out: {self.side_name(w)} wins")
            self._finish(w, "time", text)
            return
        if second:
            self.turn += 1
            for u in self.units:
                u.fired_at = False
        self.active = 1 - side
        self._start_side_turn()

    def _finish(self, winner: int | None, reason: str, text: str) -> None:
        self.phase = OVER
        self.pending = None
        self.result = {"winner": winner, "reason": reason, "vp": [self.vp_total(0),
                                                                  self.vp_total(1)],
                       "text": text}
        self._log("result", lambda: text, winner=winner, reason=reason)

    def _after_action(self) -> None:
        if self.pending is None and self.phase == ACT and self.ap <= 0:
            self._end_side_turn()

    # ------------------------------------------------------------------ legal actions

    def _compute_legal(self) -> list[Any]:
        if self.phase != ACT:
            return []
        p = self.pending
        if p is not None:
            if p.wait != "decision":
                return []
            return self._decision_actions(p)
        out: list[Any] = []
        side, ap = self.active, self.ap
        opts = self.opts
        units, leaders = self.units, self.leaders
        lead = self.leader_at()
        occ = self.occupancy()
        board = self.board
        exits = self.sc.sides[side].exit_hexes
        paths = self._unit_paths
        new = tuple.__new__
        can_move = ap >= COST["move"]
        can_bonus = ap >= COST["move"] + COST["leader_bonus"]
        can_move_fire = ap >= COST["dragoon_move_fire"]
        can_march = opts.force_march and ap >= COST["move"] + COST["force_march"]
        can_fire = ap >= COST["fire"]
        can_assault = ap >= COST["assault"]
        can_leader_dice = opts.leader_ratings and ap >= COST["assault"] + COST["leader_dice"]
        can_exit = ap >= COST["exit"]
        for ui, u in enumerate(units):
            if u.side != side or u.status != ON or u.acted:
                continue
            uid = u.id
            ut = UNITS[u.kind]
            li = lead.get(u.at)
            L = leaders[li] if li is not None else None
            if L is not None and (L.side != side or L.acted or L.start_at != u.at):
                L = None
            if can_move:
                mv = ut.movement
                plain = paths(ui, mv, None)
                for path in plain:
                    out.append(new(Move, (uid, None, path, False, None, False)))
                with_l: list[tuple[Hex, ...]] = []
                if L is not None:
                    lid = L.id
                    with_l = paths(ui, mv, li)
                    for path in with_l:
                        out.append(new(Move, (uid, lid, path, False, None, False)))
                    if can_bonus and u.kind != "artillery":
                        for path in paths(ui, mv + 1, li, mv + 1):
                            out.append(new(Move, (uid, lid, path, True, None, False)))
                if u.kind == "dragoon" and can_move_fire:
                    for lid, lpaths in ((None, plain), (L.id if L else None, with_l)):
                        for path in lpaths:
                            end = path[-1]
                            if board.move[end] == WATER:
                                continue
                            for t in self._fire_targets(ui, end, path):
                                out.append(new(Move, (uid, lid, path, False, t, False)))
                if can_march and ut.infantry:
                    ways: list[tuple[str | None, int | None]] = [(None, None)]
                    if L is not None:
                        ways.append((L.id, li))
                    for lid, lix in ways:
                        for path in paths(ui, mv + 1, lix, mv + 1, True):
                            if self._fm_prefix_ok(ui, path, lix):
                                out.append(new(Move, (uid, lid, path, False, None, True)))
            if can_fire:
                for t in self._fire_targets(ui, u.at, ()):
                    out.append(new(Fire, (uid, t)))
            if ut.close and can_assault:
                for n in board.nbrs[u.at]:
                    here = occ.get(n)
                    if here and units[here[0]].side != side:
                        out.append(new(Assault, (uid, n, False)))
                        if can_leader_dice and L is not None:
                            out.append(new(Assault, (uid, n, True)))
            if exits and can_exit and u.at in exits:
                out.append(Exit(uid))
        for li, L in enumerate(leaders):
            if L.side != side or L.status != ON or L.acted:
                continue
            if ap >= COST["leader_move"]:
                for path in self._leader_paths(li):
                    out.append(new(Move, (None, L.id, path, False, None, False)))
            if ap >= COST["rally"] and L.start_at == L.at:
                for ui in occ.get(L.at, ()):
                    u = units[ui]
                    if (u.side == side and not u.acted and u.kind != "artillery"
                            and u.mp + u.worn < u.start_mp
                            and not (opts.rally_unfired and u.fired_at)):
                        out.append(Rally(L.id, u.id))
        out.append(END)
        return out

    def _unit_paths(self, ui: int, allowance: int, leader: int | None, exact: int = 0,
                    by_stop: bool = False) -> list[tuple[Hex, ...]]:
        """``movement.unit_paths`` (paths only), remembered until a piece moves."""
        d = self._cache()
        key = ("up", ui, allowance, leader, exact, by_stop)
        out = d.get(key)
        if out is None:
            out = d[key] = [p[0] for p in unit_paths(self, ui, allowance, leader, exact,
                                                     by_stop)]
        return out

    def _leader_paths(self, li: int) -> list[tuple[Hex, ...]]:
        d = self._cache()
        key = ("lp", li)
        out = d.get(key)
        if out is None:
            out = d[key] = leader_paths(self, li, TABLES.leader_movement)
        return out

    def _fm_prefix_ok(self, ui: int, path: tuple[Hex, ...], li: int | None) -> bool:
        """A force march may stop one hex short (a failed roll): that hex must be a legal end."""
        if len(path) < 2:
            return False
        stop = path[-2]
        if li is not None:
            other = self.leader_at().get(stop)
            if other is not None and self.leaders[other].side == self.units[ui].side:
                return False
        return True

    def _fire_targets(self, ui: int, origin: Hex, path: tuple[Hex, ...]) -> list[Hex]:
        """Hexes of enemy combat units that unit ``ui`` may fire at from ``origin`` (after moving
        along ``path``), remembered until a piece moves."""
        d = self._cache()
        key = ("ft", ui, origin, bool(path))
        out = d.get(key)
        if out is None:
            out = d[key] = self._find_fire_targets(ui, origin, path)
        return out

    def _find_fire_targets(self, ui: int, origin: Hex, path: tuple[Hex, ...]) -> list[Hex]:
        u = self.units[ui]
        ut = UNITS[u.kind]
        board = self.board
        rng = fire_range(ut, self.opts, board.terrain[origin] == "hill")
        o = board.index[origin]
        drow = board.dist_row(o)
        out = []
        for i, h in self._enemies(u.side):
            d = drow[i]
            if 1 <= d <= rng and (d == 1 or (self._los_i(o, i) if not path
                                             else self._los_moved(origin, h, u.at, path))):
                out.append(h)
        return out

    def _los_moved(self, a: Hex, b: Hex, start: Hex | None, path: tuple[Hex, ...]) -> bool:
        if not path:
            return self.los(a, b)
        # a dragoon that moved: its start hex may now be empty (it never blocks its own line)
        blocks = self.board.blocks
        occ = self.occupancy()
        for step in sight_steps(a, b):
            if all(blocks.get(h, False) or (h in occ and not (h == start and len(occ[h]) == 1))
                   for h in step):
                return False
        return True

    def _decision_actions(self, p: Pending) -> list[Any]:
        st = p.stage
        if st == "evade":
            return [Evade(True), Evade(False)]
        if st == "allocate":
            return [Allocate(uid) for uid in p.choices]
        if st == "retreat":
            return [Retreat(p.current, h) for h, _ in p.choices]
        if st == "displace":
            return [Displace(p.displacing, h) for h, _ in p.choices]
        if st == "escape":
            return [Escape(p.current, h) for h in p.choices]
        if st == "advance":
            return [Advance(True), Advance(False)]
        return []

    # ------------------------------------------------------------------ activations

    def _activate(self, a: Any) -> None:
        if isinstance(a, End):
            self._end_side_turn()
            return
        if isinstance(a, Move):
            self._do_move(a)
        elif isinstance(a, Fire):
            self._start_attack(self.unit_index(a.unit), a.target, assault=False, cost=COST["fire"])
        elif isinstance(a, Assault):
            self._start_attack(self.unit_index(a.unit), a.target, assault=True,
                               cost=COST["assault"] + (COST["leader_dice"] if a.leader_dice
                                                       else 0),
                               leader_dice=a.leader_dice)
        elif isinstance(a, Rally):
            L, u = self.leader(a.leader), self.unit(a.unit)
            self.ap -= COST["rally"]
            u.mp += 1
            u.acted = True
            L.acted = True
            self._log("rally", f"{L.name} rallies {self.uname(u)} to {u.mp} MP ({COST['rally']}"
                      " AP)", unit=u.id, leader=L.id, mp=u.mp, ap=COST["rally"])
        elif isinstance(a, Exit):
            u = self.unit(a.unit)
            self.ap -= COST["exit"]
            u.acted = True
            u.status, u.at = EXITED, None
            self.exited[u.side] += 1
            self._moved()
            self._log("exit", f"{self.uname(u)} exits the board ({self.exited[u.side]} out)",
                      unit=u.id, ap=COST["exit"])
        self._run()

    def _do_move(self, a: Move) -> None:
        if a.unit is None:
            L = self.leader(a.leader)  # type: ignore[arg-type]
            self.ap -= COST["leader_move"]
            L.acted = True
            L.at = a.path[-1]
            self._moved()
            self._log("move", lambda: f"{L.name} moves to {_hx(L.at)} ({COST['leader_move']} AP)",
                      leader=L.id, path=[list(h) for h in a.path], ap=COST["leader_move"])
            return
        ui = self.unit_index(a.unit)
        u = self.units[ui]
        L = self.leader(a.leader) if a.leader is not None else None
        if a.fire is not None:
            cost = COST["dragoon_move_fire"]
        else:
            cost = COST["move"] + (COST["leader_bonus"] if a.bonus else 0) + (
                COST["force_march"] if a.force_march else 0)
        self.ap -= cost
        u.acted = True
        u.moved = True
        start = u.at
        path = a.path[:-1] if a.force_march else a.path
        for h in path:
            self._enter(ui, h)
        if L is not None:
            L.acted = True
            L.at = u.at
            self._moved()
        extra = " with " + L.name if L is not None else ""
        how = " (leader bonus)" if a.bonus else ""
        self._log("move", lambda: f"{self.uname(u)}{extra} moves {_hx(start)} to {_hx(u.at)}{how} "
                  f"({cost} AP)", unit=u.id, leader=a.leader,
                  path=[list(h) for h in path], ap=cost)
        if a.fire is not None:
            self._start_attack(ui, a.fire, assault=False, cost=0)
        elif a.force_march:
            p = Pending("force_march", u.id, u.side, u.at, a.path[-1])
            p.stage = "fm"
            p.leader = a.leader
            p.path = a.path
            self.pending = p

    def _enter(self, ui: int, h: Hex) -> None:
        """Unit ``ui`` enters ``h``: a lone enemy leader there is eliminated (7.3), an enemy VP
        counter captured (3.4.8)."""
        u = self.units[ui]
        u.at = h
        self._moved()
        li = self.leader_at().get(h)
        if li is not None and self.leaders[li].side != u.side:
            L = self.leaders[li]
            self._log("capture", lambda: f"{L.name}, alone, is taken by {self.uname(u)}",
                      leader=L.id, unit=u.id)
            self._eliminate_leader(li)
        self._capture_counter(u, h)

    def _capture_counter(self, u: Unit, h: Hex) -> None:
        ci = self.counter_at().get(h)
        if ci is not None and self.counters[ci][1] != u.side:
            cid = self.counters[ci][0]
            self.counters = self.counters[:ci] + self.counters[ci + 1:]
            self._moved()
            self.vp_earned[u.side] += 1
            self._log("counter", lambda: f"{self.uname(u)} captures VP counter {cid} (+1 VP "
                      f"{self.side_name(u.side)})", counter=cid, unit=u.id,
                      vp_to=u.side)

    def _eliminate_unit(self, ui: int, why: str) -> None:
        u = self.units[ui]
        u.status, u.at, u.mp = ELIMINATED, None, 0
        self.vp_earned[1 - u.side] += 1
        self._moved()
        if self.pending is not None:
            self.pending.eliminated = True
        self._log("eliminated", lambda: f"{self.uname(u)} is eliminated ({why}; +1 VP "
                  f"{self.side_name(1 - u.side)})", unit=u.id, vp_to=1 - u.side)

    def _eliminate_leader(self, li: int) -> None:
        L = self.leaders[li]
        L.status, L.at = ELIMINATED, None
        self.leaders_lost[L.side] += 1
        self.vp_earned[1 - L.side] += 1
        self._moved()
        self._log("leader_lost", lambda: f"{L.name} is lost (-1 command AP for "
                  f"{self.side_name(L.side)}, +1 VP {self.side_name(1 - L.side)})",
                  leader=L.id, vp_to=1 - L.side)

    # ------------------------------------------------------------------ combat

    def attack_profile(self, ui: int, origin: Hex, target: Hex, assault: bool,
                       leader_dice: int = 0) -> Profile:
        """Dice, hit number and die modifier of an attack by unit ``ui`` from ``origin``."""
        u = self.units[ui]
        ut = UNITS[u.kind]
        board = self.board
        dist = hexes.distance(origin, target)
        hit_on = ut.close if assault else fire_hit_number(ut, dist)
        mod = terrain_mod(board.combat[target], board.terrain[target], ut, self.opts)
        flank = self.opts.flank_attacks and self._flanked(u.side, origin, target)
        if flank:
            mod += 1
        return Profile(dice_count(ut, u.mp, self.opts, leader_dice), hit_on, mod, dist, flank)

    def _flanked(self, side: int, origin: Hex, target: Hex) -> bool:
        """11.14: a friendly unit on the far side of the target, adjacent to it, has already
        attacked it this turn."""
        if hexes.distance(origin, target) != 1:
            return False
        o, t = hexes.to_cube(origin), hexes.to_cube(target)
        opp = hexes.to_offset((2 * t[0] - o[0], 2 * t[1] - o[1], 2 * t[2] - o[2]))
        if opp not in self.attacks.get(target, ()):
            return False
        here = self.occupancy().get(opp)
        return bool(here) and self.units[here[0]].side == side

    def _defenders(self, p: Pending) -> list[int]:
        here = self.occupancy().get(p.target, ())
        return [i for i in here if self.units[i].side != p.side]

    def _start_attack(self, ui: int, target: Hex, assault: bool, cost: int,
                      leader_dice: bool = False) -> None:
        u = self.units[ui]
        origin = u.at
        assert origin is not None
        self.ap -= cost
        u.acted = True
        kind = "assault" if assault else "fire"
        p = Pending(kind, u.id, u.side, origin, target)
        ld = 0
        if leader_dice:
            li = self.leader_at()[origin]
            L = self.leaders[li]
            L.acted = True
            p.leader = L.id
            ld = L.rating[0]
        prof = self.attack_profile(ui, origin, target, assault, ld)
        p.n_dice, p.hit_on, p.mod, p.dist, p.flank = prof.dice, prof.hit_on, prof.mod, \
            prof.dist, prof.flank
        self.attacks[target] = (*self.attacks.get(target, ()), origin)
        for i in self._defenders(p):
            self.units[i].fired_at = True
        nat = natural_hit_on(p.hit_on, p.mod)
        what = "close combat against" if assault else "fires at"
        self._log(kind, lambda: f"{self.uname(u)} {what} {_hx(target)} (range {p.dist}, "
                  f"{p.n_dice} dice, hit on {nat if nat <= 6 else 'nothing'}"
                  + (", flank +1" if p.flank else "") + (f"; {cost} AP)" if cost else ")"),
                  unit=u.id, target=list(target), dice=p.n_dice, hit_on=nat, ap=cost)
        if assault:
            p.stage = "atk_morale" if self.opts.attacker_morale else "evade"
        else:
            p.stage = "attack"
        self.pending = p

    def _run(self) -> None:
        """Advance the pending activation through its automatic steps until it needs a die or
        a decision, or is done."""
        while True:
            p = self.pending
            if p is None:
                self._after_action()
                return
            p.wait = None
            handler = getattr(self, "_st_" + p.stage)
            if handler(p):
                return

    def _wait_die(self, p: Pending) -> bool:
        p.wait = "die"
        return True

    def _wait_decision(self, p: Pending, seat: int, choices: list[Any]) -> bool:
        p.wait = "decision"
        p.decider = seat
        p.choices = choices
        return True

    # stages: each returns True when it waits for input

    def _st_atk_morale(self, p: Pending) -> bool:
        return self._wait_die(p)

    def _st_evade(self, p: Pending) -> bool:
        p.stage = "morale_init"
        if not self.opts.dragoon_evade:
            return False
        defenders = self._defenders(p)
        drag = [i for i in defenders if self.units[i].kind == "dragoon"]
        if not drag:
            return False
        follow = self._lone_leader_follow(p, drag, defenders)
        if not retreat_choices(self, drag[0], p.origin, None, True, follow is not None):
            return False
        p.stage = "evade"
        return self._wait_decision(p, 1 - p.side, [])

    def _lone_leader_follow(self, p: Pending, going: list[int], defenders: list[int]) -> str | None:
        li = self.leader_at().get(p.target)
        if li is None or self.leaders[li].side == p.side or set(going) != set(defenders):
            return None
        return self.leaders[li].id

    def _st_after_evade(self, p: Pending) -> bool:
        # nobody left (the dragoon evaded, or was eliminated for want of a retreat hex): a
        # leader left alone escapes (8.5.5) before the attacker may advance
        p.stage = "morale_init" if self._defenders(p) else "escape_init"
        return False

    def _st_morale_init(self, p: Pending) -> bool:
        defenders = self._defenders(p)
        defenders.sort(key=lambda i: self.units[i].kind == "artillery")
        lead = self.leader_at().get(p.target)
        has_leader = lead is not None and self.leaders[lead].side != p.side
        p.morale = []
        for i in defenders:
            u = self.units[i]
            need = (u.mp + (1 if has_leader else 0) + self.board.morale[p.target]
                    + (1 if u.kind == "elite" else 0) - (1 if p.flank else 0))
            p.morale.append([u.id, None, need, None])
        p.mi = 0
        p.stage = "morale"
        return False

    def _st_morale(self, p: Pending) -> bool:
        while p.mi < len(p.morale):
            entry = p.morale[p.mi]
            u = self.unit(entry[0])
            if u.kind == "artillery" and any(
                    e[3] is False and UNITS[self.unit(e[0]).kind].infantry
                    for e in p.morale[:p.mi]):
                entry[3] = False
                self._log("morale", f"{self.uname(u)} passes morale with the infantry it is "
                          "stacked with (8.5.4)", unit=u.id, passed=True)
                p.mi += 1
                continue
            return self._wait_die(p)
        p.stage = "attack"
        return False

    def _st_attack(self, p: Pending) -> bool:
        if len(p.dice) < p.n_dice:
            return self._wait_die(p)
        p.hits = sum(1 for d in p.dice if die_hits(d, p.hit_on, p.mod))
        p.ones = sum(1 for d in p.dice if d == 1)
        self._log("hits", lambda: f"{p.hits} hit{'s' if p.hits != 1 else ''} "
                  f"(dice {', '.join(map(str, p.dice))})", unit=p.unit, hits=p.hits,
                  dice=p.dice[:])
        li = self.leader_at().get(p.target)
        checks: list[str] = []
        if p.ones:
            if li is not None and self.leaders[li].side != p.side:
                did = self.leaders[li].id
                checks += [did] * (p.ones if p.kind == "assault" else 1)
            if p.leader is not None and p.kind == "assault":
                checks += [p.leader] * p.ones
        p.checks = checks
        p.stage = "allocate"
        return False

    def _st_allocate(self, p: Pending) -> bool:
        p.stage = "leader"
        if p.hits <= 0:
            return False
        defenders = self._defenders(p)
        if not defenders:
            return False
        if len(defenders) == 1:
            self._apply_hits(p, defenders[0])
            return False
        a, b = (self.units[i] for i in defenders[:2])
        if a.mp != b.mp:
            self._apply_hits(p, defenders[0] if a.mp > b.mp else defenders[1])
            return False
        p.stage = "allocate"
        return self._wait_decision(p, 1 - p.side, [a.id, b.id])

    def _apply_hits(self, p: Pending, vi: int) -> None:
        v = self.units[vi]
        p.victim = v.id
        hits = p.hits
        if v.kind == "elite" and hits >= v.mp:
            p.elite_left = hits - (v.mp - 1)
            v.mp = 1
            self._log("damage", f"{self.uname(v)} takes {hits} hit{'s' if hits > 1 else ''}: "
                      f"1 MP, {p.elite_left} survival roll{'s' if p.elite_left > 1 else ''} "
                      "(3.4.2)", unit=v.id, hits=hits, mp=1)
            p.stage = "elite"
            return
        v.mp -= hits
        if v.mp < 1:
            self._eliminate_unit(vi, f"{hits} hit{'s' if hits > 1 else ''}")
        else:
            self._log("damage", f"{self.uname(v)} takes {hits} hit{'s' if hits > 1 else ''}: "
                      f"{v.mp} MP", unit=v.id, hits=hits, mp=v.mp)

    def _st_elite(self, p: Pending) -> bool:
        v = self.unit(p.victim) if p.victim else None
        if p.elite_left > 0 and v is not None and v.status == ON:
            return self._wait_die(p)
        p.stage = "leader"
        return False

    def _st_leader(self, p: Pending) -> bool:
        while p.checks and self.leader(p.checks[0]).status != ON:
            p.checks.pop(0)
        if p.checks:
            return self._wait_die(p)
        p.stage = "retreat_init" if p.kind == "assault" else "escape_init"
        return False

    def _st_retreat_init(self, p: Pending) -> bool:
        failed = [e[0] for e in p.morale if e[3]]
        going = [self.unit_index(uid) for uid in failed
                 if self.unit(uid).status == ON and self.unit(uid).at == p.target]
        p.retreats = [self.units[i].id for i in going]
        p.follow = self._lone_leader_follow(p, going, self._defenders(p)) if going else None
        p.after_retreat = "escape_init"
        p.current = None
        p.stage = "retreat"
        return False

    def _st_retreat(self, p: Pending) -> bool:
        while True:
            if p.current is None:
                while p.retreats and self.unit(p.retreats[0]).status != ON:
                    p.retreats.pop(0)
                if not p.retreats:
                    p.stage = p.after_retreat
                    return False
                p.current = p.retreats.pop(0)
            ui = self.unit_index(p.current)
            u = self.units[ui]
            choices = retreat_choices(self, ui, p.origin, None, True, p.follow is not None)
            if not choices:
                self._eliminate_unit(ui, "no retreat (8.5.2)")
                p.current = None
                continue
            if len(choices) == 1:
                if self._retreat_to(p, ui, choices[0]):
                    return True
                continue
            p.stage = "retreat"
            return self._wait_decision(p, u.side, choices)

    def _retreat_to(self, p: Pending, ui: int, choice: tuple[Hex, int | None]) -> bool:
        """Retreat unit ``ui`` to ``choice``; True when a displacement decision waits."""
        to, displaced = choice
        if displaced is None:
            self._finish_retreat(p, ui, to)
            return False
        d = self.units[displaced]
        dchoices = retreat_choices(self, displaced, p.origin, p.target, False, False)
        u = self.units[ui]
        if not dchoices:
            self._log("displace", f"{self.uname(d)} cannot make room (a second displacement "
                      "would be needed)", unit=d.id)
            self._eliminate_unit(ui, "retreat blocked (8.5.3)")
            p.current = None
            return False
        p.displacing = d.id
        p.retreat_to = to
        if len(dchoices) == 1:
            self._finish_displace(p, dchoices[0][0])
            return False
        p.stage = "displace"
        self._wait_decision(p, u.side, dchoices)
        return True

    def _finish_displace(self, p: Pending, to: Hex) -> None:
        di = self.unit_index(p.displacing)  # type: ignore[arg-type]
        d = self.units[di]
        frm = d.at
        self._enter(di, to)
        self._log("displace", f"{self.uname(d)} is displaced {_hx(frm)} to {_hx(to)} (8.5.3)",
                  unit=d.id, to=list(to))
        ui = self.unit_index(p.current)  # type: ignore[arg-type]
        target = p.retreat_to
        p.displacing = None
        p.retreat_to = None
        p.stage = "retreat"
        self._finish_retreat(p, ui, target)  # type: ignore[arg-type]

    def _finish_retreat(self, p: Pending, ui: int, to: Hex) -> None:
        u = self.units[ui]
        frm = u.at
        self._enter(ui, to)
        extra = ""
        if p.follow is not None:
            L = self.leader(p.follow)
            if L.status == ON and L.at == frm:
                L.at = to
                self._moved()
                extra = f" with {L.name}"
            p.follow = None
        self._log("retreat", lambda: f"{self.uname(u)}{extra} retreats {_hx(frm)} to {_hx(to)}",
                  unit=u.id, to=list(to))
        p.current = None

    def _st_escape_init(self, p: Pending) -> bool:
        li = self.leader_at().get(p.target)
        p.escapes = []
        if li is not None and self.leaders[li].side != p.side and not self._defenders(p):
            p.escapes = [self.leaders[li].id]
        p.current = None
        p.stage = "escape"
        return False

    def _st_escape(self, p: Pending) -> bool:
        while p.escapes:
            lid = p.escapes[0]
            li = self.leader_index(lid)
            L = self.leaders[li]
            if L.status != ON:
                p.escapes.pop(0)
                continue
            dests = [path[-1] for path in leader_paths(self, li, TABLES.leader_escape)]
            if not dests:
                p.escapes.pop(0)
                self._log("escape", f"{L.name} has nowhere to go (8.5.5)", leader=L.id)
                self._eliminate_leader(li)
                continue
            if len(dests) == 1:
                p.escapes.pop(0)
                self._do_escape(L, dests[0])
                continue
            p.current = lid
            return self._wait_decision(p, L.side, dests)
        p.current = None
        p.stage = "advance"
        return False

    def _do_escape(self, L: Leader, to: Hex) -> None:
        frm = L.at
        L.at = to
        self._moved()
        self._log("escape", f"{L.name} escapes {_hx(frm)} to {_hx(to)} (8.5.5)", leader=L.id,
                  to=list(to))

    def _st_advance(self, p: Pending) -> bool:
        p.stage = "done"
        ui = self.unit_index(p.unit)
        u = self.units[ui]
        if u.status != ON or u.at != p.origin or p.kind == "force_march":
            return False
        allowed = (p.kind == "assault" or (self.opts.fire_advance and p.eliminated
                                            and p.dist == 1))
        if not allowed or self.occupancy().get(p.target):
            return False
        if self.board.move[p.target] == IMPASSABLE:
            return False
        li = self.leader_at().get(p.target)
        if li is not None and self.leaders[li].side == p.side:
            return False
        p.stage = "advance"
        return self._wait_decision(p, p.side, [])

    def _st_done(self, p: Pending) -> bool:
        self.pending = None
        return False

    def _st_displace(self, p: Pending) -> bool:
        p.wait = "decision"
        return True

    def _st_fm(self, p: Pending) -> bool:
        return self._wait_die(p)

    def _st_fatigue(self, p: Pending) -> bool:
        return self._wait_die(p)

    # ------------------------------------------------------------------ inputs

    def _die(self, v: int) -> None:
        p = self.pending
        assert p is not None
        st = p.stage
        if st == "attack":
            p.dice.append(v)
            hit = die_hits(v, p.hit_on, p.mod)
            li = self.leader_at().get(p.target)
            check = v == 1 and ((li is not None and self.leaders[li].side != p.side)
                                or (p.leader is not None and p.kind == "assault"))
            mtext = f" ({p.mod:+d} = {v + p.mod})" if p.mod else ""
            self._log("die", lambda: f"attack die {len(p.dice)}: {v}{mtext}, needs {p.hit_on}: "
                      f"{'hit' if hit else 'miss'}"
                      + (" (a 1: leader casualty check)" if check else ""),
                      roll="attack", value=v, modified=v + p.mod, need=p.hit_on, hit=hit,
                      unit=p.unit)
        elif st == "morale":
            entry = p.morale[p.mi]
            entry[1] = v
            failed = v == 6 or v > entry[2]
            entry[3] = failed
            u = self.unit(entry[0])
            self._log("die", lambda: f"morale of {self.uname(u)}: {v} against {entry[2]}: "
                      f"{'fails, will retreat' if failed else 'holds'}"
                      + (" (a 6 always fails)" if v == 6 and v <= entry[2] else ""),
                      roll="morale", value=v, need=entry[2], passed=not failed, unit=u.id)
            p.mi += 1
        elif st == "elite":
            v_unit = self.unit(p.victim)  # type: ignore[arg-type]
            if v >= 4:
                self._log("die", lambda: f"elite survival roll of {self.uname(v_unit)}: {v}: "
                          "the hit is taken", roll="elite", value=v, survived=False,
                          unit=v_unit.id)
                p.elite_left = 0
                self._eliminate_unit(self.unit_index(v_unit.id), "elite survival roll failed")
            else:
                p.elite_left -= 1
                self._log("die", lambda: f"elite survival roll of {self.uname(v_unit)}: {v}: "
                          "stays at 1 MP", roll="elite", value=v, survived=True,
                          unit=v_unit.id)
        elif st == "leader":
            lid = p.checks.pop(0)
            li = self.leader_index(lid)
            L = self.leaders[li]
            hit = v == 1
            cap = L.rating[1] if self.opts.leader_ratings else 1
            self._log("die", lambda: f"casualty check for {L.name}: {v}: "
                      f"{'hit' if hit else 'unhurt'}", roll="leader", value=v, hit=hit,
                      leader=L.id)
            if hit:
                L.hits += 1
                if L.hits >= cap:
                    self._eliminate_leader(li)
                else:
                    self._log("leader_hit", lambda: f"{L.name} is wounded ({L.hits} of {cap} hits)",
                              leader=L.id)
        elif st == "atk_morale":
            ui = self.unit_index(p.unit)
            u = self.units[ui]
            li = self.leader_at().get(p.origin)
            has_leader = li is not None and self.leaders[li].side == p.side
            need = u.mp + (1 if has_leader else 0) + (1 if u.kind == "elite" else 0)
            failed = v == 6 or v > need
            self._log("die", lambda: f"attacker morale of {self.uname(u)}: {v} against {need}: "
                      f"{'fails, fires instead (11.1)' if failed else 'passes'}",
                      roll="attacker_morale", value=v, need=need, passed=not failed,
                      unit=u.id)
            if failed:
                p.kind = "fire"
                p.converted = True
                p.leader = None
                prof = self.attack_profile(ui, p.origin, p.target, False)
                p.n_dice, p.hit_on, p.mod = prof.dice, prof.hit_on, prof.mod
                p.stage = "attack"
            else:
                p.stage = "evade"
        elif st == "fm":
            ui = self.unit_index(p.unit)
            u = self.units[ui]
            need = u.mp + (1 if u.kind == "elite" else 0)  # a morale roll: elite +1 (3.4.2)
            ok = v <= need
            self._log("die", lambda: f"force march of {self.uname(u)}: {v} against {need}"
                      + (" (MP + 1 elite)" if need != u.mp else " MP")
                      + f": {'succeeds' if ok else 'fails'}", roll="force_march", value=v,
                      need=need, passed=ok, unit=u.id)
            if ok:
                self._enter(ui, p.target)
                if p.leader is not None:
                    L = self.leader(p.leader)
                    L.at = u.at
                    self._moved()
                p.stage = "fatigue" if self.opts.march_fatigue else "done"
            else:
                p.stage = "done"
        elif st == "fatigue":
            u = self.unit(p.unit)
            tired = v >= 4 and u.mp > 1
            if tired:
                u.mp -= 1
                u.worn += 1  # not a combat loss: never rallied back (9.4)
            self._log("die", lambda: f"fatigue of {self.uname(u)}: {v}: "
                      + (f"-1 MP ({u.mp} MP)" if tired else "no loss"), roll="fatigue",
                      value=v, loss=tired, unit=u.id)
            p.stage = "done"
        else:  # pragma: no cover - guarded by current_player
            raise IllegalActionError("no die is to be rolled now")
        self._run()

    def _decide(self, a: Any) -> None:
        p = self.pending
        assert p is not None
        if isinstance(a, Evade):
            if a.yes:
                defenders = self._defenders(p)
                drag = [i for i in defenders if self.units[i].kind == "dragoon"]
                self._log("evade", lambda: f"{self.uname(self.units[drag[0]])} evades the close "
                          "combat (11.11)", unit=self.units[drag[0]].id)
                p.retreats = [self.units[drag[0]].id]
                p.follow = self._lone_leader_follow(p, drag, defenders)
                p.after_retreat = "after_evade"
                p.current = None
                p.stage = "retreat"
            else:
                p.stage = "morale_init"
        elif isinstance(a, Allocate):
            p.stage = "leader"
            self._apply_hits(p, self.unit_index(a.unit))
        elif isinstance(a, Retreat):
            choice = next(c for c in p.choices if c[0] == a.to)
            p.stage = "retreat"
            self._retreat_to(p, self.unit_index(a.unit), choice)
            if p.wait == "decision" and p.stage == "displace":
                return
        elif isinstance(a, Displace):
            self._finish_displace(p, a.to)
        elif isinstance(a, Escape):
            p.escapes.pop(0)
            self._do_escape(self.leader(a.leader), a.to)
            p.current = None
        elif isinstance(a, Advance):
            p.stage = "done"
            if a.yes:
                ui = self.unit_index(p.unit)
                u = self.units[ui]
                frm = u.at
                self._enter(ui, p.target)
                self._log("advance", lambda: f"{self.uname(u)} advances {_hx(frm)} to "
                          f"{_hx(p.target)}", unit=u.id, to=list(p.target))
        self._run()

    # ------------------------------------------------------------------ hints

    def action_hints(self, action: Any) -> dict[str, Any]:
        """Display facts of a legal action (docs/holdtheline-engine.md, "Hints")."""
        hints: dict[str, Any] = {"ap": 0}
        if isinstance(action, Move):
            if action.unit is None:
                hints["ap"] = COST["leader_move"]
            elif action.fire is not None:
                hints["ap"] = COST["dragoon_move_fire"]
            else:
                hints["ap"] = COST["move"] + (COST["leader_bonus"] if action.bonus else 0) + (
                    COST["force_march"] if action.force_march else 0)
            hints["to"] = list(action.path[-1])
            if action.fire is not None and action.unit is not None:
                ui = self.unit_index(action.unit)
                prof = self.attack_profile(ui, action.path[-1], action.fire, False)
                hints.update(dice=prof.dice, hit_on=prof.natural, range=prof.dist, los=True,
                             target=list(action.fire))
        elif isinstance(action, Fire | Assault):
            ui = self.unit_index(action.unit)
            u = self.units[ui]
            assault = isinstance(action, Assault)
            ld = 0
            if assault and action.leader_dice:
                ld = self.leaders[self.leader_at()[u.at]].rating[0]
            prof = self.attack_profile(ui, u.at, action.target, assault, ld)
            hints["ap"] = (COST["assault"] + (COST["leader_dice"] if ld else 0) if assault
                           else COST["fire"])
            hints.update(dice=prof.dice, hit_on=prof.natural, range=prof.dist,
                         los=self.los(u.at, action.target))
            if prof.flank:
                hints["flank"] = True
        elif isinstance(action, Rally):
            hints["ap"] = COST["rally"]
        elif isinstance(action, Exit):
            hints["ap"] = COST["exit"]
        elif isinstance(action, Retreat | Displace | Escape):
            hints["to"] = list(action.to)
        return hints


def _hx(h: Hex | None) -> str:
    return "-" if h is None else f"{h[0]},{h[1]}"
