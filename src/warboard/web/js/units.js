// The two rulesets as the client needs them: names, abbreviations, card counts and diagrams.
// Mirrors src/warboard/hill218/rulesets/*.toml (the server never sends ruleset data); only
// used for labels and the help diagrams, never to decide what is legal (the server's `legal`
// list does that).

const ORTH = [[0, 1], [1, 0], [0, -1], [-1, 0]];
const DIAG = [[1, 1], [1, -1], [-1, 1], [-1, -1]];
const ALL8 = [...ORTH, ...DIAG];
const ARTY = [[-1, 2], [0, 2], [1, 2], [0, 3]];

function unit(name, title, abbr, count, supply, attack, needsSupport, support, extra = {}) {
  return { name, title, abbrev: abbr, count, supply, attack, needsSupport, support, ...extra };
}

export const RULESETS = {
  hill218: {
    name: "hill218",
    title: "The Battle for Hill 218",
    short: "Hill 218",
    strikeName: "Air Strike",
    strikesName: "Air Strikes",
    hillName: "Hill 218",
    baseName: "base",
    supportName: "support",
    units: [
      unit("infantry", "Infantry", "INF", 7, ORTH, ORTH, true, ORTH),
      unit("heavy_weapons", "Heavy Weapons", "HW", 5, ORTH, DIAG, true, ALL8),
      unit("special_forces", "Special Forces", "SF", 3, DIAG, ORTH, true, ORTH),
      unit("tank", "Tank", "TNK", 3, ORTH, ORTH, false, ORTH),
      unit("artillery", "Artillery", "ART", 3, ORTH, ARTY, false, ORTH),
      unit("paratroopers", "Paratroopers", "PAR", 3, ORTH, ORTH, true, ORTH, { drop: true }),
    ],
  },
  ogre218: {
    name: "ogre218",
    title: "Ogre: Objective 218",
    short: "Ogre 218",
    strikeName: "Cruise Missile",
    strikesName: "Cruise Missiles",
    hillName: "crater",
    baseName: "command post",
    supportName: "target",
    units: [
      unit("infantry", "Infantry", "INF", 7, ORTH, ORTH, true, ORTH),
      unit("missile_tank", "Missile Tank", "MSL", 5, ORTH, DIAG, true, ALL8),
      unit("gev", "GEV", "GEV", 3, DIAG, ORTH, true, ORTH),
      unit("heavy_tank", "Heavy Tank", "HVY", 3, ORTH, ORTH, false, ORTH),
      unit("howitzer", "Howitzer", "HOW", 3, ORTH, ARTY, false, ORTH),
      unit("light_gev", "Light GEV", "LGV", 3, ORTH, ORTH, true, ORTH, { drop: true }),
      unit("ogre", "Ogre", "OGR", 2, ALL8, ALL8, false, ALL8,
        { attacks: 2, countsAs: 2, plays: 2, becomes: "damaged_ogre" }),
      unit("damaged_ogre", "Damaged Ogre", "DOG", 0, ORTH, ORTH, false, ORTH,
        { attacks: 2, countsAs: 1, plays: 2, damaged: true }),
    ],
  },
};

export const SEAT_NAMES = ["South", "North"];

export function ruleset(name) {
  return RULESETS[name] || RULESETS.hill218;
}

export function unitInfo(rules, name) {
  return rules.units.find((u) => u.name === name) || {
    name, title: name.replace(/_/g, " "), abbrev: name.slice(0, 3).toUpperCase(), count: 0,
    supply: [], attack: [], support: [],
  };
}

export function unitTitle(rules, name) {
  return unitInfo(rules, name).title;
}

export function abbrev(rules, name) {
  return unitInfo(rules, name).abbrev;
}

/** A player label for the counters: "ai:easy" -> "AI · easy"; people are "you" or nothing. */
export function playerLabel(player, seat, mySeat) {
  if (/^ai/.test(player || "")) return `AI · ${player.replace(/^ai:?/, "") || "computer"}`;
  return seat === mySeat ? "you" : "";
}

export function seatName(seat) {
  return SEAT_NAMES[seat] ?? "?";
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
  if (w === null || w === undefined) return "Draw — equal unit counts.";
  const name = mySeat === null ? seatName(w) : w === mySeat ? "You" : seatName(w);
  const verb = name === "You" ? "win" : "wins";
  if (result.reason === "base") {
    return `${name} ${verb} by taking ${seatName(1 - w)}'s ${rules.baseName}.`;
  }
  return `${name} ${verb} on the unit count.`;
}
