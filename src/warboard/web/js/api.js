// The server's API (docs/server-api.md): HTTP calls and the game WebSocket.

import { uuid } from "./dom.js";
import { t } from "./i18n.js";
import { said } from "./said.js";
import { getPlayer } from "./store.js";

export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

async function call(method, path, body) {
  const init = { method, headers: { Accept: "application/json" } };
  // a signed-in browser is its player on every call (its games, rated games, invites)
  const player = getPlayer();
  if (player?.key) init.headers.Authorization = `Bearer ${player.key}`;
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(path, init);
  } catch {
    throw new ApiError(0, t("common.unreachable"));
  }
  let data = null;
  try {
    data = await res.json();
  } catch {
    // an empty or non-JSON answer: reported below by status
  }
  if (!res.ok) {
    const english = (data && (data.error || data.detail)) || `${res.status} ${res.statusText}`;
    const text = typeof english === "string" ? english : JSON.stringify(english);
    // a refusal's message (docs/server-api.md#errors) in the page's language
    throw new ApiError(res.status, said(data?.msg, text));
  }
  return data;
}

const q = (params) => {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== null && v !== undefined) p.set(k, v);
  const s = p.toString();
  return s ? `?${s}` : "";
};

export const api = {
  createGame: (body) => call("POST", "/api/games", body),
  game: (id, token) => call("GET", `/api/games/${encodeURIComponent(id)}${q({ token })}`),
  games: (tokens) => call("GET", `/api/games${q({ tokens: tokens.join(",") })}`),
  record: (id, token) => call("GET", `/api/games/${encodeURIComponent(id)}/record${q({ token })}`),
  replay: (id, token) => call("GET", `/api/games/${encodeURIComponent(id)}/replay${q({ token })}`),
  // a finished game's post-game analysis: how far it is, or asking for it
  analysis: (id, token) => call("GET", `/api/games/${encodeURIComponent(id)}/analysis${q({ token })}`),
  analyse: (id, token) => call("POST", `/api/games/${encodeURIComponent(id)}/analysis`, { token }),
  rules: (game) => call("GET", `/api/rules/${encodeURIComponent(game)}`),
  scenarios: () => call("GET", "/api/scenarios"),
  campaigns: () => call("GET", "/api/campaigns"),
  // scenarios of one's own (the editor): {game, toml} or {game, model}
  checkScenario: (body) => call("POST", "/api/scenarios/check", body),
  storeScenario: (body) => call("POST", "/api/scenarios", body),
  customScenario: (id) => call("GET", `/api/scenarios/custom/${encodeURIComponent(id)}`),
  signUp: (name) => call("POST", "/api/players", { name }),
  transferOut: () => call("POST", "/api/players/me/transfer"),
  transferIn: (code) => call("POST", "/api/players/transfer", { code }),
  player: (id) => call("GET", `/api/players/${encodeURIComponent(id)}`),
  leaderboard: (game) => call("GET", `/api/leaderboard/${encodeURIComponent(game)}`),
  take: (id) => call("POST", `/api/games/${encodeURIComponent(id)}/take`),
  rematch: (id, token) => call("POST", `/api/games/${encodeURIComponent(id)}/rematch`, { token }),
};

/** GET /api/lobby, sending the ETag of the listing already held: the new listing, or null
 * when it has not changed. */
export async function lobbyListing(etag) {
  let res;
  try {
    res = await fetch("/api/lobby", { headers: etag ? { "If-None-Match": etag } : {} });
  } catch {
    throw new ApiError(0, t("common.unreachable"));
  }
  if (res.status === 304) return null;
  if (!res.ok) throw new ApiError(res.status, `${res.status} ${res.statusText}`);
  return { listing: await res.json(), etag: res.headers.get("ETag") };
}

/**
 * One seat's live connection to a game. Reconnects after a drop (the server sends the full
 * state on every connect, so nothing is lost). Callbacks: onState(msg), onThinking(msg),
 * onError(msg), onSeatToken(token), onStatus("open" | "closed" | "refused"), onChat(msg),
 * onSpectators(count).
 */
export class GameSocket {
  constructor(id, token, handlers) {
    this.id = id;
    this.token = token;
    this.h = handlers;
    this.version = null;
    this.closed = false;
    this.retry = 0;
    this.pending = new Map(); // request_id -> action, until the next state or error
    this.waiting = []; // messages sent while the socket was still opening: they go on open
    this.open();
  }

  url() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    // log=new: each state carries the log's new lines only (from log_from), joined here
    const tok = this.token ? `&token=${encodeURIComponent(this.token)}` : "";
    return `${proto}//${location.host}/ws/games/${encodeURIComponent(this.id)}?log=new${tok}`;
  }

  open() {
    const ws = new WebSocket(this.url());
    this.ws = ws;
    ws.onopen = () => {
      this.retry = 0;
      for (const text of this.waiting.splice(0)) ws.send(text);
      this.h.onStatus?.("open");
    };
    ws.onmessage = (ev) => {
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return;
      }
      if (msg.type === "state") {
        this.joinLog(msg);
        this.version = msg.version;
        this.pending.clear();
        this.h.onState?.(msg);
      } else if (msg.type === "seat") {
        // this socket used an invite first: the seat's own token replaces it from now on
        this.token = msg.seat_token;
        this.h.onSeatToken?.(msg.seat_token);
      } else if (msg.type === "thinking") {
        this.h.onThinking?.(msg);
      } else if (msg.type === "hint") {
        this.h.onHint?.(msg);
      } else if (msg.type === "chat") {
        this.h.onChat?.(msg);
      } else if (msg.type === "spectators") {
        this.h.onSpectators?.(msg.count);
      } else if (msg.type === "error") {
        this.pending.delete(msg.request_id);
        this.h.onError?.(msg);
      }
    };
    ws.onclose = (ev) => {
      const lost = this.waiting.splice(0).length; // sent while it opened, and it never did
      if (this.closed) return;
      if (lost) this.h.onError?.({ message: t("common.notConnected") });
      if (ev.code === 1008) {
        // policy violation: a bad token. Retrying would not help.
        this.h.onStatus?.("refused");
        return;
      }
      this.h.onStatus?.("closed");
      const delay = Math.min(8000, 500 * 2 ** this.retry++);
      this.timer = setTimeout(() => this.open(), delay);
    };
  }

  /** Make `msg.log` and `msg.log_msg` whole again: the lines this socket holds before
   * `log_from`, then the new ones (the server sends the whole log on every connect). */
  joinLog(msg) {
    const from = msg.log_from || 0;
    msg.log = (this.log || []).slice(0, from).concat(msg.log || []);
    msg.log_msg = (this.logMsg || []).slice(0, from).concat(msg.log_msg || []);
    this.log = msg.log;
    this.logMsg = msg.log_msg;
  }

  /** Send a play; returns its request id. */
  play(action) {
    const request_id = uuid();
    this.pending.set(request_id, action);
    this.send({ type: "play", action, version: this.version, request_id });
    return request_id;
  }

  resign() {
    this.send({ type: "resign" });
  }

  /** Ask for the play the computer's strongest level would make now (a `hint` message). */
  hint() {
    this.send({ type: "hint", version: this.version, request_id: uuid() });
  }

  /** Claim the game ("win" or "draw") from an opponent who left a real-time game. */
  claim(outcome) {
    this.send({ type: "claim", outcome });
  }

  say(text) {
    this.send({ type: "chat", text });
  }

  mute(muted) {
    this.send({ type: "mute", muted });
  }

  /** Send `msg` now, or as soon as the socket opens (a click on a page still connecting). */
  send(msg) {
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(msg));
    else if (this.ws?.readyState === WebSocket.CONNECTING) this.waiting.push(JSON.stringify(msg));
    else this.h.onError?.({ message: t("common.notConnected") });
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    this.ws?.close();
  }
}
