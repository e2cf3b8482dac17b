"""A game's two clocks, as plain arithmetic on times (no I/O, no event loop).

A clock is ``real`` (``{"initial": S, "increment": S}``: S seconds each, Fischer increment) or
``correspondence`` (``{"days": N}``: N days for each turn). Only one seat's clock runs at a time:
the seat that must decide now. ``left`` is each seat's time when the running one ``started``,
so the running seat's flag falls at ``started + left[running]`` (``deadline``).

A *turn* is the run of decisions one seat makes before the other (or nobody) must decide: a
Hold the Line turn of several steps is one turn. Its time is charged from when it began (the
commit of the decision before it) to when the server *received* each decision, so the time a
play spends in the server is charged to nobody. When the turn passes to the other seat a real
clock adds the increment to the seat that decided; a correspondence clock gives the next seat
its full N days.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from warboard.core.errors import WarboardError

REAL, CORRESPONDENCE = "real", "correspondence"
DAY_MS = 86_400_000


class ClockError(WarboardError):
    """A clock asked for that cannot be kept."""


def _ms(delta: timedelta) -> int:
    return int(delta / timedelta(milliseconds=1))


def iso_ms(moment: datetime) -> str:
    """A time as the clocks send it: ISO 8601 to the millisecond."""
    return moment.isoformat(timespec="milliseconds")


@dataclass(frozen=True)
class Clock:
    kind: str
    allowance_ms: int  # real: the initial time; correspondence: the time for one turn
    increment_ms: int
    left: tuple[int, int]
    running: int | None = None
    started: datetime | None = None

    @classmethod
    def from_spec(cls, spec: dict[str, float]) -> Clock:
        """The clock of ``POST /api/games``' ``clock``, before anyone's turn began."""
        if set(spec) == {"days"}:
            allowance, increment, kind = round(spec["days"] * DAY_MS), 0, CORRESPONDENCE
        elif set(spec) == {"initial", "increment"}:
            allowance, increment = round(spec["initial"] * 1000), round(spec["increment"] * 1000)
            kind = REAL
        else:
            raise ClockError('a clock is {"initial": SECONDS, "increment": SECONDS} or '
                             '{"days": N}')
        if allowance <= 0 or increment < 0:
            raise ClockError("a clock needs a positive time and an increment of 0 or more")
        return cls(kind, allowance, increment, (allowance, allowance))

    @property
    def deadline(self) -> datetime | None:
        """When the running seat's flag falls (``None``: no clock runs)."""
        if self.running is None or self.started is None:
            return None
        return self.started + timedelta(milliseconds=self.left[self.running])

    def flagged(self, moment: datetime) -> bool:
        """The running seat's time is out at ``moment``."""
        deadline = self.deadline
        return deadline is not None and moment >= deadline

    def left_at(self, moment: datetime) -> tuple[int, int]:
        """Each seat's time at ``moment`` (never below 0)."""
        if self.running is None or self.started is None:
            return self.left
        left = list(self.left)
        left[self.running] = max(0, left[self.running] - _ms(moment - self.started))
        return (left[0], left[1])

    def start(self, moment: datetime) -> Clock:
        """The running seat's clock (if any) starts at ``moment``."""
        return replace(self, started=moment if self.running is not None else None)

    def passed(self, received: datetime, to_act: int | None, by: int | None) -> Clock:
        """After a message from seat ``by`` received at ``received`` changed the game, with
        ``to_act`` now to decide (``None``: nobody, the game is over): the running seat is
        charged its time up to ``received``, and ``to_act``'s clock is to ``start`` when the
        change is stored. A seat that ends its turn by deciding gets the increment."""
        left = list(self.left_at(received))
        if to_act != self.running:
            if self.kind == CORRESPONDENCE:
                left = [self.allowance_ms, self.allowance_ms]
            elif self.running is not None and by == self.running:
                left[by] += self.increment_ms
        return replace(self, left=(left[0], left[1]), running=to_act, started=None)

    def to_json(self) -> dict[str, Any]:
        """As stored in the game's row."""
        return {"kind": self.kind, "allowance_ms": self.allowance_ms,
                "increment_ms": self.increment_ms, "left": list(self.left),
                "running": self.running,
                "started": None if self.started is None else self.started.isoformat()}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Clock:
        started = data.get("started")
        return cls(data["kind"], data["allowance_ms"], data["increment_ms"],
                   (data["left"][0], data["left"][1]), data.get("running"),
                   None if started is None else datetime.fromisoformat(started))

    def message(self, moment: datetime) -> dict[str, Any]:
        """The ``clocks`` of a state sent at ``moment`` (docs/server-api.md)."""
        deadline = self.deadline
        spec: dict[str, float] = (
            {"days": self.allowance_ms / DAY_MS} if self.kind == CORRESPONDENCE
            else {"initial": self.allowance_ms / 1000, "increment": self.increment_ms / 1000})
        return {"kind": self.kind, **spec, "seats": list(self.left_at(moment)),
                "running": self.running, "at": iso_ms(moment),
                "started": None if self.started is None else iso_ms(self.started),
                "deadline": None if deadline is None else iso_ms(deadline)}


def time_loss(loser: int) -> dict[str, Any]:
    """The result of a game lost on time by ``loser``."""
    return ruled(1 - loser, "time")


def ruled(winner: int | None, reason: str) -> dict[str, Any]:
    """A result the server rules (not the engine): ``winner`` (``None``: a draw) and why."""
    returns = [0.0, 0.0] if winner is None else [1.0, -1.0] if winner == 0 else [-1.0, 1.0]
    return {"returns": returns, "summary": {"winner": winner, "reason": reason}}
