"""An activation being resolved (``Pending``) and the two ways its stages wait for input."""

from __future__ import annotations

from typing import Any

from warboard.holdtheline.hexes import Hex


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


def wait_die(p: Pending) -> bool:
    p.wait = "die"
    return True


def wait_decision(p: Pending, seat: int, choices: list[Any]) -> bool:
    p.wait = "decision"
    p.decider = seat
    p.choices = choices
    return True
