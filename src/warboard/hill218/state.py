"""The rules engine of the card-placement games (rules contract §3–§6), for both rulesets.

The board is a dict from packed cell (see ``grid``) to ``unit_id * 2 + seat``. Everything derived
from the board alone (supplied cells, deployment cells, drop zone) is cached in ``_memo``, which is
replaced — never cleared in place — whenever the board changes, so clones may share it safely.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any, NamedTuple

from warboard.core.errors import IllegalActionError
from warboard.core.protocol import CHANCE, TERMINAL, State, returns_of
from warboard.hill218.actions import Bury, Deploy, Draw, FirstPlayer, Strike, action_to_json
from warboard.hill218.grid import HILL, STRIDE, base_cell, pack, unpack

if TYPE_CHECKING:
    from warboard.hill218.game import CardGame

# phases
FIRST, DEAL, BURY, DRAW, PLAY, OVER = "first", "deal", "bury", "draw", "play", "over"
PHASES = (FIRST, DEAL, BURY, DRAW, PLAY, OVER)

BASES = (base_cell(0), base_cell(1))
PLAYS_CACHE_SIZE = 4096  # boards whose legal plays a ruleset keeps (CardState._board_plays)
SERVER_PLAYS_CACHE_SIZE = 256  # a server asks each board's plays a few times only


def tune_for_server() -> None:
    """Keep fewer boards' legal plays in each ruleset, process-wide (``GameInfo.server_setup``):
    search revisits boards and wants many, while a server, whose AI thinks in worker processes,
    sees each board a few times and prefers fewer long-lived objects."""
    global PLAYS_CACHE_SIZE
    PLAYS_CACHE_SIZE = SERVER_PLAYS_CACHE_SIZE
STRIKE_KEY = -1
SETUP_DRAW, QUICK_DRAW = 5, 3  # cards drawn at setup (2 of the 5 go under the deck)


class Deck:
    """A deck top to bottom: a known ``top`` run, an unordered ``pool`` (counts by unit id) whose
    draws are chance events, then the known ``bottom`` cards (the two put under it at setup)."""

    __slots__ = ("bottom", "pool", "pool_n", "top")

    def __init__(self, top: list[int], pool: list[int], bottom: list[int]) -> None:
        self.top = top
        self.pool = pool
        self.pool_n = sum(pool)
        self.bottom = bottom

    def copy(self) -> Deck:
        d = Deck.__new__(Deck)
        d.top, d.pool, d.pool_n, d.bottom = self.top[:], self.pool[:], self.pool_n, self.bottom[:]
        return d

    def size(self) -> int:
        return len(self.top) + self.pool_n + len(self.bottom)

    def counts(self) -> list[int]:
        """How many cards of each unit id the deck holds."""
        c = self.pool[:]
        for u in self.top:
            c[u] += 1
        for u in self.bottom:
            c[u] += 1
        return c


class TurnStart(NamedTuple):
    """The public position when a seat's turn began: the board the seat played its turn on."""

    seat: int
    turn: int
    plays: int  # the plays the turn allowed (1 or 2)
    cells: dict[int, int]  # a copy of the board then, never changed
    strikes: tuple[int, int]
    destroyed: tuple[tuple[int, ...], tuple[int, ...]]


# a play as a turn records it: (unit id, cell, hits), unit id STRIKE_KEY for a strike on cell
TurnPlay = tuple[int, int, tuple[int, ...]]
# a turn seen by every seat: where it began and the plays made in it
Turn = tuple[TurnStart, tuple[TurnPlay, ...]]


class CardState(State):
    """One node of a hill218/ogre218 game (see ``warboard.core.protocol.State``)."""

    def __init__(self, game: CardGame) -> None:
        rs = game.rules
        self.game = game
        self.rules = rs
        self.cells: dict[int, int] = {}
        self.hands = [[0] * len(rs.units), [0] * len(rs.units)]
        self.decks = [Deck([], game.deck_counts(0), []), Deck([], game.deck_counts(1), [])]
        self.strikes = [game.strikes(0), game.strikes(1)]
        self.destroyed = [[0] * len(rs.units), [0] * len(rs.units)]
        self.phase = FIRST
        self.to_move = 0
        self.plays_left = 0
        self.draws_left = 0
        self.first_player: int | None = None
        self.first_turn_pending = True
        self.setup_seat = 0
        self.turn = 0
        self.result: dict[str, Any] | None = None
        # the turn under way and the one before it, public (``last_turn`` in the observations:
        # what the opponent model of a search's beliefs reads); immutable values, shared by clones
        self.this_turn: Turn | None = None
        self.last_turn: Turn | None = None
        self._memo: dict[Any, Any] = {}
        self._sup: list[frozenset[int] | None] = [None, None]
        self._front: list[dict[Any, frozenset[int]]] = [{}, {}]

    # ------------------------------------------------------------------ protocol

    def current_player(self) -> int:
        phase = self.phase
        if phase == PLAY:
            return self.to_move
        if phase == BURY:
            return self.setup_seat
        if phase == OVER:
            return TERMINAL
        return CHANCE

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def returns(self) -> tuple[float, float]:
        return returns_of(self.result)

    def legal_actions(self) -> list[Any]:
        if self.phase == PLAY:
            return self.legal_plays()
        if self.phase == BURY:
            return self._legal_burials()
        return []

    def chance_outcomes(self) -> list[tuple[Any, float]]:
        if self.phase == FIRST:
            return [(FirstPlayer(0), 0.5), (FirstPlayer(1), 0.5)]
        if self.phase in (DEAL, DRAW):
            deck = self.decks[self._drawing_seat()]
            n = deck.pool_n
            names = self.rules.units
            return [(Draw(names[u].name), c / n) for u, c in enumerate(deck.pool) if c]
        return []

    def sample_chance_outcome(self, rng: Any) -> Any:
        """One chance outcome drawn with its probability (as ``chance_outcomes`` gives them)."""
        if self.phase == FIRST:
            return FirstPlayer(rng.randrange(2))
        if self.phase not in (DEAL, DRAW):
            raise IllegalActionError("no chance event is pending")
        deck = self.decks[self._drawing_seat()]
        r = rng.randrange(deck.pool_n)
        for uid, c in enumerate(deck.pool):
            if r < c:
                return Draw(self.rules.units[uid].name)
            r -= c
        raise AssertionError("pool_n disagrees with the pool")

    def apply(self, action: Any) -> None:
        phase = self.phase
        if phase == PLAY:
            if isinstance(action, Deploy):
                self._apply_deploy(action)
            elif isinstance(action, Strike):
                self._apply_strike(action)
            else:
                raise IllegalActionError(f"{self.seat_name(self.to_move)} must play a card or "
                                         f"a {self.rules.strike_name} now, not {action!r}")
        elif phase == BURY:
            self._apply_bury(action)
        elif phase == FIRST:
            if not isinstance(action, FirstPlayer) or action.seat not in (0, 1):
                raise IllegalActionError(
                    f"expected the first-player chance outcome, not {action!r}")
            self.first_player = action.seat
            self.setup_seat = 0
            self._begin_deal()
        elif phase in (DEAL, DRAW):
            self._apply_draw(action)
        else:
            raise IllegalActionError("the game is over")

    def clone(self) -> CardState:
        c = CardState.__new__(CardState)
        c.__dict__.update(self.__dict__)
        c.cells = self.cells.copy()
        c.hands = [self.hands[0][:], self.hands[1][:]]
        c.decks = [self.decks[0].copy(), self.decks[1].copy()]
        c.strikes = self.strikes[:]
        c.destroyed = [self.destroyed[0][:], self.destroyed[1][:]]
        c._sup = self._sup[:]
        c._front = self._front[:]
        return c

    def to_json(self) -> dict[str, Any]:
        from warboard.hill218.serialize import state_to_json

        return state_to_json(self)

    # ------------------------------------------------------------------ names and views

    @staticmethod
    def seat_name(seat: int) -> str:
        return f"seat {seat} ({('South', 'North')[seat]})"

    def unit_name(self, uid: int) -> str:
        return self.rules.units[uid].name

    def board_list(self, cells: dict[int, int] | None = None) -> list[dict[str, Any]]:
        """The board's units as ``{x, y, seat, unit}`` in (y, x) order: this state's, or
        ``cells`` (a turn's recorded board)."""
        out = []
        for c, code in (self.cells if cells is None else cells).items():
            x, y = unpack(c)
            out.append({"x": x, "y": y, "seat": code & 1, "unit": self.unit_name(code >> 1)})
        out.sort(key=lambda e: (e["y"], e["x"]))
        return out

    def board_view(self) -> list[dict[str, Any]]:
        """``board_list`` with each unit's supply (public: it follows from the board), for the
        observations; positions keep the bare entries. Made once per board and shared by every
        observation of it (do not change it)."""
        found = self._memo.get("board_view")
        if found is None:
            supplied = (self.supplied(0), self.supplied(1))
            found = self._memo["board_view"] = [
                dict(e, supplied=pack(e["x"], e["y"]) in supplied[e["seat"]])
                for e in self.board_list()]
        return found

    def counts_dict(self, counts: list[int]) -> dict[str, int]:
        return {self.unit_name(u): n for u, n in enumerate(counts) if n}

    def hand_size(self, seat: int) -> int:
        return sum(self.hands[seat])

    def unit_count(self, seat: int) -> int:
        """The §5 count: units on the board, each weighted by its ``counts_as``."""
        units = self.rules.units
        return sum(units[code >> 1].counts_as for code in self.cells.values() if code & 1 == seat)

    def observation(self, seat: int | None) -> dict[str, Any]:
        view: dict[str, Any] = {
            "game": self.rules.name,
            "seat": seat,
            "phase": self.phase,
            # the seat to decide (None at chance and at the end), and whose card is being drawn
            "to_move": self.current_player() if self.phase in (PLAY, BURY) else None,
            "drawing": self._drawing_seat() if self.phase in (DEAL, DRAW) else None,
            "plays_left": self.plays_left if self.phase == PLAY else 0,
            "first_player": self.first_player,
            "turn": self.turn,
            "board": self.board_view(),
            "strikes": self.strikes[:],
            "hand_sizes": [self.hand_size(0), self.hand_size(1)],
            "deck_sizes": [self.decks[0].size(), self.decks[1].size()],
            "destroyed": [self.counts_dict(self.destroyed[0]), self.counts_dict(self.destroyed[1])],
            "result": self.result,
        }
        if seat is not None:
            deck = self.decks[seat]
            view["hand"] = self.counts_dict(self.hands[seat])
            # the cards this seat put under its deck, still in it, in drawing order
            view["bottom"] = [self.unit_name(u) for u in deck.bottom]
            view["deck"] = self.counts_dict(deck.counts())
        # public, in every view: the turn before the one under way (None before the second)
        view["last_turn"] = None if self.last_turn is None else self.turn_json(self.last_turn)
        return view

    def turn_json(self, turn: Turn) -> dict[str, Any]:
        """A turn as the observations show it: the position it began in and its plays, as
        action JSON."""
        start, plays = turn
        return {"seat": start.seat, "turn": start.turn, "plays_left": start.plays,
                "board": self.board_list(start.cells), "strikes": list(start.strikes),
                "destroyed": [self.counts_dict(list(d)) for d in start.destroyed],
                "plays": [action_to_json(self.play_action(p)) for p in plays]}

    def play_action(self, play: TurnPlay) -> Deploy | Strike:
        """The action of a play a turn recorded."""
        uid, at, hits = play
        if uid == STRIKE_KEY:
            return Strike(unpack(at))
        return Deploy(self.unit_name(uid), unpack(at), tuple(unpack(t) for t in hits))

    # ------------------------------------------------------------------ setup

    def _begin_deal(self) -> None:
        self.phase = DEAL
        quick = self.game.options.get("quick_start", False)
        self.draws_left = QUICK_DRAW if quick else SETUP_DRAW
        self._run()

    def _legal_burials(self) -> list[Bury]:
        hand = self.hands[self.setup_seat]
        names = [u.name for u in self.rules.units]
        out = []
        for a, na in enumerate(hand):
            if not na:
                continue
            for b, nb in enumerate(hand):
                if nb > (a == b):
                    out.append(Bury(names[a], names[b]))
        return out

    def _apply_bury(self, action: Any) -> None:
        seat = self.setup_seat
        if not isinstance(action, Bury):
            raise IllegalActionError(f"{self.seat_name(seat)} must put 2 cards under the deck now")
        ids = self.rules.unit_ids
        a, b = ids.get(action.first), ids.get(action.second)
        hand = self.hands[seat]
        if a is None or b is None or hand[a] < 1 or hand[b] < 1 + (a == b):
            raise IllegalActionError(f"{action.first} and {action.second} are not both in the hand")
        hand[a] -= 1
        hand[b] -= 1
        self.decks[seat].bottom.extend((a, b))
        self._after_setup_seat()

    def _after_setup_seat(self) -> None:
        if self.setup_seat == 0:
            self.setup_seat = 1
            self._begin_deal()
        else:
            self._start_turn(self.first_player if self.first_player is not None else 0)

    # ------------------------------------------------------------------ drawing

    def _drawing_seat(self) -> int:
        return self.setup_seat if self.phase == DEAL else self.to_move

    def _apply_draw(self, action: Any) -> None:
        deck = self.decks[self._drawing_seat()]
        uid = self.rules.unit_ids.get(action.unit) if isinstance(action, Draw) else None
        if uid is None or deck.pool[uid] == 0:
            raise IllegalActionError(f"{action!r} is not a card that can be drawn now")
        deck.pool[uid] -= 1
        deck.pool_n -= 1
        self.hands[self._drawing_seat()][uid] += 1
        self.draws_left -= 1
        self._run()

    def _draw_known(self) -> bool:
        """Take every draw that needs no chance; False when a chance draw is pending.

        Every card from the unordered part is a chance event, even when one kind is left: the
        number of events must not tell a seat what the other's deck holds."""
        seat = self._drawing_seat()
        deck = self.decks[seat]
        hand = self.hands[seat]
        while self.draws_left > 0:
            if deck.top:
                hand[deck.top.pop(0)] += 1
            elif deck.pool_n:
                return False
            elif deck.bottom:
                hand[deck.bottom.pop(0)] += 1
            else:
                self.draws_left = 0
                break
            self.draws_left -= 1
        return True

    def _run(self) -> None:
        """Advance through every step that needs no decision until a decision, chance or the end."""
        while True:
            if self.phase == DEAL:
                if not self._draw_known():
                    return
                if self.game.options.get("quick_start", False):
                    self._after_setup_seat()
                    continue
                self.phase = BURY
                return
            if self.phase == DRAW:
                if not self._draw_known():
                    return
                self.phase = PLAY
            if self.phase == PLAY:
                if self.plays_left > 0 and self.has_legal_play(self.to_move, self.plays_left):
                    return
                if self._game_exhausted():
                    self._finish(self._count_winner(), "count")
                    return
                self._start_turn(1 - self.to_move, run=False)
                continue
            return

    def _start_turn(self, seat: int, run: bool = True) -> None:
        n = 1 if self.first_turn_pending else 2
        self.first_turn_pending = False
        self.turn += 1
        self.to_move = seat
        self.plays_left = n
        if self.this_turn is not None:
            self.last_turn = self.this_turn
        self.this_turn = (TurnStart(seat, self.turn, n, self.cells.copy(), (
            self.strikes[0], self.strikes[1]), (tuple(self.destroyed[0]),
                                                tuple(self.destroyed[1]))), ())
        self.draws_left = n
        self.phase = DRAW
        if run:
            self._run()

    def _game_exhausted(self) -> bool:
        return (self.decks[0].size() == 0 and self.decks[1].size() == 0
                and not self.has_legal_play(0, 2) and not self.has_legal_play(1, 2))

    def _count_winner(self) -> int | None:
        a, b = self.unit_count(0), self.unit_count(1)
        return None if a == b else (0 if a > b else 1)

    def _finish(self, winner: int | None, reason: str) -> None:
        self.phase = OVER
        self.plays_left = 0
        self.result = {"winner": winner, "reason": reason,
                       "units": [self.unit_count(0), self.unit_count(1)]}

    # ------------------------------------------------------------------ board facts
    #
    # Supplied cells and supply frontiers (empty cells a unit could be supplied on) are kept per
    # seat and carried across board changes: a friendly deployment only grows them, a hit only
    # resets its victim's side. Both are immutable values in lists replaced entry by entry, so a
    # clone copies the two short lists and shares the rest. Other board facts live in ``_memo``.

    def _place(self, seat: int, at: int, code: int) -> None:
        self.cells[at] = code
        self._memo = {}
        for s in (0, 1):
            front = self._front[s]
            if any(at in f for f in front.values()):
                self._front[s] = {k: f - {at} for k, f in front.items()}
        sup = self._sup[seat]
        if sup is None:
            return
        if at == BASES[seat]:
            self._sup[seat] = None
            self._front[seat] = {}
            return
        added = self._grow_supply(seat, sup, at)
        if added:
            self._sup[seat] = sup | added
            self._front[seat] = {k: f | self._frontier_of(seat, k, added)
                                 for k, f in self._front[seat].items()}

    def _removed_or_changed(self, owner: int, t: int, removed: bool) -> None:
        self._memo = {}
        self._sup[owner] = None
        self._front[owner] = {}
        other = 1 - owner
        if removed and self._sup[other] is not None:
            front = self._front[other]
            self._front[other] = {k: f | {t} if self._in_frontier(other, k, t) else f
                                  for k, f in front.items()}

    def supplied(self, seat: int) -> frozenset[int]:
        """The cells of ``seat``'s supplied units (empty when its base is not its own)."""
        sup = self._sup[seat]
        if sup is None:
            base = BASES[seat]
            code = self.cells.get(base)
            if code is not None and code & 1 == seat:
                sup = frozenset(self._spread_supply(seat, {base}, [base]))
            else:
                sup = frozenset()
            self._sup[seat] = sup
        return sup

    def _spread_supply(self, seat: int, sup: set[int], stack: list[int]) -> set[int]:
        """Grow ``sup`` from the supplied cells on ``stack`` to its fixpoint (contract §4)."""
        cells = self.cells
        tables = self.rules.seat[seat]
        if self.rules.supply_model == "pull":
            # a unit at q is supplied when q + d holds a supplied friend, d in q's own diagram
            union, sets = tables.supply_union, tables.supply_sets
            while stack:
                p = stack.pop()
                for d in union:
                    q = p - d
                    code = cells.get(q)
                    if (code is not None and code & 1 == seat and q not in sup
                            and d in sets[code >> 1]):
                        sup.add(q)
                        stack.append(q)
        else:
            # a supplied unit pushes supply onto the squares of its own diagram
            supply = tables.supply
            while stack:
                p = stack.pop()
                for d in supply[cells[p] >> 1]:
                    q = p + d
                    code = cells.get(q)
                    if code is not None and code & 1 == seat and q not in sup:
                        sup.add(q)
                        stack.append(q)
        return sup

    def _grow_supply(self, seat: int, sup: frozenset[int], at: int) -> frozenset[int]:
        """The cells newly supplied once ``seat``'s unit is placed at ``at`` (empty if ``at`` is
        not supplied)."""
        tables = self.rules.seat[seat]
        uid = self.cells[at] >> 1
        if self.rules.supply_model == "pull":
            fed = any(at + d in sup for d in tables.supply[uid])
        else:
            fed = self._pushed_onto(seat, sup, at)
        if not fed:
            return frozenset()
        grown = self._spread_supply(seat, set(sup) | {at}, [at])
        return frozenset(grown - sup)

    def _pushed_onto(self, seat: int, sup: frozenset[int], cell: int) -> bool:
        """Push model: does a supplied unit of ``seat`` project supply onto ``cell``?"""
        tables = self.rules.seat[seat]
        cells = self.cells
        sets = tables.supply_sets
        for d in tables.supply_union:
            p = cell - d
            if p in sup and d in sets[cells[p] >> 1]:
                return True
        return False

    def _frontier_key(self, seat: int, uid: int) -> Any:
        return self.rules.seat[seat].supply[uid] if self.rules.supply_model == "pull" else None

    def _frontier_of(self, seat: int, key: Any, sources: frozenset[int]) -> frozenset[int]:
        """Empty cells that the supplied cells ``sources`` open to deployment (for ``key``)."""
        cells = self.cells
        if key is not None:  # pull: the deploying unit's diagram
            reach = {p - d for p in sources for d in key}
        else:  # push: each supplying unit's own diagram
            supply = self.rules.seat[seat].supply
            reach = {p + d for p in sources for d in supply[cells[p] >> 1]}
        return frozenset(c for c in reach if c not in cells and c != HILL)

    def _in_frontier(self, seat: int, key: Any, cell: int) -> bool:
        sup = self._sup[seat]
        assert sup is not None
        if key is not None:
            return any(cell + d in sup for d in key)
        return self._pushed_onto(seat, sup, cell)

    def deploy_cells(self, seat: int, uid: int) -> frozenset[int]:
        """Every empty cell where ``seat`` may deploy unit ``uid`` (ignoring how many plays it
        costs). Drops included."""
        key = ("cells", seat, uid)
        memo = self._memo
        if key in memo:
            return memo[key]
        result = self.supplied_deploy_cells(seat, uid)
        if self.rules.units[uid].drop:
            result = result | self.drop_cells(seat)
        memo[key] = result
        return result

    def deploy_cell_list(self, seat: int, uid: int) -> tuple[int, ...]:
        """``deploy_cells`` as a tuple (in no particular order), for indexing."""
        key = ("list", seat, uid)
        found = self._memo.get(key)
        if found is None:
            found = self._memo[key] = tuple(self.deploy_cells(seat, uid))
        return found

    def supplied_deploy_cells(self, seat: int, uid: int) -> frozenset[int]:
        """Cells where ``uid`` may deploy by supply (or onto the empty own base)."""
        base = BASES[seat]
        code = self.cells.get(base)
        if code is None:
            return frozenset((base,))
        if code & 1 != seat:
            return frozenset()
        key = self._frontier_key(seat, uid)
        front = self._front[seat]
        found = front.get(key)
        if found is None:
            found = self._frontier_of(seat, key, self.supplied(seat))
            self._front[seat] = {**front, key: found}
        return found

    def drop_box(self) -> tuple[int, int, int, int]:
        """The drop zone's bounds (x0, x1, y0, y1), inclusive: occupied cells and the hill, +2."""
        box = self._memo.get("box")
        if box is None:
            x0 = x1 = y0 = y1 = 0
            for c in self.cells:
                x, y = unpack(c)
                if x < x0:
                    x0 = x
                elif x > x1:
                    x1 = x
                if y < y0:
                    y0 = y
                elif y > y1:
                    y1 = y
            box = (x0 - 2, x1 + 2, y0 - 2, y1 + 2)
            self._memo["box"] = box
        return box

    def drop_cells(self, seat: int) -> frozenset[int]:
        """Empty cells of the drop zone, the hill and the enemy base excluded."""
        key = ("drop", seat)
        found = self._memo.get(key)
        if found is None:
            x0, x1, y0, y1 = self.drop_box()
            cells = self.cells
            enemy_base = BASES[1 - seat]
            found = frozenset(
                c for x in range(x0, x1 + 1) for c in range(x * STRIDE + y0, x * STRIDE + y1 + 1)
                if c not in cells and c != HILL and c != enemy_base)
            self._memo[key] = found
        return found

    def is_supported(self, seat: int, target: int, attacker: int) -> bool:
        """Does a friendly unit other than the one at ``attacker`` have ``target`` among its
        support squares?"""
        tables = self.rules.seat[seat]
        sets = tables.support_sets
        cells = self.cells
        for d in tables.support_union:
            q = target - d
            code = cells.get(q)
            if code is not None and code & 1 == seat and q != attacker and d in sets[code >> 1]:
                return True
        return False

    def attack_reach(self, seat: int, group: int) -> dict[int, int]:
        """For an attack diagram (``SeatTables.attack_groups[group]``): every cell from which a
        deployed unit could hit something, with how many destroyable targets it would have."""
        key = ("reach", seat, group)
        found = self._memo.get(key)
        if found is None:
            enemy = 1 - seat
            combined, individual = self.rules.seat[seat].attack_groups[group]
            enemies = [c for c, code in self.cells.items() if code & 1 == enemy]
            supported = ([t for t in enemies if self.is_supported(seat, t, HILL)]
                         if combined else [])
            found = self._memo[key] = Counter(
                [t - a for a in combined for t in supported]
                + [t - a for a in individual for t in enemies])
        return found

    def targets(self, seat: int, uid: int, at: int) -> list[int]:
        """Enemy cells the unit ``uid`` deployed at ``at`` could destroy (or damage) now."""
        cells = self.cells
        out = []
        for a, individual in self.rules.seat[seat].attack[uid]:
            t = at + a
            code = cells.get(t)
            if (code is not None and code & 1 != seat
                    and (individual or self.is_supported(seat, t, at))):
                out.append(t)
        return out

    def hit_sequences(self, seat: int, uid: int, at: int) -> list[tuple[int, ...]]:
        """Every legal ordered sequence of hits for a deployment (``[()]`` when none is
        possible)."""
        targets = self.targets(seat, uid, at)
        n = self.rules.units[uid].attacks
        if not targets:
            return [()]
        if n == 1:
            return [(t,) for t in targets]
        cells = self.cells
        hits_to_destroy = self.rules.hits_to_destroy
        health = {t: hits_to_destroy[cells[t] >> 1] for t in targets}
        out: list[tuple[int, ...]] = []

        def extend(prefix: tuple[int, ...], left: int) -> None:
            avail = [t for t in targets if health[t] > 0] if left else []
            if not avail:
                out.append(prefix)
                return
            for t in avail:
                health[t] -= 1
                extend((*prefix, t), left - 1)
                health[t] += 1

        extend((), n)
        return out

    # ------------------------------------------------------------------ legal plays

    def has_legal_play(self, seat: int, plays_left: int) -> bool:
        enemy = 1 - seat
        cells = self.cells
        if self.strikes[seat] and any(code & 1 == enemy for code in cells.values()):
            return True
        units = self.rules.units
        for uid, n in enumerate(self.hands[seat]):
            if n and units[uid].plays <= plays_left and (
                    units[uid].drop or self.deploy_cells(seat, uid)):
                return True
        return False

    def legal_plays(self) -> list[Deploy | Strike]:
        """Every distinct complete play (contract §7), in a stable order: units in ruleset order,
        cells by (x, y), then hit sequences; strikes last."""
        if self.phase != PLAY:
            return []
        seat = self.to_move
        known = self._board_plays(seat)
        plays: list[Deploy | Strike] = []
        units = self.rules.units
        for uid, n in enumerate(self.hands[seat]):
            if n and units[uid].plays <= self.plays_left:
                found = known.get(uid)
                if found is None:
                    found = known[uid] = self._unit_plays(seat, uid)
                plays.extend(found)
        if self.strikes[seat]:
            found = known.get(STRIKE_KEY)
            if found is None:
                enemy = 1 - seat
                found = known[STRIKE_KEY] = [
                    Strike(unpack(c))
                    for c in sorted(c for c, code in self.cells.items() if code & 1 == enemy)]
            plays.extend(found)
        return plays

    def _board_plays(self, seat: int) -> dict[int, list[Deploy | Strike]]:
        """The plays found so far on this board, by unit id (``STRIKE_KEY``: the strikes).

        They depend on the board alone, so states with the same board share them: search draws
        many states with one board. The ruleset keeps them for its most recent boards.
        """
        key = ("plays", seat)
        found = self._memo.get(key)
        if found is not None:
            return found
        cache = self.rules.plays_cache
        board_key = (seat, frozenset(self.cells.items()))
        found = cache.get(board_key)
        if found is None:
            found = cache[board_key] = {}
            if len(cache) > PLAYS_CACHE_SIZE:
                del cache[next(iter(cache))]  # oldest first
        self._memo[key] = found
        return found

    def _unit_plays(self, seat: int, uid: int) -> list[Deploy | Strike]:
        enemy_base = BASES[1 - seat]
        reach = self.attack_reach(seat, self.rules.seat[seat].attack_group_of[uid])
        name = self.rules.units[uid].name
        plays: list[Deploy | Strike] = []
        for c in sorted(self.deploy_cells(seat, uid)):  # packed order is (x, y) order
            at = unpack(c)
            if c == enemy_base or c not in reach:
                plays.append(Deploy(name, at, ()))
                continue
            for seq in self.hit_sequences(seat, uid, c):
                plays.append(Deploy(name, at, tuple(unpack(t) for t in seq)))
        return plays

    # ------------------------------------------------------------------ applying plays

    def _apply_deploy(self, action: Deploy) -> None:
        seat = self.to_move
        uid = self.rules.unit_ids.get(action.unit)
        if uid is None:
            raise IllegalActionError(f"unknown unit {action.unit!r}")
        unit = self.rules.units[uid]
        if self.hands[seat][uid] < 1:
            raise IllegalActionError(f"{self.seat_name(seat)} has no {unit.name} in hand")
        if unit.plays > self.plays_left:
            raise IllegalActionError(
                f"a {unit.name} uses {unit.plays} plays: it may only be the first play of a "
                "2-play turn")
        at = pack(*action.at)
        if at not in self.deploy_cells(seat, uid):
            raise IllegalActionError(f"{unit.name} cannot be deployed at {list(action.at)}: "
                                     + self._why_not_here(seat, uid, at))
        hits = tuple(pack(*t) for t in action.attacks)
        if at == BASES[1 - seat]:
            if hits:
                raise IllegalActionError("a unit that takes the enemy base makes no attack")
        else:
            sequences = self.hit_sequences(seat, uid, at)
            if hits not in sequences:
                raise IllegalActionError(self._why_not_hits(action, sequences))
        self.deploy_unchecked(seat, uid, at, hits)

    def deploy_unchecked(self, seat: int, uid: int, at: int, hits: tuple[int, ...]) -> None:
        """Apply a deployment known to be legal (search and benchmarks skip the checks)."""
        self.hands[seat][uid] -= 1
        self._record(uid, at, hits)
        self._place(seat, at, uid * 2 + seat)
        if at == BASES[1 - seat]:
            self._finish(seat, "base")
            return
        for t in hits:
            self._hit(t)
        self.plays_left -= self.rules.units[uid].plays
        self._run()

    def _apply_strike(self, action: Strike) -> None:
        seat = self.to_move
        t = pack(*action.target)
        code = self.cells.get(t)
        if self.strikes[seat] < 1:
            raise IllegalActionError(f"{self.seat_name(seat)} has no {self.rules.strike_name} left")
        if code is None or code & 1 == seat:
            raise IllegalActionError(f"no enemy unit at {list(action.target)} to strike")
        self.strike_unchecked(seat, t)

    def strike_unchecked(self, seat: int, target: int) -> None:
        self._record(STRIKE_KEY, target, ())
        self.strikes[seat] -= 1
        self._hit(target)
        self.plays_left -= 1
        self._run()

    def _record(self, uid: int, at: int, hits: tuple[int, ...]) -> None:
        turn = self.this_turn
        if turn is not None:  # None: a composed position (read_position) has no turn begun
            self.this_turn = (turn[0], (*turn[1], (uid, at, hits)))

    def _hit(self, t: int) -> None:
        code = self.cells[t]
        uid, owner = code >> 1, code & 1
        rules = self.rules
        becomes = rules.hit_becomes[uid]
        if becomes >= 0:
            self.cells[t] = becomes * 2 + owner
        else:
            del self.cells[t]
            lost = self.destroyed[owner]
            lost[uid] += 1
            if rules.origin[uid] >= 0:
                lost[rules.origin[uid]] += 1
        self._removed_or_changed(owner, t, becomes < 0)

    def _why_not_here(self, seat: int, uid: int, at: int) -> str:
        if at == HILL:
            return f"no card is ever played on the {self.rules.hill_name}"
        if at in self.cells:
            return "the cell is occupied"
        base = BASES[seat]
        if self.cells.get(base) is None:
            return (f"your own {self.rules.base_name} is empty, so units deploy onto it "
                    "(or drop)")
        if at == BASES[1 - seat] and self.rules.units[uid].drop:
            return f"a drop may not land on the enemy {self.rules.base_name}; it needs supply"
        return "the cell is not supplied for this unit"

    @staticmethod
    def _why_not_hits(action: Deploy, sequences: list[tuple[int, ...]]) -> str:
        if sequences == [()]:
            return (f"{action.unit} at {list(action.at)} can hit nothing, so 'attacks' must be "
                    "empty")
        options = sorted({unpack(s[0]) for s in sequences if s})
        n = max(len(s) for s in sequences)
        return (f"{action.unit} at {list(action.at)} must make {n} legal hit(s) (attacks are "
                f"mandatory); the first hit may be one of {[list(o) for o in options]}, got "
                f"{[list(t) for t in action.attacks]}")
