"""Game knowledge for Hold the Line (docs/ai.md, "Hold the Line").

The game is perfect-information except future dice, so everything here may read the whole
state. Three pieces, as for the card games:

* ``evaluate_htl(state, seat)``: a value in (-1, 1) for ``seat``: VP (with a bonus for a reached
  target), MP of the units on the board or still to come, leaders (more while many turns are
  left), progress toward enemy VP counters, own objectives and exits, cover, unspent AP, and
  the expected result of an attack whose dice are still to be rolled (so a fire or close combat
  is judged by its odds before its dice are known);
* ``htl_action_prior(state, action)``: a cheap guess at how good an action is: attacks by their
  expected hits on the target (more for a weak target or close combat), captures of VP counters
  and lone leaders, moves toward the enemy and the side's goals, rallies, and an assignment of
  leader ratings (11.6) by where its combat and hit values will be used;
* ``htl_rollout_policy(state, rng)``: one fast step: the best of a few sampled actions by the
  prior, ending the turn when nothing useful is left (an assignment of ratings: the best);
* ``htl_horizon(root)``: the search plans the side's own turn (a new turn is a leaf).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from warboard.ai.knowledge import Knowledge
from warboard.holdtheline import hexes
from warboard.holdtheline.actions import END, Assault, AssignRatings, End, Exit, Fire, Move, Rally
from warboard.holdtheline.combat import die_hits
from warboard.holdtheline.tables import TABLES

ON, WAITING = "board", "waiting"

# The evaluation is a weighted sum of named terms, each own minus enemy (``htl_terms``). The
# weights were tuned by self-play from hand-set ones (docs/ai.md, "Evaluation";
# benchmarks/htl_tune_weights.py): the tuned greedy agent scored 53.5% and 57.9% against the
# hand-set one (two runs of 260 games), the tuned hard 58.8% and 63.1% (two of 130; 2026-12-07).
TERMS = (
    "vp",  # victory points
    "target",  # 1 once the side's VP target is reached: it wins when the turn ends
    "units",  # combat units on the board or still to arrive
    "mp",  # their MP
    "leaders",  # leaders alive (a loss gives the enemy a VP and costs command AP)
    "leader_turns",  # the same times the turns left (1 command AP lost per turn)
    "lone_leaders",  # leaders without a friendly unit, near enemy units
    "goal_distance",  # hexes from each enemy VP counter / own objective (× its VP) to the nearest
    # own unit (at most 8)
    "exit_distance",  # hexes from each unit to its exit (only for a side that must score)
    "cover",  # units in terrain that makes them harder to hit (2 each for the side that wins on
    # time)
    "ap",  # the AP the side on turn has left (so that ending the turn early costs a little)
    "attack",  # what an attack whose dice are still to be rolled may be expected to do
)
WEIGHTS = {"vp": 1.0, "target": 3.4132, "units": 0.3567, "mp": 0.4365, "leaders": 0.4244,
           "leader_turns": 0.0339, "lone_leaders": -0.238, "goal_distance": -0.1416,
           "exit_distance": -0.1363, "cover": 0.2429, "ap": 0.0094, "attack": 2.7052}
WEIGHT_ORDER = tuple(WEIGHTS[name] for name in TERMS)
SCALE = 5.0
# an attack's expected result is counted in these units (the hand-set weights', which its tuned
# weight scales): an MP taken, and a unit and its VP for an elimination
HIT_MP, KILLED_UNIT, KILLED_VP = 0.3, 0.3, 1.0

PRE_HIT_STAGES = frozenset(("atk_morale", "evade", "morale_init", "morale", "attack"))
VP, TARGET, UNITS, MP, LEADERS, LEADER_TURNS, LONE, GOAL, EXIT, COVER, AP, ATTACK = range(
    len(TERMS))


@dataclass
class _Placement:
    """Where each side's units stand, read once for an evaluation: the board's distances and
    cover, each side's units on the board with their hex indexes, and each side's units on the
    board or still to arrive and their MP."""

    cols: int
    dist: list[list[int]]
    cover: Any
    on: list[list[Any]]
    where: list[list[int]]
    units: list[int]
    mp: list[int]

    @classmethod
    def of(cls, state: Any) -> _Placement:
        board = state.board
        placement = cls(board.cols, _distances(board.cols, board.rows), board.combat,
                        [[], []], [[], []], [0, 0], [0, 0])
        for unit in state.units:
            if unit.status == ON:
                placement.on[unit.side].append(unit)
                placement.where[unit.side].append(placement.index(unit.at))
            if unit.status == ON or unit.status == WAITING:
                placement.units[unit.side] += 1
                placement.mp[unit.side] += unit.mp
        return placement

    def index(self, h: tuple[int, int]) -> int:
        return h[1] * self.cols + h[0]

    def nearest(self, h: tuple[int, int], side: int) -> int:
        """Hexes from ``h`` to the side's nearest unit, at most 8."""
        row = self.dist[self.index(h)]
        return min(min([row[i] for i in self.where[side]]), 8)


def evaluate_htl(state: Any, seat: int) -> float:
    return weighed_value(state, seat, WEIGHT_ORDER)


def weighed_value(state: Any, seat: int, weights: Sequence[float]) -> float:
    """The evaluation with ``weights`` (one for each of ``TERMS``, in its order): tanh of the
    weighted terms over ``SCALE``; a finished game scores its result."""
    if state.phase == "over":
        return state.returns()[seat]
    terms = htl_terms(state, seat)
    return math.tanh(sum(w * t for w, t in zip(weights, terms, strict=True)) / SCALE)


def htl_terms(state: Any, seat: int) -> list[float]:
    """The evaluation's terms (``TERMS``) for ``seat``: each its own less the enemy's."""
    placement = _Placement.of(state)
    own, enemy = (_side_terms(state, placement, s) for s in (seat, 1 - seat))
    terms = [a - b for a, b in zip(own, enemy, strict=True)]
    p = state.pending
    if p is not None and p.stage in PRE_HIT_STAGES and p.kind != "force_march":
        terms[ATTACK] = (1.0 if p.side == seat else -1.0) * _expected_attack(state, p)
    elif p is None and state.phase == "act":
        terms[AP] = (1.0 if state.active == seat else -1.0) * state.ap
    return terms


def _side_terms(state: Any, placement: _Placement, s: int) -> list[float]:
    """Side ``s``'s own terms (the attack's and the AP's are the whole position's)."""
    terms = [0.0] * len(TERMS)
    side = state.scenario.sides[s]
    vp = state.vp_total(s)
    terms[VP] = vp
    terms[TARGET] = 1.0 if side.vp_target is not None and vp >= side.vp_target else 0.0
    terms[UNITS] = placement.units[s]
    terms[MP] = placement.mp[s]
    _leader_terms(state, placement, s, terms)
    defensive = state.scenario.time_out_winner == s
    for unit in placement.on[s]:
        if placement.cover[unit.at] < 0:
            terms[COVER] += 2.0 if defensive else 1.0
    if placement.where[s]:
        _distance_terms(state, placement, s, defensive, terms)
    return terms


def _leader_terms(state: Any, placement: _Placement, s: int, terms: list[float]) -> None:
    """Side ``s``'s leaders alive, times the turns left, and those alone near the enemy."""
    turns_left = state.scenario.turn_limit - state.turn
    mine, enemies = placement.where[s], placement.where[1 - s]
    for leader in state.leaders:
        if leader.side != s or (leader.status != ON and leader.status != WAITING):
            continue
        terms[LEADERS] += 1
        terms[LEADER_TURNS] += turns_left
        if leader.status == ON:
            at = placement.index(leader.at)
            if at not in mine and any(placement.dist[at][e] <= 2 for e in enemies):
                terms[LONE] += 1


def _distance_terms(state: Any, placement: _Placement, s: int, defensive: bool,
                    terms: list[float]) -> None:
    """The distances from side ``s``'s nearest unit to the enemy's VP counters and to its own
    objectives not yet held (× their VP), and (for a side that must score) from each unit to
    its exits."""
    for _counter, owner, h in state.counters:
        if owner != s:
            terms[GOAL] += placement.nearest(h, s)
    side = state.scenario.sides[s]
    if side.objectives:
        occupancy = state.occupancy()
        for h, objective_vp in side.objectives:
            here = occupancy.get(h)
            if here and state.units[here[0]].side == s:
                continue
            terms[GOAL] += objective_vp * placement.nearest(h, s)
    if side.exit_hexes and side.exit_vp[1] > 0 and not defensive:
        exits = [placement.index(h) for h in side.exit_hexes]
        for i in placement.where[s]:
            row = placement.dist[i]
            terms[EXIT] += min(min([row[e] for e in exits]), 8)


_DISTANCES: dict[tuple[int, int], list[list[int]]] = {}


def _distances(cols: int, rows: int) -> list[list[int]]:
    """Hex distances between every two hexes of a board, by index ``row * cols + col``."""
    table = _DISTANCES.get((cols, rows))
    if table is None:
        cubes = [hexes.to_cube((c, r)) for r in range(rows) for c in range(cols)]
        table = _DISTANCES[(cols, rows)] = [[_dist(a, b) for b in cubes] for a in cubes]
    return table


def _dist(a: tuple[int, int, int], b: tuple[int, int, int]) -> int:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]), abs(a[2] - b[2]))


def _p_hit(hit_on: int, mod: int) -> float:
    return sum(1 for face in range(1, 7) if die_hits(face, hit_on, mod)) / 6.0


def _binomial(n: int, p: float) -> list[float]:
    return [math.comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)]


def _expected_attack(state: Any, p: Any) -> float:
    """What the attacker may expect from the attack dice still to be rolled: MP taken from the
    defender that would take the hits (the one with more MP), and an elimination's unit and VP."""
    occ = state.occupancy().get(p.target)
    if not occ:
        return 0.0
    victims = [state.units[i] for i in occ if state.units[i].side != p.side]
    if not victims:
        return 0.0
    victim = max(victims, key=lambda u: u.mp)
    mod, hit_on = p.mod, p.hit_on
    done = sum(1 for d in p.dice if die_hits(d, hit_on, mod))
    left = max(0, p.n_dice - len(p.dice))
    mp = victim.mp
    kill = HIT_MP * mp + KILLED_UNIT + KILLED_VP
    if victim.kind == "elite":
        kill *= 0.6  # survival rolls
    value = 0.0
    for k, pk in enumerate(_binomial(left, _p_hit(hit_on, mod))):
        hits = done + k
        value += pk * (kill if hits >= mp else HIT_MP * hits)
    if p.kind == "assault":
        value *= 1.15  # a failed morale check also drives the defender back
    return value


# ----------------------------------------------------------------------------- action prior

_goal_cache: list[Any] = [None, None]  # [last event of the state, {side: (goals, memo)}]
_INVERSE = [1.0 / (1 + d) for d in range(64)]


def _closeness(state: Any, side: int, h: tuple[int, int]) -> float:
    """How close hex ``h`` is to where ``side``'s units want to be: the best of weight / (1 +
    distance) over enemy units (1), enemy VP counters (2), own objectives not held (1.5 per VP).
    Memoised for the last state asked about (the prior is asked for all of its actions)."""
    key = state.events[-1] if state.events else None
    cache = _goal_cache
    if cache[0] is not key or key is None:
        cache[0], cache[1] = key, {}
    entry = cache[1].get(side)
    board = state.board
    cols = board.cols
    if entry is None:
        goals = []
        occ = state.occupancy()
        for u in state.units:
            if u.status == ON and u.side != side:
                goals.append((u.at[1] * cols + u.at[0], 1.0))
        for _cid, cs, g in state.counters:
            if cs != side:
                goals.append((g[1] * cols + g[0], 2.0))
        for g, vp in state.scenario.sides[side].objectives:
            here = occ.get(g)
            if not (here and state.units[here[0]].side == side):
                goals.append((g[1] * cols + g[0], 1.5 * vp))
        entry = cache[1][side] = (goals, {})
    goals, memo = entry
    i = h[1] * cols + h[0]
    value = memo.get(i)
    if value is None:
        row = _distances(cols, board.rows)[i]
        inv = _INVERSE
        value = max([w * inv[row[g]] for g, w in goals], default=0.0)
        memo[i] = value
    return value


def htl_action_prior(state: Any, action: Any) -> float:
    kind = type(action)
    if kind is Fire or kind is Assault:
        ui = state.unit_index(action.unit)
        u = state.units[ui]
        prof = state.attack_profile(ui, u.at, action.target, kind is Assault)
        expected = prof.dice * _p_hit(prof.hit_on, prof.mod)
        here = state.occupancy().get(action.target)
        weak = 0.0
        if here:
            mp = min(state.units[i].mp for i in here)
            weak = 0.5 if expected >= mp else 0.0
        return expected + weak + (0.3 if kind is Assault else 0.0)
    if kind is Move:
        if action.unit is None:  # a leader alone: worth it when it takes a lone leader (§8.1)
            side = state.leader(action.leader).side
            return 0.05 + 3.0 * _taken(state, side, action.path, False)
        ui = state.unit_index(action.unit)
        u = state.units[ui]
        gain = (_closeness(state, u.side, action.path[-1])
                - _closeness(state, u.side, u.at))
        bonus = 3.0 * _taken(state, u.side, action.path, True)
        if action.fire is not None:
            bonus += 0.8
        return gain + bonus - (0.2 if action.bonus else 0.0)
    if kind is AssignRatings:
        return _assignment_value(state, action)
    if kind is Rally:
        return 0.4
    if kind is Exit:
        return 0.6
    if kind is End:
        return -0.3
    return 0.0


def _taken(state: Any, side: int, path: Any, counters: bool) -> int:
    """How many enemy lone leaders (and with ``counters`` enemy VP counters) a move of ``side``
    along ``path`` takes."""
    n = 0
    at_counter = state.counter_at()
    lead = state.leader_at()
    for h in path:
        ci = at_counter.get(h) if counters else None
        if ci is not None and state.counters[ci][1] != side:
            n += 1
        li = lead.get(h)
        if li is not None and state.leaders[li].side != side:
            n += 1
    return n


def _assignment_value(state: Any, a: AssignRatings) -> float:
    """A guess at an assignment of ratings (11.6): combat values count for leaders stacked with
    an infantry unit (leader dice go with its close combat), hit values for leaders within
    three hexes of an enemy unit (where casualty checks happen)."""
    occ, units = state.occupancy(), state.units
    value = 0.0
    for lid, (combat, hits) in a.ratings:
        leader = state.leader(lid)
        if leader.at is None:  # still to arrive
            continue
        if any(units[i].side == leader.side and TABLES.units[units[i].kind].infantry
               for i in occ.get(leader.at, ())):
            value += 0.3 * combat
        if any(units[ids[0]].side != leader.side and hexes.distance(leader.at, h) <= 3
               for h, ids in occ.items()):
            value += 0.1 * hits
    return value


# ----------------------------------------------------------------------------- horizon

def htl_horizon(root: Any) -> Any:
    """Search plans the side's own turn: a state where another side's turn has begun (or a new
    game turn) is a leaf. Beyond it the search would have to guess the enemy's whole turn from
    a few samples, and its fears of that turn cost more games than they saved (docs/ai.md)."""
    active, turn = root.active, root.turn

    def beyond(state: Any) -> bool:
        return state.active != active or state.turn != turn

    return beyond


# ----------------------------------------------------------------------------- rollout

def htl_rollout_policy(state: Any, rng: random.Random, candidates: int = 4) -> None:
    """One step: decisions of a pending activation are random; otherwise the best of a few
    sampled actions by the prior, or the end of the turn when none of them looks useful."""
    legal = state.legal_actions()
    if state.phase == "assign":  # a few choices, no END among them
        state.apply(max(legal, key=lambda a: _assignment_value(state, a)))
        return
    if state.pending is not None or len(legal) == 1:
        state.apply(rng.choice(legal))
        return
    best, best_score = END, 0.0
    for _ in range(candidates):
        a = legal[rng.randrange(len(legal))]
        score = htl_action_prior(state, a) + rng.random() * 0.05
        if score > best_score:
            best, best_score = a, score
    state.apply(best)


KNOWLEDGE = Knowledge(evaluate=evaluate_htl, action_prior=htl_action_prior,
                      rollout_policy=htl_rollout_policy, horizon=htl_horizon)
