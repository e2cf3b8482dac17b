// Hold the Line as the table shows it: names of sides, unit kinds and terrain, and sentences
// for actions and prompts. Only labels: what is legal always comes from the server's `legal`.

import { api } from "../api.js";
import { hasKey, lang, localName, setGlossary, t } from "../i18n.js";
import { eventText } from "../said.js";

// the marks on the counters and what the terrain table does not say; the rest is the server's
const MARKS = { elite: "E", light: "Lt", militia: "M" };
const CROSSINGS = new Set(["bridge", "ford"]);
const MOVEMENTS = new Set(["stop", "waterway", "impassable"]);

/** Terrain name -> {title, effect}, unit kind -> {title, mark}: filled by loadTables. */
export const TERRAIN = {};
export const KINDS = {};

const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);
const signed = (n) => (n > 0 ? `+${n}` : `−${-n}`);
/** The catalogue's `names.holdtheline.<rest>`, else `fallback` (a name the client does not know). */
const named = (rest, fallback) => (hasKey(`names.holdtheline.${rest}`) ? t(`names.holdtheline.${rest}`) : fallback);

function terrainEffect(name, tr) {
  const parts = [tr.combat ? t("htl.terrainCombat", { n: signed(tr.combat) }) : null,
    MOVEMENTS.has(tr.movement) ? t(`htl.movement.${tr.movement}`) : null,
    tr.blocks_los ? t("htl.blocksSight") : null, tr.morale ? t("htl.terrainMorale", { n: signed(tr.morale) }) : null]
    .filter(Boolean);
  const note = CROSSINGS.has(name) ? t("htl.crossesWaterway") : null;
  if (note) return parts.length ? [...parts, note].join(" · ") : t("htl.noteNoEffect", { note });
  return parts.join(" · ") || t("htl.noEffect");
}

let tables = null; // the promise of GET /api/rules/holdtheline, once

/** Fill TERRAIN and KINDS from the server's tables (once); resolves when they are there. */
export function loadTables() {
  tables ??= api.rules("holdtheline").then((d) => {
    for (const [name, tr] of Object.entries(d.terrain)) {
      TERRAIN[name] = { title: named(`terrain.${name}`, capital(name)), effect: terrainEffect(name, tr) };
    }
    for (const [kind, u] of Object.entries(d.units)) {
      KINDS[kind] = { title: named(`unit.${kind}`, capital(u.label)), mark: MARKS[kind] || "" };
    }
  }, (e) => {
    tables = null;
    throw e;
  });
  return tables;
}

let words = null; // the promise of GET /api/scenarios' words in the page's language, once

/** Name `scenario`'s places, leaders and sides in the page's language from now on (a scenario
 *  the server has no words for keeps its own). */
export async function loadScenarioWords(scenario) {
  words ??= api.scenarios().then((d) => Object.fromEntries((d.scenarios || []).map((sc) => [sc.name, sc.words?.[lang()]])), (e) => {
    words = null;
    throw e;
  });
  setGlossary((await words)[scenario]?.names);
}

// known sides get their historical colours; others fall back to the seat's colour
const SIDE_COLOUR = { american: "blue", continental: "blue", british: "red", hessian: "green", french: "white" };

/** A scenario's label of a side ("Hessians") in the page's language, where the catalogue has it. */
export function sideLabel(label) {
  return named(`label.${label.toLowerCase()}`, localName(label));
}

/** An optional rule's description ("attacker_morale") in the page's language, else the server's. */
export function optionText(name, text) {
  return named(`option.${name}`, text);
}

/** A packaged campaign's title ("new_york") in the page's language, else the server's `title`. */
export function campaignTitle(id, title) {
  return named(`campaign.${id}`, title);
}

/** A packaged scenario's title ("trenton") in the page's language, else the server's `title`. */
export function scenarioTitle(id, title) {
  return named(`scenario.${id}`, title);
}

/** A side's name ("american") as a title ("American"). */
export function sideName(name) {
  return named(`side.${name}`, capital(name.replace(/_/g, " ")));
}

export function sideTitle(view, seat) {
  if (view?.labels?.[seat]) return sideLabel(view.labels[seat]);
  const name = view?.sides?.[seat];
  if (!name) return t(seat === 0 ? "htl.firstSide" : "htl.secondSide");
  return sideName(name);
}

/** "blue" | "red" | "green" | "white": the counter colour of a seat. */
export function sideColour(view, seat) {
  const name = view?.sides?.[seat];
  const c = SIDE_COLOUR[name];
  const other = SIDE_COLOUR[view?.sides?.[1 - seat]];
  if (c && c !== other) return c;
  return seat === 0 ? "blue" : "red";
}

export const hexText = (at) => (at ? `${at[0]},${at[1]}` : "?");
export const sameHex = (a, b) => !!a && !!b && a[0] === b[0] && a[1] === b[1];
export const hexKey = (at) => `${at[0]},${at[1]}`;

export function unitById(view, id) {
  return (view.units || []).find((u) => u.id === id) || null;
}

export function leaderById(view, id) {
  return (view.leaders || []).find((l) => l.id === id) || null;
}

export function unitLabel(view, id) {
  const u = unitById(view, id);
  if (!u) return id;
  return `${KINDS[u.kind]?.title || u.kind} ${u.id}`;
}

export function leaderName(view, id) {
  return localName(leaderById(view, id)?.name) || id;
}

export function apText(n) {
  return t("htl.ap", { n });
}

/** The hex an action ends in / aims at (for outlining). */
export function actionHex(a, hint) {
  if (!a) return null;
  if (a.type === "move") return hint?.to || a.path?.[a.path.length - 1] || null;
  if (a.type === "fire" || a.type === "assault") return a.target;
  if (a.type === "retreat" || a.type === "displace" || a.type === "escape") return a.to;
  return null;
}

/** A short description of one legal action, for choice lists and buttons. */
export function actionText(view, a, hint) {
  const ap = hint?.ap !== undefined ? t("htl.apSuffix", { ap: apText(hint.ap) }) : "";
  const odds = hint?.hit_on >= 7 ? t("htl.oddsNone")
    : hint && hint.dice ? t("htl.odds", { dice: hint.dice, hit: hitText(hint.hit_on) }) : "";
  switch (a.type) {
    case "move": {
      const to = hexText(actionHex(a, hint));
      if (!a.unit) return t("htl.act.moveLeader", { leader: leaderName(view, a.leader), to }) + ap;
      let text = t("htl.act.move", { unit: a.unit, to });
      if (a.leader) text += t("htl.act.withLeader", { leader: leaderName(view, a.leader) });
      if (a.bonus) text += t("htl.act.extraHex");
      if (a.fire) text += t("htl.act.thenFire", { at: hexText(a.fire) });
      return text + ap;
    }
    case "fire":
      return t("htl.act.fire", { unit: a.unit, at: hexText(a.target) }) + ap + odds;
    case "assault":
      return t(a.leader_dice ? "htl.act.assaultLeader" : "htl.act.assault", { unit: a.unit, at: hexText(a.target) }) + ap + odds;
    case "rally":
      return t("htl.act.rally", { leader: leaderName(view, a.leader), unit: a.unit }) + ap;
    case "end":
      return t("htl.act.end");
    case "allocate":
      return t("htl.act.allocate", { unit: unitLabel(view, a.unit) });
    case "retreat":
      return t("htl.act.retreat", { unit: a.unit, to: hexText(a.to) });
    case "displace":
      return t("htl.act.displace", { unit: a.unit, to: hexText(a.to) });
    case "escape":
      return t("htl.act.escape", { leader: leaderName(view, a.leader), to: hexText(a.to) });
    case "advance":
      return t(a.yes ? "htl.act.advance" : "htl.act.stay");
    case "assign_ratings":
      return Object.entries(a.ratings).map(([id, r]) => `${leaderName(view, id)} ${r[0]}/${r[1]}`).join(t("common.listSep"));
    default:
      return JSON.stringify(a);
  }
}

export function hitText(n) {
  if (n === undefined || n === null) return "?";
  if (n >= 7) return t("htl.hitNone");
  if (n <= 1) return t("htl.hitAny");
  return `${n}+`;
}

/** The prompt for a decision that is not an ordinary activation (a pending decision). */
export function decisionPrompt(view, legal, mine) {
  const kinds = new Set(legal.map((a) => a.type));
  const first = legal[0];
  if (!first) return null;
  // each prompt has a key for the seat that decides (`.mine`) and for another (`.other`, with {who})
  const ask = (name, params = {}) => t(`htl.prompt.${name}.${mine ? "mine" : "other"}`,
    { who: sideTitle(view, view.to_move), ...params });
  if (kinds.has("retreat")) return ask("retreat", { unit: unitLabel(view, first.unit) });
  if (kinds.has("displace")) return ask("displace", { unit: unitLabel(view, first.unit) });
  if (kinds.has("escape")) return ask("escape", { leader: leaderName(view, first.leader) });
  if (kinds.has("allocate")) return ask("allocate");
  if (kinds.has("advance")) return ask("advance");
  // option 11.6, before turn 1; the scenario's comes first
  if (kinds.has("assign_ratings")) return ask("ratings");
  return null;
}

export const DECISION_TYPES = new Set(["allocate", "retreat", "displace", "escape", "advance", "assign_ratings"]);

/** Words for a pending record of the observation (`view.pending`). */
export function pendingText(view) {
  const p = view.pending;
  if (!p) return null;
  const owner = p.side ?? p.seat;
  const who = owner !== undefined && owner !== null ? t("htl.pending.who", { side: sideTitle(view, owner) }) : "";
  switch (p.kind) {
    case "retreat": return who + t("htl.pending.retreat", { unit: p.unit });
    case "displace": return who + t("htl.pending.displace", { unit: p.unit });
    case "escape": return who + t("htl.pending.escape", { leader: leaderName(view, p.leader) });
    case "allocate": return who + t("htl.pending.allocate");
    case "advance": return t("htl.pending.advance");
    case "fire": return t("htl.pending.fire", { at: hexText(p.target) });
    case "assault": return t("htl.pending.assault", { at: hexText(p.target) });
    default: return p.kind ? String(p.kind) : null;
  }
}

/** Is this piece on the board now? (Reinforcements wait; eliminated and exited units left.) */
export const onBoard = (piece) => !!piece.at && (!piece.status || piece.status === "board");

const ROLL_WORDS = {
  action: (e) => ({ text: (e.counts !== undefined && e.counts !== e.value ? t("htl.die.counts", { n: e.counts }) : "")
    + apText(e.ap), outcome: "info" }),
  attack: (e) => ({ text: t(e.hit ? "htl.die.hit" : "htl.die.miss")
    + (e.modified !== undefined && e.modified !== e.value ? t("htl.die.as", { n: e.modified }) : "")
    + (e.value === 1 ? t("htl.die.leaderCheck") : ""),
  outcome: e.hit ? "hit" : "miss" }),
  morale: (e) => ({ text: t(e.passed ? "htl.die.holds" : "htl.die.fails", { unit: e.unit }), outcome: e.passed ? "pass" : "fail" }),
  elite: (e) => ({ text: t(e.survived ? "htl.die.survives" : "htl.die.lost", { unit: e.unit }), outcome: e.survived ? "pass" : "fail" }),
  leader: (e, view) => ({ text: t(e.hit ? "htl.die.leaderHit" : "htl.die.leaderUnhurt", { leader: leaderName(view, e.leader) }),
    outcome: e.hit ? "fail" : "pass" }),
  attacker_morale: (e) => ({ text: t(e.passed ? "htl.die.chargeIn" : "htl.die.firesInstead"), outcome: e.passed ? "pass" : "fail" }),
  force_march: (e) => ({ text: t(e.passed ? "htl.die.marchOk" : "htl.die.marchFails"), outcome: e.passed ? "pass" : "fail" }),
  fatigue: (e) => ({ text: t(e.loss ? "htl.die.fatigueLoss" : "htl.die.noLoss"), outcome: e.loss ? "fail" : "pass" }),
};

/** What one die event of the engine did, in a few words: {value, text, outcome, title}. */
export function dieWords(e, view = {}) {
  const f = ROLL_WORDS[e.roll];
  const w = f ? f(e, view) : { text: "", outcome: "" };
  return { value: e.value, ...w, title: eventText(e) };
}

const ACTION_EVENTS = new Set(["fire", "assault", "move", "rally", "exit", "advance", "evade"]);

/**
 * The engine's events (view.events) as dice groups, oldest first: each action that rolled dice
 * with its dice and what followed ("2 hits", "B2 retreats to 5,1"), and each action die.
 */
export function diceGroups(events, view = {}) {
  const groups = [];
  let cur = null;
  for (const e of events || []) {
    if (e.type === "die" && e.roll === "action") {
      groups.push({ title: eventText(e), side: e.side, turn: e.turn, dice: [dieWords(e, view)], after: [] });
      cur = null;
    } else if (e.type === "die") {
      if (!cur) {
        cur = { title: t("htl.dice"), side: e.side, turn: e.turn, dice: [], after: [] };
        groups.push(cur);
      }
      cur.dice.push(dieWords(e, view));
    } else if (ACTION_EVENTS.has(e.type)) {
      cur = { title: eventText(e), side: e.side, turn: e.turn, dice: [], after: [] };
      groups.push(cur);
    } else if (e.type === "end" || e.type === "result") {
      cur = null;
    } else if (cur) {
      cur.after.push(eventText(e));
    }
  }
  return groups.filter((g) => g.dice.length);
}
