"""Errors shared by every game. Each one carries a message fit to show a user."""

from __future__ import annotations

from warboard.core.i18n import Msg, english


class WarboardError(Exception):
    """Base class of every error warboard raises on purpose."""


class IllegalActionError(WarboardError):
    """An action that is not legal in the current state; the state is unchanged."""


class PositionError(WarboardError):
    """A malformed or impossible position (interchange JSON or serialized state)."""


class RecordError(WarboardError):
    """A game record that cannot be read or does not replay."""


class DataFileError(WarboardError):
    """A data file (ruleset, scenario) that fails validation.

    The message always names the file, the field and the problem. ``problem`` is English text
    or a message (``core.i18n``): ``problem_msg`` is then the message, ``problem`` its English.
    """

    def __init__(self, path: str, field: str, problem: str | Msg) -> None:
        self.path = path
        self.field = field
        self.problem_msg = problem if isinstance(problem, dict) else None
        self.problem = english(problem)
        super().__init__(f"{path}: {field}: {self.problem}")


class MissingExtraError(WarboardError):
    """A command needs an optional extra (a heavy dependency) that is not installed; the
    message says how to install it."""
