"""The ``warboard`` command: one entry point, a subcommand per job, ``--help`` on each."""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from types import ModuleType

from warboard import __version__
from warboard.core import registry
from warboard.server.settings import settings_help


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
        epilog="Run 'warboard COMMAND --help' for the options of a command.",
    )
    parser.add_argument("--version", action="version", version=f"warboard {__version__}")
    parser.set_defaults(run=None, game_options={})
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    games = registry.game_names()
    default = registry.default_game()

    play = sub.add_parser(
        "play", help="play in the terminal against the computer or a friend",
        description="Play a game in the terminal. Type 'help' at the prompt for the notation "
                    "(e.g. 'inf 1,-1 x 1,0'), 'legal' for your legal plays, 'undo' to take "
                    "back your last play.")
    play.add_argument("game", choices=games, nargs="?", default=default,
                      help=f"which game (default: {default})")
    play.add_argument("--ai", choices=("easy", "medium", "hard", "expert"), default=None,
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

    replay = sub.add_parser(
        "replay", help="step through a saved game record",
        description="Show the board after each play of a saved record. Press Enter for the "
                    "next play, 'b' to go back, a number to jump, 'q' to quit.")
    replay.add_argument("file", help="a record written by 'warboard play' or 'warboard export'")
    replay.add_argument("--seat", type=int, choices=(0, 1), default=None,
                        help="show the game as this seat saw it (default: everything)")
    replay.add_argument("--all", action="store_true",
                        help="print every step at once instead of stepping interactively")
    replay.add_argument("--no-color", action="store_true", help="plain text output")

    export = sub.add_parser(
        "export", help="export a record for one seat (only what that seat could see)",
        description="Write a copy of a full record that holds only what one seat could know: "
                    "the other seat's draws and burials are hidden, the seed is dropped.")
    export.add_argument("file", help="a full record")
    export.add_argument("--seat", type=int, choices=(0, 1), required=True)
    export.add_argument("--out", "-o", required=True, help="where to write the seat's record")

    rules = sub.add_parser(
        "rules", help="batch rules queries in the JSON interchange format (contract §7)",
        description="Read one JSON document per line on stdin, write one JSON line per input "
                    "line on stdout. A bad line (or one over 1 MiB) gets {\"error\": ...} and "
                    "the batch goes on.")
    rules.set_defaults(strict=False)
    rules_sub = rules.add_subparsers(dest="rules_command", metavar="QUERY", required=True)
    legal = rules_sub.add_parser(
        "legal", help="position per line -> JSON array of every legal play",
        description="Each input line is a position; each output line is the JSON array of "
                    "every legal complete play (docs/interchange.md).")
    apply = rules_sub.add_parser(
        "apply", help='{"position": P, "play": Q} per line -> next position',
        description='Each input line is {"position": P, "play": Q}; each output line is the '
                    'next decision point or {"result": ...}. Hold the Line: {"position": P, '
                    '"action": A, "dice": [...]} (docs/interchange.md).')
    for query in (legal, apply):
        query.add_argument("--strict", action="store_true",
                           help="refuse a position that no game could reach (more cards than "
                                "the deck holds) instead of answering it with \"warnings\"; "
                                "a line's own \"strict\" overrides this")
    clis = _game_clis()
    for cli in clis.values():
        cli.add_commands(sub, rules_sub)

    arena = sub.add_parser(
        "arena", help="round-robin tournament between agents, with Elo ratings",
        description="Every pair of agents plays --games games (half with each seat order). "
                    "Prints wins/draws/losses, scores with 95% intervals, Elo ratings and "
                    "decision times, and writes a JSON report and a PNG chart into --out.")
    arena.add_argument("--game", choices=games, default=default,
                       help=f"which game (default: {default})")
    arena.add_argument("--agents", default="random,greedy,ismcts:hard",
                       help="comma-separated agents: random, greedy, ismcts:LEVEL or a level "
                            "(easy, medium, hard, expert) (default: random,greedy,ismcts:hard)")
    arena.add_argument("--games", type=int, default=20,
                       help="games per pair of agents (default: 20)")
    arena.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                       help="parallel worker processes (default: one per core)")
    arena.add_argument("--backend", choices=("process", "ray"), default="process",
                       help="run games in local processes or as Ray tasks (extra 'ray')")
    arena.add_argument("--seed", type=int, default=1, help="tournament seed (default: 1)")
    arena.add_argument("--no-time-caps", action="store_true",
                       help="levels search their full iteration budgets however long it takes: "
                            "results replay exactly and do not depend on the machine's load")
    arena.add_argument("--out", default="arena-out",
                       help="folder for the JSON report and the PNG chart (default: arena-out)")

    serve = sub.add_parser(
        "serve", help="run the web table: play in a browser against the computer or a friend",
        description="Run the table server (FastAPI + Uvicorn, one process) and print the "
                    "address to open in a browser. Games are stored in a database and survive "
                    "a restart. The API is described in docs/server-api.md, the limits on what "
                    "one client may spend in docs/security.md.",
        epilog=settings_help(), formatter_class=argparse.RawDescriptionHelpFormatter)
    serve.add_argument("--host", default="127.0.0.1",
                       help="address to listen on (default: 127.0.0.1, this machine only; "
                            "0.0.0.0 for every network interface)")
    serve.add_argument("--port", type=int, default=8218, help="port (default: 8218)")
    serve.add_argument("--database-url", default="sqlite:///warboard.db",
                       help="SQLAlchemy URL of the database (default: sqlite:///warboard.db, a "
                            "file in the current folder; PostgreSQL: "
                            "postgresql+psycopg://USER@HOST/DB with the 'postgres' extra)")
    serve.add_argument("--ai-workers", type=int, default=max(1, (os.cpu_count() or 2) - 1),
                       help="processes for the computer's decisions (default: the cores less one, "
                            "at least 1); 0 runs them in a thread of the server")

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
    loadtest.add_argument("--game", choices=games, default=default,
                          help=f"which game (default: {default})")
    loadtest.add_argument("--think", metavar="MS", default="2000-6000",
                          help="each bot's think time before it acts, in milliseconds: MS, or "
                               "MIN-MAX for a uniform random time (default: 2000-6000, a "
                               "person's pace; docs/load.md)")
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
    bench.add_argument("--ai", metavar="LEVEL", choices=("medium", "hard", "expert"),
                       help="also time the IS-MCTS agent of this level (simulations/s, "
                            "decisions/s)")
    bench.add_argument("--ai-decisions", type=int, default=20,
                       help="decision points for --ai (default: 20)")
    bench.add_argument("--json", action="store_true", help="print one JSON object")

    headtohead = sub.add_parser(
        "headtohead", help="warboard's hard agent against OpenSpiel's IS-MCTS bot (extra "
                           "'openspiel')",
        description="Play warboard's hard agent against OpenSpiel's IS-MCTS bot through the "
                    "OpenSpiel adapter, the same seconds per decision each, half the games "
                    "with each seat order; prints the score with its 95% interval "
                    "(docs/adapters.md).")
    from warboard.adapters.headtohead import add_arguments

    add_arguments(headtohead)

    for command, command_parser in (("play", play), ("arena", arena), ("bench", bench)):
        owned = {}
        for names, cli in clis.items():
            group = command_parser.add_argument_group(f"{'/'.join(names)} options")
            cli.add_arguments(command, group)
            if group._group_actions:  # argparse keeps no public list of a group's options
                owned[names] = list(group._group_actions)
        command_parser.set_defaults(game_options=owned)
    return parser


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


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        check_game_options(args)
        if args.run is not None:  # a game's own command
            return registry.resolve(args.run)(args)
        if args.command == "play":
            terminal = registry.info(args.game).terminal
            return _part(args.game, terminal, "terminal front end").play(args)
        if args.command == "replay":
            from warboard.core.record import Record

            record = Record.load(args.file)
            return _part(record.game, registry.info(record.game).terminal,
                         "terminal front end").replay(record, args)
        if args.command == "export":
            from warboard.core.record import Record, export_for_seat

            export_for_seat(Record.load(args.file), args.seat).save(args.out)
            print(f"wrote {args.out} (as seen by seat {args.seat})")
            return 0
        if args.command == "rules":
            from warboard.core.interchange import read_lines, router, run_batch

            handler = router(args.rules_command, strict=args.strict)
            out = sys.stdout
            for line in run_batch(read_lines(sys.stdin.buffer), handler):
                out.write(line + "\n")
            out.flush()
            return 0
        if args.command == "arena":
            from warboard.ai.arena_cli import run_arena_command

            return run_arena_command(args)
        if args.command == "serve":
            from warboard.server.serve import run_serve

            return run_serve(args)
        if args.command == "loadtest":
            from warboard.loadtest import run_loadtest

            return run_loadtest(args)
        if args.command == "headtohead":
            from warboard.adapters.headtohead import run

            return run(args)
        if args.command == "bench":
            return _part(args.game, registry.info(args.game).bench, "benchmark").run_bench(args)
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    except Exception as exc:
        from warboard.core.errors import WarboardError

        if isinstance(exc, WarboardError | ValueError | OSError):
            print(f"warboard: error: {exc}", file=sys.stderr)
            return 2
        raise
    return 0


if __name__ == "__main__":
    sys.exit(main())
