"""The card games behind the core protocol: options, initial states, action translation."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from warboard.core.errors import IllegalActionError
from warboard.core.i18n import Msg, msg
from warboard.core.protocol import JSON, Game
from warboard.hill218 import actions as act
from warboard.hill218.ruleset import RULESETS, Ruleset, load_ruleset, unit_title
from warboard.hill218.state import DEAL, CardState

if TYPE_CHECKING:
    from warboard.hill218.narrate import CardNarrator


class CardGame(Game):
    """``hill218`` or ``ogre218`` with its options fixed.

    Options: ``quick_start`` (bool: draw 3, skip putting 2 under the deck) and, for rulesets with
    a handicap, ``damaged_ogres`` (``[n0, n1]``: that many Ogres start damaged in each deck).
    """

    num_seats = 2
    private_views = True  # the hands (and the burials)

    def __init__(self, name: str = "hill218", options: Mapping[str, Any] | None = None,
                 rules: Ruleset | None = None) -> None:
        self.rules = rules if rules is not None else load_ruleset(name)
        self.name = self.rules.name
        self.options = self._check_options(dict(options or {}))

    def _check_options(self, options: dict[str, Any]) -> dict[str, Any]:
        known = {"quick_start"}
        handicap = self.rules.handicap
        if handicap:
            known.add(handicap[0])
        for key in options:
            if key not in known:
                raise ValueError(f"unknown option {key!r} for {self.name}; "
                                 f"options: {', '.join(sorted(known))}")
        quick = options.get("quick_start", False)
        if not isinstance(quick, bool):
            raise ValueError("option quick_start must be true or false")
        if handicap and handicap[0] in options:
            value = options[handicap[0]]
            limit = self.rules.units[self.rules.unit_id(handicap[1])].count
            if (not isinstance(value, list | tuple) or len(value) != 2
                    or not all(isinstance(n, int) and not isinstance(n, bool) and 0 <= n <= limit
                               for n in value)):
                raise ValueError(f"option {handicap[0]} must be two numbers from 0 to {limit}, "
                                 f"one per seat (e.g. [1, 0])")
            options[handicap[0]] = [int(value[0]), int(value[1])]
        return options

    # ------------------------------------------------------------------ decks

    def deck_counts(self, seat: int) -> list[int]:
        counts = self.rules.deck_counts()
        handicap = self.rules.handicap
        if handicap and handicap[0] in self.options:
            n = self.options[handicap[0]][seat]
            counts[self.rules.unit_id(handicap[1])] -= n
            counts[self.rules.unit_id(handicap[2])] += n
        return counts

    def strikes(self, seat: int) -> int:
        return self.rules.strikes

    # ------------------------------------------------------------------ protocol

    def new_initial_state(self) -> CardState:
        return CardState(self)

    def action_to_json(self, action: Any) -> dict[str, Any]:
        return act.action_to_json(action)

    def action_from_json(self, data: Any, state: Any = None) -> Any:
        return act.action_from_json(data, self.rules)

    def action_to_text(self, action: Any) -> str:
        return act.action_to_text(action, self.rules)

    def action_from_text(self, text: str) -> Any:
        return act.action_from_text(text, self.rules)

    def state_from_json(self, data: Mapping[str, Any]) -> CardState:
        from warboard.hill218.serialize import state_from_json

        return state_from_json(self, data)

    def sample_state(self, view: Mapping[str, Any], rng: Any) -> CardState:
        """A full state consistent with a seat's view (its information set), the unseen cards
        dealt at random."""
        from warboard.hill218.determinize import sample_state

        return sample_state(self, view, rng)

    def visible_to(self, state: Any, action: Any, seat: int) -> bool:
        """May ``seat`` learn ``action`` (about to be applied to ``state``)? Draws and burials
        are private to their owner; everything else is public."""
        if isinstance(action, act.Draw):
            drawer = state.setup_seat if state.phase == DEAL else state.to_move
            return drawer == seat
        if isinstance(action, act.Bury):
            return state.setup_seat == seat
        return True

    def undo_refusal(self, state: Any, events: Sequence[Mapping[str, JSON]],
                     seat: int) -> Msg | None:
        """Only the seat's own plays, within its turn: never past a draw or the other seat's
        play."""
        if not events or events[-1].get("seat") != seat:
            return msg("rules.undo.noPlayThisTurn")
        return None

    def narrator(self) -> CardNarrator:
        from warboard.hill218.narrate import CardNarrator

        return CardNarrator(self.rules)

    def describe_seats(self) -> tuple[str, str]:
        return ("South", "North")

    def public_data(self) -> dict[str, Any]:
        """The ruleset for a client's labels and diagrams (``GET /api/rules/{game}``); the
        diagrams in the owner's frame, +dy forward."""
        r = self.rules

        def cells(offsets: Any) -> list[list[int]]:
            return [[dx, dy] for dx, dy in offsets]

        return {
            "game": r.name, "title": r.title, "supply_model": r.supply_model,
            "strike_name": r.strike_name, "strike_icon": r.strike_icon, "strikes": r.strikes,
            "hill_name": r.hill_name,
            "base_name": r.base_name, "support_name": r.support_name,
            "handicap": {"option": r.handicap[0], "unit": r.handicap[1],
                         "becomes": r.handicap[2]} if r.handicap else None,
            "units": [{"name": u.name, "title": unit_title(r, u.name), "abbrev": u.abbrev,
                       "count": u.count, "supply": cells(u.supply),
                       "attack": {"combined": cells(o for o, ind in u.attack if not ind),
                                  "individual": cells(o for o, ind in u.attack if ind)},
                       "support": cells(u.support), "attacks": u.attacks,
                       "counts_as": u.counts_as, "plays": u.plays, "drop": u.drop,
                       "hit_becomes": u.hit_becomes} for u in r.units],
        }

    def __repr__(self) -> str:
        return f"CardGame({self.name!r}, {self.options!r})"


def make_game(name: str, options: Mapping[str, Any] | None = None) -> CardGame:
    if name not in RULESETS:
        raise ValueError(f"unknown game {name!r}")
    return CardGame(name, options)


def parse_play(game: CardGame, data: Any) -> Any:
    """A play from interchange JSON; raises ``IllegalActionError`` when malformed."""
    action = game.action_from_json(data)
    if not isinstance(action, act.Deploy | act.Strike):
        raise IllegalActionError("a play is a deploy or a strike")
    return action

