// The game table at /play/{id}: connects the seat(s) this browser holds, draws the board, the
// hand and the counters from the server's messages, and turns clicks into plays.
//
// Hot-seat games hold both seats' tokens: one socket per seat, and a "pass the device" curtain
// whenever the seat to decide is not the one shown, so a player never sees the other's hand.

import { api } from "./api.js";
import { Board, boardChanges } from "./board.js";
import { openCardZoom } from "./cardzoom.js";
import { h, keepFocus, mount } from "./dom.js";
import { renderHand } from "./hand.js";
import { t } from "./i18n.js";
import { destroyedCards, renderSeats, turnText } from "./panel.js";
import { Picker } from "./picker.js";
import { playArrival } from "./playfx.js";
import { playSound } from "./sound.js";
import { getGame, rememberGame, tokenFromHash } from "./store.js";
import { TableBase, renderLog } from "./tablebase.js";
import {
  loadRuleset, playerLabel, seatName, unitCount, unitInfo, unitTitle,
} from "./units.js";
import { endSaid, said, saysKey } from "./said.js";

export async function showTable(root, id) {
  // a link carries a seat's token in the hash: take it out of the address bar so it is not
  // shared by accident (a screenshot, a copied URL), and keep it once the server accepts it
  const hashToken = tokenFromHash();
  if (hashToken) history.replaceState(null, "", location.pathname);
  const entry = getGame(id) || {};
  const held = entry.tokens ? Object.values(entry.tokens) : entry.token ? [entry.token] : [];
  const fromLink = hashToken && !held.includes(hashToken);
  mount(root, h("p", { class: "loading" }, t("table.loading")));

  let first;
  let rules;
  const token = fromLink ? hashToken
    : entry.tokens ? entry.tokens[entry.seat ?? 0] ?? entry.token : entry.token;
  try {
    first = await api.game(id, token);
    if (first.game !== "holdtheline") rules = await loadRuleset(first.game);
  } catch (err) {
    mount(root, h("div", { class: "notice error" },
      h("h1", {}, t(err.status === 404 ? "table.noSuchGame" : "table.cannotOpen")),
      h("p", {}, err.status === 403 ? t("table.badSeatKey") : err.message),
      h("p", {}, h("a", { href: "/" }, t("common.backToLobby")))));
    return;
  }
  rememberGame(id, {
    game: first.game, mode: first.mode, seat: first.seat,
    created: entry.created || new Date().toISOString(),
    ...(fromLink ? { token: hashToken, tokens: undefined } : {}),
    // the first use of an invite: the seat is ours, with a token of its own from now on
    ...(first.seat_token ? { token: first.seat_token } : {}),
  });
  if (first.game === "holdtheline") {
    // the hex wargame has a table of its own (js/htl/)
    const { showHtlTable } = await import("./htl/table.js");
    showHtlTable(root, id, first, getGame(id));
    return;
  }
  new Table(root, id, first, getGame(id), rules);
}

class Table extends TableBase {
  constructor(root, id, first, entry, rules) {
    super(root, id, first, entry, first.mode === "hotseat" && !!entry.tokens);
    this.rules = rules;
    this.shown = this.hotseat ? null : first.seat; // the seat whose view is on screen
    this.prevBoard = null;
    this.picker = new Picker();
    this.build();
    // draw the HTTP answer at once; the sockets then keep it current
    this.onState(first.seat ?? "spectator", { type: "state", last: null, ...first });
    // a stale version: something happened since this tab looked; fetch the game again
    this.connect(first, {
      stale: /stale/i,
      onRefused: () => this.picker.setLegal(this.current()?.legal || []),
    });
  }

  build() {
    this.el = {
      banner: h("div", { class: "turn-banner", role: "status", "aria-live": "polite" }),
      boardHost: h("div", { class: "board-host" }),
      hand: h("section", { class: "hand-panel panel", "aria-label": t("table.yourCards") }),
      seats: h("section", { class: "seats-panel panel", "aria-label": t("table.bothSides") }),
      log: h("div", { class: "log", tabindex: 0, "aria-label": t("table.gameLog") }),
      extra: h("div", { class: "table-extra" }),
      curtain: h("div", { class: "curtain", hidden: true }),
      end: h("div", { class: "end-screen", hidden: true }),
    };
    const e = this.el;
    this.board = new Board(e.boardHost, {
      rules: this.rules,
      label: t("table.boardLabel", { game: this.rules.title }),
      onCell: (cell) => this.clickCell(cell),
      onHover: (cell) => this.hover(cell),
      sounds: true,
    });
    const resign = h("button", { type: "button", class: "btn danger", onclick: () => this.resign() },
      t("table.resign"));
    this.resignBtn = resign;
    mount(this.root, h("div", { class: "table-page" },
      h("div", { class: "table-top" },
        h("h1", { class: "game-title" }, this.rules.title,
          h("span", { class: "mode-tag" }, this.modeLabel())),
        e.banner, this.playback.el),
      h("div", { class: "table-grid" },
        h("section", { class: "board-area", "aria-label": t("table.board") }, e.boardHost),
        h("div", { class: "side" },
          e.extra,
          e.hand,
          e.seats,
          h("section", { class: "log-panel panel", "aria-label": t("table.gameLog") },
            h("h2", {}, t("table.gameLog")), e.log),
          h("div", { class: "table-actions" }, resign, ...this.hintParts(),
            h("a", { class: "btn", href: "/" }, t("table.lobby")))))),
    e.curtain, e.end);
    document.addEventListener("keydown", (ev) => {
      if (ev.key === "Escape") this.cancel();
    });
  }

  spectating() {
    return this.shown === null;
  }

  labels() {
    return [0, 1].map((s) => {
      if (this.hotseat) return playerLabel(this.players[s], s, null);
      const label = playerLabel(this.players[s], s, this.shown);
      return label || (this.mode === "friend" && this.shown !== null ? t("table.friend") : "");
    });
  }

  current() {
    if (this.hotseat) {
      if (this.shown === null) return this.states[0] || this.states[1];
      return this.states[this.shown];
    }
    return this.states[this.shown ?? "spectator"];
  }

  received(k, msg, fresh) {
    const isShown = this.hotseat ? k === this.shown || this.shown === null : true;
    if (isShown && fresh) {
      this.busy = false;
      this.picker.setLegal(msg.legal || []);
    }
    if (this.hotseat) this.checkCurtain();
  }

  /** The socket of the seat on screen (behind a hot-seat curtain: of the seat to act). */
  socket() {
    return this.sockets[this.hotseat ? this.shown ?? this.seatToAct() : this.shown ?? "spectator"];
  }

  // ------------------------------------------------------------------ hot-seat curtain

  /** The seat that must act next, from whichever socket knows it. */
  seatToAct() {
    const st = this.states[0] || this.states[1];
    const v = st?.view;
    if (!v || v.phase === "over" || st.status === "over") return null;
    return v.to_move >= 0 ? v.to_move : null;
  }

  checkCurtain() {
    const next = this.seatToAct();
    if (next === null || next === this.shown) {
      this.el.curtain.hidden = true;
      return;
    }
    this.shown = null; // nobody's hand on screen until the next player says it is them
    this.picker.setLegal([]);
    mount(this.el.curtain, h("div", { class: "curtain-card", role: "dialog", "aria-modal": "true",
      "aria-labelledby": "curtain-title" },
    h("div", { class: `chip big s${next}`, "aria-hidden": "true" }),
    h("h2", { id: "curtain-title" }, t("table.passDevice", { who: seatName(next) })),
    h("p", {}, t("table.cardsHidden", { who: seatName(next) })),
    h("button", { type: "button", class: "btn primary big", autofocus: true,
      onclick: () => this.reveal(next) }, t("table.showMyCards", { who: seatName(next) }))));
    this.el.curtain.hidden = false;
    this.el.curtain.querySelector("button")?.focus();
  }

  reveal(seat) {
    this.shown = seat;
    this.el.curtain.hidden = true;
    this.prevBoard = null;
    this.picker.setLegal(this.states[seat]?.legal || []);
    this.render();
  }

  // ------------------------------------------------------------------ drawing

  render() {
    const msg = this.current();
    if (!msg) return;
    const view = msg.view;
    const seat = this.shown;
    this.root.dataset.version = msg.version;
    this.root.dataset.seat = String(msg.seat); // for tests: the seat shown (null: a spectator)
    this.root.dataset.busy = String(this.busy);
    this.root.dataset.phase = view.phase; // for tests and styling: deal, bury, play, over…
    const myTurn = seat !== null && seat !== undefined && (msg.legal || []).length > 0;
    const over = view.phase === "over" || msg.status === "over";
    if (myTurn && this.myTurnBefore === false) playSound("turn");
    this.myTurnBefore = myTurn;
    if (!this.flipSet && !this.hotseat && seat !== null && seat !== undefined) {
      // North sees its own side at the bottom, as across a real table (a hot-seat board stays
      // put between turns; ⇅ turns it by hand)
      this.board.setFlipped(seat === 1);
      this.flipSet = true;
    }

    // board: effects for what the last message destroyed
    const changes = this.prevBoard ? boardChanges(this.prevBoard, view.board, this.rules) : { gone: [], hit: [] };
    this.prevBoard = view.board;
    const plays = this.marks.length ? this.marks.map((m) => ({ seat: m.seat, action: m.action, now: this.isNow(m) }))
      : msg.last;
    this.board.render(view.board, this.overlay(), plays);
    if (changes.gone.length || changes.hit.length) this.board.effects(changes.gone, changes.hit);
    const newest = this.marks[this.marks.length - 1];
    if (this.fresh && newest?.before && newest.msg === msg) playArrival(this.board, newest.action);

    const aiThinking = this.thinking ?? (this.mode === "ai" && !over && view.to_move >= 0
      && /^ai/.test(this.players[view.to_move] || "") ? view.to_move : null);
    const banner = turnText({
      view, seat: this.hotseat ? null : seat, status: msg.status, end: msg.end,
      thinking: aiThinking,
      names: [0, 1].map((s) => (/^ai/.test(this.players[s] || "") ? t("table.aiSeat", { who: seatName(s) }) : seatName(s))),
    });
    this.renderBanner(banner, { mine: myTurn, over, cls: view.to_move >= 0 ? `s${view.to_move}` : "",
      spinner: aiThinking !== null && !over });

    if (seat !== null && seat !== undefined) {
      keepFocus(this.el.hand, () => renderHand(this.el.hand, {
        rules: this.rules, view, legal: msg.legal || [], picker: this.picker, active: myTurn && !this.busy,
        title: this.hotseat ? t("table.seatHand", { who: seatName(seat) }) : t("table.yourHand"),
        onUnit: (u, byKey) => this.chooseUnit(u, byKey),
        onStrike: (byKey) => {
          this.picker.startStrike();
          this.render();
          this.toBoard(byKey);
        },
        onBuryConfirm: () => this.send(this.picker.burialPlay()),
        onBuryUndo: () => {
          this.picker.undoBurial();
          this.render();
        },
        onCancel: () => this.cancel(),
      }));
      this.el.hand.hidden = false;
    } else {
      this.el.hand.hidden = !this.hotseat;
      if (this.hotseat) mount(this.el.hand, h("p", { class: "muted" }, t("table.cardsHiddenShort")));
    }
    renderSeats(this.el.seats, { rules: this.rules, view, labels: this.labels() });
    this.renderFollowedLog(msg);
    this.renderExtra(msg, over, t("table.inviteText", { seat: seatName(1 - this.shown) }),
    this.shown !== null && this.shown !== undefined || this.hotseat);
    this.resignBtn.hidden = over || seat === null || seat === undefined;
    this.renderHint(msg, myTurn, over);
    this.setTitle(myTurn, over, this.rules.short);
    // let the last move's animation play before the end screen covers the board
    this.endOnce(over, msg, changes.gone.length ? 900 : 200);
  }

  /** The log, the lines of the other side's last plays marked (the one followed now
   * highlighted), and the newest of them said beside the banner. */
  renderFollowedLog(msg) {
    const log = msg.log || [];
    const lineClass = new Array(log.length).fill("");
    for (const m of this.marks.filter((mark) => mark.before)) {
      const cls = this.isNow(m) ? "log-now" : "log-recent";
      for (let i = (m.before.log || []).length; i < (m.msg.log || []).length && i < log.length; i++) lineClass[i] = cls;
    }
    const lines = log.map((text, i) => cardLine(text, msg.log_msg?.[i]));
    renderLog(this.el.log, lines.map((line, i) => ({
      ...line, cls: [line.cls, lineClass[i]].filter(Boolean).join(" ") })));
    const newest = this.marks[this.marks.length - 1];
    this.playback.say(newest?.before ? lines.slice((newest.before.log || []).length, (newest.msg.log || []).length)
      .map((line) => line.text).join(" · ") : "");
  }

  overlay() {
    const o = this.picker.overlay();
    if (this.picker.unit) {
      o.unitTitle = unitTitle(this.rules, this.picker.unit);
      o.chosenAbbrev = unitInfo(this.rules, this.picker.unit).abbrev;
    }
    o.preview = this.previewCells || [];
    o.mySeat = this.shown;
    return o;
  }

  showEnd(msg) {
    const view = msg.view;
    const r = view.result || msg.result?.summary; // the engine's, or a ruling (time, a claim)
    const quit = msg.result?.abandoned ? msg.result : null;
    const seat = this.hotseat ? null : this.shown;
    const mine = seat !== null && seat !== undefined;
    const winner = quit ? (quit.by === null ? null : 1 - quit.by) : r?.winner;
    const cls = !mine || winner === null || winner === undefined ? "" : winner === seat ? "win" : "loss";
    const units = r?.units || [unitCount(this.rules, view.board, 0), unitCount(this.rules, view.board, 1)];
    const lost = (s) => destroyedCards(this.rules, view.destroyed?.[s]).reduce((a, [, n]) => a + n, 0);
    // the end's words are the server's: a hot seat reads them as a spectator would
    this.endDialog({ title: endSaid(mine ? msg.end?.title : msg.end?.outcome), cls,
      reason: endSaid(msg.end?.reason), needs: winNeeds(this.rules, r, units),
      columns: [t("end.cards.unitsCounted"), t("end.cards.cardsDestroyed")],
      rows: [0, 1].map((s) => ({ cls: `s${s}`, chip: `s${s}`, name: seatName(s), cells: [units[s], lost(s)] })),
      buttons: [this.replayLinks(), h("a", { class: "btn primary", href: "/" }, t("common.navNewGame"))] });
  }

  // ------------------------------------------------------------------ input

  chooseUnit(unit, byKey = false) {
    this.previewCells = [];
    this.picker.selectUnit(unit);
    this.render();
    this.toBoard(byKey);
  }

  /** A play has begun: the board in sight (on a phone the hand lies below it), and with the
   *  keyboard, the focus on the board's cursor on a legal square. */
  toBoard(byKey) {
    if (this.picker.mode === "idle" || this.picker.mode === "bury") return;
    const bar = this.el.hand.querySelector(".play-prompt");
    if (bar && getComputedStyle(bar).position === "fixed") { // the phone's layout
      const r = this.el.boardHost.getBoundingClientRect();
      if (r.top < 0 || r.bottom > bar.getBoundingClientRect().top) this.el.boardHost.scrollIntoView({ block: "start" });
    }
    if (byKey) this.board.focusCursor(true);
  }

  clickCell(cell) {
    if (!this.el.curtain.hidden) return;
    const unit = (this.current()?.view.board || []).find((c) => c.x === cell[0] && c.y === cell[1]);
    if (this.picker.mode === "idle" && unit) {
      // nothing to play there: the card close up
      openCardZoom(this.rules, unit, { mine: unit.seat === this.shown, turned: (unit.seat === 0) === this.board.flipped,
        onClose: () => this.board.focusCursor() });
      return;
    }
    if (this.busy) return;
    const play = this.picker.clickCell(cell);
    this.previewCells = [];
    if (play) this.send(play);
    else {
      this.render();
      // the hits come next: a keyboard's cursor goes on to the first of them
      if (this.picker.mode === "targets" && this.board.svg.contains(document.activeElement)) this.board.focusCursor(true);
    }
  }

  hover(cell) {
    const cells = cell ? this.picker.preview(cell) : [];
    const before = (this.previewCells || []).join(";");
    this.previewCells = cells;
    if (cells.join(";") !== before) this.board.setOverlay(this.overlay());
  }

  cancel() {
    if (this.picker.mode === "bury") return;
    const { mode, unit } = this.picker;
    this.picker.reset();
    if (this.picker.legal.some((a) => a.play === "bury")) this.picker.mode = "bury";
    this.previewCells = [];
    this.render();
    if (!this.root.contains(document.activeElement) && mode !== "idle") {
      // the bar's Cancel is gone: back to the card (or strike button) the play began with
      const back = mode === "strike" ? "strike" : `card:${unit}`;
      this.el.hand.querySelector(`[data-focus-key="${CSS.escape(back)}"]`)?.focus();
    }
  }

  send(play) {
    if (!play) return;
    const sock = this.socket();
    if (!sock) return;
    this.busy = true;
    sock.play(play);
    this.picker.reset();
    this.render();
  }
}

/** A line of a card game's log in the page's language ({text, cls, end}), from its message
 * when it has one. */
function cardLine(text, msg) {
  if (!msg) return { text, cls: /destroys|damages/.test(text) ? "log-hit" : "" };
  return { text: said(msg, text), cls: saysKey(msg, /^log\.cards\.(destroys|damages)$/) ? "log-hit" : "",
    end: msg.key === "log.cards.over" };
}

/** What it took to win, and what each side had: the count at the end of the cards. */
function winNeeds(rules, r, units) {
  const ogre = rules.units.some((u) => (u.countsAs ?? 1) > 1);
  const lines = [t(ogre ? "end.cards.toWinOgre" : "end.cards.toWin", { base: rules.baseName })];
  if (r?.reason === "base") {
    lines.push(t("end.cards.took", { winner: seatName(r.winner), loser: seatName(1 - r.winner), base: rules.baseName }));
  }
  lines.push(t("end.cards.counted", { south: seatName(0), north: seatName(1), s: units[0], n: units[1] }));
  return lines;
}
