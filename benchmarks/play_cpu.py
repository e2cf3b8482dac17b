"""The server's CPU time per play on the play path, in one process and without the network.

    PYTHONPATH=src python benchmarks/play_cpu.py [--games 20] [--plays 4000] [--clock 180+2]

Opens ``--games`` friend games on a ``Tables`` with real SQLite storage (a temporary file), each
seat watched by a subscriber that keeps the last text it was sent, and plays random legal
actions round-robin over the games: each play is the client's message text, read as a
WebSocket message is (the per-client message limit of one of 200 addresses, then
``parse_client_message`` and ``Table.play``), and the states both seats are sent. A finished
game is replaced by a new one (not timed); ``--seed`` makes the same games every time. It
prints the process CPU time per play (the writer thread's included), which unlike the load
test's latency hardly depends on what else the machine runs. The server's garbage-collector
policy (``server.collector``) is applied first, as ``warboard serve`` does, unless
``--default-gc``; the output also gives the collector's passes: how many, their total and
longest CPU time, and the plays that ran while each generation was collected.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import random
import tempfile
import time
import uuid
from pathlib import Path

from warboard.server import collector, tokens
from warboard.server.ai_runner import AIRunner
from warboard.server.logsent import SentLog
from warboard.server.messages import CreateGame, PlayMessage, parse_client_message
from warboard.server.quotas import Quotas
from warboard.server.settings import ServerSettings
from warboard.server.storage import Storage
from warboard.server.tables import OVER, Table, Tables

CLIENTS = 200


class Passes:
    """The collector's passes while it is watched: CPU time of each, by generation."""

    def __init__(self) -> None:
        self.times: dict[int, list[float]] = {0: [], 1: [], 2: []}
        self._began = 0.0
        gc.callbacks.append(self._observe)

    def _observe(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._began = time.thread_time()
        else:
            self.times[info["generation"]].append(time.thread_time() - self._began)

    def stop(self) -> dict[str, float]:
        gc.callbacks.remove(self._observe)
        found: dict[str, float] = {}
        for generation, times in self.times.items():
            found[f"gen{generation}_passes"] = len(times)
            found[f"gen{generation}_total_ms"] = 1000 * sum(times)
            found[f"gen{generation}_max_ms"] = 1000 * max(times, default=0.0)
        return found


class Seat:
    """A subscriber that keeps the last state it was sent, as a client would read it."""

    def __init__(self, seat: int) -> None:
        self.seat: int | None = seat  # as Subscriber has it
        self.sent_log: SentLog | None = SentLog()  # the new log lines only, as the browser asks
        self.last = ""

    def send(self, text: str) -> None:
        self.last = text


async def open_game(tables: Tables, game: str,
                    clock: dict[str, float] | None) -> tuple[Table, list[Seat]]:
    created = await tables.create(CreateGame.model_validate(
        {"game": game, "mode": "friend", **({"clock": clock} if clock else {})}))
    table = await tables.get(created.id)
    seats = [Seat(0), Seat(1)]
    for seat in seats:
        table.subscribe(seat)
    return table, seats


async def play_once(table: Table, seats: list[Seat], quotas: Quotas, client: str,
                    rng: random.Random) -> bool:
    """One random play by the seat to act, as its client sees and sends it; ``False`` when the
    game is over."""
    if table.status == OVER:
        return False
    seat = table.state.current_player()
    # the client's choice, from the legal actions its state listed (not decoded again here)
    text = json.dumps({"type": "play", "action": rng.choice(table._legal_actions()),
                       "version": table.version, "request_id": str(uuid.uuid4())})
    assert quotas.message(client) is None and seats[seat].last
    message = parse_client_message(text)
    assert isinstance(message, PlayMessage)
    await table.play(seat, message.action, message.version, message.request_id)
    return True


async def run(games: int, plays: int, game: str, seed: int,
              clock: dict[str, float] | None) -> dict[str, float]:
    rng = random.Random(seed)
    # the same games in every run, so that runs compare (the server draws a random seed)
    tokens.new_seed = lambda: rng.getrandbits(63)
    with tempfile.TemporaryDirectory() as folder:
        storage = Storage(f"sqlite:///{Path(folder) / 'bench.db'}")
        settings = ServerSettings()
        tables = Tables(storage, AIRunner(0), settings=settings)
        quotas = Quotas(settings)
        live = [await open_game(tables, game, clock) for _ in range(games)]
        # the load test's 200 clients, in turn (one per game there, within their limits here)
        clients = [f"127.1.{i // 250}.{i % 250 + 1}" for i in range(CLIENTS)]
        passes = Passes()
        done, timed, started_cpu, started = 0, 0.0, time.process_time(), time.perf_counter()
        while done < plays:
            i = done % games
            table, seats = live[i]
            if await play_once(table, seats, quotas, clients[done % CLIENTS], rng):
                done += 1
                continue
            paused = time.process_time()
            live[i] = await open_game(tables, game, clock)
            timed -= time.process_time() - paused
        cpu = time.process_time() - started_cpu + timed
        wall = time.perf_counter() - started
        collected = passes.stop()
        storage.close()
    return {"plays": plays, "cpu_ms_per_play": 1000 * cpu / plays,
            "wall_ms_per_play": 1000 * wall / plays, **collected}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--plays", type=int, default=4000)
    parser.add_argument("--game", default="hill218")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--clock", metavar="INITIAL+INCREMENT", default=None,
                        help="clocked games, as warboard loadtest --clock")
    parser.add_argument("--default-gc", action="store_true",
                        help="keep Python's default collector settings (not the server's)")
    args = parser.parse_args()
    if not args.default_gc:
        collector.calm()
    clock = None
    if args.clock is not None:
        from warboard.loadtest.bots import Clock  # here: a server before clocks runs it too

        spec = Clock.parse(args.clock)
        clock = {"initial": spec.initial, "increment": spec.increment}
    result = asyncio.run(run(args.games, args.plays, args.game, args.seed, clock))
    print(json.dumps(result))


if __name__ == "__main__":
    main()
