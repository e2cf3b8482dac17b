// The other side's plays, one at a time: the state messages of plays this screen did not make
// (the computer's, a friend's; every play for a spectator) are shown one after another at the
// player's pace instead of all at once. The first is shown at once; each next one waits until
// the one before has been on screen for the pace's time. "Skip" (or any click or key on the
// table while plays wait) shows what waits at once, so input always acts on the real state.
//
// With prefers-reduced-motion the plays still come one by one at the same pace; the tables
// then leave out the motion (no slides, no flying cards), keeping the highlights.

import { h, mount } from "./dom.js";
import { t } from "./i18n.js";

export const PACES = { slow: 2200, normal: 1200, fast: 500 }; // ms each play stays on screen
const PACE_KEY = "warboard.pace";

export function savedPace() {
  try {
    const p = localStorage.getItem(PACE_KEY);
    return p in PACES ? p : "normal";
  } catch {
    return "normal";
  }
}

export function reducedMotion() {
  return matchMedia("(prefers-reduced-motion: reduce)").matches;
}

export class Playback {
  /**
   * @param {HTMLElement} root  the table (gets data-playback: the step on screen, while more
   *   may come; and the click/key guard)
   * @param {(k, msg, step) => void} deliver  show a state message (`step`: its number in the
   *   run of followed plays, or 0 for one that is not followed)
   * @param {() => void} ended  the last followed play has had its time on screen
   */
  constructor(root, deliver, ended) {
    this.root = root;
    this.deliver = deliver;
    this.ended = ended;
    this.pace = savedPace();
    this.queue = []; // [k, msg] waiting
    this.timer = null;
    this.step = 0;
    this.el = h("div", { class: "playback-bar", role: "group", "aria-label": t("table.following") });
    this.caption = h("span", { class: "playback-caption", "aria-live": "polite" });
    this.skipBtn = h("button", { type: "button", class: "btn small playback-skip", hidden: true,
      onclick: () => this.skip() }, t("table.skip"));
    const select = h("select", { class: "playback-pace", "aria-label": t("table.paceLabel"),
      onchange: (e) => this.setPace(e.target.value) },
    Object.keys(PACES).map((p) => h("option", { value: p, selected: p === this.pace }, t(`table.pace.${p}`))));
    mount(this.el, h("label", { class: "playback-pace-label" }, t("table.pace"), select), this.skipBtn, this.caption);
    // a click or key while plays wait shows them all first, and does nothing else: what the
    // player saw was not yet the real board
    const guard = (ev) => {
      if (!this.queue.length || this.el.contains(ev.target)) return;
      if (ev.type === "keydown" && !["Enter", " ", "Escape"].includes(ev.key)) return;
      ev.preventDefault();
      ev.stopPropagation();
      this.skip();
    };
    root.addEventListener("click", guard, true);
    root.addEventListener("keydown", guard, true);
  }

  setPace(p) {
    if (!(p in PACES)) return;
    this.pace = p;
    try {
      localStorage.setItem(PACE_KEY, p);
    } catch { /* private mode: the pace lasts for this page */ }
  }

  /** A state message has come: `followed` ones take their turn; others (and anything coming
   * behind waiting plays, so that the order holds) wait for nothing but the queue. */
  offer(k, msg, followed) {
    if (this.queue.length || (this.timer && followed)) {
      this.queue.push([k, msg, followed]);
      this.mark();
      return;
    }
    this.show(k, msg, followed);
  }

  show(k, msg, followed) {
    this.step = followed ? this.step + 1 : 0;
    this.root.dataset.playback = String(this.step);
    this.deliver(k, msg, this.step);
    if (followed) {
      clearTimeout(this.timer);
      this.timer = setTimeout(() => this.next(), PACES[this.pace]);
    }
    this.mark();
  }

  next() {
    this.timer = null;
    const item = this.queue.shift();
    if (item) this.show(...item);
    else this.end();
  }

  /** Show everything that waits at once (the last state is the real one). */
  skip() {
    clearTimeout(this.timer);
    this.timer = null;
    for (const [k, msg] of this.queue.splice(0)) this.deliver(k, msg, 0);
    this.end();
  }

  end() {
    const was = this.step;
    this.step = 0;
    this.root.dataset.playback = "0";
    this.mark();
    if (was) this.ended();
  }

  /** Say what is on screen: "waiting" plays offer the skip button. */
  mark() {
    this.skipBtn.hidden = !this.queue.length;
    this.root.dataset.playbackQueued = String(this.queue.length);
  }

  /** The words of the play on screen (its log lines), or nothing. */
  say(text) {
    this.caption.textContent = text || "";
  }
}
