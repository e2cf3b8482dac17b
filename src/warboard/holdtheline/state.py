"""The Hold the Line rules engine behind the core protocol (``HtlState``).

With option 11.6, the game opens with the assignment of leader ratings (phase ``assign``,
module ``ratings``). A side's turn: a chance node rolls the action die (phase ``ap``), then the
side decides activations (phase ``act``) until it ends its turn or runs out of AP. An
activation that needs dice or decisions of the other side opens a ``Pending`` record that walks
through its stages (see ``Pending``); every die is its own chance node (1..6 at 1/6), every
decision an ordinary decision node of the seat that makes it. Everything is public.

Pieces are small mutable objects copied on ``clone``; the map is shared (``game.board``). Lookups
by hex (``occupancy``, ``leader_at``, ``counter_at``) are rebuilt on demand after a change.

This module holds the position, its lookups, the protocol surface and the turn flow; the rules
live in their own modules: ``activation`` (moves, rallies, exits, opening attacks), ``attack``
and ``retreat`` (resolving fire and close combat), ``resolve`` (running a ``Pending``),
``legal`` (legal actions and hints), ``victory`` (VP and the end of the game), ``pieces``,
``events`` and ``derived`` (lookups for the path searches).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from warboard.core.errors import IllegalActionError
from warboard.core.i18n import Msg, english, msg
from warboard.core.protocol import CHANCE, TERMINAL, State, returns_of
from warboard.holdtheline.actions import Die, End
from warboard.holdtheline.activation import activate
from warboard.holdtheline.attack import attack_profile
from warboard.holdtheline.board import IMPASSABLE
from warboard.holdtheline.combat import Profile
from warboard.holdtheline.derived import los_i
from warboard.holdtheline.events import hex_text, log, side_msg, unit_msg
from warboard.holdtheline.hexes import Hex
from warboard.holdtheline.legal import action_hints, compute_legal
from warboard.holdtheline.movement import stack_ok
from warboard.holdtheline.pending import Pending
from warboard.holdtheline.pieces import ON, WAITING, Leader, Roster, Unit, capture_counter
from warboard.holdtheline.ratings import (
    ASSIGN,
    assign,
    assignments,
    next_to_assign,
    rating_task,
)
from warboard.holdtheline.resolve import decide, roll, run
from warboard.holdtheline.scenario import Scenario
from warboard.holdtheline.victory import turn_end_result, vp_total

if TYPE_CHECKING:
    from warboard.holdtheline.game import HoldTheLineGame

AP_PHASE, ACT, OVER = "ap", "act", "over"
AP_DIE = tuple((Die(v), 1 / 3) for v in (1, 2, 3))
DIE6 = tuple((Die(v), 1 / 6) for v in range(1, 7))
DICE6 = tuple(Die(v) for v in range(1, 7))


class HtlState(State):
    """One position of a Hold the Line game (see ``warboard.core.protocol.State``).

    ``events`` is the game's log (docs/holdtheline-events.md). A state for search may set
    ``record_events = False`` (``game.sample_state`` does, and clones keep it): the log then
    holds only the last event, without its text, which makes ``apply`` and ``clone`` cheaper.
    """

    record_events = True
    turn: int
    active: int  # the seat whose side's turn it is
    phase: str  # ASSIGN, AP_PHASE, ACT or OVER
    ap: int
    leaders_lost: list[int]
    vp_earned: list[int]
    exited: list[int]  # units each side took off the board by its exits
    pending: Pending | None
    attacks: dict[Hex, tuple[Hex, ...]]  # target -> hexes it was attacked from this turn
    events: list[dict[str, Any]]
    n_events: int  # events logged so far (the next event's "n")
    result: dict[str, Any] | None

    def __init__(self, game: HoldTheLineGame) -> None:
        """The opening position of ``game``'s scenario (``game.new_initial_state``)."""
        scenario = game.scenario
        units: list[Unit] = []
        leaders: list[Leader] = []
        for s, side in enumerate(scenario.sides):
            for us in side.units:
                units.append(Unit(us.id, s, us.kind, us.mp, us.mp, us.at))
            for ls in side.leaders:
                leaders.append(Leader(ls.id, ls.name, s, ls.at, (ls.rating[0], ls.rating[1])))
            for rf in side.reinforcements:
                for us in rf.units:
                    units.append(Unit(us.id, s, us.kind, us.mp, us.mp, None, WAITING,
                                      rf.turn, tuple(rf.entry)))
                for ls in rf.leaders:
                    leaders.append(Leader(ls.id, ls.name, s, None, (ls.rating[0], ls.rating[1]),
                                          WAITING, rf.turn, tuple(rf.entry)))
        counters = tuple((f"{side.name}_vp{k + 1}", s, h)
                         for s, side in enumerate(scenario.sides)
                         for k, h in enumerate(side.vp_counters))
        self._attach(game, scenario, game.roster, units, leaders, counters)
        self.turn = 1
        self.active = scenario.first
        self.phase = AP_PHASE
        self.ap = 0
        self.leaders_lost = [0, 0]
        self.vp_earned = [0, 0]
        self.exited = [0, 0]
        self.pending = None
        self.attacks = {}
        self.events = []
        self.n_events = 0
        self.result = None
        self._begin(0)

    def _attach(self, game: HoldTheLineGame, scenario: Scenario, roster: Roster,
                units: list[Unit], leaders: list[Leader],
                counters: tuple[tuple[str, int, Hex], ...]) -> None:
        self.game = game
        self.scenario = scenario
        self.opts = game.opts
        self.board = game.board
        self.roster = roster
        self.units = units
        self.leaders = leaders
        self.counters = counters  # (id, side, hex) of the VP counters on the board
        self._legal: list[Any] | None = None
        self._occ: dict[Hex, list[int]] | None = None
        self._lead: dict[Hex, int] | None = None
        self._ctr: dict[Hex, int] | None = None
        self.derived: dict[Any, Any] | None = None

    @classmethod
    def at_position(cls, game: HoldTheLineGame, scenario: Scenario, roster: Roster, *,
                    units: list[Unit], leaders: list[Leader],
                    counters: tuple[tuple[str, int, Hex], ...], turn: int, active: int,
                    phase: str, ap: int, leaders_lost: list[int], vp_earned: list[int],
                    exited: list[int], attacks: dict[Hex, tuple[Hex, ...]],
                    events: list[dict[str, Any]], n_events: int,
                    result: dict[str, Any] | None, pending: Pending | None) -> HtlState:
        """A position given piece by piece (``serialize.state_from_json``): ``scenario`` holds
        the rules' facts (its pieces are not read), ``roster`` the pieces' order."""
        state = cls.__new__(cls)
        state._attach(game, scenario, roster, units, leaders, counters)
        state.turn, state.active, state.phase, state.ap = turn, active, phase, ap
        state.leaders_lost, state.vp_earned, state.exited = leaders_lost, vp_earned, exited
        state.attacks = attacks
        state.events = events
        state.n_events = n_events  # events logged so far (the next event's "n")
        state.result = result
        state.pending = pending
        return state

    # ------------------------------------------------------------------ lookups

    def occupancy(self) -> dict[Hex, list[int]]:
        """Hex -> indices of the combat units there (do not modify)."""
        occ = self._occ
        if occ is None:
            occ = {}
            for i, u in enumerate(self.units):
                if u.status == ON:
                    occ.setdefault(u.at, []).append(i)  # type: ignore[arg-type]  # on: a hex
            self._occ = occ
        return occ

    def leader_at(self) -> dict[Hex, int]:
        lead = self._lead
        if lead is None:
            lead = {leader.at: i for i, leader in enumerate(self.leaders)  # type: ignore[misc]
                    if leader.status == ON}
            self._lead = lead
        return lead

    def counter_at(self) -> dict[Hex, int]:
        ctr = self._ctr
        if ctr is None:
            ctr = {c[2]: i for i, c in enumerate(self.counters)}
            self._ctr = ctr
        return ctr

    def pieces_moved(self) -> None:
        """Pieces moved (or left, or a VP counter was taken): drop the lookups by hex."""
        self._occ = None
        self._lead = None
        self._ctr = None
        self.derived = None

    def unit_index(self, uid: str) -> int:
        i = self.roster.unit_index.get(uid)
        if i is None:
            raise IllegalActionError(f"no unit {uid!r}")
        return i

    def leader_index(self, lid: str) -> int:
        i = self.roster.leader_index.get(lid)
        if i is None:
            raise IllegalActionError(f"no leader {lid!r}")
        return i

    def unit(self, uid: str) -> Unit:
        return self.units[self.unit_index(uid)]

    def leader(self, lid: str) -> Leader:
        return self.leaders[self.leader_index(lid)]

    def side_name(self, seat: int) -> str:
        return self.scenario.sides[seat].display_name

    def vp_total(self, seat: int) -> int:
        return vp_total(self, seat)

    def command_ap(self, seat: int, turn: int | None = None) -> int:
        """Command AP of ``seat`` on ``turn`` before leader losses (11.12, 11.13 applied)."""
        turn = self.turn if turn is None else turn
        sides = self.scenario.sides
        if self.opts.equal_command:
            cmd = max(max(s.command_ap) for s in sides)
        else:
            cmd = sides[seat].command_ap_on(turn)
        return cmd + self.opts.ap_adjust[seat]

    def los(self, a: Hex, b: Hex) -> bool:
        """8.3 / contract §3: blocking terrain or any combat unit; along a hex side both."""
        index = self.board.index
        return los_i(self, index[a], index[b])

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
        if phase == ASSIGN:
            return self.active
        return TERMINAL

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def returns(self) -> tuple[float, float]:
        return returns_of(self.result)

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
            phase = self.phase
            legal = self._legal = (compute_legal(self) if phase == ACT else
                                   assignments(self, self.active) if phase == ASSIGN else [])
        return list(legal)

    def forget_legal_actions(self) -> None:
        """Drop the cached legal actions, so the next ``legal_actions()`` lists them afresh
        (what ``warboard bench`` times)."""
        self._legal = None

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
                roll(self, action.value)
            return
        legal = self._legal if self._legal is not None else self.legal_actions()
        if action not in legal:
            raise IllegalActionError(self._why_illegal(action))
        self._legal = None
        if self.phase == ASSIGN:
            assign(self, action)
            self._begin(self.active + 1)
        elif self.pending is not None:
            decide(self, action)
        elif isinstance(action, End):
            self._end_side_turn()
        else:
            activate(self, action)
            run(self)

    def _why_illegal(self, action: Any) -> str:
        from warboard.holdtheline.actions import action_to_text

        try:
            text = action_to_text(action)
        except TypeError:
            text = repr(action)
        if self.phase == ASSIGN:
            return f"{text!r} is not legal: {rating_task(self, self.active)}"
        p = self.pending
        if p is not None:
            return (f"{text!r} is not legal: {self.side_name(p.decider)} must decide "
                    f"({p.stage} of a {p.kind})")
        if isinstance(action, Die):
            return "no die is to be rolled now"
        return f"{text!r} is not a legal action for {self.side_name(self.active)} now"

    # ------------------------------------------------------------------ turn flow

    def _begin(self, seat: int) -> None:
        """Before turn 1: the next seat from ``seat`` on with leader ratings to assign (11.6),
        or else the first side's turn."""
        nxt = next_to_assign(self, seat) if self.opts.leader_ratings else None
        if nxt is None:
            self.active = self.scenario.first
            self._start_side_turn()
        else:
            self.phase, self.active = ASSIGN, nxt

    def _start_side_turn(self) -> None:
        side = self.active
        for u in self.units:
            u.acted = False
            u.moved = False
        for leader in self.leaders:
            leader.acted = False
            leader.start_at = leader.at
        self.attacks = {}
        self._reinforce(side)
        self.phase = AP_PHASE
        self.ap = 0
        self.pieces_moved()

    def _reinforce(self, side: int) -> None:
        """Units and leaders of ``side`` due by this turn arrive, each at the first hex it may
        enter of its setup hex and entry hexes (or wait for a later turn)."""
        for u in self.units:
            if u.status != WAITING or u.side != side or u.arrive > self.turn:
                continue
            h = self._arrival_hex(side, u.kind, (self.roster.unit_arrival[u.id], *u.entry))
            if h is None:
                continue
            u.status, u.at = ON, h
            self.pieces_moved()
            log(self, "reinforcement", msg("log.htl.arrives", unit=unit_msg(self, u),
                                           at=hex_text(h)),
                unit=u.id, at=list(h))
            capture_counter(self, u, h)
        for leader in self.leaders:
            if leader.status != WAITING or leader.side != side or leader.arrive > self.turn:
                continue
            h = self._arrival_hex(side, None,
                                  (self.roster.leader_arrival[leader.id], *leader.entry))
            if h is None:
                continue
            leader.status, leader.at, leader.start_at = ON, h, h
            self.pieces_moved()
            log(self, "reinforcement", msg("log.htl.arrives", unit=leader.name, at=hex_text(h)),
                leader=leader.id, at=list(h))

    def _arrival_hex(self, side: int, kind: str | None, hexes: tuple[Hex, ...]) -> Hex | None:
        """The first of ``hexes`` a reinforcement of ``side`` may arrive at: on the board,
        passable, no enemy units; a unit (``kind``) also no enemy leader and a legal stack, a
        leader (``kind`` None) no other leader."""
        board, units = self.board, self.units
        occ = self.occupancy()
        for h in hexes:
            if not board.on_board(h) or board.move[h] == IMPASSABLE:
                continue
            here = occ.get(h, [])
            if here and units[here[0]].side != side:
                continue
            if kind is None:
                if h in self.leader_at():
                    continue
            else:
                li = self.leader_at().get(h)
                if li is not None and self.leaders[li].side != side:
                    continue
                if not stack_ok([units[j].kind for j in here] + [kind]):
                    continue
            return h
        return None

    def _roll_ap(self, face: int) -> None:
        side = self.active
        value = self.scenario.sides[side].action_die[face - 1]
        cmd = max(0, self.command_ap(side) - self.leaders_lost[side])
        self.ap = cmd + value
        self.phase = ACT
        remap = msg("log.htl.counts", value=value) if value != face else ""
        log(self, "die", lambda: msg("log.htl.actionDie", side=side_msg(self, side), face=face,
                                     remap=remap, ap=self.ap, command=cmd, value=value),
            roll="action", value=face,
            counts=value, command=cmd, ap=self.ap)
        if self.ap <= 0:
            self._end_side_turn()

    def _end_side_turn(self) -> None:
        side = self.active
        log(self, "end", lambda: msg("log.htl.endTurn", side=side_msg(self, side), turn=self.turn,
                                     unspent=msg("log.htl.unspent", ap=self.ap)
                                     if self.ap > 0 else ""))
        self.ap = 0
        self.pending = None
        result = turn_end_result(self, side)
        if result is not None:
            self._finish(*result)
            return
        if side != self.scenario.first:
            self.turn += 1
            for u in self.units:
                u.fired_at = False
        self.active = 1 - side
        self._start_side_turn()

    def _finish(self, winner: int | None, reason: str, said: Msg) -> None:
        self.phase = OVER
        self.pending = None
        self.result = {"winner": winner, "reason": reason,
                       "vp": [vp_total(self, 0), vp_total(self, 1)], "text": english(said),
                       "msg": said}
        log(self, "result", said, winner=winner, reason=reason)

    def end_turn_if_no_ap(self) -> None:
        if self.pending is None and self.phase == ACT and self.ap <= 0:
            self._end_side_turn()

    # ------------------------------------------------------------------ attacks and hints

    def attack_profile(self, ui: int, origin: Hex, target: Hex, assault: bool,
                       leader_dice: int = 0) -> Profile:
        """Dice, hit number and die modifier of an attack by unit ``ui`` from ``origin``."""
        return attack_profile(self, ui, origin, target, assault, leader_dice)

    def action_hints(self, action: Any) -> dict[str, Any]:
        """Display facts of a legal action (docs/holdtheline-engine.md, "Hints")."""
        return action_hints(self, action)

