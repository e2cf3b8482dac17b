"""The ``warboard`` command: one entry point, a subcommand per job, ``--help`` on each.

Exit status: 0 when the command did its job, 1 when it failed at run time (one line
``warboard: error: ...`` on stderr: a file that cannot be read, an unknown scenario or agent, a
database that cannot be opened) or its reader closed the pipe, 2 for a command line that
argparse refuses or server settings that are not valid, 130 on Ctrl-C. ``warboard loadtest``
also exits 1 when the load test found errors (docs/load.md).
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from types import ModuleType

import shtab

from warboard import __version__
from warboard.ai.parallel import BACKENDS
from warboard.core import registry
from warboard.core.errors import WarboardError
from warboard.server.data_cli import add_commands as add_data_commands
from warboard.server.settings import (
    CONFIG_ENV,
    ENV_PREFIX,
    SERVE_FLAGS,
    flag,
    settings_help,
)

Commands = argparse._SubParsersAction  # what add_subparsers returns (argparse names no type)
COMPLETION_SHELLS = ("bash", "zsh", "tcsh")
PATH_COMPLETION = {"FILE": shtab.FILE, "DIR": shtab.DIRECTORY}  # by metavar


def _game_clis() -> dict[tuple[str, ...], ModuleType]:
    """Each game package's command-line module (``GameInfo.cli``), with the games it serves."""
    names: dict[str, list[str]] = {}
    for game in registry.games():
        if game.cli is not None:
            names.setdefault(game.cli, []).append(game.name)
    return {tuple(games): importlib.import_module(cli) for cli, games in names.items()}


def build_parser() -> argparse.ArgumentParser:
    titles = ", ".join(f"{g.title} ({g.name})" for g in registry.games())
    parser = argparse.ArgumentParser(
        prog="warboard",
        description=f"Two-player tactical wargames with exact rules: {titles}.",
        epilog="Run 'warboard COMMAND --help' for the options of a command. Exit status: 0 "
               "done, 1 failed (the reason on stderr), 2 bad usage.")
    parser.add_argument("--version", action="version", version=f"warboard {__version__}")
    parser.set_defaults(game_options={})
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    clis = _game_clis()
    play = _add_play(sub)
    _add_replay(sub)
    _add_export(sub)
    rules_queries = _add_rules(sub)
    for cli in clis.values():
        cli.add_commands(sub, rules_queries)
    arena = _add_arena(sub)
    _add_ladder(sub)
    _add_analyse(sub)
    train = _add_train(sub)
    _add_serve(sub)
    add_data_commands(sub)
    _add_loadtest(sub)
    bench = _add_bench(sub)
    _add_headtohead(sub)
    _add_completion(sub)
    for command, command_parser in (("play", play), ("arena", arena), ("bench", bench),
                                    ("train", train)):
        _add_game_options(command, command_parser, clis)
    for action in _actions(parser):
        if action.metavar in PATH_COMPLETION:
            # shtab reads an action's ``complete``, an attribute argparse does not declare
            vars(action)["complete"] = PATH_COMPLETION[action.metavar]
    return parser


def _add_play(sub: Commands) -> argparse.ArgumentParser:
    default = registry.default_game()
    play = sub.add_parser(
        "play", help="play in the terminal against the computer or a friend",
        description="Play a game in the terminal. Type 'help' at the prompt for the notation "
                    "(e.g. 'inf 1,-1 x 1,0'), 'legal' for your legal plays, 'undo' to take "
                    "back your last play.")
    play.add_argument("game", choices=registry.game_names(), nargs="?", default=default,
                      help=f"which game (default: {default})")
    play.add_argument("--ai", choices=("easy", "medium", "hard", "expert", "master"), default=None,
                      help="play against the computer at this level (default: medium); see "
                           "docs/ai.md")
    play.add_argument("--opponent", choices=("ai", "random", "human"), default="ai",
                      help="'ai' plays against the computer (level from --ai), 'random' "
                           "against a random legal player, 'human' is hot-seat for two people "
                           "at one keyboard (default: ai)")
    play.add_argument("--seat", type=int, choices=(0, 1), default=0,
                      help="your seat against the computer: 0 = South, 1 = North (default: 0)")
    play.add_argument("--seed", type=int, default=None,
                      help="seed for the shuffles (default: a random one, printed at the end)")
    play.add_argument("--save", metavar="FILE",
                      help="where to write the game record (default: ask at the end)")
    play.add_argument("--no-color", action="store_true", help="plain text output")
    play.set_defaults(run=_play)
    return play


def _add_replay(sub: Commands) -> None:
    replay = sub.add_parser(
        "replay", help="step through a saved game record",
        description="Show the board after each play of a saved record. Press Enter for the "
                    "next play, 'b' to go back, a number to jump, 'q' to quit.")
    replay.add_argument("file", metavar="FILE",
                        help="a record written by 'warboard play' or 'warboard export'")
    replay.add_argument("--seat", type=int, choices=(0, 1), default=None,
                        help="show the game as this seat saw it (default: everything)")
    replay.add_argument("--all", action="store_true",
                        help="print every step at once instead of stepping interactively")
    replay.add_argument("--no-color", action="store_true", help="plain text output")
    replay.set_defaults(run=_replay)


def _add_export(sub: Commands) -> None:
    export = sub.add_parser(
        "export", help="export a record for one seat (only what that seat could see)",
        description="Write a copy of a full record that holds only what one seat could know: "
                    "the other seat's draws and burials are hidden, the seed is dropped.")
    export.add_argument("file", metavar="FILE", help="a full record")
    export.add_argument("--seat", type=int, choices=(0, 1), required=True)
    export.add_argument("--out", "-o", metavar="FILE", required=True,
                        help="where to write the seat's record")
    export.set_defaults(run=_export)


def _add_rules(sub: Commands) -> Commands:
    """``warboard rules``; its queries, to which the games add their own."""
    rules = sub.add_parser(
        "rules", help="batch rules queries in the JSON interchange format (contract §7)",
        description="Read one JSON document per line on stdin, write one JSON line per input "
                    "line on stdout. A bad line (or one over 1 MiB) gets {\"error\": ...} and "
                    "the batch goes on.")
    rules.set_defaults(strict=False, run=_rules)
    queries = rules.add_subparsers(dest="rules_command", metavar="QUERY", required=True)
    legal = queries.add_parser(
        "legal", help="position per line -> JSON array of every legal play",
        description="Each input line is a position; each output line is the JSON array of "
                    "every legal complete play (docs/interchange.md).")
    apply = queries.add_parser(
        "apply", help='{"position": P, "play": Q} per line -> next position',
        description='Each input line is {"position": P, "play": Q}; each output line is the '
                    'next decision point or {"result": ...}. Hold the Line: {"position": P, '
                    '"action": A, "dice": [...]} (docs/interchange.md).')
    for query in (legal, apply):
        query.add_argument("--strict", action="store_true",
                           help="refuse a position that no game could reach (more cards than "
                                "the deck holds) instead of answering it with \"warnings\"; "
                                "a line's own \"strict\" overrides this")
    return queries


def _add_arena(sub: Commands) -> argparse.ArgumentParser:
    default = registry.default_game()
    arena = sub.add_parser(
        "arena", help="round-robin tournament between agents, with Elo ratings",
        description="Every pair of agents plays --games games (half with each seat order). "
                    "Prints wins/draws/losses, scores with 95% intervals, Elo ratings and "
                    "decision times, and writes a JSON report and a PNG chart into --out.")
    arena.add_argument("--game", choices=registry.game_names(), default=default,
                       help=f"which game (default: {default})")
    arena.add_argument("--agents", default="random,greedy,ismcts:hard",
                       help="comma-separated agents: random, greedy, ismcts:LEVEL, a level "
                            "(easy, medium, hard, expert, master where the game ships a model) or "
                            "model:FILE, hard's search with a model 'warboard train' made "
                            "(default: random,greedy,ismcts:hard)")
    arena.add_argument("--games", type=int, default=20,
                       help="games per pair of agents (default: 20)")
    _add_tournament_arguments(arena, "arena-out")
    arena.add_argument("--records", metavar="DIR", default=None,
                       help="also save every game's full record into DIR (NNNN-SEAT0-v-SEAT1.json, "
                            "docs/records.md), to replay or analyse")
    arena.add_argument("--json", action="store_true",
                       help="print the JSON report (the file's content) instead of the tables "
                            "(docs/ai.md)")
    arena.set_defaults(run="warboard.ai.arena_cli:run_arena_command")
    return arena


def _positive_seconds(text: str) -> float:
    try:
        seconds = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not 0 < seconds <= 3600:
        raise argparse.ArgumentTypeError("give a number of seconds above 0 and at most 3600")
    return seconds


def _add_tournament_arguments(command: argparse.ArgumentParser, out: str) -> None:
    """How ``arena`` and ``ladder`` play their games and where they write their reports."""
    command.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                         help="parallel worker processes (default: one per core)")
    command.add_argument("--backend", choices=BACKENDS, default="process",
                         help="run games in local processes or as Ray tasks (extra 'ray')")
    command.add_argument("--seed", type=int, default=1, help="tournament seed (default: 1)")
    timing = command.add_mutually_exclusive_group()
    timing.add_argument("--no-time-caps", action="store_true",
                        help="levels search their full iteration budgets however long it "
                             "takes: results replay exactly and do not depend on the "
                             "machine's load")
    timing.add_argument("--seconds", type=_positive_seconds, default=None, metavar="S",
                        help="every searching agent decides in S seconds, its iteration "
                             "budget lifted: the agents compared at equal time")
    command.add_argument("--out", metavar="DIR", default=out,
                         help=f"folder for the JSON reports and PNG charts (default: {out})")


def _add_ladder(sub: Commands) -> None:
    ladder = sub.add_parser(
        "ladder", help="the round robin of every computer level for each game, with Elo",
        description="For each game, every pair of random, greedy and the levels (easy, "
                    "medium, hard, expert) plays --games games, half with each seat order "
                    "(Hold the Line: --games on each of its battles). Prints the tables and "
                    "writes GAME-ladder's JSON report and PNG chart into --out (docs/ai.md, "
                    "\"The ladder\").")
    # checked by the command: argparse refuses an empty list of choices in 3.11
    ladder.add_argument("game", nargs="*", metavar="GAME",
                        help=f"which games: {', '.join(registry.game_names())} (default: all)")
    ladder.add_argument("--games", type=int, default=20,
                        help="games per pair (on each battle), even (default: 20)")
    _add_tournament_arguments(ladder, "ladder-out")
    ladder.add_argument("--json", action="store_true",
                        help="print each game's JSON report, one a line")
    ladder.set_defaults(run="warboard.ai.ladder:run_ladder_command", records=None)


def _add_analyse(sub: Commands) -> None:
    analyse = sub.add_parser(
        "analyse", help="judge every decision of a saved record: win probability, mistakes",
        description="Judge each decision of a full record by a search from what that seat "
                    "knew then (never from the hidden cards it could not see): the win "
                    "probability after it, the search's better play, and a label by how much "
                    "was lost (inaccuracy 5%%, mistake 10%%, blunder 20%%); then each side's "
                    "accuracy and biggest loss. See docs/ai.md.")
    analyse.add_argument("file", metavar="FILE",
                         help="a full record ('warboard play --save', 'warboard arena "
                              "--records')")
    analyse.add_argument("--level", choices=("medium", "hard", "expert"),
                         default="hard", help="the search that judges (default: hard)")
    analyse.add_argument("--iterations", type=int, default=None,
                         help="iterations a decision (default: the level's budget)")
    analyse.add_argument("--seed", type=int, default=1,
                         help="seed of the searches (default: 1); an analysis replays exactly")
    analyse.add_argument("--json", action="store_true",
                         help="one JSON object a line: each decision (ply, seat, played, "
                              "win_probability, best, best_win_probability, loss, label), then "
                              "the summary")
    analyse.set_defaults(run="warboard.ai.analysis_cli:run_analyse_command")


def _add_train(sub: Commands) -> argparse.ArgumentParser:
    train = sub.add_parser(
        "train", help="self-play training of a policy-value model for the search",
        description="Each generation the best model so far (at first the game's hand-written "
                    "evaluation) plays --games self-play games with the search in the loop; "
                    "the learner (PyTorch, the 'train' extra) fits the model to the last "
                    "--buffer generations' decisions; the new model plays --eval-games games "
                    "against the best and is kept when it scores --keep-score. Writes the "
                    "checkpoint, models, samples and an Elo plot into --out; --resume goes on "
                    "after an interruption. Reproducible from --seed (docs/ai.md, \"Self-play "
                    "training\").")
    train.add_argument("game", choices=registry.game_names(), metavar="GAME",
                       help=f"which game: {', '.join(registry.game_names())}")
    train.add_argument("--out", metavar="DIR", default="train-out",
                       help="the run's folder (default: train-out)")
    train.add_argument("--resume", action="store_true",
                       help="go on with the run in --out (its configuration; --generations "
                            "may raise its length)")
    from warboard.ai.train_config import TrainConfig

    defaults = TrainConfig("", {}, {})
    numbers = (
        ("generations", int, "generations to train"),
        ("games", int, "self-play games a generation"),
        ("iterations", int, "search iterations a decision, in self-play and judging games"),
        ("exploration", float, "the search's exploration constant"),
        ("explore-decisions", int, "each seat's first decisions of a self-play game drawn in "
                                   "proportion to the visits"),
        ("buffer", int, "generations of samples the learner fits (the replay buffer)"),
        ("hidden", int, "units in each of the model's two hidden layers"),
        ("epochs", int, "passes over the buffer a generation"),
        ("batch", int, "samples a learning step"),
        ("learning-rate", float, "Adam's learning rate"),
        ("weight-decay", float, "Adam's weight decay (L2 penalty)"),
        ("holdout", float, "the share of each generation's samples (its newest games) kept "
                           "out of learning, to judge the model on after each epoch"),
        ("eval-games", int, "games of the new model against the best, even"),
        ("keep-score", float, "the score against the best that keeps a new model"),
        ("value-weight", float, "the model's share of the search's value beside the game's "
                                "hand-written evaluation (1: the model's alone; 0: its "
                                "policy only)"),
        ("seed", int, "the run's seed"),
    )
    for name, kind, text in numbers:
        default = getattr(defaults, name.replace("-", "_"))
        # None: the configuration's default, or on --resume the run's own
        train.add_argument(f"--{name}", type=kind, default=None,
                           help=f"{text} (default: {default})")
    # None: the configuration's default, or on --resume the run's own
    train.add_argument("--compiled", action="store_const", const=True, default=None,
                       help="search with the compiled search where the game has one (the card "
                            "games, about forty times faster); the run then differs on a "
                            "machine without a C compiler (default: the Python search)")
    train.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                       help="parallel self-play worker processes (default: one per core)")
    train.add_argument("--backend", choices=BACKENDS, default="process",
                       help="self-play workers and the learner in local processes or as Ray "
                            "tasks (extra 'ray'; RAY_ADDRESS names a cluster)")
    train.add_argument("--json", action="store_true",
                       help="print each finished generation as one JSON object a line")
    train.set_defaults(run="warboard.ai.train_cli:run_train_command")
    return train


def _add_serve(sub: Commands) -> None:
    serve = sub.add_parser(
        "serve", help="run the web table: play in a browser against the computer or a friend",
        description="Run the table server (FastAPI + Uvicorn, one process) and print the "
                    "address to open in a browser. Games are stored in a database and survive "
                    "a restart. The API is described in docs/server-api.md, the limits on what "
                    "one client may spend in docs/security.md.",
        epilog=settings_help(), formatter_class=argparse.RawDescriptionHelpFormatter)
    serve.add_argument("--config", metavar="FILE", default=None,
                       help=f"a TOML file of settings (name = value; default: the file "
                            f"{CONFIG_ENV} names, if any); see docs/operations.md")
    # the values are checked with the other settings (load_settings), which names a bad one
    for name in SERVE_FLAGS:
        serve.add_argument(flag(name), default=argparse.SUPPRESS, metavar=name.upper(),
                           help=f"the setting {ENV_PREFIX}{name.upper()} (below)")
    serve.set_defaults(run="warboard.server.serve:run_serve")


def _add_loadtest(sub: Commands) -> None:
    default = registry.default_game()
    loadtest = sub.add_parser(
        "loadtest", help="load-test the web table: many bot-vs-bot games over WebSockets",
        description="Start 'warboard serve' on a free port of 127.0.0.1 with a fresh SQLite "
                    "file (or use --url), keep --games friend games live for --seconds, two "
                    "bots per game playing random legal actions over WebSockets after a "
                    "human-like think time, and report accepted actions per second and the "
                    "p50/p90/p99 latency from sending an action to the seat's new state. Each "
                    "game's bots speak from a loopback address of their own (127.1.x.y), so "
                    "each game is a client of its own to the server's per-client limits. "
                    "Exits 1 if anything went wrong for those players (a refused play, a "
                    "dropped connection) or the server logged an error or a traceback; what a "
                    "--flood gets refused does not count. See docs/load.md.")
    loadtest.add_argument("--games", type=int, default=200,
                          help="games kept live at once; a finished game is replaced by a new "
                               "one (default: 200)")
    loadtest.add_argument("--seconds", type=float, default=60.0,
                          help="how long to measure, after the first games are open "
                               "(default: 60)")
    loadtest.add_argument("--game", choices=registry.game_names(), default=default,
                          help=f"which game (default: {default})")
    loadtest.add_argument("--think", metavar="MS", default="2000-6000",
                          help="each bot's think time before it acts, in milliseconds: MS, or "
                               "MIN-MAX for a uniform random time (default: 2000-6000, a "
                               "person's pace; docs/load.md)")
    loadtest.add_argument("--clock", metavar="INITIAL+INCREMENT", default=None,
                          help="give each game a real-time clock, in seconds (e.g. 180+2: 3 "
                               "minutes a seat and 2 more each turn); needs a server with "
                               "clocks (default: no clock)")
    loadtest.add_argument("--url", action="append", default=None,
                          help="test a server already running on this machine (e.g. "
                               "http://127.0.0.1:8218) instead of starting one; only loopback "
                               "addresses are accepted. Give it again for more server "
                               "processes of one database: games go to each in turn")
    loadtest.add_argument("--port", type=int, default=0,
                          help="port for the server it starts (default: 0, a free one)")
    loadtest.add_argument("--database-url", default=None,
                          help="database of the server it starts (default: a fresh SQLite file "
                               "in a temporary folder, removed afterwards)")
    loadtest.add_argument("--serve-args", default="", metavar="ARGS",
                          help="more options for the 'warboard serve' it starts, in one string "
                               "(e.g. \"--ai-workers 0\")")
    loadtest.add_argument("--seed", type=int, default=None,
                          help="seed for the bots' choices and think times (default: random)")
    loadtest.add_argument("--flood", action="store_true",
                          help="one more client, from 127.0.0.2, floods the server through the "
                               "window: new games (expert games against the computer among "
                               "them) and WebSocket messages as fast as the server answers, "
                               "sockets up to and past its limit; what it got (accepted, "
                               "refused, dropped) is reported apart from the players' figures")
    loadtest.add_argument("--json", action="store_true",
                          help="print one JSON object instead of the table")
    loadtest.set_defaults(run="warboard.loadtest:run_loadtest")


def _add_bench(sub: Commands) -> argparse.ArgumentParser:
    bench = sub.add_parser(
        "bench", help="measure engine speed (random games, legal-play generation)",
        description="Play uniformly random full games on one core and time 'rules legal' on a "
                    "corpus of positions from such games.")
    bench.add_argument("game", choices=[g.name for g in registry.games() if g.bench],
                       help="which game")
    bench.add_argument("--seconds", type=float, default=5.0,
                       help="how long to play random games (default: 5)")
    bench.add_argument("--corpus", type=int, default=2000,
                       help="positions in the 'rules legal' corpus (default: 2000)")
    bench.add_argument("--seed", type=int, default=1, help="seed (default: 1)")
    bench.add_argument("--ai", metavar="LEVEL", choices=("medium", "hard", "expert", "master"),
                       help="also time the IS-MCTS agent of this level (simulations/s, "
                            "seconds a decision, the slowest)")
    bench.add_argument("--ai-decisions", type=int, default=20,
                       help="decision points for --ai (default: 20)")
    bench.add_argument("--python-search", action="store_true",
                       help="time --ai with the Python search even where a compiled one is "
                            "built (the card games)")
    bench.add_argument("--env", action="store_true",
                       help="time the Gymnasium environment against the engine instead (extra "
                            "'rl'; decisions/s of both and their ratio, docs/adapters.md)")
    bench.add_argument("--json", action="store_true", help="print one JSON object")
    bench.set_defaults(run=_bench)
    return bench


def _add_headtohead(sub: Commands) -> None:
    from warboard.adapters.headtohead import add_arguments

    headtohead = sub.add_parser(
        "headtohead", help="warboard's hard agent against OpenSpiel's IS-MCTS bot (extra "
                           "'openspiel')",
        description="Play warboard's hard agent against OpenSpiel's IS-MCTS bot through the "
                    "OpenSpiel adapter, the same seconds per decision each, half the games "
                    "with each seat order; prints the score with its 95% interval "
                    "(docs/adapters.md).")
    add_arguments(headtohead)
    headtohead.set_defaults(run="warboard.adapters.headtohead:run")


def _add_completion(sub: Commands) -> None:
    completion = sub.add_parser(
        "completion", help="print a shell completion script (bash, zsh, tcsh)",
        description="Print the completion script of the warboard command for a shell, made "
                    "from its options by shtab. bash: eval \"$(warboard completion bash)\" "
                    "in ~/.bashrc; zsh: warboard completion zsh > a folder on $fpath, as "
                    "_warboard; tcsh: eval `warboard completion tcsh` in ~/.tcshrc "
                    "(docs/playing.md).")
    completion.add_argument("shell", choices=COMPLETION_SHELLS, help="the shell")
    completion.set_defaults(run=_completion)


def _add_game_options(command: str, command_parser: argparse.ArgumentParser,
                      clis: dict[tuple[str, ...], ModuleType]) -> None:
    """The games' own options of ``command``, a group per game package, remembered so that
    ``check_game_options`` can refuse one given for another game."""
    owned = {}
    for names, cli in clis.items():
        group = command_parser.add_argument_group(f"{'/'.join(names)} options")
        cli.add_arguments(command, group)
        if group._group_actions:  # argparse keeps no public list of a group's options
            owned[names] = list(group._group_actions)
    command_parser.set_defaults(game_options=owned)


def _actions(parser: argparse.ArgumentParser) -> Iterator[argparse.Action]:
    """Every option and argument of ``parser`` and of its subcommands, at any depth."""
    for action in parser._actions:
        yield action
        if isinstance(action, argparse._SubParsersAction):
            for command in dict.fromkeys(action.choices.values()):  # aliases share a parser
                yield from _actions(command)


def check_game_options(args: argparse.Namespace) -> None:
    """Refuse an option that another game than ``args.game`` added to the command."""
    for names, actions in args.game_options.items():
        if args.game in names:
            continue
        for action in actions:
            if vars(args)[action.dest] != action.default:
                raise ValueError(f"{action.option_strings[0]} is a {'/'.join(names)} option, "
                                 f"not one of {args.game}")


def _part(game: str, module: str | None, what: str) -> ModuleType:
    """``module``, a part of ``game``'s descriptor (its terminal front end, its benchmark)."""
    if module is None:
        raise ValueError(f"{game} has no {what}")
    return importlib.import_module(module)


def _play(args: argparse.Namespace) -> int:
    terminal = registry.info(args.game).terminal
    return _part(args.game, terminal, "terminal front end").play(args)


def _replay(args: argparse.Namespace) -> int:
    from warboard.core.record import Record

    record = Record.load(args.file)
    terminal = registry.info(record.game).terminal
    return _part(record.game, terminal, "terminal front end").replay(record, args)


def _export(args: argparse.Namespace) -> int:
    from warboard.core.record import Record, export_for_seat

    export_for_seat(Record.load(args.file), args.seat).save(args.out)
    print(f"wrote {args.out} (as seen by seat {args.seat})")
    return 0


def _rules(args: argparse.Namespace) -> int:
    from warboard.core.interchange import read_lines, router, run_batch

    handler = router(args.rules_command, strict=args.strict)
    out = sys.stdout
    for line in run_batch(read_lines(sys.stdin.buffer), handler):
        out.write(line + "\n")
    return 0


def _bench(args: argparse.Namespace) -> int:
    if args.env:
        from warboard.adapters.bench import run_env_bench

        return run_env_bench(args)
    return _part(args.game, registry.info(args.game).bench, "benchmark").run_bench(args)


def _completion(args: argparse.Namespace) -> int:
    print(shtab.complete(build_parser(), args.shell), end="")
    return 0


def _message(exc: Exception) -> str:
    if isinstance(exc, OSError) and exc.strerror and exc.filename is not None:
        return f"{exc.filename}: {exc.strerror}"
    return str(exc)


def _run(argv: Sequence[str] | None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        check_game_options(args)
    except ValueError as exc:
        parser.error(str(exc))
    run: str | Callable[[argparse.Namespace], int] = args.run
    try:
        return (registry.resolve(run) if isinstance(run, str) else run)(args)
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        raise
    except (WarboardError, ValueError, OSError) as exc:
        print(f"warboard: error: {_message(exc)}", file=sys.stderr)
        return 1


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command and return its exit status (see the module's docstring)."""
    try:
        try:
            return _run(argv)
        finally:
            sys.stdout.flush()  # a closed pipe shows here rather than at the interpreter's exit
    except BrokenPipeError:
        # the reader has gone (warboard scenarios | head -1): stop without a word, as the
        # Python docs advise (signal module, "Note on SIGPIPE"): stdout to /dev/null so that the
        # flush at exit does not fail again, and status 1 since not all was written
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


if __name__ == "__main__":
    sys.exit(main())
