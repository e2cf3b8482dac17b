"""``warboard play holdtheline --campaign NAME``: a campaign's battles in the terminal, one after
the other, with the running VP totals between them.

The campaign is saved after each battle (``--save FILE``, by default ``campaigns/NAME.json`` in
the user data folder), each battle's record beside it (``FILE-N-SCENARIO.record.json``, for
``warboard replay``); ``--resume FILE`` goes on with the next battle. Quitting a battle leaves
it unplayed (the campaign resumes with it); resigning loses it (``campaign_progress``).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any

from platformdirs import user_data_path
from rich.console import Console
from rich.text import Text

from warboard.core.errors import WarboardError
from warboard.holdtheline.campaign import Campaign, load_campaign, load_campaign_file
from warboard.holdtheline.campaign_progress import Progress
from warboard.holdtheline.game import make_game
from warboard.holdtheline.state import HtlState
from warboard.holdtheline.terminal.play import (
    GAME,
    make_htl_console,
    make_loop,
    opponent_of,
    seat_of_side,
)
from warboard.terminal.prompt import InputFn, Prompter

SAVE_FORMAT = "warboard-campaign"  # the ``format`` of a saved campaign file


def default_save(campaign: Campaign) -> Path:
    return user_data_path("warboard", appauthor=False) / "campaigns" / f"{campaign.name}.json"


def run_campaign_play(args: argparse.Namespace, input_fn: InputFn = input,
                      console: Console | None = None, interactive: bool | None = None) -> int:
    """Play (or resume) a campaign as ``args`` asks; returns the exit code."""
    console = console or make_htl_console(args.no_color)
    if interactive is None:
        interactive = input_fn is input and sys.stdin.isatty()
    if args.resume:
        path = Path(args.resume)
        saved = load_saved(path)
    else:
        campaign = (load_campaign(args.campaign) if args.campaign
                    else load_campaign_file(args.campaign_file))
        path = Path(args.save) if args.save else default_save(campaign)
        first = make_game(GAME, {"scenario": campaign.battles[0]})
        me = seat_of_side(first, args.side) if args.side else args.seat
        saved = Saved(Progress(campaign), campaign.scenario(0).sides[me].name, opponent_of(args),
                      args.seed if args.seed is not None else random.randrange(2**31))
    prompter = Prompter(console, input_fn, interactive)
    progress = saved.progress
    console.print(Text(f"Campaign: {progress.campaign.title}", style="bold"),
                  f"— {len(progress.campaign.battles)} battles; saved to {path}", soft_wrap=True)
    while (index := progress.next_index) is not None:
        show_totals(console, progress)
        game = make_game(GAME, {"scenario": progress.campaign.battles[index]})
        me = [s.name for s in game.scenario.sides].index(saved.side)
        console.print(Text(f"Battle {index + 1} of {len(progress.campaign.battles)}: "
                           f"{game.scenario.title}", style="bold"))
        loop = make_loop(game, saved.seed + index, me, saved.opponent, console, prompter,
                         args.no_color)
        loop.run()
        result = loop.session.recorder.record.result or {}
        if result.get("how") == "quit":
            console.print(f"The battle is left unplayed. Go on later: warboard play holdtheline "
                          f"--resume {path}", soft_wrap=True)  # a command to copy: one line
            return 0
        record = path.with_name(f"{path.stem}-{index + 1}-{game.scenario.name}.record.json")
        path.parent.mkdir(parents=True, exist_ok=True)
        loop.session.save(str(record))
        ruled = 1 - result["by"] if result.get("abandoned") else None
        assert isinstance(loop.session.state, HtlState)
        battle = progress.add(loop.session.state, ruled, record=record.name)  # beside it
        save(path, saved)
        console.print(f"{_banked_text(progress, battle.banked)} Record: {record}", soft_wrap=True)
    show_totals(console, progress)
    winner = progress.winner
    labels = progress.campaign.side_labels()
    console.print(Text("The campaign is over: " + ("a draw." if winner is None
                                                   else f"the {labels[winner]} side wins."),
                       style="bold"))
    return 0


def show_totals(console: Console, progress: Progress) -> None:
    labels = progress.campaign.side_labels()
    totals = ", ".join(f"{labels[s]} {vp}" for s, vp in progress.totals.items())
    console.print(f"Campaign VP after {len(progress.played)} of "
                  f"{len(progress.campaign.battles)} battles: {totals}")


def _banked_text(progress: Progress, banked: dict[str, int]) -> str:
    labels = progress.campaign.side_labels()
    return "Banked: " + ", ".join(f"{labels[s]} {vp} VP" for s, vp in banked.items()) + "."


class Saved:
    """A saved campaign: its progress, the side the player plays, the opponent and the seed
    (battle N is played with seed + N - 1)."""

    def __init__(self, progress: Progress, side: str, opponent: str, seed: int) -> None:
        self.progress, self.side, self.opponent, self.seed = progress, side, opponent, seed

    def to_json(self) -> dict[str, Any]:
        return {"format": SAVE_FORMAT, "side": self.side, "opponent": self.opponent,
                "seed": self.seed, "progress": self.progress.to_json()}


def save(path: Path, saved: Saved) -> None:
    """Write the campaign file (a new file moved over the old, so a crash leaves one whole)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fresh = path.with_name(path.name + ".new")
    fresh.write_text(json.dumps(saved.to_json(), indent=1), encoding="utf-8")
    fresh.replace(path)


def load_saved(path: Path) -> Saved:
    """A campaign file ``save`` wrote; ``WarboardError`` says what is wrong with it."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise WarboardError(f"{path}: cannot read the saved campaign: {exc}") from None
    if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
        raise WarboardError(f"{path}: not a saved campaign (format {SAVE_FORMAT!r})")
    progress = Progress.from_json(data.get("progress") or {}, str(path))
    side, opponent, seed = data.get("side"), data.get("opponent"), data.get("seed")
    if (side not in progress.campaign.sides or not isinstance(opponent, str)
            or not isinstance(seed, int)):
        raise WarboardError(f"{path}: side, opponent or seed is missing or wrong")
    return Saved(progress, side, opponent, seed)
