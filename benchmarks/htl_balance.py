"""Measure every Hold the Line battle: `hard` against `random` (both seat orders) and `hard`
against `hard`, and print the tables of docs/scenarios.md.

    python benchmarks/htl_balance.py [--strength-games 30] [--balance-games 100] [NAME ...]

Each measurement is one `warboard balance ... --json` run (its progress bar on stderr); the
results are kept in `docs/results/htl-balance.json`, one entry per scenario and measurement, so
an interrupted run goes on where it stopped (`--again` measures anew). The levels play without
their time caps (`--no-time-caps`), so a result does not depend on how loaded the machine is.
`--tables` only prints the tables of what is kept.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

WARBOARD = [sys.executable, "-m", "warboard.cli"]
RESULTS = Path(__file__).resolve().parent.parent / "docs" / "results" / "htl-balance.json"


def balance(name: str, agents: str, games: int, jobs: int) -> dict[str, Any]:
    out = subprocess.run([*WARBOARD, "balance", name, "--agents", agents, "--games", str(games),
                          "--jobs", str(jobs), "--no-time-caps", "--json"],
                         stdout=subprocess.PIPE, text=True, check=True)
    report: dict[str, Any] = json.loads(out.stdout)
    return report


def battles() -> list[str]:
    from warboard.holdtheline.scenario_file import scenario_names

    return [n for n in scenario_names() if n != "tutorial"]


def pct(entry: dict[str, Any]) -> str:
    lo, hi = entry["interval"]
    return f"{entry['count']} ({entry['rate']:.0%}, {lo:.0%}–{hi:.0%})"


def strength_row(name: str, kept: dict[str, Any]) -> str | None:
    """`hard`'s wins against `random` over both seat orders."""
    first, second = kept.get(f"{name}/hard,random"), kept.get(f"{name}/random,hard")
    if first is None or second is None:
        return None
    wins = first["sides"][0]["wins"]["count"] + second["sides"][1]["wins"]["count"]
    games = first["games"] + second["games"]
    return f"| `{name}` | {wins}/{games} ({wins / games:.0%}) |"


def balance_row(name: str, kept: dict[str, Any]) -> str | None:
    rep = kept.get(f"{name}/hard,hard")
    if rep is None:
        return None
    a, b = rep["sides"]
    draws = pct(rep["draws"]) if rep["draws"]["count"] else "—"
    return (f"| `{name}` | {rep['games']} | {a['side']} {pct(a['wins'])} | "
            f"{b['side']} {pct(b['wins'])} | {draws} | {a['mean_vp']} / {b['mean_vp']} |")


def print_tables(kept: dict[str, Any], names: list[str]) -> None:
    print("| scenario | `hard` wins against `random` |\n|---|---|")
    print("\n".join(r for n in names if (r := strength_row(n, kept))))
    print("\n| scenario | games | seat 0 wins (95%) | seat 1 wins (95%) | draws | "
          "mean VP |\n|---|---|---|---|---|---|")
    print("\n".join(r for n in names if (r := balance_row(n, kept))))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("names", nargs="*", help="scenarios (default: every battle)")
    parser.add_argument("--strength-games", type=int, default=30,
                        help="games of hard against random, half in each seat order")
    parser.add_argument("--balance-games", type=int, default=100,
                        help="games of hard against hard (0: none)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes")
    parser.add_argument("--again", action="store_true", help="measure what is kept anew")
    parser.add_argument("--tables", action="store_true", help="only print the tables")
    args = parser.parse_args()
    names = args.names or battles()
    kept: dict[str, Any] = json.loads(RESULTS.read_text()) if RESULTS.exists() else {}
    if not args.tables:
        half = args.strength_games // 2
        plan = [(agents, half) for agents in ("hard,random", "random,hard") if half]
        if args.balance_games:
            plan.append(("hard,hard", args.balance_games))
        for name in names:
            for agents, games in plan:
                key = f"{name}/{agents}"
                if key in kept and not args.again:
                    continue
                kept[key] = balance(name, agents, games, args.jobs)
                RESULTS.write_text(json.dumps(kept, indent=1, sort_keys=True) + "\n")
    print_tables(kept, names)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
