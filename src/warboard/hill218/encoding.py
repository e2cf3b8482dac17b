"""Fixed shapes for the card games (``hill218``, ``ogre218``): a window of the unbounded grid.

Everything is seen from one seat (the one acting, or observing): seat 1's board is turned half
a circle, so +y always points at the enemy, as on the cards. A cell ``(x, y)`` of that frame is
in the window when ``|x| <= R`` and ``|y| <= R`` (``window = 2R + 1``); its index is
``(y + R) * window + (x + R)``. The hill is the middle cell, the own base the one below it.

Action ids (see docs/adapters.md for the layout with figures):

* ``Bury(a, b)``: ``a * n + b`` (``n`` unit kinds, ruleset order);
* ``Strike(cell)``: ``n² + index(cell)``;
* ``Deploy(unit, at, hits)``: ``deploy_base[unit] + index(at) * S + slot``, where the unit's
  ``S`` slots are every sequence of at most ``attacks`` hits, each hit an offset of the unit's
  attack diagram (owner frame): ``()``, then one hit by offset, then two hits...

A play whose cell lies outside the window has no id. Chance outcomes: ``FirstPlayer(s)`` is
``s``, ``Draw(unit)`` is ``2 + unit``.
"""

from __future__ import annotations

import itertools
from bisect import bisect_right
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from warboard.adapters.encodings import Encoding, Param
from warboard.core.protocol import JSON, Action
from warboard.core.registry import make_game
from warboard.hill218.actions import Bury, Deploy, Draw, FirstPlayer, Strike
from warboard.hill218.grid import unpack
from warboard.hill218.ruleset import load_ruleset
from warboard.hill218.state import BURY, PLAY
from warboard.hill218.terminal.render import board_text, status_line
from warboard.hill218.view import CardView

DEFAULT_WINDOW = 33  # chosen with benchmarks/window_overflow.py (docs/adapters.md)

ID_CACHE_SIZE = 1 << 18  # action ids an encoding remembers (search meets the same plays often)

Cell = tuple[int, int]


def parameters(name: str) -> dict[str, Param]:
    params: dict[str, Param] = {"window": DEFAULT_WINDOW, "quick_start": False}
    handicap = load_ruleset(name).handicap
    if handicap:  # the option's pair [n0, n1] as one whole number per seat
        params[f"{handicap[0]}_0"] = params[f"{handicap[0]}_1"] = 0
    return params


def make_encoding(name: str, params: Mapping[str, Param]) -> CardEncoding:
    window = params["window"]
    if isinstance(window, bool) or not isinstance(window, int) or window < 1 or window % 2 == 0:
        raise ValueError(f"window must be an odd whole number (the hill is its middle cell), "
                         f"not {window!r}")
    options: dict[str, Any] = {"quick_start": params["quick_start"]}
    handicap = load_ruleset(name).handicap
    if handicap:
        pair = [params[f"{handicap[0]}_0"], params[f"{handicap[0]}_1"]]
        if any(pair):
            options[handicap[0]] = pair
    return CardEncoding(name, dict(params), make_game(name, options), window)


def _turn(seat: int, x: int, y: int) -> Cell:
    """A cell or offset between the board frame and ``seat``'s frame (both ways)."""
    return (x, y) if seat == 0 else (-x, -y)


class CardEncoding(Encoding):
    """The :class:`~warboard.adapters.encodings.Encoding` of a card game and a window size."""

    hidden_information = True

    def __init__(self, name: str, params: dict[str, Param], game: Any, window: int) -> None:
        self.name, self.params, self.game = name, params, game
        rules = game.rules
        self.rules = rules
        self.window, self.radius = window, window // 2
        self.board_size = (window, window)
        units = rules.units
        self._names = [u.name for u in units]
        # observe_flat numbers a unit by its id, view and write_public by its name's
        self._names_unique = all(rules.unit_ids[name] == i for i, name in enumerate(self._names))
        n = len(units)
        cells = window * window
        # each unit's hit sequences: offsets of its attack diagram, owner frame
        self._hits: list[tuple[tuple[Cell, ...], ...]] = []
        for u in units:
            offsets = sorted({offset for offset, _ in u.attack})
            self._hits.append(tuple(seq for k in range(u.attacks + 1)
                                    for seq in itertools.product(offsets, repeat=k)))
        self._slot = [{seq: i for i, seq in enumerate(seqs)} for seqs in self._hits]
        self.strike_base = n * n
        bases, nxt = [], self.strike_base + cells
        for seqs in self._hits:
            bases.append(nxt)
            nxt += cells * len(seqs)
        self.deploy_base = tuple(bases)
        self.num_actions = nxt
        self.num_chance_outcomes = 2 + n
        # action_id's answers, per seat (no key tuple to make at each look-up)
        self._ids: tuple[dict[Action, int | None], ...] = ({}, {})
        self._per_seat = sum(rules.deck_counts())
        self.max_decisions = 2 + 2 * self._per_seat + 2 * rules.strikes
        self.max_chance_events = 1 + 2 * self._per_seat
        self._cap = []  # the most cards of a kind a seat can hold: its family's count
        for uid in range(n):
            root = uid
            while rules.origin[root] >= 0:
                root = rules.origin[root]
            self._cap.append(max(1, units[root].count))

        self.plane_names = (*(f"own {u}" for u in self._names),
                            *(f"enemy {u}" for u in self._names))
        self.public_names = (
            "to move", "burying", "playing", "plays left", "turn", "first player: own",
            "first player: enemy", "strikes own", "strikes enemy", "hand size own",
            "hand size enemy", "deck size own", "deck size enemy", "outside window own",
            "outside window enemy", *(f"destroyed own {u}" for u in self._names),
            *(f"destroyed enemy {u}" for u in self._names))
        self.private_names = (*(f"hand {u}" for u in self._names),
                              *(f"deck {u}" for u in self._names),
                              *(f"bottom 1 {u}" for u in self._names),
                              *(f"bottom 2 {u}" for u in self._names))

    def native_layout(self) -> list[int]:
        """This encoding as the C side reads it (``read_encoding`` in ``_fastplay_vector.c``):
        window, decisions, actions, then per unit its first deploy id and the place of each
        attack offset, in diagram order, among the unit's sorted offsets."""
        out = [self.window, self.max_decisions, self.num_actions]
        for uid, unit in enumerate(self.rules.units):
            offsets = sorted({offset for offset, _ in unit.attack})
            out.extend((self.deploy_base[uid], len(unit.attack)))
            out.extend(offsets.index(offset) for offset, _ in unit.attack)
        return out

    # ------------------------------------------------------------------ cells

    def cell_index(self, seat: int, cell: Cell) -> int | None:
        """The window index of a board cell seen from ``seat``; ``None`` outside the window."""
        x, y = cell
        if seat:  # _turn, inline: the observations ask for every unit's cell
            x, y = -x, -y
        r = self.radius
        if abs(x) > r or abs(y) > r:
            return None
        return (y + r) * self.window + x + r

    def cell(self, seat: int, index: int) -> Cell:
        """The board cell of a window index seen from ``seat``."""
        y, x = divmod(index, self.window)
        return _turn(seat, x - self.radius, y - self.radius)

    # ------------------------------------------------------------------ actions

    def action_id(self, seat: int, action: Action) -> int | None:
        known_ids = self._ids[seat]
        known = known_ids.get(action, self)
        if known is self:
            if len(known_ids) >= ID_CACHE_SIZE // 2:
                known_ids.clear()
            known = known_ids[action] = self._action_id(seat, action)
        return known  # type: ignore[return-value]

    def action_ids(self, state: Any, actions: Sequence[Action]) -> list[int | None]:
        # action_id for each, its cache looked up in one pass (the environments' every step)
        seat = state.current_player()
        get = self._ids[seat].get
        ids = [get(a, self) for a in actions]
        if self in ids:
            ids = [self.action_id(seat, a) if i is self else i
                   for a, i in zip(actions, ids, strict=True)]
        return ids  # type: ignore[return-value]

    def _action_id(self, seat: int, action: Action) -> int | None:
        ids = self.rules.unit_ids
        if isinstance(action, Deploy):
            uid = ids[action.unit]
            index = self.cell_index(seat, action.at)
            if index is None:
                return None
            ax, ay = action.at
            hits = tuple(_turn(seat, tx - ax, ty - ay) for tx, ty in action.attacks)
            slot = self._slot[uid].get(hits)
            if slot is None:
                raise ValueError(f"{action} hits a cell outside the unit's attack diagram")
            return self.deploy_base[uid] + index * len(self._hits[uid]) + slot
        if isinstance(action, Strike):
            index = self.cell_index(seat, action.target)
            return None if index is None else self.strike_base + index
        if isinstance(action, Bury):
            return ids[action.first] * len(self._names) + ids[action.second]
        raise TypeError(f"not a decision of the card games: {action!r}")

    def action(self, seat: int, action_id: int) -> Action:
        if not 0 <= action_id < self.num_actions:
            raise ValueError(f"action id {action_id} is not in 0..{self.num_actions - 1}")
        if action_id < self.strike_base:
            first, second = divmod(action_id, len(self._names))
            return Bury(self._names[first], self._names[second])
        if action_id < self.deploy_base[0]:
            return Strike(self.cell(seat, action_id - self.strike_base))
        uid = bisect_right(self.deploy_base, action_id) - 1
        index, slot = divmod(action_id - self.deploy_base[uid], len(self._hits[uid]))
        ax, ay = self.cell(seat, index)
        hits = tuple(_turn(seat, dx, dy) for dx, dy in self._hits[uid][slot])
        return Deploy(self._names[uid], (ax, ay), tuple((ax + dx, ay + dy) for dx, dy in hits))

    def chance_id(self, outcome: Action) -> int:
        if isinstance(outcome, FirstPlayer):
            return outcome.seat
        if isinstance(outcome, Draw):
            return 2 + self.rules.unit_ids[outcome.unit]
        raise TypeError(f"not a chance outcome of the card games: {outcome!r}")

    def chance_outcome(self, chance_id: int) -> Action:
        if not 0 <= chance_id < self.num_chance_outcomes:
            raise ValueError(f"chance id {chance_id} is not in 0..{self.num_chance_outcomes - 1}")
        return FirstPlayer(chance_id) if chance_id < 2 else Draw(self._names[chance_id - 2])

    def board_text(self, view: Mapping[str, JSON]) -> str:
        """The terminal's status line and grid, without colours."""
        cards = CardView(dict(view))
        return f"{status_line(self.rules, cards).plain}\n{board_text(self.rules, cards).plain}"

    # ------------------------------------------------------------------ observations

    def view(self, state: Any, seat: int) -> Mapping[str, JSON]:
        """The fields of ``state.observation(seat)`` that ``write_public`` and
        ``write_private`` read, made with the state's own helpers, but ``board`` in the
        state's order rather than sorted (the planes do not depend on it)."""
        name = state.unit_name
        phase = state.phase
        board = []
        for c, code in state.cells.items():
            x, y = unpack(c)
            board.append({"x": x, "y": y, "seat": code & 1, "unit": name(code >> 1)})
        deck = state.decks[seat]
        return {
            "phase": phase,
            "to_move": state.current_player() if phase in (PLAY, BURY) else None,
            "plays_left": state.plays_left if phase == PLAY else 0,
            "first_player": state.first_player,
            "turn": state.turn,
            "board": board,
            "strikes": state.strikes[:],
            "hand_sizes": [state.hand_size(0), state.hand_size(1)],
            "deck_sizes": [state.decks[0].size(), state.decks[1].size()],
            "destroyed": [state.counts_dict(state.destroyed[0]),
                          state.counts_dict(state.destroyed[1])],
            "hand": state.counts_dict(state.hands[seat]),
            "bottom": [name(u) for u in deck.bottom],
            "deck": state.counts_dict(deck.counts()),
        }

    def write_public(self, view: Mapping[str, JSON], seat: int, board: np.ndarray,
                     public: np.ndarray) -> None:
        ids = self.rules.unit_ids
        n = len(self._names)
        outside = [0, 0]  # own, enemy
        cells = board.reshape(len(board), -1)
        for e in view["board"]:
            side = 0 if e["seat"] == seat else 1
            index = self.cell_index(seat, (e["x"], e["y"]))
            if index is None:
                outside[side] += 1
                continue
            cells[ids[e["unit"]] + side * n, index] = 1.0
        enemy = 1 - seat
        cards, strikes = self._per_seat, max(1, self.rules.strikes)
        first = view["first_player"]
        values = [
            view["to_move"] == seat, view["phase"] == "bury", view["phase"] == "play",
            view["plays_left"] / 2, min(view["turn"], self.max_decisions) / self.max_decisions,
            first == seat, first == enemy,
            view["strikes"][seat] / strikes, view["strikes"][enemy] / strikes,
            view["hand_sizes"][seat] / cards, view["hand_sizes"][enemy] / cards,
            view["deck_sizes"][seat] / cards, view["deck_sizes"][enemy] / cards,
            outside[0] / cards, outside[1] / cards,
            *self._counts(view["destroyed"][seat]), *self._counts(view["destroyed"][enemy]),
        ]
        public[:] = values

    def observe_flat(self, state: Any, seat: int) -> np.ndarray:
        """``flat_observation(self, state, seat)`` (the same values, bit for bit), written from
        the state's cells, hands and decks without ``view``'s dicts of unit names (when each
        unit's name is its own: else by ``view``)."""
        n = len(self._names)
        cells_n = self.window * self.window
        n_board = 2 * n * cells_n
        n_public = len(self.public_names)
        out = np.zeros(n_board + n_public + len(self.private_names), np.float32)
        if not self._names_unique:
            view = self.view(state, seat)
            self.write_public(view, seat, out[:n_board].reshape(-1, self.window, self.window),
                              out[n_board:n_board + n_public])
            self.write_private(view, out[n_board + n_public:])
            return out
        data: Any = out.data  # a memoryview: its item assignment costs a fraction of numpy's
        r, w = self.radius, self.window
        outside = [0, 0]  # own, enemy
        for c, code in state.cells.items():
            x, y = unpack(c)
            side = 0 if code & 1 == seat else 1
            if seat:  # cell_index, inline
                x, y = -x, -y
            if abs(x) > r or abs(y) > r:
                outside[side] += 1
                continue
            data[((code >> 1) + side * n) * cells_n + (y + r) * w + x + r] = 1.0
        enemy = 1 - seat
        cards, strikes = self._per_seat, max(1, self.rules.strikes)
        first = state.first_player
        phase = state.phase
        to_move = state.current_player() if phase in (PLAY, BURY) else None
        caps = self._cap
        values = [
            to_move == seat, phase == "bury", phase == "play",
            (state.plays_left if phase == PLAY else 0) / 2,
            min(state.turn, self.max_decisions) / self.max_decisions,
            first == seat, first == enemy,
            state.strikes[seat] / strikes, state.strikes[enemy] / strikes,
            state.hand_size(seat) / cards, state.hand_size(enemy) / cards,
            state.decks[seat].size() / cards, state.decks[enemy].size() / cards,
            outside[0] / cards, outside[1] / cards,
            *[k / cap for k, cap in zip(state.destroyed[seat], caps, strict=True)],
            *[k / cap for k, cap in zip(state.destroyed[enemy], caps, strict=True)],
        ]
        deck = state.decks[seat]
        values += [k / cap for k, cap in zip(state.hands[seat], caps, strict=True)]
        values += [k / cap for k, cap in zip(deck.counts(), caps, strict=True)]
        k = n_board
        for v in values:
            if v:
                data[k] = v
            k += 1
        for j, uid in enumerate(deck.bottom[:2]):
            data[k + j * n + uid] = 1.0
        return out

    def write_private(self, view: Mapping[str, JSON], private: np.ndarray) -> None:
        n = len(self._names)
        private[:n] = self._counts(view["hand"])
        private[n:2 * n] = self._counts(view["deck"])
        for k, name in enumerate(view["bottom"][:2]):
            private[(2 + k) * n + self.rules.unit_ids[name]] = 1.0

    def denominators(self) -> tuple[list[int], list[int]]:
        """What ``write_public`` and ``write_private`` divide each value by (1 for flags), in
        their order: every value is a whole number of these (``warboard.hill218.vector``
        writes the numerators)."""
        cards, strikes = self._per_seat, max(1, self.rules.strikes)
        public = [1, 1, 1, 2, self.max_decisions, 1, 1, strikes, strikes, *[cards] * 6,
                  *self._cap, *self._cap]
        n = len(self._names)
        return public, [*self._cap, *self._cap, *[1] * (2 * n)]

    def _counts(self, by_name: Mapping[str, int]) -> list[float]:
        return [by_name.get(name, 0) / cap for name, cap in zip(self._names, self._cap,
                                                                 strict=True)]
