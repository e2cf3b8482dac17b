// The game's two clocks on the table (the state's `clocks`, docs/server-api.md#clocks): each
// seat's time counts down in the browser from the server's figures, the running one from when
// the state arrived; a correspondence clock shows its deadline; a seat whose opponent left a
// real-time game is offered its claim once the grace is over.

import { h, mount } from "./dom.js";
import { lang, t } from "./i18n.js";
import { seatName } from "./units.js";

/** "m:ss" (or "h:mm:ss"); tenths under ten seconds. */
export function clockText(ms) {
  const left = Math.max(0, ms);
  if (left < 10000) return `0:0${(left / 1000).toFixed(1)}`;
  const s = Math.ceil(left / 1000);
  const [hh, mm, ss] = [Math.floor(s / 3600), Math.floor(s / 60) % 60, s % 60];
  const two = (n) => String(n).padStart(2, "0");
  return hh ? `${hh}:${two(mm)}:${two(ss)}` : `${mm}:${two(ss)}`;
}

export class Clocks {
  /** `onClaim(outcome)` sends a claim ("win" or "draw"). */
  constructor(onClaim) {
    this.onClaim = onClaim;
    this.el = h("div", { class: "clocks", "aria-label": "Clocks" });
    this.clocks = null;
    this.timer = setInterval(() => this.tick(), 200);
  }

  /** A new state's clocks, seen from `seat` (null: a spectator or a hot-seat screen). */
  update(clocks, seat, names) {
    this.clocks = clocks;
    this.seat = seat;
    this.names = names;
    this.arrived = performance.now();
    this.el.hidden = !clocks;
    this.tick();
  }

  tick() {
    const c = this.clocks;
    if (!c) return;
    const gone = performance.now() - this.arrived;
    const left = c.seats.map((ms, s) => (s === c.running ? ms - gone : ms));
    const who = (s) => (s === this.seat ? t("table.youSubject") : this.names?.[s] || seatName(s));
    const claimAt = c.claim ? Date.parse(c.claim) : null;
    mount(this.el, [0, 1].map((s) => h("span", {
      class: `clock s${s}${s === c.running ? " running" : ""}${left[s] <= 10000 ? " low" : ""}`,
      "data-seat": s,
    }, h("span", { class: "clock-name" }, who(s)), " ",
    h("span", { class: "clock-time" }, c.kind === "correspondence" && s !== c.running
      ? t("table.clockPerTurn", { time: c.days >= 1 ? t("table.days", { n: +c.days.toFixed(2) }) : clockText(c.days * 86400000) })
      : clockText(left[s])))),
    c.kind === "correspondence" && c.deadline
      ? h("span", { class: "clock-deadline" }, t("table.moveBy", { when: new Date(c.deadline).toLocaleString(lang()) })) : null,
    claimAt === null ? null : Date.now() < claimAt
      ? h("span", { class: "clock-claim" }, t("table.claimIn", { s: Math.ceil((claimAt - Date.now()) / 1000) }))
      : h("span", { class: "clock-claim" }, t("table.opponentLeft"),
        h("button", { type: "button", class: "btn primary", onclick: () => this.onClaim("win") }, t("table.claimWin")), " ",
        h("button", { type: "button", class: "btn", onclick: () => this.onClaim("draw") }, t("table.claimDraw"))));
  }
}
