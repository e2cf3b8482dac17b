"""The server's policy for Python's cyclic garbage collector.

Every collection stops every play under way for as long as it walks its generation: under a
blitz load (docs/load.md) a full pass over the live games took 200–380 ms and one of the middle
generation 100–150 ms, the slowest plays of a run. The play path makes almost no cyclic garbage
(what it drops is freed by reference counting), so the server walks the long-lived objects only
on a schedule (``FULL_PASS_SECONDS``: a stall of that length once in that time, not whenever
the heap has grown by a quarter) and keeps the young generations small, so that their passes
are short.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Callable

from warboard.core import registry

# gen0: net new tracked objects before a young pass; gen1: young passes before a middle one.
# Small enough that each pass takes a few milliseconds with 200 live games; the long-lived
# generation is collected only by ``collect_fully_every``.
YOUNG_THRESHOLDS = (1_000, 1)
NEVER = 2**31 - 1  # middle passes before an automatic full one: not in a server's lifetime
FULL_PASS_SECONDS = 600.0


def calm() -> None:
    """Set the server's policy: the games' server setups (smaller engine caches), the start-up
    objects moved out of the collector's sight, small young generations, no automatic full
    pass (run ``collect_fully_every`` beside it)."""
    for setup in dict.fromkeys(g.server_setup for g in registry.games() if g.server_setup):
        registry.resolve(setup)()
    gc.collect()
    gc.freeze()
    gc.set_threshold(*YOUNG_THRESHOLDS, NEVER)


def collect_fully_every(seconds: float = FULL_PASS_SECONDS) -> Callable[[], None]:
    """Collect every generation once every ``seconds``, in a daemon thread, from now on; the
    function returned stops it."""
    stopped = threading.Event()

    def loop() -> None:
        while not stopped.wait(seconds):
            gc.collect()

    threading.Thread(target=loop, name="warboard-full-gc", daemon=True).start()
    return stopped.set
