"""Hold the Line commands typed in the terminal, read against the legal actions of the moment.

Hexes are written ``col,row`` (``4,5``). Units and leaders are named by id (``A3``,
``washington``), by a leader's name, or by any start of one that fits only one; case does not
matter. ``read_action`` turns a line into one of the legal actions or raises ``CommandError``
with what is possible instead; everything reads only the legal actions and the observation.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from warboard.holdtheline.actions import (
    Advance,
    Allocate,
    Assault,
    Displace,
    End,
    Escape,
    Evade,
    Exit,
    Fire,
    Move,
    Rally,
    Retreat,
    action_to_text,
)

Hex = tuple[int, int]
Relocation = Retreat | Displace | Escape  # a piece's choice of hex after combat
YesNo = Advance | Evade  # a yes-or-no choice after combat
HEX = re.compile(r"^(\d+)\s*,\s*(\d+)$")


class CommandError(ValueError):
    """A line that names no legal action; the message says what is possible."""


HELP = """\
Actions (hexes are col,row as on the board's edges; units and leaders by id or name):
  move A3 4,5              move unit A3 to hex 4,5 (1 AP)
  move A3 4,5 with wash    take along the leader who started the turn with it (free;
                           one hex farther costs +1 AP: the leader's extra hex)
  move D1 6,3 fire 7,2     dragoons: move, then fire at 7,2 (2 AP)
  move washington 5,2      a leader alone (1 AP, up to 3 hexes)
  fire A3 6,4              fire combat at the enemy in 6,4 (1 AP)
  assault A3 6,4           close combat against the adjacent hex 6,4 (2 AP); add 'leader'
                           to roll the leader's dice too (option leader_ratings, +1 AP)
  rally washington A3      the leader gives back 1 MP to a unit in its hex (1 AP)
  exit A3                  a unit on one of its exit hexes leaves the board (1 AP)
  end                      end your turn (unused AP are lost)
Decisions (when the game asks): retreat 5,3 | displace 5,3 | escape 5,3 | hits B2 |
  advance / stay | evade / stand.   A number plays that line of 'legal'.
  With --rule leader_ratings each side first picks its leaders' ratings by number.
Commands:
  legal          every legal action, numbered     units     the units table
  show 4,5       what is at a hex and what can be done from and to it
  show A3        where unit A3 can move, fire and assault (marked on the board)
  board          draw the screen again            log       the whole game log
  undo           take back your last action (not past a die roll)
  hint           the action the computer's strongest level would take (against it only)
  help           this text                        quit      abandon the game"""


def resolve_piece(word: str, obs: Mapping[str, Any]) -> tuple[str, str]:
    """``("unit", id)`` or ``("leader", id)`` for a word naming one piece."""
    w = word.lower()
    units = [u["id"] for u in obs["units"]]
    leaders = [(L["id"], str(L["name"])) for L in obs.get("leaders", ())]
    for uid in units:
        if uid.lower() == w:
            return ("unit", uid)
    for lid, name in leaders:
        if w in (lid.lower(), name.lower()):
            return ("leader", lid)
    found = [("unit", u) for u in units if u.lower().startswith(w)]
    found += [("leader", lid) for lid, name in leaders
              if lid.lower().startswith(w) or name.lower().startswith(w)]
    if len(found) == 1:
        return found[0]
    if not found:
        on_board = [u["id"] for u in obs["units"] if u.get("status") == "board"]
        raise CommandError(f"no unit or leader {word!r}; units: {', '.join(on_board)}; "
                           f"leaders: {', '.join(lid for lid, _ in leaders)}")
    raise CommandError(f"{word!r} could be {', '.join(x[1] for x in found)}")


def parse_hex(word: str) -> Hex:
    m = HEX.match(word)
    if not m:
        raise CommandError(f"{word!r} is not a hex; write col,row, e.g. 4,5")
    return (int(m.group(1)), int(m.group(2)))


def hex_text(h: Sequence[int]) -> str:
    return f"{h[0]},{h[1]}"


def _hexes_of(actions: Sequence[Any], pick: Any) -> str:
    hexes = sorted({pick(a) for a in actions}, key=lambda h: (h[1], h[0]))
    return "  ".join(hex_text(h) for h in hexes) or "none"


def read_action(line: str, legal: Sequence[Any], obs: Mapping[str, Any]) -> tuple[Any, str]:
    """The legal action ``line`` names, and a note for the player ("" or e.g. the leader's
    extra hex being used). Raises ``CommandError``."""
    words = line.replace(" ,", ",").replace(", ", ",").split()
    if not words:
        raise CommandError("type an action, or 'help'")
    verb = words[0].lower()
    args = words[1:]
    if verb.isdigit():
        n = int(verb)
        if not 1 <= n <= len(legal):
            raise CommandError(f"there are {len(legal)} legal actions; 'legal' lists them")
        return legal[n - 1], ""
    if verb == "end":
        return _only(legal, End, "you cannot end your turn now"), ""
    if verb in ("move", "mv", "m"):
        return _move(args, legal, obs)
    if verb in ("fire", "f", "shoot"):
        return _attack(Fire, args, legal, obs), ""
    if verb in ("assault", "charge", "a", "cc"):
        return _attack(Assault, args, legal, obs), ""
    if verb == "rally":
        return _rally(args, legal, obs), ""
    if verb == "exit":
        if len(args) != 1:
            raise CommandError("write 'exit UNIT'")
        _, uid = resolve_piece(args[0], obs)
        for a in legal:
            if isinstance(a, Exit) and a.unit == uid:
                return a, ""
        raise CommandError(f"{uid} cannot exit now (only from its side's exit hexes, 1 AP)")
    if verb in ("retreat", "displace", "escape"):
        kinds: dict[str, type[Relocation]] = {"retreat": Retreat, "displace": Displace,
                                              "escape": Escape}
        kind = kinds[verb]
        options: list[Relocation] = [a for a in legal if isinstance(a, kind)]
        if not options:
            raise CommandError(f"there is no {verb} to choose now")
        if len(args) != 1:
            raise CommandError(f"write '{verb} HEX'; choices: {_hexes_of(options, _to)}")
        h = parse_hex(args[0])
        for a in options:
            if a.to == h:
                return a, ""
        raise CommandError(f"cannot {verb} to {hex_text(h)}; choices: "
                           f"{_hexes_of(options, _to)}")
    if verb in ("hits", "allocate"):
        allocations = [a for a in legal if isinstance(a, Allocate)]
        if not allocations:
            raise CommandError("there are no hits to allocate now")
        if len(args) != 1:
            raise CommandError("write 'hits UNIT'; choices: "
                               + ", ".join(a.unit for a in allocations))
        _, uid = resolve_piece(args[0], obs)
        for a in allocations:
            if a.unit == uid:
                return a, ""
        raise CommandError(f"{uid} cannot take these hits; choices: "
                           + ", ".join(a.unit for a in allocations))
    yes_no: dict[str, tuple[type[YesNo], bool]] = {
        "advance": (Advance, True), "stay": (Advance, False), "evade": (Evade, True),
        "stand": (Evade, False)}
    if verb in yes_no:
        choice, yes = yes_no[verb]
        for a in legal:
            if isinstance(a, choice) and a.yes == yes:
                return a, ""
        raise CommandError(f"'{verb}' is not a choice now")
    raise CommandError(f"{line.strip()!r} is not an action; type 'help' for the commands")


def _to(a: Relocation) -> Hex:
    return a.to


def _only(legal: Sequence[Any], kind: type, why: str) -> Any:
    for a in legal:
        if isinstance(a, kind):
            return a
    raise CommandError(why)


def _move(args: list[str], legal: Sequence[Any], obs: Mapping[str, Any]) -> tuple[Any, str]:
    if len(args) < 2:
        raise CommandError("write 'move UNIT HEX' (e.g. move A3 4,5), 'move UNIT HEX with "
                           "LEADER' or 'move LEADER HEX'")
    what, who = resolve_piece(args[0], obs)
    dest = parse_hex(args[1])
    rest = [w.lower() for w in args[2:]]
    leader: str | None = None
    fire: Hex | None = None
    while rest:
        word = rest.pop(0)
        if word == "with" and rest:
            kind, leader = resolve_piece(rest.pop(0), obs)
            if kind != "leader":
                raise CommandError(f"{leader} is not a leader")
        elif word == "fire" and rest:
            fire = parse_hex(rest.pop(0))
        else:
            raise CommandError(f"cannot read {word!r}; write e.g. 'move A3 4,5 with "
                               "washington' or 'move D1 6,3 fire 7,2'")
    if what == "leader":
        moves = [a for a in legal if isinstance(a, Move) and a.unit is None and a.leader == who]
        if not moves:
            raise CommandError(f"{who} cannot move now (a leader moves once a turn, 1 AP)")
    else:
        moves = [a for a in legal if isinstance(a, Move) and a.unit == who]
        if not moves:
            raise CommandError(f"{who} cannot move now (each unit acts once a turn; a move "
                               "costs 1 AP)")
        moves = [a for a in moves if a.leader == leader]
        if not moves:
            raise CommandError(f"{who} cannot move with {leader} (the leader must have "
                               "started the turn in its hex and not have acted)")
    there = [a for a in moves if a.path[-1] == dest and a.fire == fire]
    if not there:
        plain = [a for a in moves if a.fire is None and not a.force_march]
        note = (f"{who} can reach {_hexes_of(plain, lambda a: a.path[-1])}" if plain else
                f"{who} has no such move")
        if fire is not None:
            shots = [a for a in moves if a.path[-1] == dest and a.fire is not None]
            note += (f"; from {hex_text(dest)} it can fire at "
                     f"{_hexes_of(shots, lambda a: a.fire)}" if shots else "")
        raise CommandError(f"{who} cannot move to {hex_text(dest)}"
                           + (" and fire there" if fire is not None else "") + f"; {note}")
    # the cheapest way there: no leader bonus, no force march, the shortest path
    there.sort(key=lambda a: (a.bonus, a.force_march, len(a.path)))
    choice = there[0]
    notes = []
    if choice.bonus:
        notes.append("the leader's extra hex: +1 AP")
    if choice.force_march:
        notes.append("a force march: +1 AP and a die against its MP decides the last hex")
    return choice, "; ".join(notes)


def _attack(kind: type[Fire | Assault], args: list[str], legal: Sequence[Any],
            obs: Mapping[str, Any]) -> Fire | Assault:
    name = "fire" if kind is Fire else "assault"
    if len(args) < 2:
        raise CommandError(f"write '{name} UNIT HEX' (e.g. {name} A3 6,4)")
    what, uid = resolve_piece(args[0], obs)
    if what != "unit":
        raise CommandError(f"a leader does not {name}; name one of its units")
    target = parse_hex(args[1])
    leader_dice = any(w.lower() == "leader" for w in args[2:])
    options: list[Fire | Assault] = [a for a in legal if isinstance(a, kind) and a.unit == uid]
    if not options:
        acts = any(getattr(a, "unit", None) == uid for a in legal)
        if kind is Fire:
            why = ("no enemy is in its range with a clear line of sight" if acts else
                   "each unit acts once a turn, and fire costs 1 AP")
        else:
            why = ("close combat needs an adjacent enemy, an infantry unit and 2 AP" if acts
                   else "each unit acts once a turn, and close combat costs 2 AP")
        raise CommandError(f"{uid} cannot {name} now: {why}")
    for a in options:
        if a.target == target and (isinstance(a, Fire) or a.leader_dice == leader_dice):
            return a
    raise CommandError(f"{uid} cannot {name} at {hex_text(target)}; it can at "
                       f"{_hexes_of(options, lambda a: a.target)}")


def _rally(args: list[str], legal: Sequence[Any], obs: Mapping[str, Any]) -> Any:
    if len(args) != 2:
        raise CommandError("write 'rally LEADER UNIT' (e.g. rally washington A3)")
    pieces = [resolve_piece(w, obs) for w in args]
    leader = next((p[1] for p in pieces if p[0] == "leader"), None)
    unit = next((p[1] for p in pieces if p[0] == "unit"), None)
    if leader is None or unit is None:
        raise CommandError("name a leader and a unit in its hex")
    for a in legal:
        if isinstance(a, Rally) and a.leader == leader and a.unit == unit:
            return a
    rallies = [a for a in legal if isinstance(a, Rally)]
    raise CommandError(f"{leader} cannot rally {unit} now (a leader rallies a unit that lost "
                       "MP, in the hex where both started the turn, 1 AP); possible: "
                       + (", ".join(f"rally {a.leader} {a.unit}" for a in rallies) or "none"))


def describe(action: Any, hints: Mapping[str, Any] | None = None) -> str:
    """An action in the terminal's own notation, with its AP cost and odds."""
    a = action
    if isinstance(a, Move):
        text = (f"move {a.unit} {hex_text(a.path[-1])}" if a.unit is not None
                else f"move {a.leader} {hex_text(a.path[-1])}")
        if a.unit is not None and a.leader is not None:
            text += f" with {a.leader}"
        if a.fire is not None:
            text += f" fire {hex_text(a.fire)}"
        if a.bonus:
            text += " (extra hex)"
        if a.force_march:
            text += " (force march)"
    elif isinstance(a, Fire):
        text = f"fire {a.unit} {hex_text(a.target)}"
    elif isinstance(a, Assault):
        text = f"assault {a.unit} {hex_text(a.target)}" + (" leader" if a.leader_dice else "")
    elif isinstance(a, Rally):
        text = f"rally {a.leader} {a.unit}"
    elif isinstance(a, Exit):
        text = f"exit {a.unit}"
    elif isinstance(a, End):
        text = "end"
    elif isinstance(a, Retreat | Displace | Escape):
        verb = type(a).__name__.lower()
        who = a.leader if isinstance(a, Escape) else a.unit
        text = f"{verb} {hex_text(a.to)}  ({who})"
    elif isinstance(a, Allocate):
        text = f"hits {a.unit}"
    elif isinstance(a, Advance):
        text = "advance" if a.yes else "stay"
    elif isinstance(a, Evade):
        text = "evade" if a.yes else "stand"
    else:
        text = action_to_text(a)
    if hints:
        extra = []
        if hints.get("ap"):
            extra.append(f"{hints['ap']} AP")
        if "dice" in hints:
            hit = hints.get("hit_on", 7)
            extra.append(f"{hints['dice']} dice, hit on {hit}+" if hit <= 6 else
                         f"{hints['dice']} dice, cannot hit")
        if extra:
            text += f"   [{', '.join(extra)}]"
    return text
