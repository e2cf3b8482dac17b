// What the two tables (js/table.js: the card games, js/htl/table.js: Hold the Line) share: the
// seats' sockets and their state messages, the mode line, the turn banner, the log, resigning,
// the invite and game-over panels and the end-of-game dialog. A game's table extends
// TableBase with `render()` and `socket()` (the socket of the seat on screen), and may add
// `received(k, msg, fresh)` (a state message has come; `fresh`: a new version).
//
// The other side's plays are followed one at a time (js/playback.js): `this.step` is the number
// of the followed play on screen (0: none), `this.marks` the other side's plays since this
// screen's last one ([{seat, action, msg, before}], the newest last; `before` null for those
// the state's `plays` told on opening the page), and `this.fresh` says
// whether the state being drawn is new (a table plays its effects only then).

import { api, GameSocket } from "./api.js";
import { campaignPanel } from "./campaign.js";
import { Clocks } from "./clocks.js";
import { copyText, h, mount } from "./dom.js";
import { Social } from "./social.js";
import { Playback } from "./playback.js";
import { said } from "./said.js";
import { getGame, rememberGame } from "./store.js";
import { t } from "./i18n.js";
import { toast } from "./toast.js";

const END_LINE = /wins|Draw|Game over/;

/** The panel with the invite link (`invite`, a path) and a Copy button; `text` says what it
 * gives the friend. */
function invitePanel(invite, text) {
  const url = new URL(invite, location.origin).href;
  const field = h("input", { type: "text", readonly: true, value: url, class: "invite-url",
    "aria-label": t("table.inviteLink"), onfocus: (e) => e.target.select() });
  return h("div", { class: "invite panel" },
    h("h2", {}, t("table.inviteFriend")),
    h("p", {}, text),
    h("div", { class: "invite-row" }, field,
      h("button", { type: "button", class: "btn primary", onclick: async () => {
        toast(t((await copyText(url, field)) ? "table.inviteCopied" : "table.inviteSelect"));
      } }, t("common.copy"))));
}

export class TableBase {
  constructor(root, id, first, entry, hotseat) {
    this.root = root;
    this.id = id;
    this.entry = entry;
    this.mode = first.mode;
    this.players = first.players || [];
    this.hotseat = hotseat;
    this.states = {}; // seat (or "spectator") -> last state message
    this.thinking = null;
    this.busy = false;
    this.endShown = false;
    this.step = 0;
    this.marks = [];
    this.fresh = false;
    this.offered = {}; // seat (or "spectator") -> the last state message come for it
    this.playback = new Playback(root, (k, msg, step) => this.onState(k, msg, step), () => {
      this.step = 0;
      this.render();
    });
    this.playback.el.hidden = hotseat; // both sides at one screen: nothing to follow
  }

  /** A state message from the server: the other side's plays wait their turn. */
  offer(k, msg) {
    const prev = this.offered[k];
    if (prev && prev.version > msg.version) return; // a late message from before a reconnect
    this.offered[k] = msg;
    const followed = !this.hotseat && !!prev && prev.version !== msg.version && !!msg.last
      && msg.last.seat !== msg.seat && JSON.stringify(msg.last) !== JSON.stringify(prev.last);
    this.playback.offer(k, msg, followed);
  }

  /** One socket per seat this browser holds (both seats of a hot-seat game, else the seat of
   * `first`, or "spectator"), kept in `this.sockets`; each state goes to `onState(k, msg)`. On
   * a refusal `onRefused()` runs before the table is drawn again, and a message that matches
   * `stale` fetches the game again. */
  connect(first, { stale, onRefused = () => {} }) {
    const seats = this.hotseat ? [0, 1] : [first.seat];
    this.sockets = {};
    // the spectator count and the chat, beside the table's own panels (never redrawn by it)
    this.social = new Social({ mode: this.hotseat ? "hotseat" : this.mode, seat: first.seat,
      socket: () => this.socket() });
    this.social.spectators(first.spectators || 0);
    this.el.extra.after(this.social.el);
    for (const seat of seats) {
      const token = this.hotseat ? this.entry.tokens[seat] : this.entry.token;
      const k = seat ?? "spectator";
      this.sockets[k] = new GameSocket(this.id, seat === null || seat === undefined ? null : token, {
        onState: (msg) => {
          this.social.spectators(msg.spectators ?? 0);
          this.offer(k, msg);
        },
        onSeatToken: (seatToken) => rememberGame(this.id, { token: seatToken }),
        onThinking: (msg) => {
          this.thinking = msg.seat;
          this.render();
        },
        onHint: (msg) => this.onHint(msg),
        onChat: (msg) => this.social.chat(msg),
        onSpectators: (count) => this.social.spectators(count),
        onError: (msg) => {
          this.busy = false;
          if (this.hint?.pending) this.hint = null;
          toast(said(msg.msg, msg.message) || t("table.refused"), "error");
          onRefused();
          this.render();
          if (stale.test(msg.message || "")) {
            api.game(this.id, token).then((st) => this.onState(k, st)).catch(() => {});
          }
        },
        onStatus: (st) => {
          if (st === "refused") toast(t("table.seatKeyRefused"), "error");
          this.root.classList.toggle("offline", st === "closed");
        },
      });
    }
  }

  onState(k, msg, step = 0) {
    const prev = this.states[k];
    if (prev && prev.version > msg.version) return; // a late message from before a reconnect
    this.states[k] = msg;
    if (this.offered[k] === undefined || this.offered[k].version < msg.version) this.offered[k] = msg;
    if (msg.view?.to_move !== this.thinking) this.thinking = null;
    const fresh = !prev || prev.version !== msg.version;
    if (fresh && prev) this.noteMark(msg, prev);
    // a page opened (or reloaded) in the other side's turn: its plays so far, from the server
    // (their states are gone: no log lines or views before them)
    if (!prev && !this.hotseat) this.marks = (msg.plays || []).map((p) => ({ ...p, msg, before: null }));
    this.step = step;
    this.received(k, msg, fresh);
    this.fresh = fresh;
    this.render();
    this.fresh = false;
    this.renderClocks(msg);
  }

  /** Keep the other side's plays marked until this screen's next play (a spectator's: until
   * the other seat plays). */
  noteMark(msg, prev) {
    const last = msg.last;
    if (!last || JSON.stringify(last) === JSON.stringify(prev.last)) return;
    if (this.marks.length && this.marks[0].seat !== last.seat) this.marks = [];
    if (this.hotseat || last.seat === msg.seat) {
      this.marks = [];
      return;
    }
    this.marks.push({ seat: last.seat, action: last.action, msg, before: prev });
  }

  /** The mark on screen of the newest play (followed now, or just made). */
  isNow(mark) {
    return mark === this.marks[this.marks.length - 1] && this.step > 0;
  }

  /** The clocks, under the turn banner (made with the first state that has them). */
  renderClocks(msg) {
    if (!msg.clocks && !this.clocks) return;
    if (!this.clocks) {
      this.clocks = new Clocks((outcome) => this.socket()?.claim(outcome));
      this.el.banner.after(this.clocks.el);
    }
    this.clocks.update(msg.clocks, this.hotseat ? null : msg.seat, null);
  }

  received(k, msg, fresh) {
    if (fresh) this.busy = false;
  }

  /** Is the screen a spectator's (no seat of this game on it)? */
  spectating() {
    return false;
  }

  modeLabel() {
    if (this.hotseat) return t("table.modeHotseat");
    if (this.spectating()) return t("table.modeSpectating");
    if (this.mode === "ai") {
      const ai = this.players.find((p) => /^ai/.test(p)) || "ai";
      return t("table.modeAi", { ai: ai.replace(/^ai:?/, "") || t("table.computer") });
    }
    if (this.mode === "friend") return t("table.modeFriend");
    if (this.mode === "open") return t("table.modeOpen");
    return this.mode === "hotseat" ? t("table.modeHotseat") : this.mode;
  }

  resign() {
    if (!confirm(t("table.resignConfirm"))) return;
    this.socket()?.resign();
  }

  /** The Hint button and the line that says the hint, for a table to place (they show only
   * in an unrated game against the computer, in the player's turn: `renderHint`). */
  hintParts() {
    this.hint = null; // {version, pending, text}: the hint asked for at `version`
    this.hintBtn = h("button", { type: "button", class: "btn hint-btn", hidden: true,
      title: t("table.hintTitle"), onclick: () => this.askHint() }, t("table.hint"));
    this.hintLine = h("p", { class: "hint-line", role: "status", "aria-live": "polite", hidden: true });
    return [this.hintBtn, this.hintLine];
  }

  askHint() {
    const sock = this.socket();
    if (!sock) return;
    this.hint = { version: sock.version, pending: true, text: "" };
    sock.hint();
    this.render();
  }

  onHint(msg) {
    if (this.hint?.version !== msg.version) return; // asked before the game moved on
    this.hint = { version: msg.version, pending: false,
      text: t("table.hintSays", { level: msg.level, play: msg.text }) };
    this.render();
  }

  /** Show the Hint button (and a hint for this version) when `msg` lets this seat ask. */
  renderHint(msg, mine, over) {
    const may = this.mode === "ai" && !msg.rated && mine && !over;
    const hint = may && this.hint?.version === msg.version ? this.hint : null;
    this.hintBtn.hidden = !may;
    this.hintBtn.disabled = !!hint?.pending;
    this.hintBtn.textContent = t(hint?.pending ? "table.hintThinking" : "table.hint");
    this.hintLine.hidden = !hint?.text;
    this.hintLine.textContent = hint?.text || "";
  }

  /** The turn banner: `text`, with a spinner while the computer thinks; `cls` its colour. */
  renderBanner(text, { mine, over, cls, spinner }) {
    mount(this.el.banner, spinner ? h("span", { class: "spinner", "aria-hidden": "true" }) : null,
      h("span", {}, text));
    this.el.banner.className = `turn-banner${mine ? " mine" : ""}${over ? " over" : ""}${cls ? ` ${cls}` : ""}`;
  }

  /** The page title: whose move it is, for a background tab. */
  setTitle(mine, over, name) {
    const key = mine ? "table.titleMine" : over ? "table.titleOver" : "table.title";
    document.title = t(key, { name });
  }

  /** The invite panel while a friend has not come (`invite`: what the link gives them), and
   * the links once the game is over. */
  renderExtra(msg, over, invite, replay) {
    const parts = [campaignPanel(msg, this.id)].filter(Boolean);
    if (this.mode === "friend" && this.entry.invite && !over && msg.status === "waiting") {
      parts.push(invitePanel(this.entry.invite, invite));
    }
    if (over) {
      parts.push(h("div", { class: "over-links panel" }, h("strong", {}, t("table.gameOver")),
        replay ? this.replayLinks() : null, this.rematchButton(msg),
        h("a", { class: "btn primary", href: "/" }, t("common.navNewGame"))));
    }
    mount(this.el.extra, ...parts);
  }

  /** Offer a rematch (seats swapped), accept the other's, or open the one this browser holds:
   * for the seats of a game between two players on two devices. */
  rematchButton(msg) {
    const token = getGame(this.id)?.token;
    if (this.hotseat || !["friend", "open"].includes(this.mode) || msg.seat === null || !token) {
      return null;
    }
    if (msg.rematch && getGame(msg.rematch)) {
      return h("a", { class: "btn rematch", href: `/play/${encodeURIComponent(msg.rematch)}` },
        t("table.rematchOpen"));
    }
    const label = t(msg.rematch ? "table.rematchAccept" : "table.rematchOffer");
    return h("button", { type: "button", class: "btn rematch", onclick: async (ev) => {
      ev.target.disabled = true;
      try {
        const res = await api.rematch(this.id, token);
        rememberGame(res.id, { game: res.game, mode: res.mode, seat: res.seat, token: res.token,
          created: new Date().toISOString() });
        location.assign(`/play/${encodeURIComponent(res.id)}`);
      } catch (e) {
        toast(t("table.rematchFailed", { reason: e.message }), "error");
        ev.target.disabled = false;
      }
    } }, label);
  }

  /** The links to this game's replay, and to its replay with the post-game analysis started
   * (`#analyse`, js/analysis.js). */
  replayLinks() {
    const replay = `/replay/${encodeURIComponent(this.id)}`;
    return [h("a", { class: "btn replay-link", href: replay }, t("table.watchReplay")),
      h("a", { class: "btn analyse-link", href: `${replay}#analyse` }, t("table.analyseGame"))];
  }

  /** The end-of-game dialog, once, `delay` ms after the game is seen to be over. */
  endOnce(over, msg, delay) {
    if (!over || this.endShown) return;
    this.endShown = true;
    setTimeout(() => this.showEnd(msg), delay);
  }

  /** The dialog: `title`, `reason`, what each side needed and had (`needs`: lines), a table
   * of both seats (`columns`; `rows`: [{cls, chip, name, cells}]) and `buttons` before "Look
   * at the board". */
  endDialog({ title, cls, reason, needs = [], columns, rows, buttons }) {
    mount(this.el.end, h("div", { class: `end-card ${cls}`, role: "dialog", "aria-modal": "true",
      "aria-labelledby": "end-title" },
    h("h2", { id: "end-title" }, title),
    h("p", { class: "end-reason" }, reason),
    needs.length ? h("ul", { class: "end-needs" }, needs.map((line) => h("li", {}, line))) : null,
    h("table", { class: "end-counts" },
      h("thead", {}, h("tr", {}, h("th", {}, ""), columns.map((c) => h("th", { scope: "col" }, c)))),
      h("tbody", {}, rows.map((r) => h("tr", r.cls ? { class: r.cls } : {},
        h("th", { scope: "row" }, h("span", { class: `chip ${r.chip}` }), r.name),
        r.cells.map((c) => h("td", {}, c)))))),
    h("div", { class: "end-buttons" }, ...buttons,
      h("button", { type: "button", class: "btn", onclick: () => {
        this.el.end.hidden = true;
      } }, t("table.lookAtBoard")))));
    this.el.end.hidden = false;
    this.el.end.querySelector(".btn.primary")?.focus();
  }
}

/** The log in `el`, newest at the bottom ({text, cls, end} lines; a result line, `end` or
 * English text that says so, stands out); keeps
 * the reader's scroll position unless at the end. */
export function renderLog(el, lines, listClass = "") {
  const atEnd = el.scrollHeight - el.scrollTop - el.clientHeight < 30;
  mount(el, h("ol", { class: `log-lines ${listClass}`.trim() }, lines.map((line) => h("li", {
    class: line.cls || (line.end || END_LINE.test(line.text) ? "log-end" : ""),
  }, line.text))));
  if (atEnd) el.scrollTop = el.scrollHeight;
}
