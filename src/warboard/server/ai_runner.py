"""Computer players' decisions, run off the event loop.

The engine and the agents are pure Python, so a decision is CPU work that would hold the GIL:
by default it runs in a pool of worker *processes* (``spawn``ed, so no lock or socket of the
server is inherited), which keeps the server responsive and uses the other cores. With
``workers=0`` it runs in a thread of the server process instead (simpler, for tests and small
machines; a long search then slows the server down while it thinks).

A worker gets plain data — the game's name and options, the full state as JSON and the level —
and answers the action as JSON; it asks the agent through ``warboard.ai.agent.decide``, so the
agent sees only its seat's view. Each decision has its own seed, so a restarted server decides
as the old one would have. A worker ends itself when the server process is gone (even after
``kill -9``).

Decisions wait their turn in a fair queue (``FairQueue``): each client (the address that created
the game) has a queue of its own and the free workers serve the clients in turn, so a client with
many games thinking at once never keeps another client's move waiting behind all of them.
"""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import os
import random
import signal
import threading
import time
from collections import OrderedDict, deque
from collections.abc import AsyncIterator, Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import asynccontextmanager, contextmanager
from functools import lru_cache
from typing import Any

from warboard.core.protocol import Action, Game, State

PARENT_POLL_SECONDS = 1.0


def _options(game: Game) -> str:
    return json.dumps(dict(game.options), sort_keys=True)


@lru_cache(maxsize=16)
def _game(name: str, options_json: str) -> Game:
    """One game object per name and options in each worker (its rules caches stay warm)."""
    from warboard.core.registry import make_game

    return make_game(name, json.loads(options_json))


def decide_json(name: str, options_json: str, state_json: dict[str, Any], level: str,
                seed: str) -> dict[str, Any]:
    """The decision of the computer at ``level`` for the seat to act, as action JSON."""
    from warboard.ai.agent import decide, make_agent

    game = _game(name, options_json)
    state = game.state_from_json(state_json)
    return game.action_to_json(decide(make_agent(level), state, random.Random(seed)))


def judge_json(name: str, options_json: str, state_json: dict[str, Any], played: Any,
               level: str, seconds: float, seed: str, ply: int) -> dict[str, Any]:
    """The decision ``played`` (action JSON) of the seat to act, judged by ``level``'s search
    from that seat's view within ``seconds`` (``Judgement.to_json``)."""
    from warboard.ai.analysis import judge, searcher

    game = _game(name, options_json)
    state = game.state_from_json(state_json)
    return judge(searcher(level, seconds=seconds), state, game.action_from_json(played, state),
                 random.Random(seed), ply).to_json()


def _watch_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(PARENT_POLL_SECONDS)
    os._exit(0)


def _start_worker(parent: int) -> None:
    """Worker initializer: load the AI code now, leave Ctrl+C to the server (which stops the
    pool), and end when the server is gone."""
    import warboard.ai.agent  # noqa: F401  (warm the import before the first decision)

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()


@contextmanager
def _sigint_ignored() -> Iterator[None]:
    """Ignore Ctrl+C while worker processes start, so that they inherit ignoring it (only in
    the main thread, where signal handlers live)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


class FairQueue:
    """At most ``slots`` holders at once; those waiting are let in one client at a time, in
    turn (round robin over the clients that wait, each client's own in the order they came)."""

    def __init__(self, slots: int) -> None:
        self.slots = slots
        self.busy = 0
        self._waiting: OrderedDict[str, deque[asyncio.Future[None]]] = OrderedDict()

    def waiting(self, client: str | None = None) -> int:
        """How many wait (for ``client``, or in all)."""
        if client is not None:
            return len(self._waiting.get(client, ()))
        return sum(len(queue) for queue in self._waiting.values())

    @asynccontextmanager
    async def slot(self, client: str) -> AsyncIterator[None]:
        """Hold one slot for the body, once it is ``client``'s turn."""
        if self.busy < self.slots and not self._waiting:
            self.busy += 1
        else:
            turn = asyncio.get_running_loop().create_future()
            self._waiting.setdefault(client, deque()).append(turn)
            try:
                await turn  # the slot is handed over with the result (busy stays counted)
            except asyncio.CancelledError:
                if turn.done() and not turn.cancelled():
                    self._release()  # handed over just as the waiter was cancelled
                else:
                    self._forget(client, turn)
                raise
        try:
            yield
        finally:
            self._release()

    def _forget(self, client: str, turn: asyncio.Future[None]) -> None:
        queue = self._waiting.get(client)
        if queue is not None and turn in queue:
            queue.remove(turn)
            if not queue:
                del self._waiting[client]

    def _release(self) -> None:
        """Hand the slot to the next client's first waiter, or free it."""
        while self._waiting:
            client, queue = next(iter(self._waiting.items()))
            turn = queue.popleft()
            del self._waiting[client]
            if queue:
                self._waiting[client] = queue  # to the back of the line
            if not turn.done():
                turn.set_result(None)
                return
        self.busy -= 1


class AIRunner:
    """Runs decisions in ``workers`` processes, started at once, or in threads when ``workers``
    is 0, taking the clients in turn (``FairQueue``). A pool whose worker died is replaced (the
    decision that failed is not retried)."""

    def __init__(self, workers: int) -> None:
        if workers < 0:
            raise ValueError("the number of AI workers cannot be negative")
        self.workers = workers
        self._pool = self._start_pool() if workers else None
        self.queue = FairQueue(max(1, workers))

    def _start_pool(self) -> ProcessPoolExecutor:
        pool = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"),
                                   initializer=_start_worker, initargs=(os.getpid(),))
        with _sigint_ignored():
            for _ in range(self.workers):
                pool.submit(os.getpid)  # each submission starts a worker while none is idle
        return pool

    def alive(self) -> bool:
        """Whether the computer can decide now: in a thread always, else while every worker
        process runs (a dead one breaks the pool, replaced at the next decision)."""
        if self._pool is None:
            return True
        # the pool shows its processes only in attributes of its own
        return not self._pool._broken and all(p.is_alive()
                                               for p in self._pool._processes.values())

    def describe(self) -> str:
        if not self.workers:
            return "in a thread of the server"
        return f"in {self.workers} worker process{'es' if self.workers != 1 else ''}"

    async def decide(self, game: Game, state: State, level: str, seed: str,
                     client: str = "") -> Action:
        """The computer's action for the seat to act in ``state``, in ``client``'s turn."""
        data = await self._run(client, decide_json, game.name, _options(game), state.to_json(),
                               level, seed)
        return game.action_from_json(data, state)

    async def judge(self, game: Game, state: State, played: Action, level: str,
                    seconds: float, seed: str, ply: int, client: str = "") -> dict[str, Any]:
        """The post-game analysis of one decision (``judge_json``), in ``client``'s turn."""
        return await self._run(client, judge_json, game.name, _options(game), state.to_json(),
                               game.action_to_json(played), level, seconds, seed, ply)

    async def _run(self, client: str, work: Callable[..., Any], *args: Any) -> Any:
        """``work(*args)`` in a worker once it is ``client``'s turn."""
        loop = asyncio.get_running_loop()
        try:
            async with self.queue.slot(client):
                return await loop.run_in_executor(self._pool, work, *args)
        except BrokenProcessPool:
            self.close()
            self._pool = self._start_pool()
            raise

    def close(self) -> None:
        """Stop the workers: queued decisions are dropped, one under way is let finish."""
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
