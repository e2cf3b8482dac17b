// Hold the Line as the table shows it: names of sides, unit kinds and terrain, and sentences
// for actions and prompts. Only labels: what is legal always comes from the server's `legal`.

import { api } from "../api.js";

// the marks on the counters and what the terrain table does not say; the rest is the server's
const MARKS = { elite: "E", light: "Lt", militia: "M" };
const TERRAIN_NOTES = { bridge: "crosses the waterway", ford: "crosses the waterway" };
const MOVEMENT_WORDS = { stop: "stop on entering", waterway: "stops and ends the move",
  impassable: "impassable" };

/** Terrain name -> {title, effect}, unit kind -> {title, mark}: filled by loadTables. */
export const TERRAIN = {};
export const KINDS = {};

const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);
const signed = (n) => (n > 0 ? `+${n}` : `−${-n}`);

function terrainEffect(name, t) {
  const parts = [t.combat ? `${signed(t.combat)} to hit it` : null, MOVEMENT_WORDS[t.movement],
    t.blocks_los ? "blocks sight" : null, t.morale ? `${signed(t.morale)} morale` : null]
    .filter(Boolean);
  const note = TERRAIN_NOTES[name];
  if (note) return parts.length ? [...parts, note].join(" · ") : `${note}, no effect`;
  return parts.join(" · ") || "no effect";
}

let tables = null; // the promise of GET /api/rules/holdtheline, once

/** Fill TERRAIN and KINDS from the server's tables (once); resolves when they are there. */
export function loadTables() {
  tables ??= api.rules("holdtheline").then((d) => {
    for (const [name, t] of Object.entries(d.terrain)) {
      TERRAIN[name] = { title: capital(name), effect: terrainEffect(name, t) };
    }
    for (const [kind, u] of Object.entries(d.units)) {
      KINDS[kind] = { title: capital(u.label), mark: MARKS[kind] || "" };
    }
  }, (e) => {
    tables = null;
    throw e;
  });
  return tables;
}

// known sides get their historical colours; others fall back to the seat's colour
const SIDE_STYLE = {
  american: { title: "American", colour: "blue" },
  continental: { title: "Continental", colour: "blue" },
  british: { title: "British", colour: "red" },
  hessian: { title: "Hessian", colour: "green" },
  french: { title: "French", colour: "white" },
};

export function sideTitle(view, seat) {
  if (view?.labels?.[seat]) return view.labels[seat];
  const name = view?.sides?.[seat];
  if (!name) return seat === 0 ? "First side" : "Second side";
  return SIDE_STYLE[name]?.title || name.charAt(0).toUpperCase() + name.slice(1);
}

/** "blue" | "red" | "green" | "white": the counter colour of a seat. */
export function sideColour(view, seat) {
  const name = view?.sides?.[seat];
  const c = SIDE_STYLE[name]?.colour;
  const other = SIDE_STYLE[view?.sides?.[1 - seat]]?.colour;
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
  return leaderById(view, id)?.name || id;
}

export function apText(n) {
  return `${n} AP`;
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
  const ap = hint?.ap !== undefined ? ` (${apText(hint.ap)})` : "";
  const odds = hint?.hit_on >= 7 ? " — cannot hit"
    : hint && hint.dice ? ` — ${hint.dice} dice, hit on ${hitText(hint.hit_on)}` : "";
  switch (a.type) {
    case "move": {
      const to = hexText(actionHex(a, hint));
      if (!a.unit) return `Move ${leaderName(view, a.leader)} to ${to}${ap}`;
      let t = `Move ${a.unit} to ${to}`;
      if (a.leader) t += ` with ${leaderName(view, a.leader)}`;
      if (a.bonus) t += ", extra hex";
      if (a.fire) t += `, then fire at ${hexText(a.fire)}`;
      return t + ap;
    }
    case "fire":
      return `${a.unit} fires at ${hexText(a.target)}${ap}${odds}`;
    case "assault":
      return `${a.unit} assaults ${hexText(a.target)}${a.leader_dice ? " with its leader's dice" : ""}${ap}${odds}`;
    case "rally":
      return `${leaderName(view, a.leader)} rallies ${a.unit} (+1 MP)${ap}`;
    case "end":
      return "End the turn";
    case "allocate":
      return `${unitLabel(view, a.unit)} takes the hits`;
    case "retreat":
      return `${a.unit} retreats to ${hexText(a.to)}`;
    case "displace":
      return `${a.unit} makes room at ${hexText(a.to)}`;
    case "escape":
      return `${leaderName(view, a.leader)} escapes to ${hexText(a.to)}`;
    case "advance":
      return a.yes ? "Advance into the hex" : "Stay";
    case "assign_ratings":
      return Object.entries(a.ratings).map(([id, r]) => `${leaderName(view, id)} ${r[0]}/${r[1]}`).join(", ");
    default:
      return JSON.stringify(a);
  }
}

export function hitText(n) {
  if (n === undefined || n === null) return "?";
  if (n >= 7) return "no hit possible";
  if (n <= 1) return "any roll";
  return `${n}+`;
}

/** The prompt for a decision that is not an ordinary activation (a pending decision). */
export function decisionPrompt(view, legal, mine) {
  const kinds = new Set(legal.map((a) => a.type));
  const first = legal[0];
  if (!first) return null;
  const who = mine ? "You" : sideTitle(view, view.to_move);
  if (kinds.has("retreat")) {
    return `${who === "You" ? "Choose" : `${who} chooses`} where ${unitLabel(view, first.unit)} retreats`;
  }
  if (kinds.has("displace")) {
    return `${who === "You" ? "Choose" : `${who} chooses`} where ${unitLabel(view, first.unit)} makes room`;
  }
  if (kinds.has("escape")) {
    return `${who === "You" ? "Choose" : `${who} chooses`} where ${leaderName(view, first.leader)} escapes`;
  }
  if (kinds.has("allocate")) {
    return `${who === "You" ? "Choose" : `${who} chooses`} which unit takes the hits`;
  }
  if (kinds.has("advance")) {
    return `${who === "You" ? "Advance" : `${who} may advance`} into the emptied hex?`;
  }
  if (kinds.has("assign_ratings")) {  // option 11.6, before turn 1; the scenario's comes first
    return `${who === "You" ? "Choose" : `${who} chooses`} which leader gets which rating (combat/hits; the first is the scenario's)`;
  }
  return null;
}

export const DECISION_TYPES = new Set(["allocate", "retreat", "displace", "escape", "advance", "assign_ratings"]);

/** Words for a pending record of the observation (`view.pending`). */
export function pendingText(view) {
  const p = view.pending;
  if (!p) return null;
  const owner = p.side ?? p.seat;
  const who = owner !== undefined && owner !== null ? `${sideTitle(view, owner)}: ` : "";
  switch (p.kind) {
    case "retreat": return `${who}${p.unit} must retreat`;
    case "displace": return `${who}${p.unit} is displaced`;
    case "escape": return `${who}${leaderName(view, p.leader)} must escape`;
    case "allocate": return `${who}hits to allocate`;
    case "advance": return "Advance after combat?";
    case "fire": return `Fire at ${hexText(p.target)}`;
    case "assault": return `Close combat at ${hexText(p.target)}`;
    default: return p.kind ? String(p.kind) : null;
  }
}

export function resultLine(view, result, seat) {
  if (!result) return null;
  if (result.abandoned) {
    return result.by === seat ? "You resigned" : `${sideTitle(view, result.by)} resigned`;
  }
  const r = result.summary || result;
  const winner = r.winner ?? (result.returns ? (result.returns[0] > result.returns[1] ? 0
    : result.returns[1] > result.returns[0] ? 1 : null) : null);
  const reason = r.text ? ` — ${r.text}` : r.reason ? ` (${r.reason})` : "";
  if (winner === null || winner === undefined) return `Draw${reason}`;
  if (seat !== null && seat !== undefined) return (winner === seat ? "You win" : "You lose") + reason;
  return `${sideTitle(view, winner)} wins${reason}`;
}

/** Is this piece on the board now? (Reinforcements wait; eliminated and exited units left.) */
export const onBoard = (piece) => !!piece.at && (!piece.status || piece.status === "board");

const ROLL_WORDS = {
  action: (e) => ({ text: `${e.counts !== undefined && e.counts !== e.value ? `counts ${e.counts}: ` : ""}${e.ap} AP`, outcome: "info" }),
  attack: (e) => ({ text: `${e.hit ? "hit" : "miss"}${e.modified !== undefined && e.modified !== e.value ? ` (as ${e.modified})` : ""}${e.value === 1 ? " · leader check" : ""}`,
    outcome: e.hit ? "hit" : "miss" }),
  morale: (e) => ({ text: e.passed ? `${e.unit} holds` : `${e.unit} fails`, outcome: e.passed ? "pass" : "fail" }),
  elite: (e) => ({ text: e.survived ? `${e.unit} survives` : `${e.unit} lost`, outcome: e.survived ? "pass" : "fail" }),
  leader: (e, view) => ({ text: `${leaderName(view, e.leader)} ${e.hit ? "hit" : "unhurt"}`, outcome: e.hit ? "fail" : "pass" }),
  attacker_morale: (e) => ({ text: e.passed ? "charge goes in" : "fires instead", outcome: e.passed ? "pass" : "fail" }),
  force_march: (e) => ({ text: e.passed ? "march succeeds" : "march fails", outcome: e.passed ? "pass" : "fail" }),
  fatigue: (e) => ({ text: e.loss ? "−1 MP" : "no loss", outcome: e.loss ? "fail" : "pass" }),
};

/** What one die event of the engine did, in a few words: {value, text, outcome, title}. */
export function dieWords(e, view = {}) {
  const f = ROLL_WORDS[e.roll];
  const w = f ? f(e, view) : { text: "", outcome: "" };
  return { value: e.value, ...w, title: e.text };
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
      groups.push({ title: e.text, side: e.side, turn: e.turn, dice: [dieWords(e, view)], after: [] });
      cur = null;
    } else if (e.type === "die") {
      if (!cur) {
        cur = { title: "Dice", side: e.side, turn: e.turn, dice: [], after: [] };
        groups.push(cur);
      }
      cur.dice.push(dieWords(e, view));
    } else if (ACTION_EVENTS.has(e.type)) {
      cur = { title: e.text, side: e.side, turn: e.turn, dice: [], after: [] };
      groups.push(cur);
    } else if (e.type === "end" || e.type === "result") {
      cur = null;
    } else if (cur) {
      cur.after.push(e.text);
    }
  }
  return groups.filter((g) => g.dice.length);
}
