"""Errors shared by every game. Each one carries a message fit to show a user."""


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

    The message always names the file, the field and the problem.
    """

    def __init__(self, path: str, field: str, problem: str) -> None:
        self.path = path
        self.field = field
        self.problem = problem
        super().__init__(f"{path}: {field}: {problem}")
