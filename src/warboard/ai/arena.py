"""Round-robin tournaments between agents: scores, Elo ratings, a JSON report and a chart.

Every pair of agents plays ``games_per_pair`` games, half with each seat order. Games run in
parallel worker processes (``backend="process"``) or as Ray tasks (``backend="ray"``). The chart
needs matplotlib (the ``plots`` extra); without it the report is written alone.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from warboard.ai.match import MatchResult, MatchSpec, play_match
from warboard.ai.parallel import map_jobs
from warboard.ai.ratings import elo, elo_intervals, score_interval
from warboard.core.record import Record


@dataclass
class ArenaReport:
    game: str
    games_per_pair: int
    agents: list[str]
    pairs: list[dict[str, Any]]
    elo: dict[str, float]
    elo_interval: dict[str, tuple[float, float]]
    decision_seconds: dict[str, float]

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "games_per_pair": self.games_per_pair, "agents": self.agents,
                "pairs": self.pairs, "elo": self.elo,
                "elo_interval": {a: list(v) for a, v in self.elo_interval.items()},
                "decision_seconds": self.decision_seconds}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ArenaReport:
        """A report read back from its JSON file (``to_json``)."""
        return cls(data["game"], data["games_per_pair"], data["agents"], data["pairs"],
                   data["elo"], {a: (lo, hi) for a, (lo, hi) in data["elo_interval"].items()},
                   data["decision_seconds"])


def schedule(game: str, agents: Sequence[str], games_per_pair: int, seed: int,
             options: dict[str, Any] | None = None, time_caps: bool = True,
             keep_records: bool = False, seconds: float | None = None) -> list[MatchSpec]:
    """Every game of the round robin, alternating seat orders (each with its record, when
    ``keep_records``; every search deciding in ``seconds``, when given)."""
    specs = []
    for p, (a, b) in enumerate(itertools.combinations(agents, 2)):
        for g in range(games_per_pair):
            seats = (a, b) if g % 2 == 0 else (b, a)
            specs.append(MatchSpec(game, dict(options or {}), seats,
                                   seed * 1_000_003 + p * 10_007 + g, time_caps,
                                   seconds, keep_records))
    return specs


def run_matches(specs: Sequence[MatchSpec], jobs: int, backend: str = "process",
                progress: Callable[[MatchResult], None] | None = None) -> list[MatchResult]:
    """Every match of ``specs``, in their order (``parallel.map_jobs``)."""
    return map_jobs(play_match, specs, jobs, backend, progress)


def write_records(specs: Sequence[MatchSpec], results: Sequence[MatchResult],
                  folder: Path) -> list[Path]:
    """Each result's record into ``folder`` as ``NNNN-SEAT0-v-SEAT1.json``, numbered in the
    order of ``specs`` (the schedule's, whatever order the games ended in)."""
    folder.mkdir(parents=True, exist_ok=True)
    number = {spec.seed: n for n, spec in enumerate(specs, 1)}
    paths = []
    for result in sorted(results, key=lambda r: number[r.spec.seed]):
        if result.record is None:
            raise ValueError("a game was played without keeping its record")
        names = "-v-".join(re.sub(r"[^A-Za-z0-9_]+", "-", a) for a in result.spec.agents)
        path = folder / f"{number[result.spec.seed]:04d}-{names}.json"
        Record.from_json(result.record).save(path)
        paths.append(path)
    return paths


def report(game: str, agents: Sequence[str], games_per_pair: int,
           results: Sequence[MatchResult]) -> ArenaReport:
    pairs = []
    games = []
    for a, b in itertools.combinations(agents, 2):
        scores = []
        tally = [0, 0, 0]  # a wins, draws, b wins
        for r in results:
            if set(r.spec.agents) != {a, b} or a == b:
                continue
            seat_a = r.spec.agents.index(a)
            s = (r.returns[seat_a] + 1) / 2
            scores.append(s)
            games.append((a, b, s))
            tally[0 if s == 1 else 1 if s == 0.5 else 2] += 1
        mean, lo, hi = score_interval(scores)
        pairs.append({"a": a, "b": b, "a_wins": tally[0], "draws": tally[1], "b_wins": tally[2],
                      "a_score": round(mean, 4), "a_score_interval": [round(lo, 4), round(hi, 4)]})
    think: dict[str, list[float]] = {a: [0.0, 0.0] for a in agents}
    for r in results:
        for seat in (0, 1):
            think[r.spec.agents[seat]][0] += r.think_seconds[seat]
            think[r.spec.agents[seat]][1] += r.decisions[seat]
    ratings = elo(games, agents)
    return ArenaReport(
        game=game, games_per_pair=games_per_pair, agents=list(agents), pairs=pairs,
        elo={a: round(v, 1) for a, v in ratings.items()},
        elo_interval={a: (round(lo, 1), round(hi, 1))
                      for a, (lo, hi) in elo_intervals(games, agents).items()},
        decision_seconds={a: round(t / n, 4) if n else 0.0 for a, (t, n) in think.items()})


PLOTS_HINT = "install the 'plots' extra: pip install 'warboard[plots]'"


def charts_available() -> bool:
    """Whether matplotlib, which draws the chart, is installed."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def report_path(out: Path, name: str) -> Path:
    """Where ``write_outputs`` puts the JSON report of a tournament named ``name`` in ``out``."""
    return out / f"arena-{name}.json"


def write_outputs(rep: ArenaReport, out: Path) -> tuple[Path, Path | None]:
    """The JSON report and the PNG chart in ``out``; the chart's path is None when matplotlib is
    not installed (then nothing but the report is written: see ``PLOTS_HINT``)."""
    out.mkdir(parents=True, exist_ok=True)
    json_path = report_path(out, rep.game)
    json_path.write_text(json.dumps(rep.to_json(), indent=1) + "\n", encoding="utf-8")
    if not charts_available():
        return json_path, None
    png_path = out / f"arena-{rep.game}.png"
    draw_chart(rep, png_path)
    return json_path, png_path


def draw_chart(rep: ArenaReport, path: Path) -> None:
    """Elo ratings with their 95% intervals as a bar chart (needs matplotlib)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    agents = sorted(rep.agents, key=lambda a: rep.elo[a])
    values = [rep.elo[a] for a in agents]
    low = [rep.elo[a] - rep.elo_interval[a][0] for a in agents]
    high = [rep.elo_interval[a][1] - rep.elo[a] for a in agents]
    fig, ax = plt.subplots(figsize=(7, 0.6 * len(agents) + 1.6), dpi=120)
    labels = [f"{a}  {v:.0f}" for a, v in zip(agents, values, strict=True)]
    ax.barh(labels, [v - 1500 for v in values], left=1500, xerr=[low, high], color="#4c78a8",
            ecolor="#222", capsize=4)
    ax.axvline(1500, color="#888", linewidth=0.8)
    ax.set_xlabel("Elo (mean 1500) with 95% interval")
    ax.set_title(f"{rep.game}: {rep.games_per_pair} games per pair")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
