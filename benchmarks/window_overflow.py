"""How often a legal play of the card games falls outside the adapters' window.

    python benchmarks/window_overflow.py [--random-games 1000] [--ai-games 200]
        [--ai greedy,ismcts:medium]

Plays games of both card rulesets — uniformly random players, and AI players (``--ai``, any
``warboard arena`` agent) — and at every decision counts, for each window size, the legal plays
without an action id (outside the window), the plays actually made outside it, and the
decisions where no legal play at all is inside (the adapters raise ``WindowOverflowError``
there). docs/adapters.md quotes its output; the default window is the smallest one under 0.1%
of legal plays in every row.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from rich.console import Console
from rich.table import Table

from warboard.adapters.encodings import make_encoding
from warboard.ai.agent import decide, make_agent
from warboard.core.protocol import CHANCE, sample_chance

WINDOWS = (9, 13, 17, 21, 25, 29, 33, 37, 41, 49)


@dataclass
class Counts:
    decisions: int = 0
    legal: int = 0
    made: int = 0
    legal_out: dict[int, int] = field(default_factory=lambda: dict.fromkeys(WINDOWS, 0))
    made_out: dict[int, int] = field(default_factory=lambda: dict.fromkeys(WINDOWS, 0))
    blocked: dict[int, int] = field(default_factory=lambda: dict.fromkeys(WINDOWS, 0))

    def add(self, other: Counts) -> None:
        self.decisions += other.decisions
        self.legal += other.legal
        self.made += other.made
        for w in WINDOWS:
            self.legal_out[w] += other.legal_out[w]
            self.made_out[w] += other.made_out[w]
            self.blocked[w] += other.blocked[w]


def play(job: tuple[str, str, int]) -> Counts:
    """One game between two ``agent``s, counting plays outside each window."""
    game_name, agent_spec, seed = job
    encodings = {w: make_encoding(game_name, {"window": w}) for w in WINDOWS}
    game = encodings[WINDOWS[0]].game
    agent = make_agent(agent_spec, time_caps=False)
    rng = random.Random(seed)
    counts = Counts()
    state = game.new_initial_state()
    while not state.is_terminal():
        seat = state.current_player()
        if seat == CHANCE:
            state.apply(sample_chance(state, rng))
            continue
        legal = state.legal_actions()
        action = decide(agent, state, rng)
        counts.decisions += 1
        counts.legal += len(legal)
        counts.made += 1
        for w, enc in encodings.items():
            out = sum(enc.action_id(seat, a) is None for a in legal)
            counts.legal_out[w] += out
            counts.blocked[w] += out == len(legal)
            counts.made_out[w] += enc.action_id(seat, action) is None
        state.apply(action)
    return counts


def measure(game: str, agent: str, games: int, jobs: int) -> Counts:
    total = Counts()
    work = [(game, agent, seed) for seed in range(games)]
    with ProcessPoolExecutor(jobs) as pool:
        for counts in pool.map(play, work, chunksize=4):
            total.add(counts)
    return total


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--random-games", type=int, default=1000,
                        help="random games per ruleset (default: 1000)")
    parser.add_argument("--ai-games", type=int, default=200,
                        help="AI games per ruleset (default: 200)")
    parser.add_argument("--ai", default="greedy,ismcts:medium",
                        help="comma-separated agents; each plays both seats of --ai-games games "
                             "(default: greedy,ismcts:medium)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default: 2)")
    args = parser.parse_args(argv)
    console = Console(width=110)
    runs = [("random", args.random_games),
            *((agent, args.ai_games) for agent in args.ai.split(",") if agent)]
    for game in ("hill218", "ogre218"):
        table = Table(title=f"{game}: plays outside the window (% of legal plays / of plays "
                            "made; decisions with no play inside)")
        table.add_column("window", justify="right")
        results = []
        for agent, games in runs:
            if games > 0:
                results.append((agent, games, measure(game, agent, games, args.jobs)))
                table.add_column(f"{agent} ({games} games)", justify="right")
        for w in WINDOWS:
            table.add_row(f"{w}×{w}", *(
                f"{100 * c.legal_out[w] / c.legal:.3f}% / {100 * c.made_out[w] / c.made:.3f}% "
                f"/ {c.blocked[w]}" for _, _, c in results))
        console.print(table)
        for agent, _, c in results:
            console.print(f"  {agent}: {c.decisions} decisions, {c.legal} legal plays listed")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
