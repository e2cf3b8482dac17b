// The seats this browser holds: game id -> {token, seat, game, mode, tokens?, invite?}.
// There are no accounts; a seat's token is the only key to it, so it stays in localStorage.

const KEY = "warboard.games";

function load() {
  try {
    return JSON.parse(localStorage.getItem(KEY) || "{}") || {};
  } catch {
    return {};
  }
}

function save(all) {
  try {
    localStorage.setItem(KEY, JSON.stringify(all));
  } catch {
    // private mode or full storage: the game still works from its URL
  }
}

export function allGames() {
  return load();
}

export function getGame(id) {
  return load()[id] || null;
}

/** Merge `info` into the stored entry of game `id`. */
export function rememberGame(id, info) {
  const all = load();
  all[id] = { ...(all[id] || {}), ...info, id };
  save(all);
  return all[id];
}

export function forgetGame(id) {
  const all = load();
  delete all[id];
  save(all);
}

/** Every token held, for GET /api/games?tokens=. */
export function allTokens() {
  const out = [];
  for (const g of Object.values(load())) {
    if (g.tokens) out.push(...Object.values(g.tokens));
    else if (g.token) out.push(g.token);
  }
  return [...new Set(out)];
}

/** The token in a URL's hash (#token=...), as in invite links. */
export function tokenFromHash(hash = location.hash) {
  const m = /(?:^#|&)token=([^&]+)/.exec(hash);
  return m ? decodeURIComponent(m[1]) : null;
}

// The signed-in player of this browser: {id, name, key}. The key is its only proof; it never
// leaves this browser except in the Authorization header (and through a transfer code).
const PLAYER = "warboard.player";

export function getPlayer() {
  try {
    return JSON.parse(localStorage.getItem(PLAYER) || "null");
  } catch {
    return null;
  }
}

export function setPlayer(player) {
  try {
    if (player) localStorage.setItem(PLAYER, JSON.stringify(player));
    else localStorage.removeItem(PLAYER);
  } catch {
    // private mode: signed in for this page only
  }
}
