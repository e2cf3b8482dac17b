"""``warboard headtohead``: warboard's ``hard`` agent against OpenSpiel's IS-MCTS bot.

Both play through the OpenSpiel adapter (``warboard_GAME``) with the same time per decision:
warboard's ``hard`` search runs for ``--seconds`` (its iteration budget lifted), and OpenSpiel's
Python ``ISMCTSBot`` (random-rollout evaluation, its documented defaults otherwise) gets as many
simulations as it managed in ``--seconds`` on its earlier decisions of the game (its budget is
a simulation count; the first decision measures it). Games alternate the seat orders; each game
has its own seed. Needs the ``openspiel`` extra.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from typing import Any

from warboard.ai.ratings import score_interval
from warboard.core.registry import games

UCT_C = 2.0  # OpenSpiel's IS-MCTS example value
FIRST_SIMULATIONS = 4  # the OpenSpiel bot's first search, which measures its speed
MIN_SIMULATIONS = 2  # its search needs two: the first only evaluates the root


@dataclass(frozen=True)
class Job:
    game: str
    seed: int
    warboard_seat: int
    seconds: float
    window: int | None


@dataclass(frozen=True)
class Outcome:
    job: Job
    warboard_score: float  # 1 win, 0.5 draw, 0 loss
    decisions: tuple[int, int]  # warboard, OpenSpiel
    seconds: tuple[float, float]  # thinking time: warboard, OpenSpiel
    simulations: int  # OpenSpiel's, over the game


class CalibratedISMCTS:
    """OpenSpiel's ISMCTSBot with a time budget: each search gets the number of simulations
    that ``seconds`` allowed on average so far in this game."""

    def __init__(self, game: Any, seconds: float, seed: int) -> None:
        import numpy as np
        from open_spiel.python.algorithms import ismcts, mcts

        rs = np.random.RandomState(seed % 2**32)
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs)
        self.bot = ismcts.ISMCTSBot(game, evaluator, UCT_C, max_simulations=FIRST_SIMULATIONS,
                                    random_state=rs)
        rng = random.Random(seed)
        self.bot.set_resampler(lambda state, player: state.resample_from_infostate(player, rng))
        self.seconds = seconds
        self.spent = 0.0
        self.simulations = 0

    def step(self, state: Any) -> int:
        if self.simulations:
            rate = self.simulations / max(self.spent, 1e-9)
            self.bot._max_simulations = max(MIN_SIMULATIONS, round(rate * self.seconds))
        start = time.perf_counter()
        action = int(self.bot.step(state))
        if len(state.legal_actions()) > 1:  # a forced play runs no simulation
            self.spent += time.perf_counter() - start
            self.simulations += self.bot._max_simulations
        return action


def play(job: Job) -> Outcome:
    import pyspiel

    from warboard.adapters.openspiel import short_name
    from warboard.ai.levels import agent_for_level

    params = {} if job.window is None else {"window": job.window}
    game = pyspiel.load_game(short_name(job.game), params)
    encoding = game.encoding
    warboard = agent_for_level("hard", iterations=None, seconds=job.seconds)
    opponent = CalibratedISMCTS(game, job.seconds, job.seed)
    rng = random.Random(f"{job.seed}:chance")
    agent_rng = random.Random(f"{job.seed}:warboard")
    state = game.new_initial_state()
    decisions, seconds = [0, 0], [0.0, 0.0]
    while not state.is_terminal():
        if state.is_chance_node():
            ids, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(ids, probs)[0])
            continue
        player = state.current_player()
        side = 0 if player == job.warboard_seat else 1
        start = time.perf_counter()
        if side == 0:  # the plays OpenSpiel's bot can choose from: those with an action id
            legal = state.legal_actions()
            plays = [encoding.action(player, i) for i in legal]
            view = state.warboard_state.observation(player)
            choice = warboard.act(encoding.game, view, plays, agent_rng)
            action = legal[plays.index(choice)]
        else:
            action = opponent.step(state)
        seconds[side] += time.perf_counter() - start
        decisions[side] += 1
        state.apply_action(action)
    result = state.returns()[job.warboard_seat]
    return Outcome(job, (result + 1) / 2, (decisions[0], decisions[1]),
                   (seconds[0], seconds[1]), opponent.simulations)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    # IS-MCTS is the bot for hidden information
    names = [g.name for g in games() if g.hidden_information and g.encoding is not None]
    parser.add_argument("--game", choices=names, default=names[0],
                        help=f"which game (default: {names[0]})")
    parser.add_argument("--games", type=int, default=200,
                        help="games, half with each seat order (default: 200)")
    parser.add_argument("--seconds", type=float, default=0.5,
                        help="thinking time per decision for each side (default: 0.5)")
    parser.add_argument("--jobs", type=int, default=1,
                        help="games played at once in worker processes (default: 1)")
    parser.add_argument("--seed", type=int, default=1, help="seed (default: 1)")
    parser.add_argument("--window", type=int, default=None,
                        help="the adapter's window (default: the encoding's default)")
    parser.add_argument("--json", action="store_true",
                        help="print one JSON object instead of the report (docs/ai.md)")


def run(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    try:
        import warboard.adapters.openspiel  # noqa: F401 - fail early without the extra
    except ImportError as exc:
        raise ValueError(str(exc)) from exc  # the command prints it as an error

    jobs = [Job(args.game, args.seed * 100_003 + i, i % 2, args.seconds, args.window)
            for i in range(args.games)]
    console = Console(quiet=args.json)
    outcomes: list[Outcome] = []
    columns = (TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
               TextColumn("{task.fields[score]}"), TimeElapsedColumn())
    with Progress(*columns, console=console) as progress, \
            ProcessPoolExecutor(max(1, args.jobs)) as pool:
        task = progress.add_task(f"{args.game}: hard vs OpenSpiel IS-MCTS", total=len(jobs),
                                 score="")
        for future in as_completed([pool.submit(play, job) for job in jobs]):
            outcomes.append(future.result())
            mean = sum(o.warboard_score for o in outcomes) / len(outcomes)
            progress.update(task, advance=1, score=f"warboard {100 * mean:.1f}%")
    result = summary(args, outcomes)
    if args.json:
        print(json.dumps(result))
    else:
        report(console, result)
    return 0


def summary(args: argparse.Namespace, outcomes: list[Outcome]) -> dict[str, Any]:
    """The match as ``--json`` prints it; scores are warboard's (1 win, 0.5 draw, 0 loss)."""
    scores = [o.warboard_score for o in outcomes]
    mean, lo, hi = score_interval(scores)
    wins, draws = scores.count(1.0), scores.count(0.5)
    decisions = [sum(o.decisions[i] for o in outcomes) for i in (0, 1)]
    seconds = [sum(o.seconds[i] for o in outcomes) for i in (0, 1)]
    by_seat = [[o.warboard_score for o in outcomes if o.job.warboard_seat == s] for s in (0, 1)]
    return {
        "game": args.game, "games": len(outcomes), "seconds": args.seconds,
        "wins": wins, "draws": draws, "losses": len(outcomes) - wins - draws,
        "score": mean, "score_interval": [lo, hi],
        "score_by_seat": [sum(s) / len(s) if s else None for s in by_seat],
        "games_by_seat": [len(s) for s in by_seat],
        "decision_seconds": {"warboard": seconds[0] / max(decisions[0], 1),
                             "openspiel": seconds[1] / max(decisions[1], 1)},
        "openspiel_simulations_per_decision":
            sum(o.simulations for o in outcomes) / max(decisions[1], 1),
    }


def report(console: Any, result: dict[str, Any]) -> None:
    lo, hi = result["score_interval"]
    console.print(
        f"{result['game']}, {result['games']} games, {result['seconds']} s per decision: "
        f"warboard hard {result['wins']} W, {result['draws']} D, {result['losses']} L — score "
        f"{100 * result['score']:.1f}% (95% interval {100 * lo:.1f}–{100 * hi:.1f}%)")
    for seat, (score, played) in enumerate(zip(result["score_by_seat"],
                                               result["games_by_seat"], strict=True)):
        if played:
            console.print(f"  warboard as seat {seat}: {100 * score:.1f}% of {played} games")
    seconds = result["decision_seconds"]
    console.print(f"  s/decision (all decisions): warboard {seconds['warboard']:.3f}, OpenSpiel "
                  f"{seconds['openspiel']:.3f}; OpenSpiel simulations/decision "
                  f"{result['openspiel_simulations_per_decision']:.1f}")
