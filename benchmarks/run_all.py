"""Run every speed benchmark and print the figures the README quotes.

    python benchmarks/run_all.py [--seconds 5]

Engine speed (random games, `rules legal`, IS-MCTS) for both card rulesets and for every Hold the
Line scenario via `warboard bench`; the web table's load test via `warboard loadtest` when
`--load` is given (it takes a minute).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections.abc import Callable

WARBOARD = [sys.executable, "-m", "warboard.cli"]


def bench(game: str, seconds: float) -> dict:
    out = subprocess.run([*WARBOARD, "bench", game, "--seconds", str(seconds), "--ai", "hard",
                          "--json"], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def print_table(rows: list[tuple[str, ...]]) -> None:
    width = max(len(r[0]) for r in rows)
    cells = max(len(c) for r in rows for c in r[1:])
    for label, *values in rows:
        print(f"{label:<{width}}" + "".join(f"  {v:>{cells}}" for v in values))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=5.0,
                        help="seconds of random games per engine and ruleset (default: 5)")
    parser.add_argument("--load", action="store_true",
                        help="also run the web table's load test (200 games, 60 s)")
    args = parser.parse_args()
    rows = [("figure", "hill218", "ogre218")]
    results = [bench(g, args.seconds) for g in ("hill218", "ogre218")]

    def row(label: str, pick: Callable[[dict], str]) -> None:
        rows.append((label, *(pick(r) for r in results)))

    row("native games/s", lambda r: f"{r['native']['games_per_second']:,.0f}"
        if r["native"] else "not built")
    row("native plays/s", lambda r: f"{r['native']['plays_per_second']:,.0f}"
        if r["native"] else "not built")
    row("python games/s", lambda r: f"{r['python']['games_per_second']:,.0f}")
    row("python plays/s", lambda r: f"{r['python']['plays_per_second']:,.0f}")
    row("plays per game", lambda r: f"{r['plays_per_game']:.1f}")
    row("rules legal positions/s", lambda r: f"{r['rules_legal']['positions_per_second']:,.0f}")
    row("ismcts simulations/s", lambda r: f"{r['ismcts']['simulations_per_second']:,.0f}")
    row("hard decisions/s", lambda r: f"{r['ismcts']['decisions_per_second']:.1f}")
    print_table(rows)
    htl = bench("holdtheline", args.seconds)
    scenarios = htl["scenarios"]
    print()
    print_table([
        ("holdtheline", *(s["scenario"] for s in scenarios)),
        ("random games/s", *(f"{s['games_per_second']:,.1f}" for s in scenarios)),
        ("decisions per game", *(f"{s['decisions_per_game']:.0f}" for s in scenarios)),
        ("legal positions/s (engine)",
         *(f"{s['legal']['engine_positions_per_second']:,.0f}" for s in scenarios)),
        ("rules legal positions/s",
         *(f"{s['legal']['rules_legal_positions_per_second']:,.0f}" for s in scenarios)),
        ("hard s/decision", *(f"{s['ismcts']['seconds_per_decision']:.2f}" for s in scenarios)),
    ])
    print(f"load average: {htl.get('load_average')}")
    if args.load:
        subprocess.run([*WARBOARD, "loadtest", "--games", "200", "--seconds", "60"], check=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
