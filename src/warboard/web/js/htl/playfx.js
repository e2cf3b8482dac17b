// What the Hold the Line board shows of the plays a state brought (the engine's new events):
// a move slides its counter along its path, a fire or an assault shows its dice next to the
// target with the hit number and the hits. The dice stay until the next state; the slide is
// left out under prefers-reduced-motion.

import { s, clear } from "../dom.js";
import { t } from "../i18n.js";
import { hitText, leaderById, unitById } from "./names.js";
import { dieFace } from "./panel.js";

const ATTACKS = new Set(["fire", "assault"]);
const OTHER_ACTIONS = new Set(["move", "rally", "exit", "advance", "evade", "end", "result"]);
const DIE = 30; // a die's size on the board, in SVG user units (a hex is 100 high)

/** The engine's events of `view` after those of `before` (a view, or null: none are new). */
export function newEvents(before, view) {
  if (!before) return [];
  const seen = Math.max(-1, ...(before.events || []).map((e) => e.n));
  return (view.events || []).filter((e) => e.n > seen);
}

/** Each attack of `events` with its dice: [{at, type, hitOn, dice: [{value, hit}], hits}]. */
export function attacksOf(events) {
  const out = [];
  let cur = null;
  for (const e of events) {
    if (ATTACKS.has(e.type)) {
      cur = { at: e.target, type: e.type, hitOn: e.hit_on, dice: [], hits: null };
      out.push(cur);
    } else if (cur && e.type === "die" && e.roll === "attack") {
      cur.dice.push({ value: e.value, hit: !!e.hit });
    } else if (cur && e.type === "hits") {
      cur.hits = e.hits;
    } else if (OTHER_ACTIONS.has(e.type)) {
      cur = null;
    }
  }
  return out;
}

const cannotHitRoll = (attack) => attack.hitOn === undefined || attack.hitOn === null || attack.hitOn >= 7;

/** "hit on 5+ · 2 hits", "cannot hit" */
export function rollText(attack) {
  if (cannotHitRoll(attack)) return t("htl.cannotHit");
  const hits = attack.hits ?? attack.dice.filter((d) => d.hit).length;
  return t("htl.rollText", { hit: hitText(attack.hitOn), count: hits });
}

/** Show `events` (new since the view `before`) on `board`, just drawn with the view after
 * them; `motion`: slide the moves, over at most `ms`. */
export function playEvents(board, before, events, { motion, ms = 0 }) {
  const fx = clear(board.layers.fx);
  for (const e of events) {
    if (e.type === "move" && motion) slide(board, before, e, ms);
  }
  for (const attack of attacksOf(events)) fx.append(rollBadge(board, attack));
}

function slide(board, before, e, ms) {
  const piece = e.unit ? unitById(before, e.unit) : leaderById(before, e.leader);
  const sel = e.unit ? `[data-unit="${e.unit}"]` : `[data-leader="${e.leader}"]`;
  const el = board.layers.units.querySelector(sel);
  if (!piece?.at || !el || !e.path?.length) return;
  const stops = [piece.at, ...e.path].map((p) => board.centre(p));
  const [ex, ey] = stops[stops.length - 1];
  el.classList.add("sliding");
  const run = el.animate(stops.map(([x, y]) => ({ transform: `translate(${x - ex}px, ${y - ey}px)` })),
    { duration: Math.min(ms, 260 * stops.length), easing: "ease-in-out" });
  run.onfinish = () => el.classList.remove("sliding");
  run.oncancel = run.onfinish;
}

function rollBadge(board, attack) {
  const [x, y] = board.centre(attack.at);
  const text = rollText(attack);
  const n = attack.dice.length;
  const w = Math.max(n * (DIE + 4) + 10, text.length * 9 + 16);
  const top = y - 50 - DIE - 24; // above the target hex
  const hits = attack.dice.filter((d) => d.hit).length;
  const g = s("g", { class: `roll-badge${cannotHitRoll(attack) ? " no-hit" : ""}`, "data-at": `${attack.at[0]},${attack.at[1]}`,
    "data-hits": String(attack.hits ?? hits),
    "aria-label": t("htl.rollLabel", { kind: t(`htl.group.${attack.type}`), dice: attack.dice.map((d) => d.value).join(", "), text }),
    role: "img" },
  s("rect", { x: x - w / 2, y: top - 5, width: w, height: DIE + 30, rx: 8 }),
  s("text", { x, y: top + DIE + 19, class: "roll-text" }, text));
  attack.dice.forEach((d, i) => {
    const die = dieFace(d.value, d.hit ? "hit" : "miss");
    die.removeAttribute("role");
    for (const [k, v] of Object.entries({ x: x - (n * (DIE + 4) - 4) / 2 + i * (DIE + 4), y: top, width: DIE, height: DIE })) {
      die.setAttribute(k, String(v));
    }
    g.append(die);
  });
  return g;
}
