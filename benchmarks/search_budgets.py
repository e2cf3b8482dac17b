"""Two budgets of the card games' search against each other (docs/ai.md, "The compiled search").

    python benchmarks/search_budgets.py GAME A B [--games N] [--seed S] [--jobs J]

``A`` and ``B`` are ``ISMCTSAgent`` settings as JSON, e.g. ``'{"iterations": null, "seconds": 1,
"exploration": 0.25}'`` (``expert``'s search given a second a decision) against
``'{"iterations": 2000, "exploration": 0.25}'`` (``expert`` on hill218), or a level with
overrides of its budget: ``'{"level": "master", "seconds": null}'`` against ``'{"level":
"master", "seconds": null, "beliefs": false}'`` (what ``master``'s beliefs add). The games
alternate the seat orders; A's score (a win 1, a draw 1/2) comes out with its 95% interval as
one JSON object. The arena compares levels and models; this compares settings of one search,
which no level has.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from warboard.ai.ismcts import ISMCTSAgent
from warboard.ai.levels import agent_for_level
from warboard.ai.match import play_out
from warboard.ai.ratings import score_interval
from warboard.core.registry import make_game


def play(game_name: str, a: dict[str, Any], b: dict[str, Any], seed: int, index: int) -> float:
    """A's score in game ``index`` (A takes seat ``index % 2``)."""
    rng = random.Random(f"{seed}:{index}")
    a_seat = index % 2
    agents = {a_seat: make(a), 1 - a_seat: make(b)}
    state = play_out(make_game(game_name).new_initial_state(), agents, rng)
    return (state.returns()[a_seat] + 1) / 2


def make(settings: dict[str, Any]) -> Any:
    """The search of ``settings``: a level's with overrides where they name one."""
    own = dict(settings)
    level = own.pop("level", None)
    return ISMCTSAgent(**own) if level is None else agent_for_level(level, **own)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game", choices=["hill218", "ogre218"])
    parser.add_argument("a", type=json.loads,
                        help="A's ISMCTSAgent settings, or a level and overrides (JSON)")
    parser.add_argument("b", type=json.loads,
                        help="B's ISMCTSAgent settings, or a level and overrides (JSON)")
    parser.add_argument("--games", type=int, default=40, help="games (default: 40)")
    parser.add_argument("--seed", type=int, default=1, help="seed (default: 1)")
    parser.add_argument("--jobs", type=int, default=2, help="processes (default: 2)")
    args = parser.parse_args()
    scores = []
    with ProcessPoolExecutor(args.jobs) as pool:
        futures = [pool.submit(play, args.game, args.a, args.b, args.seed, i)
                   for i in range(args.games)]
        for done, future in enumerate(futures, 1):
            scores.append(future.result())
            print(f"\r{done}/{args.games} games", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    wins, draws = scores.count(1.0), scores.count(0.5)
    mean, low, high = score_interval(scores)
    print(json.dumps({"game": args.game, "a": args.a, "b": args.b, "games": len(scores),
                      "a_wins": wins, "draws": draws, "a_losses": len(scores) - wins - draws,
                      "a_score": round(mean, 4),
                      "a_score_interval": [round(low, 4), round(high, 4)]}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
