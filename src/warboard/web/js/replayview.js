// What the two replays share (js/replay.js: the card games, js/htl/replay.js: Hold the Line):
// the server's replay of a finished game (GET /api/games/{id}/replay — the reader's view at the
// start, then each decision and chance event with the change it made to the view) turned into
// frames, and one viewer over them: step forward and back, jump to the next or previous
// decision, to any step (the slider, or a line of the log), play/pause, switch seats; keys:
// ← → step, Home/End, PageUp/PageDown a decision, space plays or pauses.
//
// A game's replay extends ReplayView with `layout(controls)` (its page around the toolbar and
// `this.log`), `logItems()` (the log's <li data-frame=N> lines, N the frame each goes to),
// `draw()` (frame `this.i`), `seatName(seat)` (for the seat switch) and `playText(seat, action,
// ply)` (a decision of step `ply` in words, from the frame before it), and places
// `this.analysis.el` (the post-game analysis, js/analysis.js) under its board; `betterPlay()`
// is the judgement whose better play its board draws.

import { AnalysisPanel, labelBadge } from "./analysis.js";
import { h, mount } from "./dom.js";
import { t } from "./i18n.js";
import { icon } from "./icons.js";

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

const decided = (st) => st.seat !== null && st.seat !== undefined;

export class ReplayView {
  /** `data`: the server's replay; `opts.tokens`: the seats this browser holds (two: a seat
   * switch), `opts.load(token)`: the replay for another seat, `opts.token`: the seat it reads
   * as when it holds no other; the rest is the game's own. The subclass calls `show()` once it
   * is set up. */
  constructor(root, id, data, opts = {}) {
    this.root = root;
    this.id = id;
    this.data = data;
    this.opts = opts;
    this.tokens = opts.tokens || [];
    this.token = opts.token ?? this.tokens[this.tokens.length > 1 ? data.seat : 0] ?? null;
    this.steps = data.steps || [];
    this.frames = [data.start];
    for (const st of this.steps) this.frames.push(applyChange(this.frames[this.frames.length - 1], st.change || {}));
    this.n = this.steps.length;
    // frames right after a decision (what ⏭ and ⏮ stop at), and the step of the last decision
    // before each frame (its mark stays on the board through the chance events that follow)
    this.decisionFrames = [];
    this.lastDecision = [null];
    this.steps.forEach((st, i) => {
      if (decided(st)) this.decisionFrames.push(i + 1);
      this.lastDecision.push(decided(st) ? i : this.lastDecision[i]);
    });
    this.i = 0;
    this.timer = null;
  }

  decisionWord = "decision";
  logClass = ""; // the log list's own class
  stepMs = 750; // autoplay: the time between two steps
  autoplayByDecision = false; // autoplay goes decision by decision, else step by step

  // ------------------------------------------------------------------ the viewer

  show() {
    const btn = (label, ic, fn, key) => h("button", {
      type: "button", class: "btn icon-btn", "aria-label": label, title: `${label} (${key})`, onclick: fn,
    }, icon(ic));
    this.slider = h("input", {
      type: "range", min: 0, max: this.n, value: 0, step: 1, class: "replay-slider",
      "aria-label": t("replay.jump"), oninput: (e) => this.go(Number(e.target.value)),
    });
    this.stepLabel = h("span", { class: "step-label", "aria-live": "polite" });
    this.playBtn = h("button", { type: "button", class: "btn primary play-btn", "aria-label": t("replay.play"),
      title: t("replay.playTitle"), onclick: () => this.toggle() }, icon("play"), h("span", {}, t("replay.play")));
    const seat = this.data.seat;
    const seatSwitch = this.tokens.length > 1 ? h("div", { class: "seat-switch" },
      [0, 1].map((s) => h("button", {
        type: "button", class: `btn small${s === seat ? " selected" : ""}`, "aria-pressed": s === seat ? "true" : "false",
        onclick: () => this.switchSeat(s),
      }, t("replay.asSeat", { seat: this.seatName(s) })))) : null;
    const w = this.decisionWord;
    const controls = h("div", { class: "replay-controls panel", role: "toolbar", "aria-label": t("replay.controls") },
      btn(t("replay.toStart"), "first", () => this.go(0), "Home"),
      btn(t(`replay.previous.${w}`), "prevPlay", () => this.jumpDecision(-1), "PageUp"),
      btn(t("replay.stepBack"), "back", () => this.go(this.i - 1), "←"),
      this.playBtn,
      btn(t("replay.stepForward"), "forward", () => this.go(this.i + 1), "→"),
      btn(t(`replay.next.${w}`), "nextPlay", () => this.jumpDecision(1), "PageDown"),
      btn(t("replay.toEnd"), "last", () => this.go(this.n), "End"),
      this.slider, this.stepLabel, seatSwitch);
    this.log = h("ol", { class: `log-lines replay-log ${this.logClass}`.trim() }, this.logItems());
    this.log.addEventListener("click", (ev) => {
      const li = ev.target.closest?.("li[data-frame]");
      if (!li) return;
      this.stop();
      this.go(Number(li.dataset.frame));
    });
    this.analysis = new AnalysisPanel(this, this.token);
    this.page = this.layout(controls);
    mount(this.root, this.page);
    this.keys = (ev) => {
      if (!this.page.isConnected) {
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
    this.go(0);
    return this;
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
    mount(this.playBtn, icon("play"), h("span", {}, t("replay.play")));
    this.playBtn.setAttribute("aria-label", t("replay.play"));
  }

  toggle() {
    if (this.timer) {
      this.stop();
      return;
    }
    if (this.i >= this.n) this.go(0);
    mount(this.playBtn, icon("pause"), h("span", {}, t("replay.pause")));
    this.playBtn.setAttribute("aria-label", t("replay.pause"));
    this.timer = setInterval(() => {
      if (!this.page.isConnected || this.i >= this.n) this.stop();
      else if (this.autoplayByDecision) this.jumpDecision(1);
      else this.go(this.i + 1);
    }, this.stepMs);
  }

  async switchSeat(seat) {
    const data = await this.opts.load(this.tokens[seat]);
    if (!data) return;
    this.stop();
    new this.constructor(this.root, this.id, data, this.opts);
  }

  /** The step of the last decision at frame `this.i` (its judgement's `ply`), or null. */
  judgedPly() {
    const j = this.lastDecision[this.i];
    return j === null ? null : j + 1;
  }

  /** The judgement of the last decision at this frame when it lost enough to be labelled:
   * its better play is drawn on the board. */
  betterPlay() {
    const ply = this.judgedPly();
    const judged = ply === null ? null : this.analysis.judged(ply);
    return judged?.label ? judged : null;
  }

  /** The judgements are in: label the log's lines (the first of each decision's) and redraw. */
  analysed() {
    const seen = new Set();
    for (const li of this.log.children) {
      const frame = Number(li.dataset.frame);
      if (seen.has(frame)) continue;
      seen.add(frame);
      const label = this.analysis.judged(frame)?.label;
      if (label) li.firstElementChild.append(" ", labelBadge(label));
    }
    this.go(this.i);
  }

  go(i) {
    this.i = Math.max(0, Math.min(this.n, i));
    this.root.dataset.step = String(this.i);
    this.slider.value = String(this.i);
    this.stepLabel.textContent = t("replay.stepOf", { i: this.i, n: this.n });
    this.draw();
    this.analysis.follow(this.i, this.judgedPly());
    let current = null;
    for (const li of this.log.children) {
      const f = Number(li.dataset.frame);
      li.classList.toggle("current", f === this.i);
      li.classList.toggle("future", f > this.i);
      if (f <= this.i) current = li;
    }
    // scroll the list only, never the page (scrollIntoView would move the page on a phone)
    const box = this.log.parentElement;
    if (current && box) box.scrollTop = Math.max(0, current.offsetTop - box.offsetTop - box.clientHeight / 2);
  }
}

/** The notice in `root` when the replay of game `id` could not be loaded (error `e`). */
export function showReplayError(root, id, e) {
  mount(root, h("div", { class: "notice error" },
    h("h1", {}, t(e.status === 409 ? "replay.notOver" : "replay.none")),
    h("p", {}, e.status === 409 ? t("replay.opensAtEnd") : e.message),
    h("p", {}, h("a", { href: `/play/${encodeURIComponent(id)}` }, t("replay.backToGame")), " · ",
      h("a", { href: "/" }, t("table.lobby")))));
}
