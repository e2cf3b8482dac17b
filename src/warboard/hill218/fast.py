"""The optional native fast path: uniformly random hill218/ogre218 games played in C.

``warboard.hill218._fastplay`` (built from ``_fastplay.c`` when ``pip install`` finds a C
compiler) plays whole games without touching Python objects: the benchmark's random games and,
later, AI rollouts. It follows the rules contract and the reference engine (``state.py``) event for
event: ``tests/test_fastplay.py`` replays its games through the Python engine, which checks every
play for legality, and compares play counts and results.

Nothing about the units is compiled in: ``FastRules`` encodes the ruleset's tables (diagrams turned
to each seat's frame, decks after the options, ...) as a flat list of ints for the C side. The
C side plays on a fixed square window with the hill in the middle, the smallest power of two from
256 to 1024 cells wide that provably holds any game of the ruleset (``FastRules.window``); a
ruleset whose diagrams could carry a game beyond the largest is refused with ``ValueError``, and so
is a position too near the window's edge.

Events use the JSON action format of ``warboard.hill218.actions.action_to_json``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from warboard.hill218.game import CardGame
from warboard.hill218.grid import orient, unpack
from warboard.hill218.ruleset import Ruleset, load_ruleset
from warboard.hill218.serialize import position_from_json
from warboard.hill218.state import QUICK_DRAW, SETUP_DRAW

try:
    from warboard.hill218 import _fastplay
except ImportError:  # built without a C compiler: the fast path is simply absent
    _fastplay = None  # type: ignore[assignment]

#: the ValueError of a position whose units could leave the C side's board window
WindowError: type[ValueError] = ValueError if _fastplay is None else _fastplay.WindowError

__all__ = ["FastRules", "WindowError", "available", "count_plays", "random_game",
           "random_game_trace", "random_games", "sample_plays"]

Event = dict[str, Any]


def available() -> bool:
    """Is the C extension built?"""
    return _fastplay is not None


def _module() -> Any:
    if _fastplay is None:
        raise RuntimeError("the C fast path (warboard.hill218._fastplay) is not built: reinstall "
                           "the package where a C compiler is available (pip install -e .)")
    return _fastplay


class FastRules:
    """A ruleset with its options, as tables for the C side.

    ``rules`` is a ``Ruleset`` (or a packaged ruleset's name); ``options`` are the game options
    (``quick_start``, and ``damaged_ogres`` for ogre218), checked as ``CardGame`` checks them.
    """

    def __init__(self, rules: Ruleset | str, options: Mapping[str, Any] | None = None) -> None:
        if isinstance(rules, str):
            rules = load_ruleset(rules)
        self.game = CardGame(rules.name, options, rules=rules)
        self.rules = rules
        self.options = dict(self.game.options)
        self.names = tuple(u.name for u in rules.units)
        self._handle = _module().make_rules(_encode_rules(self.game))
        #: the board window's side, and how far one placement / one lookup can reach
        self.window, self.reach_place, self.reach_look = _module().rules_info(self._handle)

    def __repr__(self) -> str:
        return f"FastRules({self.rules.name!r}, {self.options!r})"


def _diagram(offsets: Sequence[tuple[int, int]], seat: int) -> list[int]:
    """Offsets turned to ``seat``'s board frame, the same way the Python engine turns them."""
    out = [len(offsets)]
    for dx, dy in offsets:
        out.extend(unpack(orient(dx, dy, seat)))
    return out


def _encode_rules(game: CardGame) -> list[int]:
    """The flat int layout that ``_fastplay.make_rules`` reads (see ``read_rules`` there)."""
    rules = game.rules
    units = rules.units
    quick = bool(game.options.get("quick_start", False))
    out = [len(units), 1 if rules.supply_model == "push" else 0,
           QUICK_DRAW if quick else SETUP_DRAW, 0 if quick else 1,
           game.strikes(0), game.strikes(1)]
    for seat in (0, 1):
        out.extend(game.deck_counts(seat))
    for uid, u in enumerate(units):
        out.extend((u.attacks, u.counts_as, u.plays, int(u.drop), rules.hit_becomes[uid],
                    rules.origin[uid]))
    for seat in (0, 1):
        for u in units:
            out.extend(_diagram(u.supply, seat))
            out.append(len(u.attack))
            for (dx, dy), individual in u.attack:
                out.extend((*unpack(orient(dx, dy, seat)), int(individual)))
            out.extend(_diagram(u.support, seat))
    return out


def _encode_position(fast_rules: FastRules, position: Mapping[str, Any]) -> list[int]:
    """A contract §7 position, validated by the Python engine, in ``read_position``'s layout."""
    if position.get("ruleset") != fast_rules.rules.name:
        raise ValueError(f"the position is for {position.get('ruleset')!r}, the rules are "
                         f"{fast_rules.rules.name!r}")
    position_from_json(position)  # raises PositionError naming the problem
    ids = fast_rules.rules.unit_ids
    out = [position["to_move"], position["plays_left"], *position["strikes"]]
    for seat in (0, 1):
        counts = [0] * len(ids)
        for name, n in position["hands"][seat].items():
            counts[ids[name]] = n
        out.extend(counts)
    for seat in (0, 1):
        deck = position["decks"][seat]  # in a §7 position every card's place is known
        out.append(len(deck))
        out.extend(ids[name] for name in deck)
        out.extend([0] * len(ids))  # no shuffled pool
        out.append(0)  # no separate bottom
    board = position["board"]
    out.append(len(board))
    for e in board:
        out.extend((e["x"], e["y"], e["seat"], ids[e["unit"]]))
    return out


def _decode_events(flat: Sequence[int], names: Sequence[str]) -> list[Event]:
    """The C side's flat event ints as JSON actions."""
    m = _module()
    out: list[Event] = []
    i = 0
    while i < len(flat):
        kind = flat[i]
        if kind == m.EV_FIRST:
            out.append({"chance": "first_player", "seat": flat[i + 1]})
            i += 2
        elif kind == m.EV_DRAW:
            out.append({"chance": "draw", "unit": names[flat[i + 1]]})
            i += 2
        elif kind == m.EV_BURY:
            out.append({"play": "bury", "cards": [names[flat[i + 1]], names[flat[i + 2]]]})
            i += 3
        elif kind == m.EV_DEPLOY:
            uid, x, y, n = flat[i + 1:i + 5]
            hits = [[flat[j], flat[j + 1]] for j in range(i + 5, i + 5 + 2 * n, 2)]
            out.append({"play": "deploy", "unit": names[uid], "at": [x, y], "attacks": hits})
            i += 5 + 2 * n
        elif kind == m.EV_STRIKE:
            out.append({"play": "strike", "target": [flat[i + 1], flat[i + 2]]})
            i += 3
        else:
            raise RuntimeError(f"_fastplay: unknown event kind {kind} at {i}")
    return out


def _result(winner: int, reason: int, units0: int, units1: int) -> dict[str, Any]:
    return {"winner": None if winner < 0 else winner, "reason": "base" if reason == 0 else "count",
            "units": [units0, units1]}


def random_games(fast_rules: FastRules, n_games: int, seed: int,
                 position: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Play ``n_games`` uniformly random games in C (fresh ones, or each from the §7 ``position``
    with its decks in the given order) and tally them. The GIL is released meanwhile."""
    pos = None if position is None else _encode_position(fast_rules, position)
    games, plays, w0, w1, draws, base, count = _module().random_games(
        fast_rules._handle, n_games, seed, pos)
    return {"games": games, "plays": plays, "wins": [w0, w1], "draws": draws,
            "base": base, "count": count}


def random_game(fast_rules: FastRules, seed: int,
                position: Mapping[str, Any] | None = None) -> tuple[list[Event], dict[str, Any]]:
    """One random game (the first game of ``random_games`` with this seed): its events, in the
    order the Python engine asks for them, and its result as ``CardState.result`` has it."""
    pos = None if position is None else _encode_position(fast_rules, position)
    flat, winner, reason, u0, u1, _plays = _module().random_game(fast_rules._handle, seed, pos)
    return _decode_events(flat, fast_rules.names), _result(winner, reason, u0, u1)


def random_game_trace(fast_rules: FastRules, seed: int) -> list[Event]:
    """Every event of one fresh random game: chance events (first player, draws from the shuffled
    part of a deck), burials and plays, as JSON actions."""
    return random_game(fast_rules, seed)[0]


def count_plays(fast_rules: FastRules, position: Mapping[str, Any]) -> int:
    """The number of distinct complete legal plays of a §7 position."""
    return int(_module().count_plays(fast_rules._handle, _encode_position(fast_rules, position)))


def sample_plays(fast_rules: FastRules, position: Mapping[str, Any], n: int,
                 seed: int) -> list[Event]:
    """``n`` independent uniformly random complete plays of a §7 position (none applied)."""
    flat = _module().sample_plays(fast_rules._handle, _encode_position(fast_rules, position), n,
                                  seed)
    return _decode_events(flat, fast_rules.names)
