"""Instructions per decision of the engine and of the Gymnasium environment, counted by
callgrind: the same figures on a busy machine as on an idle one (docs/adapters.md, "Speed").

    python benchmarks/env_instructions.py GAME [--scenario NAME] [--decisions N]

Each of the engine and the environment (``warboard.adapters.bench``'s runners, seed 1) is run
under ``valgrind --tool=callgrind`` twice, for ``N`` and for ``2 N`` decisions; the difference
over ``N`` is what one decision costs, the start (imports, the first game's setup) cancelled
out. ``ratio`` is engine instructions per decision over the environment's: the speed ratio
``warboard bench GAME --env`` times, were every instruction as fast.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys

from warboard.adapters.bench import EngineRun, EnvRun


def _child(kind: str, game: str, params: dict[str, str], decisions: int) -> None:
    runner = (EngineRun if kind == "engine" else EnvRun)(game, params, 1)
    runner.run(decisions=decisions)


def _instructions(kind: str, game: str, scenario: str | None, decisions: int) -> int:
    command = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable,
               __file__, game, "--child", kind, "--decisions", str(decisions)]
    if scenario:
        command += ["--scenario", scenario]
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    found = re.search(r"Collected\s*:\s*(\d+)", done.stderr)
    if found is None:
        raise RuntimeError(f"no instruction count in callgrind's output:\n{done.stderr}")
    return int(found.group(1))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game")
    parser.add_argument("--scenario")
    parser.add_argument("--decisions", type=int, default=1000,
                        help="decisions of each run (default: 1000)")
    parser.add_argument("--child", choices=("engine", "env"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    params = {"scenario": args.scenario} if args.scenario else {}
    if args.child:
        _child(args.child, args.game, params, args.decisions)
        return 0
    n = args.decisions
    per = {kind: (_instructions(kind, args.game, args.scenario, 2 * n)
                  - _instructions(kind, args.game, args.scenario, n)) / n
           for kind in ("engine", "env")}
    print(json.dumps({"game": args.game, **params, "decisions": n,
                      "engine_instructions_per_decision": round(per["engine"]),
                      "env_instructions_per_decision": round(per["env"]),
                      "ratio": round(per["engine"] / per["env"], 3)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
