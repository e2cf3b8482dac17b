// The replay viewer at /replay/{id}: the seat's record (one view per event) with step, back,
// jump to the next/previous decision, a slider and autoplay. Shows exactly the record's frames.
// Hold the Line games get their own viewer (js/htl/replay.js).

import { api } from "./api.js";
import { showReplayError } from "./common.js";
import { Board } from "./board.js";
import { h, mount } from "./dom.js";
import { icon } from "./icons.js";
import { renderHand } from "./hand.js";
import { renderSeats } from "./panel.js";
import { Picker } from "./picker.js";
import { getGame, rememberGame, tokenFromHash } from "./store.js";
import { actionText, loadRuleset, playerLabel, resultText, seatName, unitTitle } from "./units.js";

export async function showReplay(root, id) {
  const hashToken = tokenFromHash();
  if (hashToken) {
    rememberGame(id, { token: hashToken });
    history.replaceState(null, "", location.pathname);
  }
  const entry = getGame(id);
  const tokens = entry?.tokens ? [entry.tokens[0], entry.tokens[1]] : entry?.token ? [entry.token] : [];
  let game = entry?.game;
  if (!game) {
    try {
      game = (await api.game(id, tokens[0])).game;
    } catch {
      // unknown game or no server: said below
    }
  }
  if (game === "holdtheline") {
    // everything is public in the hex wargame: its replay needs no seat (js/htl/replay.js)
    const { showHtlReplay } = await import("./htl/replay.js");
    return showHtlReplay(root, id, tokens[0] ?? null);
  }
  if (!tokens.length) {
    mount(root, h("div", { class: "notice error" }, h("h1", {}, "No seat for this game"),
      h("p", {}, "A replay shows the game as one seat saw it; this browser holds no seat of it."),
      h("p", {}, h("a", { href: "/" }, "Back to the lobby"))));
    return;
  }
  mount(root, h("p", { class: "loading" }, "Loading the record…"));
  const load = async (token) => {
    try {
      const record = await api.record(id, token);
      return { ...record, rules: await loadRuleset(record.game) };
    } catch (e) {
      showReplayError(root, id, e);
      return null;
    }
  };
  const record = await load(tokens[0]);
  if (record) new Replay(root, id, record, tokens, load);
}

/** One sentence for event i (the move from frame i to frame i+1). */
export function eventText(rules, record, i) {
  const ev = record.events[i];
  const before = record.frames[i];
  if (!ev) return "";
  if (ev.hidden) {
    if (ev.seat !== null && ev.seat !== undefined) {
      return `${seatName(ev.seat)} puts 2 cards under its deck (hidden)`;
    }
    const drawer = before?.drawing;
    return drawer !== null && drawer !== undefined ? `${seatName(drawer)} draws a card`
      : "A hidden card is drawn";
  }
  const a = ev.action;
  if (a?.chance === "draw") {
    const drawer = before?.drawing;
    return `${drawer !== null && drawer !== undefined ? seatName(drawer) : "A seat"} draws ${unitTitle(rules, a.unit)}`;
  }
  return actionText(rules, ev.seat, a, before?.board || []);
}

class Replay {
  constructor(root, id, record, tokens, load) {
    this.root = root;
    this.id = id;
    this.record = record;
    this.tokens = tokens;
    this.load = load;
    this.rules = record.rules;
    this.i = 0;
    this.timer = null;
    this.build();
    this.go(0);
    document.title = `Replay — ${this.rules.short} — warboard`;
  }

  /** Frame indices right after a decision (a play, a strike, a burial): what ▶▶ stops at. */
  decisionFrames() {
    return this.record.events.map((e, i) => (e.seat !== null && e.seat !== undefined ? i + 1 : null))
      .filter((x) => x !== null);
  }

  build() {
    const n = this.record.frames.length - 1;
    const btn = (label, ic, fn, cls = "") => h("button", {
      type: "button", class: `btn icon-btn ${cls}`, "aria-label": label, title: label, onclick: fn,
    }, icon(ic));
    this.slider = h("input", {
      type: "range", min: 0, max: n, value: 0, step: 1, class: "replay-slider",
      "aria-label": "Jump to a step", oninput: (e) => this.go(Number(e.target.value)),
    });
    this.stepLabel = h("span", { class: "step-label", "aria-live": "polite" });
    this.eventLabel = h("p", { class: "event-text", "aria-live": "polite" });
    this.playBtn = h("button", { type: "button", class: "btn primary play-btn", "aria-label": "Play",
      onclick: () => this.toggle() }, icon("play"), h("span", {}, "Play"));
    this.el = {
      boardHost: h("div", { class: "board-host" }),
      hand: h("section", { class: "hand-panel panel", "aria-label": "The seat's cards" }),
      seats: h("section", { class: "seats-panel panel", "aria-label": "Both sides" }),
      log: h("ol", { class: "log-lines replay-log" }),
    };
    this.board = new Board(this.el.boardHost, { rules: this.rules, label: "Replay board" });
    const seat = this.record.view;
    if (seat === 1) this.board.setFlipped(true);
    const seatSwitch = this.tokens.length > 1 ? h("div", { class: "seat-switch" },
      [0, 1].map((s) => h("button", {
        type: "button", class: `btn small${s === seat ? " selected" : ""}`, "aria-pressed": s === seat ? "true" : "false",
        onclick: () => this.switchSeat(s),
      }, `As ${seatName(s)}`))) : null;
    const summary = this.record.result?.summary;
    mount(this.root, h("div", { class: "table-page replay-page" },
      h("div", { class: "table-top" },
        h("h1", { class: "game-title" }, `Replay: ${this.rules.title}`,
          h("span", { class: "mode-tag" }, seat === null ? "full record" : `as ${seatName(seat)} saw it`)),
        h("div", { class: "turn-banner over" }, summary ? resultText(this.rules, summary) : "Game over.")),
      h("div", { class: "replay-controls panel", role: "toolbar", "aria-label": "Replay controls" },
        btn("Back to the start", "first", () => this.go(0)),
        btn("Previous play", "prevPlay", () => this.jumpDecision(-1)),
        btn("Step back", "back", () => this.go(this.i - 1)),
        this.playBtn,
        btn("Step forward", "forward", () => this.go(this.i + 1)),
        btn("Next play", "nextPlay", () => this.jumpDecision(1)),
        btn("To the end", "last", () => this.go(n)),
        this.slider, this.stepLabel, seatSwitch),
      this.eventLabel,
      h("div", { class: "table-grid" },
        h("section", { class: "board-area", "aria-label": "Board" }, this.el.boardHost),
        h("div", { class: "side" }, this.el.hand, this.el.seats,
          h("section", { class: "log-panel panel" }, h("h2", {}, "Plays"),
            h("div", { class: "log" }, this.el.log)),
          h("div", { class: "table-actions" },
            h("a", { class: "btn", href: `/play/${encodeURIComponent(this.id)}` }, "Back to the game"),
            h("a", { class: "btn primary", href: "/" }, "New game"))))));
    this.keys = (e) => {
      if (e.target instanceof HTMLInputElement && e.target.type !== "range") return;
      if (e.key === "ArrowRight") this.go(this.i + 1);
      else if (e.key === "ArrowLeft") this.go(this.i - 1);
      else return;
      e.preventDefault();
    };
    document.addEventListener("keydown", this.keys);
    this.buildLog();
  }

  buildLog() {
    const items = [];
    this.record.events.forEach((ev, i) => {
      if (ev.seat === null || ev.seat === undefined) {
        if (ev.action?.chance !== "first_player") return;
      }
      const li = h("li", { "data-frame": i + 1 }, h("button", {
        type: "button", class: "linkish", onclick: () => this.go(i + 1),
      }, eventText(this.rules, this.record, i)));
      items.push(li);
    });
    mount(this.el.log, ...items);
  }

  jumpDecision(dir) {
    const ds = this.decisionFrames();
    const target = dir > 0 ? ds.find((f) => f > this.i) : [...ds].reverse().find((f) => f < this.i);
    this.go(target ?? (dir > 0 ? this.record.frames.length - 1 : 0));
  }

  toggle() {
    if (this.timer) {
      clearInterval(this.timer);
      this.timer = null;
      mount(this.playBtn, icon("play"), h("span", {}, "Play"));
      this.playBtn.setAttribute("aria-label", "Play");
      return;
    }
    if (this.i >= this.record.frames.length - 1) this.go(0);
    mount(this.playBtn, icon("pause"), h("span", {}, "Pause"));
    this.playBtn.setAttribute("aria-label", "Pause");
    this.timer = setInterval(() => {
      if (this.i >= this.record.frames.length - 1) this.toggle();
      else this.jumpDecision(1);
    }, 900);
  }

  async switchSeat(seat) {
    const rec = await this.load(this.tokens[seat]);
    if (!rec) return;
    clearInterval(this.timer);
    document.removeEventListener("keydown", this.keys);
    new Replay(this.root, this.id, rec, this.tokens, this.load);
  }

  go(i) {
    const n = this.record.frames.length - 1;
    this.i = Math.max(0, Math.min(n, i));
    const frame = this.record.frames[this.i];
    const ev = this.i > 0 ? this.record.events[this.i - 1] : null;
    const last = ev && !ev.hidden && ev.seat !== null && ev.seat !== undefined ? ev : null;
    this.board.render(frame.board, {}, last);
    this.slider.value = String(this.i);
    this.stepLabel.textContent = `Step ${this.i} of ${n}`;
    this.eventLabel.textContent = this.i === 0 ? "The start of the game."
      : `Turn ${frame.turn}: ${eventText(this.rules, this.record, this.i - 1)}`;
    if (frame.seat !== null && frame.seat !== undefined) {
      renderHand(this.el.hand, {
        rules: this.rules, view: frame, legal: [], picker: new Picker(), active: false,
        title: `${seatName(frame.seat)}'s hand`,
        onUnit: () => {}, onStrike: () => {},
      });
    } else {
      this.el.hand.hidden = true;
    }
    const players = this.record.players || [];
    renderSeats(this.el.seats, {
      rules: this.rules, view: frame, labels: [0, 1].map((s) => playerLabel(players[s], s, frame.seat)),
    });
    for (const li of this.el.log.children) {
      const f = Number(li.dataset.frame);
      li.classList.toggle("current", f === this.i);
      li.classList.toggle("future", f > this.i);
    }
    // scroll the list only, never the page (scrollIntoView would move the page on a phone)
    const cur = this.el.log.querySelector(".current");
    const box = this.el.log.parentElement;
    if (cur && box) box.scrollTop = Math.max(0, cur.offsetTop - box.clientHeight / 2);
  }
}
