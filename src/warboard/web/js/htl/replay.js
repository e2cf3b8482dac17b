// The Hold the Line replay at /replay/{id} (js/replay.js hands over when the game is
// "holdtheline"): the server's replay of a finished game (GET /api/games/{id}/replay — the view
// at the start, then each decision and die with the change it made to the view), drawn with the
// table's own board and panels. Step forward and back through every decision and die, jump to
// the next or previous decision, to any step (the slider, or a line of the log), play/pause;
// keys: ← → step, Home/End, PageUp/PageDown a decision, space plays or pauses.

import { api } from "../api.js";
import { showReplayError } from "../common.js";
import { h, mount } from "../dom.js";
import { icon } from "../icons.js";
import { HexBoard, lastMark, legend } from "./hexboard.js";
import { actionText, loadTables, resultLine, sideColour, sideTitle } from "./names.js";
import { eventLines, gameTitle, renderDice, renderTracks } from "./panel.js";

const STEP_MS = 750; // autoplay: one decision or die per tick

export async function showHtlReplay(root, id, token) {
  mount(root, h("p", { class: "loading" }, "Loading the replay…"));
  let data;
  try {
    [data] = await Promise.all([api.replay(id, token), loadTables()]);
  } catch (e) {
    showReplayError(root, id, e);
    return null;
  }
  return new HtlReplay(root, id, data);
}

/** A view with one step's change applied (the server's `view_delta`): a new object that
 * shares whatever did not change. */
export function applyChange(view, change) {
  const out = { ...view };
  for (const [k, v] of Object.entries(change.set || {})) out[k] = v;
  for (const [k, list] of Object.entries(change.items || {})) {
    const arr = out[k].slice();
    for (const [i, v] of list) arr[i] = v;
    out[k] = arr;
  }
  for (const [k, add] of Object.entries(change.append || {})) out[k] = out[k].concat(add);
  for (const k of change.drop || []) delete out[k];
  return out;
}

class HtlReplay {
  constructor(root, id, data) {
    this.root = root;
    this.id = id;
    this.data = data;
    this.steps = data.steps || [];
    this.frames = [data.start];
    for (const st of this.steps) this.frames.push(applyChange(this.frames[this.frames.length - 1], st.change || {}));
    this.n = this.steps.length;
    // the frame in which each engine event (view.events[n]) first appears
    this.eventFrame = [];
    this.frames.forEach((f, i) => {
      while (this.eventFrame.length < (f.events || []).length) this.eventFrame.push(i);
    });
    // frames right after a decision (what ⏭ and ⏮ stop at), and the step of the last decision
    // before each frame (its mark stays on the board through the dice that follow it)
    this.decisionFrames = [];
    this.lastDecision = [null];
    this.steps.forEach((st, i) => {
      const decided = st.seat !== null && st.seat !== undefined && st.action;
      if (decided) this.decisionFrames.push(i + 1);
      this.lastDecision.push(decided ? i : this.lastDecision[i]);
    });
    // a hot-seat game has no "you"
    this.you = data.mode === "hotseat" ? null : data.seat;
    this.i = 0;
    this.timer = null;
    this.build();
    this.go(0);
  }

  build() {
    const view = this.frames[this.frames.length - 1];
    const btn = (label, ic, fn, key) => h("button", {
      type: "button", class: "btn icon-btn", "aria-label": label, title: `${label} (${key})`, onclick: fn,
    }, icon(ic));
    this.slider = h("input", {
      type: "range", min: 0, max: this.n, value: 0, step: 1, class: "replay-slider",
      "aria-label": "Jump to a step", oninput: (e) => this.go(Number(e.target.value)),
    });
    this.stepLabel = h("span", { class: "step-label", "aria-live": "polite" });
    this.playBtn = h("button", { type: "button", class: "btn primary play-btn", "aria-label": "Play",
      title: "Play or pause (space)", onclick: () => this.toggle() }, icon("play"), h("span", {}, "Play"));
    const e = (this.el = {
      boardHost: h("div", { class: "htl-board-host" }),
      event: h("p", { class: "event-text htl-event", "aria-live": "polite" }),
      tracks: h("section", { class: "panel htl-tracks", "aria-label": "Turn, AP and victory points" }),
      dice: h("section", { class: "panel htl-dice", "aria-label": "Dice" }),
      log: h("ol", { class: "log-lines htl-log replay-log" }),
    });
    this.board = new HexBoard(e.boardHost, { label: "Replay board", onHex: () => {} });
    const seat = this.data.seat;
    if (seat === 1 && (view.home_edges?.[1] || []).includes("north")) this.board.flipped = true;
    this.board.fitPhone(view);
    const result = this.data.result || view.result;
    const banner = `Game over — ${resultLine(view, result, this.you) || "the game ended"}`;
    const winner = result?.summary?.winner ?? result?.winner;
    mount(this.root, h("div", { class: "table-page htl-page htl-replay-page", dataset: { game: "holdtheline" } },
      h("div", { class: "table-top" },
        h("h1", { class: "game-title" }, ...gameTitle(view, "replay")),
        h("div", { class: `turn-banner over${winner === 0 || winner === 1 ? ` c-${sideColour(view, winner)}` : ""}` }, banner)),
      h("div", { class: "replay-controls panel", role: "toolbar", "aria-label": "Replay controls" },
        btn("Back to the start", "first", () => this.go(0), "Home"),
        btn("Previous decision", "prevPlay", () => this.jumpDecision(-1), "PageUp"),
        btn("Step back", "back", () => this.go(this.i - 1), "←"),
        this.playBtn,
        btn("Step forward", "forward", () => this.go(this.i + 1), "→"),
        btn("Next decision", "nextPlay", () => this.jumpDecision(1), "PageDown"),
        btn("To the end", "last", () => this.go(this.n), "End"),
        this.slider, this.stepLabel),
      e.event,
      h("div", { class: "htl-grid" },
        h("section", { class: "htl-board-area", "aria-label": "Board" }, e.boardHost),
        h("div", { class: "htl-side" },
          e.tracks, e.dice,
          h("section", { class: "log-panel panel", "aria-label": "Game log" }, h("h2", {}, "Game log"),
            h("div", { class: "log", tabindex: 0, "aria-label": "Game log: choose a line to go there" }, e.log)),
          h("details", { class: "panel htl-legend-panel" }, h("summary", {}, "Map key"), legend(view)),
          h("div", { class: "table-actions" },
            h("a", { class: "btn", href: `/play/${encodeURIComponent(this.id)}` }, "The final board"),
            h("a", { class: "btn primary", href: "/" }, "New game"))))));
    this.buildLog(view);
    this.keys = (ev) => {
      if (!this.root.isConnected || !this.root.querySelector(".htl-replay-page")) {
        document.removeEventListener("keydown", this.keys);
        return;
      }
      const t = ev.target;
      if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
      if (t instanceof HTMLInputElement && t.type !== "range") return;
      const onButton = t instanceof HTMLButtonElement || t instanceof HTMLAnchorElement || t?.tagName === "SUMMARY";
      if (ev.key === "ArrowRight") this.go(this.i + 1);
      else if (ev.key === "ArrowLeft") this.go(this.i - 1);
      else if (ev.key === "Home") this.go(0);
      else if (ev.key === "End") this.go(this.n);
      else if (ev.key === "PageDown") this.jumpDecision(1);
      else if (ev.key === "PageUp") this.jumpDecision(-1);
      else if (ev.key === " " && !onButton) this.toggle();
      else return;
      if (this.timer && ev.key !== " ") this.stop();
      ev.preventDefault();
    };
    document.addEventListener("keydown", this.keys);
    document.title = `Replay — Hold the Line — warboard`;
  }

  buildLog(view) {
    mount(this.el.log, eventLines(view).map((line) => h("li", {
      class: line.cls || "", dataset: { frame: this.eventFrame[line.n] ?? 0 },
    }, h("button", { type: "button", class: "linkish", tabindex: -1 }, line.text))));
    this.el.log.addEventListener("click", (ev) => {
      const li = ev.target.closest?.("li[data-frame]");
      if (!li) return;
      this.stop();
      this.go(Number(li.dataset.frame));
    });
  }

  jumpDecision(dir) {
    const ds = this.decisionFrames;
    const target = dir > 0 ? ds.find((f) => f > this.i) : [...ds].reverse().find((f) => f < this.i);
    this.go(target ?? (dir > 0 ? this.n : 0));
  }

  stop() {
    if (!this.timer) return;
    clearInterval(this.timer);
    this.timer = null;
    mount(this.playBtn, icon("play"), h("span", {}, "Play"));
    this.playBtn.setAttribute("aria-label", "Play");
  }

  toggle() {
    if (this.timer) {
      this.stop();
      return;
    }
    if (this.i >= this.n) this.go(0);
    mount(this.playBtn, icon("pause"), h("span", {}, "Pause"));
    this.playBtn.setAttribute("aria-label", "Pause");
    this.timer = setInterval(() => {
      if (!this.root.isConnected || this.i >= this.n) this.stop();
      else this.go(this.i + 1);
    }, STEP_MS);
  }

  /** What step i did, in words: the engine's own sentences for it, else the action's. */
  stepText(i) {
    if (i === 0) return "The start of the game.";
    const before = this.frames[i - 1];
    const after = this.frames[i];
    const said = (after.events || []).slice((before.events || []).length).map((e) => e.text);
    if (said.length) return said.join(" · ");
    const st = this.steps[i - 1];
    if (st.hidden || !st.action) return "A hidden event.";
    if (st.seat === null || st.seat === undefined) return `A die shows ${st.action.value ?? "?"}.`;
    return `${sideTitle(before, st.seat)}: ${actionText(before, st.action)}`;
  }

  go(i) {
    this.i = Math.max(0, Math.min(this.n, i));
    const view = this.frames[this.i];
    const st = this.i > 0 ? this.steps[this.i - 1] : null;
    this.root.dataset.step = String(this.i);
    const j = this.lastDecision[this.i];
    this.board.render(view, {
      last: j === null ? null : lastMark(view, this.steps[j].action, this.frames[j]),
      pendingTarget: view.pending?.target || null,
    });
    renderTracks(this.el.tracks, view, { players: this.data.players || [], seat: this.you });
    renderDice(this.el.dice, view, {});
    this.slider.value = String(this.i);
    const kind = !st ? "" : st.seat === null || st.seat === undefined ? "die" : "decision";
    this.stepLabel.textContent = `Step ${this.i} of ${this.n}`;
    const side = st && st.seat !== null && st.seat !== undefined ? st.seat : view.active;
    mount(this.el.event,
      h("span", { class: "dice-turn" }, `T${view.turn}`),
      kind ? h("span", { class: `step-kind ${kind} c-${side >= 0 ? sideColour(view, side) : ""}` },
        kind === "die" ? "die" : sideTitle(view, side)) : null,
      h("span", { class: "step-text" }, this.stepText(this.i)));
    let current = null;
    for (const li of this.el.log.children) {
      const f = Number(li.dataset.frame);
      li.classList.toggle("current", f === this.i);
      li.classList.toggle("future", f > this.i);
      if (f <= this.i) current = li;
    }
    // scroll the list only, never the page (scrollIntoView would move the page on a phone)
    const box = this.el.log.parentElement;
    if (current && box) box.scrollTop = Math.max(0, current.offsetTop - box.offsetTop - box.clientHeight / 2);
  }
}
