"""How many spectators watch each game, over every server process on the database.

Each process counts the spectators of its own connections and tells the others whenever its
count of a game changes (``Peers.spectators``, a notice on PostgreSQL); a game's count is the
sum of the last count each process told. A process that dies without saying goodbye leaves its
last counts behind, and a process that starts learns the others' counts only as they change
(the counts are shown, never relied on).
"""

from __future__ import annotations

from collections import defaultdict

HERE = ""  # this process's origin in the counts


class Audience:
    """The spectators of each game, by the process (``origin``) that counts them."""

    def __init__(self) -> None:
        self._counts: defaultdict[str, dict[str, int]] = defaultdict(dict)

    def set(self, game_id: str, count: int, origin: str = HERE) -> bool:
        """``origin`` counts ``count`` spectators of ``game_id`` now; whether the total
        changed."""
        counts = self._counts[game_id]
        before = counts.get(origin, 0)
        if count > 0:
            counts[origin] = count
        else:
            counts.pop(origin, None)
            if not counts:
                del self._counts[game_id]
        return before != count

    def count(self, game_id: str) -> int:
        counts = self._counts.get(game_id)
        return sum(counts.values()) if counts else 0
