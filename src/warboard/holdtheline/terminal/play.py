"""``warboard play holdtheline``: Hold the Line in the terminal, and ``warboard replay`` of its
records.

A human plays one side against a built-in agent (``--ai LEVEL`` or ``--opponent random``), or
two humans share the keyboard (``--opponent human``; nothing is hidden in this game, so there is
no hand-over). The game runs through ``core.session.Session`` (the recorder, chance from the
seed, undo), and every die is shown with what it did as the engine's events arrive. Screens and
logs are drawn from observations (``render``); commands are read by ``commands``.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Mapping
from typing import Any

from rich.console import Console
from rich.text import Text

from warboard.core.i18n import english
from warboard.core.protocol import CHANCE
from warboard.core.record import Record, replay_states
from warboard.core.registry import make_game
from warboard.core.session import Session
from warboard.holdtheline.actions import action_from_json
from warboard.holdtheline.scenario_file import scenario_option
from warboard.holdtheline.terminal.commands import (
    HELP,
    CommandError,
    describe,
    parse_hex,
    read_action,
    resolve_piece,
)
from warboard.holdtheline.terminal.render import (
    SIDE_STYLES,
    hx,
    result_sentence,
    screen,
    side_label,
    units_table,
)
from warboard.terminal.agents import ComputerPlayer, make_agent
from warboard.terminal.loop import QUIT_WORDS, PromptLoop
from warboard.terminal.prompt import InputFn, Prompter
from warboard.terminal.replay import browse_steps

GAME = "holdtheline"
LOG_LINES = 12


def make_htl_console(no_color: bool = False) -> Console:
    """A console wide enough for the board (pipes and files get 132 columns)."""
    out = sys.stdout
    return Console(file=out, no_color=no_color, highlight=False, emoji=False,
                   width=None if out.isatty() else 132)


def seat_of_side(game: Any, side: str) -> int:
    """The seat of a side named by its name or label (``american``, ``Hessians``), or 0/1."""
    if side in ("0", "1"):
        return int(side)
    names = [(s.name.lower(), s.display_name.lower()) for s in game.scenario.sides]
    for seat, (name, label) in enumerate(names):
        if side.lower() in (name, label) or label.startswith(side.lower()) or \
                name.startswith(side.lower()):
            return seat
    raise ValueError(f"--side {side}: this scenario's sides are "
                     f"{names[0][0]} ({names[0][1]}) and {names[1][0]} ({names[1][1]})")


def run_htl_play(args: argparse.Namespace, input_fn: InputFn = input,
                 console: Console | None = None, interactive: bool | None = None) -> int:
    """Play one game of Hold the Line as ``args`` asks; returns the exit code."""
    if args.campaign or args.campaign_file or args.resume:
        from warboard.holdtheline.terminal.campaign import run_campaign_play

        return run_campaign_play(args, input_fn, console, interactive)
    console = console or make_htl_console(args.no_color)
    if interactive is None:
        interactive = input_fn is input and sys.stdin.isatty()
    options: dict[str, Any] = {"scenario": scenario_option(args)}
    if args.rule:
        options["options"] = {rule: True for rule in args.rule}
    game = make_game(GAME, options)
    seed = args.seed if args.seed is not None else random.randrange(2**31)
    me = seat_of_side(game, args.side) if args.side else args.seat
    loop = make_loop(game, seed, me, opponent_of(args), console,
                     Prompter(console, input_fn, interactive), args.no_color)
    loop.run()
    return 0 if loop.save(args.save) else 1


def opponent_of(args: argparse.Namespace) -> str:
    """Who plays the other side: ``human`` (the same keyboard), ``random`` or an AI level."""
    level = args.ai
    if level and args.opponent != "ai":
        raise ValueError(f"--ai {level} plays against the computer; leave out "
                         f"--opponent {args.opponent}")
    return (level or "medium") if args.opponent == "ai" else args.opponent


def make_loop(game: Any, seed: int, me: int, opponent: str, console: Console,
              prompter: Prompter, plain: bool) -> HtlPlayLoop:
    """The play loop of one game: seat ``me`` at the prompt against ``opponent`` (``human``:
    both seats at the prompt)."""
    agents: dict[int, ComputerPlayer] = {}
    if opponent == "human":
        humans: tuple[int, ...] = (0, 1)
    else:
        humans = (me,)
        agents[1 - me] = make_agent(opponent, f"{seed}:{opponent}")
    players = ["human" if s in humans else agents[s].name for s in (0, 1)]
    session = Session(game, seed, players, ())
    return HtlPlayLoop(session, humans, agents, console, prompter, plain=plain)


class HtlPlayLoop(PromptLoop):
    """Runs a session to its end: chance and agents on their own, humans at the prompt."""

    def __init__(self, session: Session, humans: tuple[int, ...],
                 agents: dict[int, ComputerPlayer], console: Console, prompter: Prompter,
                 plain: bool = False) -> None:
        super().__init__(session, humans, agents, console, prompter)
        self.plain = plain
        self.shown = 0  # engine events printed so far

    @property
    def obs(self) -> Mapping[str, Any]:
        return self.session.observation(None)

    def run(self) -> None:
        s = self.session
        obs = self.obs
        self.console.print(Text(f"Hold the Line: {obs['title']}", style="bold"),
                           f"— seed {s.seed}. Type 'help' for the commands.")
        if len(self.humans) == 1:
            me = self.humans[0]
            them = 1 - me
            self.console.print(f"You play the {side_label(obs, me)}; the {side_label(obs, them)}"
                               f" are the '{self.agents[them].name}' opponent.")
        self._play_out()

    def _resolve_chance(self) -> None:
        s = self.session
        while s.state.current_player() == CHANCE:
            s.resolve_chance()
        self._print_new_events()

    def _who(self, seat: int) -> str:
        return f"The {side_label(self.obs, seat)}"

    # ------------------------------------------------------------------ output

    def _print_new_events(self) -> None:
        events = self.obs.get("events") or []
        for ev in events[self.shown:]:
            self.console.print(_event_line(ev, self.obs))
        self.shown = len(events)

    def _draw_screen(self, marked: Any = ()) -> None:
        obs = self.obs
        log = [str(e["text"]) for e in (obs.get("events") or [])][-LOG_LINES:]
        self.console.print()
        self.console.print(screen(obs, log, plain=self.plain, marked=marked))

    def _prompt(self, seat: int) -> str:
        obs = self.obs
        name = side_label(obs, seat)
        p = obs.get("pending")
        if p and p.get("wait") == "decision":
            return f"{name} [{_decision_text(p)}]> "
        if obs["phase"] == "assign":
            return f"{name} [leader ratings: a number]> "
        return f"{name} [{obs['ap']} AP]> "

    # ------------------------------------------------------------------ a human's decision

    def _human_decision(self, seat: int) -> None:
        p = self.obs.get("pending")
        if p and p.get("wait") == "decision":
            self._print_choices("Your decision: " + _decision_text(p))
        elif self.obs["phase"] == "assign":
            self._draw_screen()
            self._print_choices("Your decision: " + _ratings_task(self.obs, seat))
        else:
            self._draw_screen()
        self._read_commands(seat)

    def _print_choices(self, heading: str) -> None:
        legal = self.session.state.legal_actions()
        self.console.print(Text(heading, style="bold"))
        for i, a in enumerate(legal, 1):
            self.console.print(f"  {i:>2}. {describe(a)}")

    def _command(self, seat: int, line: str) -> None:
        words = line.split()
        word = words[0].lower() if words else ""
        s = self.session
        legal = s.state.legal_actions()
        if not words:
            self.console.print("Type an action such as 'move A3 4,5', or 'help'.")
        elif word in ("help", "?"):
            self.console.print(HELP)
        elif word == "legal":
            self._legal(legal)
        elif word in ("board", "look"):
            self._draw_screen()
        elif word == "units":
            self.console.print(units_table(self.obs))
        elif word == "log":
            self.console.print("\n".join(s.log(None, last=None)) or "(nothing yet)")
        elif word == "undo":
            self._undo(seat)
        elif word == "hint":
            self._hint(seat)
        elif word in QUIT_WORDS:
            self._quit_command(seat, word)
        elif word == "show":
            self._show(words[1:], legal)
        else:
            self._play(line, legal)

    def _legal(self, legal: list[Any]) -> None:
        state = self.session.state
        for i, a in enumerate(legal, 1):
            self.console.print(f"  {i:>3}. {describe(a, state.action_hints(a))}")

    def _play(self, line: str, legal: list[Any]) -> None:
        try:
            action, note = read_action(line, legal, self.obs)
        except CommandError as exc:
            self._error(f"Not possible: {exc}")
            return
        if note:
            self.console.print(f"({note})")
        self.session.apply(action)

    def _show(self, args: list[str], legal: list[Any]) -> None:
        if not args:
            self.console.print("write 'show HEX' (e.g. show 4,5) or 'show UNIT' (e.g. show A3)")
            return
        hints = self.session.state.action_hints
        try:
            if "," in args[0]:
                h = parse_hex("".join(args))
                self._show_hex(h, legal)
                return
            kind, pid = resolve_piece(args[0], self.obs)
        except CommandError as exc:
            self._error(f"Not possible: {exc}")
            return
        mine = [a for a in legal if getattr(a, "unit" if kind == "unit" else "leader", None)
                == pid and not (kind == "leader" and getattr(a, "unit", None) is not None)]
        marked = set()
        for a in mine:
            for attr in ("path", "target", "fire"):
                v = getattr(a, attr, None)
                if attr == "path" and v:
                    marked.add(v[-1])
                elif attr != "path" and v is not None:
                    marked.add(v)
        self._draw_screen(marked)
        if not mine:
            self.console.print(f"{pid} has nothing it can do now.")
        for a in mine:
            self.console.print(f"  {describe(a, hints(a))}")

    def _show_hex(self, h: tuple[int, int], legal: list[Any]) -> None:
        obs = self.obs
        if not (0 <= h[0] < obs["cols"] and 0 <= h[1] < obs["rows"]):
            self._error(f"Not possible: {hx(h)} is off the board (0,0 to "
                        f"{obs['cols'] - 1},{obs['rows'] - 1})")
            return
        terrain = next((t["terrain"] for t in obs.get("terrain", ()) if tuple(t["at"]) == h),
                       "clear")
        place = next((p["name"] for p in obs.get("places", ()) if tuple(p["at"]) == h), "")
        lines = [f"{hx(h)}: {terrain}" + (f" ({place})" if place else "")]
        for u in obs["units"]:
            if u.get("status") == "board" and tuple(u["at"]) == h:
                lines.append(f"  {side_label(obs, u['side'])} {u['kind']} {u['id']}, "
                             f"{u['mp']} of {u['start_mp']} MP" + (", acted" if u["acted"]
                                                                   else ""))
        for L in obs.get("leaders", ()):
            if L.get("status") == "board" and tuple(L["at"]) == h:
                lines.append(f"  {side_label(obs, L['side'])} leader {L['name']} ({L['id']})")
        for c in obs.get("vp_counters", ()):
            if tuple(c["at"]) == h:
                lines.append(f"  VP counter of the {side_label(obs, c['side'])} (the enemy "
                             "takes it by entering: +1 VP)")
        for o in obs.get("objectives", ()):
            if tuple(o["at"]) == h:
                lines.append(f"  objective of the {side_label(obs, o['side'])}: {o['vp']} VP "
                             "while one of their combat units holds it")
        hints = self.session.state.action_hints
        here = [a for a in legal if h in (getattr(a, "target", None), getattr(a, "fire", None))
                or (getattr(a, "path", None) and a.path[-1] == h)]
        if here:
            lines.append("  actions onto this hex:")
            lines += [f"    {describe(a, hints(a))}" for a in here]
        self.console.print("\n".join(lines))

    # ------------------------------------------------------------------ undo, quit, the end

    def _undo(self, seat: int) -> None:
        refusal = self.session.undo_refusal(seat)
        if refusal is not None:
            self._error(f"Cannot undo: {english(refusal)}.")
            return
        s = self.session
        taken = self.game.action_from_json(s.events[-1]["action"], s.state)
        s.undo(seat)
        self.shown = len(self.obs.get("events") or [])
        self.console.print(f"Taken back: {describe(taken)}.")  # the screen is drawn again

    def _show_result(self) -> None:
        self._draw_screen()
        self.console.print(Text(result_sentence(self.obs), style="bold"))
        self.console.print(f"Seed: {self.session.seed}")


def _ratings_task(obs: Mapping[str, Any], seat: int) -> str:
    """Option 11.6 before turn 1: which leaders share which ratings."""
    leaders = [L for L in obs["leaders"]
               if L["side"] == seat and L["status"] in ("board", "waiting")]
    return (f"give {', '.join(L['name'] for L in leaders)} the ratings "
            + ", ".join(f"{L['rating'][0]}/{L['rating'][1]}" for L in leaders)
            + ", one each (11.6); 1 is the scenario's")


def _decision_text(p: Mapping[str, Any]) -> str:
    d = p.get("decision") or {}
    kind = d.get("kind", p.get("stage"))
    if kind == "retreat":
        return f"retreat {d.get('unit')} to " + " or ".join(hx(h) for h in d.get("choices", []))
    if kind == "displace":
        return (f"displace {d.get('unit')} to "
                + " or ".join(hx(h) for h in d.get("choices", [])))
    if kind == "escape":
        return (f"escape {d.get('leader')} to "
                + " or ".join(hx(h) for h in d.get("choices", [])))
    if kind == "allocate":
        return "hits to " + " or ".join(d.get("units", []))
    if kind == "advance":
        return f"advance {p.get('unit')} into {hx(p.get('target'))}? advance / stay"
    if kind == "evade":
        return "the dragoons evade the close combat? evade / stand"
    return str(kind)


def _event_line(ev: Mapping[str, Any], obs: Mapping[str, Any]) -> Text:
    """One engine event for the running commentary: dice as ``[5]`` with what they did."""
    line = Text("  ")
    text = str(ev.get("text", ""))
    side = ev.get("side")
    if ev.get("type") == "die":
        ok = ev.get("hit", ev.get("passed", ev.get("survived")))
        style = "bold green" if ok else ("bold red" if ok is False else "bold")
        line.append(f"[{ev.get('value')}] ", style=style)
        line.append(text)
    elif ev.get("type") in ("eliminated", "leader_lost", "counter", "result"):
        line.append(text, style="bold")
    elif ev.get("type") == "end":
        line.append(text, style="dim")
    else:
        line.append(text, style=SIDE_STYLES[side] if side in (0, 1) and
                    ev.get("type") in ("move", "fire", "assault", "rally") else "")
    return line


# ============================================================================ replay

def run_htl_replay(record: Record, args: argparse.Namespace, input_fn: InputFn = input,
                   console: Console | None = None, interactive: bool | None = None) -> int:
    """Step through a Hold the Line record: a screen at each decision, with what happened
    since (every die). Nothing is hidden in this game, so ``--seat`` changes nothing."""
    console = console or make_htl_console(args.no_color)
    if interactive is None:
        interactive = input_fn is input and sys.stdin.isatty()
    if record.view is None:
        observations = [st.observation(None) for st in replay_states(record)]
    else:
        observations = list(record.frames or [])
    events = record.events
    steps = [i for i in range(len(events) + 1)
             if i == len(events) or events[i].get("seat") is not None]
    record.make_game()  # a record of options the game refuses stops here (RecordError)

    def draw(step: int) -> None:
        moment = steps[step]
        obs = observations[moment]
        before = next((i for i in range(moment - 1, -1, -1)
                       if events[i].get("seat") is not None), None)
        what = "the start"
        if before is not None and events[before].get("action") is not None:
            what = describe(action_from_json(events[before]["action"]))
        log = [str(e["text"]) for e in (obs.get("events") or [])][-LOG_LINES:]
        console.print()
        console.print(screen(obs, log, title=f"Step {step}/{len(steps) - 1} (event {moment}/"
                                              f"{len(events)}): {what}",
                             plain=args.no_color))
        if step == len(steps) - 1:
            result = record.result or {}
            if result.get("abandoned"):
                end = (f"End of the record: abandoned — the {side_label(obs, result['by'])} "
                       f"{result['how']}.")
            elif obs.get("result"):
                end = "End of the record: " + result_sentence(obs)
            else:
                end = "End of the record (the game was not finished)."
            console.print(Text(end, style="bold"))

    last = len(steps) - 1
    if args.all:
        for step in range(last + 1):
            draw(step)
        return 0
    browse_steps(len(steps), draw, console, Prompter(console, input_fn, interactive))
    return 0
