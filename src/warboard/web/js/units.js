// The two card games as the table names them: each ruleset as the server answers it
// (GET /api/rules/{game}, fetched once), sentences for plays and results. Only used for labels
// and the help diagrams, never to decide what is legal (the server's `legal` list does that).

import { api } from "./api.js";
import { hasKey, t } from "./i18n.js";

const RULESETS = {}; // game -> the promise of its ruleset

/** The ruleset of `game` (hill218, ogre218), from the server once. */
export function loadRuleset(game) {
  RULESETS[game] ??= api.rules(game).then(fromServer, (e) => {
    delete RULESETS[game];
    throw e;
  });
  return RULESETS[game];
}

/** The catalogue's name `names.<game>.<rest>`, or the server's (a ruleset the client does not
 * know). */
function named(game, rest, fallback) {
  const key = `names.${game}.${rest}`;
  return hasKey(key) ? t(key) : fallback;
}

function fromServer(d) {
  const g = d.game;
  return {
    name: g,
    title: named(g, "title", d.title),
    short: named(g, "short", d.title),
    strikeName: named(g, "strike", d.strike_name),
    strikeIcon: d.strike_icon || "airplane",
    supplyModel: d.supply_model,
    strikesName: named(g, "strikes", `${d.strike_name}s`),
    hillName: named(g, "hill", d.hill_name),
    baseName: named(g, "base", d.base_name),
    supportName: named(g, "support", d.support_name),
    units: d.units.map((u) => ({
      name: u.name, title: named(g, `unit.${u.name}`, u.title), abbrev: u.abbrev, count: u.count, supply: u.supply,
      attack: [...u.attack.combined, ...u.attack.individual],
      combined: u.attack.combined, individual: u.attack.individual,
      needsSupport: u.attack.combined.length > 0, support: u.support, attacks: u.attacks,
      countsAs: u.counts_as, drop: u.drop, becomes: u.hit_becomes,
    })),
  };
}



export function unitInfo(rules, name) {
  return rules.units.find((u) => u.name === name) || {
    name, title: name.replace(/_/g, " "), abbrev: name.slice(0, 3).toUpperCase(), count: 0,
    supply: [], attack: [], support: [],
  };
}

/**
 * How many hits a unit has taken and takes in all, from the ruleset's `hit_becomes` chain (an
 * Ogre: 0 of 2, a damaged Ogre: 1 of 2); a unit one hit destroys: 0 of 1.
 */
export function hitState(rules, name) {
  // the server refuses rulesets with a cycle of hits; the bound only keeps a bad one finite
  const steps = (start, next) => {
    let k = 0;
    for (let n = next(start); n && k < rules.units.length; n = next(n)) k++;
    return k;
  };
  const taken = steps(name, (n) => rules.units.find((u) => u.becomes === n)?.name);
  const left = steps(name, (n) => unitInfo(rules, n).becomes);
  return { taken, total: taken + left + 1 };
}

export function unitTitle(rules, name) {
  return unitInfo(rules, name).title;
}

export function abbrev(rules, name) {
  return unitInfo(rules, name).abbrev;
}

/** A player label for the counters: "ai:easy" -> "AI · easy"; people are "you" or nothing. */
export function playerLabel(player, seat, mySeat) {
  if (/^ai/.test(player || "")) return t("table.aiLabel", { ai: player.replace(/^ai:?/, "") || t("table.computer") });
  return seat === mySeat ? t("table.you") : "";
}

/** "South" (0) or "North" (1), the same in both card games. */
export function seatName(seat) {
  return seat === 0 || seat === 1 ? t(`names.hill218.side.${seat}`) : "?";
}

export function cellText([x, y]) {
  return `(${x},${y})`;
}

/** `{infantry: 2, tank: 1}` in ruleset order, as [[unit, n], ...] with zero counts left out. */
export function orderedCounts(rules, counts) {
  const out = rules.units.filter((u) => counts?.[u.name]).map((u) => [u, counts[u.name]]);
  // names the table does not know (a newer ruleset) still show
  for (const [k, n] of Object.entries(counts || {})) {
    if (n && !rules.units.some((u) => u.name === k)) out.push([unitInfo(rules, k), n]);
  }
  return out;
}

/** §5 count of a seat's units on the board (Ogre counts 2). */
export function unitCount(rules, board, seat) {
  return board.filter((c) => c.seat === seat)
    .reduce((n, c) => n + (unitInfo(rules, c.unit).countsAs ?? 1), 0);
}

/**
 * One sentence for a decision, in the words of the server's log ("South deploys Tank at
 * (1,-1), destroys North Infantry at (1,0)") and the page's language; `boardBefore` names
 * what was hit.
 */
export function actionText(rules, seat, action, boardBefore = []) {
  const side = seatName(seat);
  if (!action) return t("replay.decidesHidden", { who: side });
  const board = new Map(boardBefore.map((c) => [`${c.x},${c.y}`, c]));
  const hits = (targets) => targets.map((cell) => {
    const k = `${cell[0]},${cell[1]}`;
    const u = board.get(k);
    if (!u) return t("replay.hitsCell", { cell: cellText(cell) });
    const becomes = unitInfo(rules, u.unit).becomes;
    // follow the hits on a copy of the board: an Ogre hit twice is damaged, then destroyed
    if (becomes) board.set(k, { ...u, unit: becomes });
    else board.delete(k);
    return t(becomes ? "log.cards.damages" : "log.cards.destroys",
      { side: seatName(u.seat), unit: unitTitle(rules, u.unit), cell: cellText(cell) });
  }).reduce((a, b) => t("log.and", { a, b }));
  if (action.play === "deploy") {
    const isBase = (s) => action.at[0] === 0 && action.at[1] === (s === 0 ? -1 : 1);
    const attacks = (action.attacks || []).length ? { hits: hits(action.attacks) } : null;
    const p = { side, unit: unitTitle(rules, action.unit), cell: cellText(action.at), base: rules.baseName, ...attacks };
    if (isBase(seat)) return t(attacks ? "log.cards.deployBaseAttacks" : "log.cards.deployBase", p);
    // a play onto the enemy's base takes it: nothing is attacked
    if (isBase(1 - seat)) return t("log.cards.deployEnemyBase", { ...p, enemy: seatName(1 - seat) });
    return t(attacks ? "log.cards.deployAttacks" : "log.cards.deploy", p);
  }
  if (action.play === "strike") return t("log.cards.strike", { side, strike: rules.strikeName, hits: hits([action.target]) });
  if (action.play === "bury") {
    const [a, b] = action.cards;
    return t("log.cards.buries", { side, first: unitTitle(rules, a), second: unitTitle(rules, b) });
  }
  if (action.chance === "first_player") return t("log.cards.first", { side: seatName(action.seat) });
  if (action.chance === "draw") return t("replay.cardDrawn", { unit: unitTitle(rules, action.unit) });
  return JSON.stringify(action);
}

const RESULT_KEYS = { time: "Time", abandoned: "Abandoned", base: "Base" };

/** "South wins by taking North's base" and the like, in the page's language; `result` is the
 *  engine's summary (or the server's ruling: docs/server-api.md#clocks). */
export function resultText(rules, result, mySeat = null) {
  if (!result) return t("end.common.over");
  const w = result.winner;
  if (w === null || w === undefined) {
    return t(result.reason === "abandoned" ? "end.common.claimDraw" : "lobby.result.draw");
  }
  const how = RESULT_KEYS[result.reason] || "Count";
  if (mySeat !== null && w === mySeat) return t(`lobby.result.you${how}`, { loser: seatName(1 - w), base: rules.baseName });
  return t(`lobby.result.side${how}`, { side: seatName(w), loser: seatName(1 - w), base: rules.baseName });
}
