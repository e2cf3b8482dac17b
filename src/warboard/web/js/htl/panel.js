// The Hold the Line side panels: the turn track, the AP track, both sides' VP and command, and
// the dice tray (every die of the last actions with what it did).

import { h, mount, s } from "../dom.js";
import { localName, t } from "../i18n.js";
import { KINDS, diceGroups, scenarioTitle, sideColour, sideTitle } from "./names.js";
import { eventText } from "../said.js";

function timeOutText(view) {
  if (view.time_out_by_vp) return t("htl.timeOutVp");
  const winner = view.time_out_winner;
  return winner === null || winner === undefined ? t("htl.timeOutDraw") : t("htl.timeOutWin", { side: sideTitle(view, winner) });
}

export function renderTracks(el, view, msg, hotseat = false) {
  const limit = view.turn_limit || view.turn || 1;
  const active = view.active;
  const colour = active >= 0 ? sideColour(view, active) : "";
  const turns = h("ol", { class: "track turn-track", "aria-label": t("htl.turnOf", { turn: view.turn, limit }) },
    Array.from({ length: limit }, (_, i) => {
      const n = i + 1;
      const cls = n === view.turn ? `now c-${colour}` : n < view.turn ? "past" : "";
      return h("li", { class: cls, "aria-current": n === view.turn ? "step" : null }, String(n));
    }));
  const maxAp = Math.max(6, view.ap ?? 0, ...(view.command_ap || [0]).map((c) => c + 3));
  const ap = h("ol", { class: "track ap-track", "aria-label": t("htl.apLeft", { ap: view.ap }) },
    Array.from({ length: maxAp + 1 }, (_, i) => h("li", { class: i === view.ap ? `now c-${colour}` : i < view.ap ? `fill c-${colour}` : "" },
      String(i))));
  const players = msg.players || [];
  const rows = [0, 1].map((s) => {
    const ai = /^ai/.test(players[s] || "");
    const you = !ai && !hotseat && msg.seat === s;
    const target = view.vp_target?.[s];
    return h("tr", { class: `${s === active ? "active" : ""}` },
      h("th", { scope: "row" }, h("span", { class: `chip c-${sideColour(view, s)}`, "aria-hidden": "true" }),
        sideTitle(view, s), h("span", { class: "seat-label" }, ai ? players[s].replace(/^ai:?/, "AI ") : you ? t("table.you") : "")),
      h("td", { class: "vp-cell" }, h("strong", {}, String(view.vp?.[s] ?? 0)),
        target ? h("span", { class: "muted" }, ` / ${target}`) : null),
      h("td", {}, String(view.command_ap?.[s] ?? "–")),
      h("td", {}, String(view.leaders_lost?.[s] ?? 0)));
  });
  mount(el,
    h("div", { class: "track-row" }, h("span", { class: "track-label" }, t("htl.turn")), turns),
    h("p", { class: "muted time-out" }, t("htl.afterTurn", { limit, what: timeOutText(view) })),
    h("div", { class: "track-row" }, h("span", { class: "track-label" },
      active >= 0 ? t("htl.sideAp", { side: sideTitle(view, active) }) : "AP"), ap),
    h("table", { class: "seats htl-seats" },
      h("thead", {}, h("tr", {}, h("th", {}, h("span", { class: "sr-only" }, t("table.side"))),
        h("th", { scope: "col", title: t("htl.vpTitle") }, "VP"),
        h("th", { scope: "col", title: t("htl.commandTitle") }, t("htl.command")),
        h("th", { scope: "col" }, t("htl.leadersLost")))),
      h("tbody", {}, rows)),
    renderLosses(view));
}

const PIPS = {
  1: [[0, 0]], 2: [[-1, -1], [1, 1]], 3: [[-1, -1], [0, 0], [1, 1]],
  4: [[-1, -1], [1, -1], [-1, 1], [1, 1]], 5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]],
  6: [[-1, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [1, 1]],
};

export function dieFace(value, outcome = "") {
  return s("svg", { class: `die ${outcome}`, viewBox: "0 0 40 40", role: "img", "aria-label": t("htl.die", { value }) },
    s("rect", { x: 2, y: 2, width: 36, height: 36, rx: 7, class: "die-body" }),
    ...(PIPS[value] || []).map(([dx, dy]) => s("circle", { cx: 20 + dx * 10, cy: 20 + dy * 10, r: 3.6, class: "pip" })),
    PIPS[value] ? null : s("text", { x: 20, y: 26, class: "die-num" }, String(value)));
}

const SHOWN_GROUPS = 4; // dice groups in the tray, the newest first (the log keeps them all)

/** The dice of the last actions, each with what it did (from the engine's events). */
export function renderDice(el, view, msg) {
  let groups = view.events ? diceGroups(view.events, view) : [...(msg.dice || [])];
  groups = groups.slice(-SHOWN_GROUPS).reverse();
  if (!groups.length) {
    mount(el, h("h2", {}, t("htl.dice")), h("p", { class: "muted" }, t("htl.noDice")));
    return;
  }
  mount(el, h("h2", {}, t("htl.dice")),
    h("ul", { class: "dice-groups" }, groups.map((g, i) => h("li", {
      class: `dice-group${i === 0 ? " newest" : ""} c-${g.side !== undefined ? sideColour(view, g.side) : ""}`,
    },
    h("div", { class: "dice-title" }, g.turn ? h("span", { class: "dice-turn" }, `T${g.turn}`) : null, g.title),
    h("ul", { class: "dice-row" }, (g.dice || []).map((d) => h("li", { class: `die-cell ${d.outcome || ""}`, title: d.title || "" },
      dieFace(d.value, d.outcome || ""),
      h("span", { class: "die-text" }, d.text || "")))),
    g.after?.length ? h("p", { class: "dice-after" }, g.after.join(" · ")) : null))));
}

const LOG_CLASS = { die: "log-die", damage: "log-hit", hits: "log-hit", eliminated: "log-hit", leader_lost: "log-hit",
  leader_hit: "log-hit", capture: "log-vp", counter: "log-vp", exit: "log-vp", result: "log-end", end: "log-muted" };

/**
 * The log from the engine's events (view.events), with a heading at each side's turn:
 * [{text, cls, n}], `n` the index of the engine event (a heading: that of the event below it).
 */
export function eventLines(view) {
  const out = [];
  let at = null;
  for (const e of view.events || []) {
    const key = `${e.turn}:${e.side}`;
    if (key !== at && e.type !== "result") {
      at = key;
      out.push({ text: t("htl.turnHeading", { turn: e.turn, side: sideTitle(view, e.side) }), cls: "log-turn", n: e.n });
    }
    out.push({ text: eventText(e), cls: LOG_CLASS[e.type] || "", n: e.n });
  }
  return out;
}

/** The page title's parts: "Hold the Line", the scenario, and a tag (the mode, "replay"). */
export function gameTitle(view, tag) {
  return [h("span", {}, t("names.holdtheline.title")),
    view.scenario ? h("span", { class: "scenario-tag" }, scenarioTitle(view.scenario, view.title || view.scenario_title || titleCase(view.scenario))) : null,
    tag ? h("span", { class: "mode-tag" }, tag) : null];
}

function titleCase(str) {
  return String(str).replace(/[_-]+/g, " ").replace(/\b\w/g, (c) => c.toUpperCase());
}

/** Units each side has lost, as chips ("A3 regular"). */
export function renderLosses(view) {
  const gone = (view.units || []).filter((u) => u.status === "eliminated");
  const leaders = (view.leaders || []).filter((l) => l.status === "eliminated");
  if (!gone.length && !leaders.length) return null;
  return h("div", { class: "losses" }, h("span", { class: "track-label" }, t("htl.lost")),
    [...gone.map((u) => h("span", { class: `loss-chip c-${sideColour(view, u.side)}`, title: `${KINDS[u.kind]?.title || u.kind} ${u.id}` },
      `${u.id}`)),
    ...leaders.map((l) => h("span", { class: `loss-chip c-${sideColour(view, l.side)}` }, `★ ${localName(l.name)}`))]);
}
