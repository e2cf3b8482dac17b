"""The server's garbage-collector policy (server/collector.py): the long-lived objects are walked
only on the schedule, and the scheduled pass does collect what reference counting cannot."""

from __future__ import annotations

import gc
import time
import weakref
from collections.abc import Iterator

import pytest

from warboard.server import collector


class Cycle:
    """An object that refers to itself: only the cyclic collector frees it."""

    def __init__(self) -> None:
        self.me = self


@pytest.fixture
def server_policy() -> Iterator[None]:
    thresholds = gc.get_threshold()
    collector.calm()
    try:
        yield
    finally:
        gc.set_threshold(*thresholds)
        gc.unfreeze()


def long_lived_garbage() -> weakref.ref[Cycle]:
    """A cycle that has survived the young passes, then dropped: a weak reference to it."""
    cycle = Cycle()
    gc.collect(1)  # survivors of a middle pass move to the long-lived generation
    return weakref.ref(cycle)


def churn() -> None:
    """Enough new containers, kept a while, for many young and middle passes."""
    kept: list[list[int]] = [[] for _ in range(200_000)]
    del kept


def test_young_passes_run_but_no_automatic_full_pass(server_policy: None) -> None:
    young, middle, full = gc.get_threshold()
    assert young > 0 and middle > 0 and full == collector.NEVER
    passes_before = [s["collections"] for s in gc.get_stats()]
    dead = long_lived_garbage()
    churn()
    passes = [s["collections"] - b for s, b in zip(gc.get_stats(), passes_before, strict=True)]
    assert passes[0] > 0 and passes[1] > 0  # the young generations are collected as before
    assert passes[2] == 0
    assert dead() is not None  # nothing walked the long-lived generation


def test_the_scheduled_full_pass_frees_long_lived_cycles(server_policy: None) -> None:
    dead = long_lived_garbage()
    churn()
    assert dead() is not None
    stop = collector.collect_fully_every(0.05)
    try:
        deadline = time.monotonic() + 30
        while dead() is not None and time.monotonic() < deadline:
            time.sleep(0.01)
    finally:
        stop()
    assert dead() is None
