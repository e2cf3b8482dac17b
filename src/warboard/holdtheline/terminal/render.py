"""Hold the Line screens drawn with rich, from observations (position JSON) only.

The board is drawn as rows of hexes, odd rows shifted half a hex to the right (the "odd-r"
layout of the files: ``col,row``, ``0,0`` at the top left). A hex is its terrain
letter, then the unit there as its id and MP (``f A3 4``), then a mark: ``*`` a leader, ``+`` a
second unit, ``$`` a VP counter, ``@`` an objective, ``>`` an exit. Seat 0's units are blue,
seat 1's red; with ``--no-color`` seat 1's ids are written in lower case.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

Hex = tuple[int, int]
Obs = Mapping[str, Any]

SIDE_STYLES = ("bold blue", "bold red")
TERRAIN = {  # letter, style
    "clear": (".", "dim"),
    "forest": ("f", "green"),
    "hill": ("h", "yellow"),
    "town": ("t", "magenta"),
    "waterway": ("w", "cyan"),
    "bridge": ("b", "bold cyan"),
    "ford": ("o", "cyan"),
    "swamp": ("s", "dim green"),
    "fence": ("n", "yellow"),
    "entrenchment": ("e", "bold yellow"),
}


def hx(h: Sequence[int] | None) -> str:
    return "-" if h is None else f"{h[0]},{h[1]}"


def side_label(obs: Obs, seat: int) -> str:
    labels = obs.get("labels") or [s.capitalize() for s in obs["sides"]]
    return str(labels[seat])


def unit_label(u: Mapping[str, Any], plain: bool) -> str:
    uid = str(u["id"])
    return uid.lower() if plain and u["side"] == 1 else uid


def terrain_map(obs: Obs) -> dict[Hex, str]:
    return {(t["at"][0], t["at"][1]): t["terrain"] for t in obs.get("terrain", ())}


def board_text(obs: Obs, marked: Collection[Hex] = (), plain: bool = False) -> Text:
    """The map with its pieces; ``marked`` hexes are shown with ``+`` when empty (destinations)
    and ``!`` after the unit when occupied (targets)."""
    cols, rows = obs["cols"], obs["rows"]
    terrain = terrain_map(obs)
    units: dict[Hex, list[Mapping[str, Any]]] = {}
    for u in obs["units"]:
        if u.get("status", "board") == "board" and u.get("at") is not None:
            units.setdefault((u["at"][0], u["at"][1]), []).append(u)
    leaders = {(L["at"][0], L["at"][1]): L for L in obs.get("leaders", ())
               if L.get("status", "board") == "board" and L.get("at") is not None}
    counters = {(c["at"][0], c["at"][1]): c for c in obs.get("vp_counters", ())}
    objectives = {(o["at"][0], o["at"][1]) for o in obs.get("objectives", ())}
    exits = {(h[0], h[1]) for e in obs.get("exits", ()) for h in e["hexes"]}
    width = max([len(str(u["id"])) for u in obs["units"]] + [3])  # of an id
    cell_width = width + 5  # terrain letter, space, id, space, MP, mark
    out = Text()
    half = cell_width // 2
    out.append("    " + "".join(f"{c:<{cell_width}}" for c in range(cols)).rstrip() + "\n",
               style="dim")
    for r in range(rows):
        out.append(f"{r:>2}  ", style="dim")
        if r & 1:
            out.append(" " * half)
        for c in range(cols):
            h = (c, r)
            letter, tstyle = TERRAIN.get(terrain.get(h, "clear"), ("?", ""))
            here = sorted(units.get(h, ()), key=lambda u: u["kind"] == "artillery")
            cell = Text()
            cell.append(letter, style=tstyle)
            if here:
                u = here[0]
                cell.append(f" {unit_label(u, plain):<{width}} {u['mp']}",
                            style=SIDE_STYLES[u["side"]])
            elif h in leaders:
                L = leaders[h]
                name = str(L["name"])[:width + 2]
                cell.append(f" {name.lower() if plain and L['side'] == 1 else name:<{width + 2}}",
                            style=SIDE_STYLES[L["side"]].replace("bold ", "italic "))
            elif h in marked:
                cell.append(f" {'+':^{width + 2}}", style="bold reverse")
            else:
                cell.append(" " * (width + 3))
            mark, mstyle = " ", ""
            if h in leaders and here:
                mark, mstyle = "*", SIDE_STYLES[leaders[h]["side"]]
            elif len(here) > 1:
                mark, mstyle = "+", SIDE_STYLES[here[1]["side"]]
            elif h in counters:
                mark, mstyle = "$", SIDE_STYLES[counters[h]["side"]]
            elif h in objectives:
                mark, mstyle = "@", "bold"
            elif h in exits:
                mark, mstyle = ">", "bold"
            if h in marked and here:
                mark, mstyle = "!", "bold reverse"
            cell.append(mark, style=mstyle)
            out.append_text(cell)
        out.rstrip()
        out.append("\n")
    out.rstrip()
    return out


LEGEND = ("terrain: . clear  f forest  h hill  t town  w waterway  b bridge  o ford  s swamp  "
          "n fence  e entrenchment; a hex shows a unit as ID MP; marks: * leader  + second "
          "unit  $ VP counter  @ objective  > exit")


def time_out_text(obs: Obs) -> str:
    """What the turn limit brings when nobody has won by then."""
    if obs.get("time_out_by_vp"):
        return "more VP wins"
    winner = obs.get("time_out_winner")
    return "a draw" if winner is None else side_label(obs, winner) + " win"


def track_text(obs: Obs) -> Text:
    """The turn track, who is on turn with how many AP, and each side's VP and target."""
    turn, limit = obs["turn"], obs["turn_limit"]
    out = Text()
    out.append("Turn ", style="bold")
    for t in range(1, limit + 1):
        out.append(f"[{t}]" if t == turn else f" {t} ", style="bold reverse" if t == turn
                   else ("dim" if t < turn else ""))
    out.append(f"  of {limit}")
    out.append(f"  (time out: {time_out_text(obs)})\n", style="dim")
    active = obs["active"]
    out.append(f"{side_label(obs, active)} on turn", style=SIDE_STYLES[active])
    if obs["phase"] == "act":
        ap = obs["ap"]
        out.append(f"  AP {ap}: ")
        out.append("●" * ap if ap <= 20 else str(ap), style="bold")
    elif obs["phase"] == "ap":
        out.append("  (rolling the action die)")
    elif obs["phase"] == "assign":
        out.append("  (before turn 1: assigning the leader ratings, 11.6)")
    out.append("\n")
    for seat in (0, 1):
        vp = obs["vp"][seat]
        target = (obs.get("vp_target") or [None, None])[seat]
        lost = obs["leaders_lost"][seat]
        out.append(f"{side_label(obs, seat):<12}", style=SIDE_STYLES[seat])
        out.append(f" VP {vp}" + (f" of {target}" if target is not None else ""))
        out.append(f"   command AP {obs['command_ap'][seat]}"
                   + (f" - {lost} leader{'s' if lost > 1 else ''} lost" if lost else ""))
        exits = [e for e in obs.get("exits", ()) if e["side"] == seat]
        if exits:
            e = exits[0]
            out.append(f"   exited {e['exited']} ({e['vp'][0]} VP per {e['vp'][1]})")
        out.append("\n")
    out.rstrip()
    return out


def units_table(obs: Obs, seat: int | None = None) -> Table:
    """The units of both sides (or ``seat``'s): hex, kind, MP, leader with them, status; those
    of the side on turn that can still act are marked."""
    table = Table(box=None, pad_edge=False, show_edge=False, header_style="bold")
    for col in ("", "unit", "kind", "MP", "at", "leader", "status"):
        table.add_column(col)
    leaders = {(L["at"][0], L["at"][1]): L for L in obs.get("leaders", ())
               if L.get("status", "board") == "board" and L.get("at") is not None}
    acting = obs["phase"] == "act" and obs.get("pending") is None
    for u in obs["units"]:
        if seat is not None and u["side"] != seat:
            continue
        status = u.get("status", "board")
        at = tuple(u["at"]) if u.get("at") is not None else None
        can = acting and status == "board" and u["side"] == obs["active"] and not u["acted"]
        note = {"board": "acted" if u["acted"] else "", "eliminated": "eliminated",
                "exited": "exited", "waiting": f"arrives turn {u.get('arrive')}"}[status]
        leader = leaders.get(at) if at else None
        table.add_row("▶" if can else "", Text(str(u["id"]), style=SIDE_STYLES[u["side"]]),
                      u["kind"], f"{u['mp']}/{u['start_mp']}", hx(u.get("at")),
                      str(leader["name"]) if leader and leader["side"] == u["side"] else "",
                      Text(note, style="dim" if status != "board" else ""))
    return table


def leaders_text(obs: Obs) -> Text:
    out = Text()
    rated = bool((obs.get("options") or {}).get("leader_ratings"))  # 11.6: ratings matter
    for L in obs.get("leaders", ()):
        status = L.get("status", "board")
        where = hx(L.get("at")) if status == "board" else status
        out.append(f"{L['name']}", style=SIDE_STYLES[L["side"]])
        rating = f" {L['rating'][0]}/{L['rating'][1]}" if rated else ""
        out.append(f" ({L['id']}){rating} {where}" + (" acted" if L.get("acted") else "")
                   + (f", {L['hits']} hit" if L.get("hits") else "") + ";  ")
    out.rstrip()
    return out


def screen(obs: Obs, log: Sequence[str], title: str | None = None, plain: bool = False,
           marked: Collection[Hex] = ()) -> RenderableType:
    parts: list[RenderableType] = []
    heading = title or f"{obs.get('title') or obs.get('scenario')}"
    parts.append(Text(heading, style="bold underline"))
    parts.append(board_text(obs, marked, plain))
    parts.append(Text(LEGEND, style="dim"))
    parts.append(track_text(obs))
    parts.append(units_table(obs))
    parts.append(Text("Leaders: ", style="bold") + leaders_text(obs))
    if log:
        parts.append(Text("Log:", style="bold"))
        parts.append(Text("\n".join("  " + line for line in log)))
    return Group(*parts)


def result_sentence(obs: Obs) -> str:
    result = obs.get("result") or {}
    text = str(result.get("text") or "the game is over")
    vp = result.get("vp")
    score = (f" (VP: {side_label(obs, 0)} {vp[0]}, {side_label(obs, 1)} {vp[1]})"
             if vp else "")
    return text[0].upper() + text[1:] + score + "."
