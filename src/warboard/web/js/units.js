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
 * (1,-1), destroys North Infantry at (1,0)"); `boardBefore` names what was hit.
 */
export function actionText(rules, seat, action, boardBefore = []) {
  if (!action) return `${seatName(seat)} decides (hidden)`;
  const who = seatName(seat);
  const board = new Map(boardBefore.map((c) => [`${c.x},${c.y}`, c]));
  const hits = (targets) => targets.map((cell) => {
    const k = `${cell[0]},${cell[1]}`;
    const u = board.get(k);
    if (!u) return `hits ${cellText(cell)}`;
    const becomes = unitInfo(rules, u.unit).becomes;
    // follow the hits on a copy of the board: an Ogre hit twice is damaged, then destroyed
    if (becomes) board.set(k, { ...u, unit: becomes });
    else board.delete(k);
    return `${becomes ? "damages" : "destroys"} ${seatName(u.seat)} ${unitTitle(rules, u.unit)} at ${cellText(cell)}`;
  }).join(" and ");
  if (action.play === "deploy") {
    const isBase = (s) => s === 0 || s === 1 ? action.at[0] === 0 && action.at[1] === (s === 0 ? -1 : 1) : false;
    const where = isBase(seat) ? `on its ${rules.baseName}`
      : isBase(1 - seat) ? `on ${seatName(1 - seat)}'s ${rules.baseName}` : "at";
    let t = `${who} deploys ${unitTitle(rules, action.unit)} ${where} ${cellText(action.at)}`;
    if ((action.attacks || []).length) t += `, ${hits(action.attacks)}`;
    return t;
  }
  if (action.play === "strike") return `${who}'s ${rules.strikeName} ${hits([action.target])}`;
  if (action.play === "bury") {
    const [a, b] = action.cards;
    return `${who} puts ${unitTitle(rules, a)}, then ${unitTitle(rules, b)} under its deck`;
  }
  if (action.chance === "first_player") return `${seatName(action.seat)} plays first`;
  if (action.chance === "draw") return `a card is drawn: ${unitTitle(rules, action.unit)}`;
  return JSON.stringify(action);
}

/** "South wins by taking North's base" and the like; `result` is the engine's summary. */
export function resultText(rules, result, mySeat = null) {
  if (!result) return "The game is over.";
  const w = result.winner;
  if (w === null || w === undefined) {
    return result.reason === "abandoned" ? "Draw — claimed, the opponent left." : "Draw — equal unit counts.";
  }
  const name = mySeat === null ? seatName(w) : w === mySeat ? "You" : seatName(w);
  const verb = name === "You" ? "win" : "wins";
  // results the server rules (docs/server-api.md#clocks)
  if (result.reason === "time") return `${name} ${verb} on time.`;
  if (result.reason === "abandoned") return `${name} ${verb}: the opponent left the game.`;
  if (result.reason === "base") {
    return `${name} ${verb} by taking ${seatName(1 - w)}'s ${rules.baseName}.`;
  }
  return `${name} ${verb} on the unit count.`;
}
