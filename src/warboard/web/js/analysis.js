// The post-game analysis under a replay (docs/server-api.md, "Post-game analysis"): a button
// that asks the server for it, its progress while the AI workers judge the decisions, then the
// win probability after each decision as a chart (a point per decision, the labelled ones
// coloured; a click goes there), each side's summary, and what the decision just made at the
// replay's frame lost against the better play. The replay (js/replayview.js) owns one, labels
// its log from `judged(ply)` and draws the better play on its board.

import { api } from "./api.js";
import { h, mount, s } from "./dom.js";
import { t } from "./i18n.js";

const POLL_MS = 1500;
const LABELS = ["blunder", "mistake", "inaccuracy"];
// the chart's drawing box (its viewBox; the page scales it to the panel's width)
const W = 600;
const H = 140;
const PAD = 10;
const LEFT = 40; // room for the percentages

const percent = (p) => `${Math.round(100 * p)}%`;

export class AnalysisPanel {
  /** `view`: the replay (its `id`, `n` steps, `seatName(seat)`, `go(i)`, `stop()`, and
   * `analysed()`, called once the judgements are in); `token`: the seat the browser reads as
   * (`null`: a spectator); `view.playText(seat, action, ply)` says a play in words. */
  constructor(view, token) {
    this.view = view;
    this.token = token;
    this.byPly = new Map();
    this.level = null; // the analysing level, once the server said it
    // the end of a game links to its replay with `#analyse`: start it at once
    this.startNow = location.hash === "#analyse";
    if (this.startNow) history.replaceState(null, "", location.pathname);
    this.el = h("section", { class: "analysis-panel panel", "aria-label": t("analysis.title") });
    this.ask(() => api.analysis(view.id, token));
  }

  /** The judgement of the decision at step `ply` (the replay's frame after it), if judged. */
  judged(ply) {
    return this.byPly.get(ply) ?? null;
  }

  async ask(call) {
    let data;
    try {
      data = await call();
    } catch (e) {
      this.refused(e);
      return;
    }
    if (this.view.page && !this.view.page.isConnected) return; // the replay was left
    if (data.status === "running") this.running(data);
    else if (data.status === "done") this.done(data);
    else if (this.startNow) {
      this.startNow = false;
      this.ask(() => api.analyse(this.view.id, this.token));
    } else {
      this.level = data.level;
      this.offer();
    }
  }

  heading() {
    return h("h2", {}, t("analysis.title"));
  }

  /** The button that starts it (`why`: the refusal of the last try). */
  offer(why = null) {
    const button = h("button", { type: "button", class: "btn primary analyse-btn", onclick: () => {
      button.disabled = true;
      this.ask(() => api.analyse(this.view.id, this.token));
    } }, t("analysis.start"));
    mount(this.el, this.heading(), why ? h("p", { class: "notice error" }, why) : null,
      this.level ? h("p", { class: "hint" }, t("analysis.offer", { level: this.level })) : null, button);
  }

  running(data) {
    mount(this.el, this.heading(),
      h("progress", { class: "analysis-progress", max: data.total || 1, value: data.done,
        "aria-label": t("analysis.progressLabel") }),
      h("p", { class: "hint", "aria-live": "polite" }, t("analysis.judging", { done: data.done, total: data.total })));
    setTimeout(() => this.ask(() => api.analysis(this.view.id, this.token)), POLL_MS);
  }

  /** The server's refusal in words; asking again is offered unless it refused the reader
   * (403: a card game's spectator, whose analysis would show nothing) or the game (409). */
  refused(e) {
    if (e.status === 403 || e.status === 409) mount(this.el, this.heading(), h("p", { class: "hint" }, e.message));
    else this.offer(e.message);
  }

  done(data) {
    this.data = data;
    this.byPly = new Map(data.decisions.map((j) => [j.ply, j]));
    // the chart shows the reader's side (a spectator's or a hot seat's: the first side)
    this.side = data.seats.length === 1 ? data.seats[0] : this.view.data.seat ?? 0;
    this.note = h("p", { class: "analysis-note", "aria-live": "polite" });
    mount(this.el, this.heading(),
      h("p", { class: "hint" }, t("analysis.chartFor", { side: this.view.seatName(this.side), level: data.level })),
      this.chart(), this.note, this.sides(), this.moments());
    this.view.analysed();
  }

  x(ply) {
    return LEFT + ((W - LEFT - PAD) * ply) / Math.max(1, this.view.n);
  }

  y(p) {
    return PAD + (H - 2 * PAD) * (1 - p);
  }

  /** The reader's side's win probability after each decision (either side's). */
  chart() {
    const points = this.data.decisions.map((j) => [j.ply, j.seat === this.side ? j.win_probability : 1 - j.win_probability]);
    const line = points.map(([ply, p]) => `${this.x(ply).toFixed(1)},${this.y(p).toFixed(1)}`).join(" ");
    const first = points.length ? this.x(points[0][0]) : LEFT;
    const last = points.length ? this.x(points[points.length - 1][0]) : LEFT;
    this.cursor = s("line", { class: "analysis-cursor", y1: PAD, y2: H - PAD });
    const svg = s("svg", { class: "analysis-chart", viewBox: `0 0 ${W} ${H}`, role: "img",
      "aria-label": t("analysis.chartLabel", { side: this.view.seatName(this.side) }) },
    s("rect", { class: "analysis-bg", x: LEFT, y: PAD, width: W - LEFT - PAD, height: H - 2 * PAD, rx: 6 }),
    s("line", { class: "analysis-even", x1: LEFT, x2: W - PAD, y1: this.y(0.5), y2: this.y(0.5) }),
    ...[0, 0.5, 1].map((p) => s("text", { class: "analysis-tick", x: LEFT - 6, y: this.y(p) + 4 }, percent(p))),
    points.length ? s("polygon", { class: "analysis-area", points: `${first},${this.y(0)} ${line} ${last},${this.y(0)}` }) : null,
    s("polyline", { class: "analysis-line", points: line }),
    this.cursor,
    ...this.data.decisions.filter((j) => j.label).map((j) => {
      const p = j.seat === this.side ? j.win_probability : 1 - j.win_probability;
      return s("circle", { class: `analysis-point ${j.label}`, cx: this.x(j.ply), cy: this.y(p), r: 6,
        "data-ply": j.ply, onclick: () => this.goTo(j.ply) }, s("title", {}, this.describe(j)));
    }));
    return svg;
  }

  /** Each side's accuracy, its labels counted and its biggest swing. */
  sides() {
    const rows = Object.entries(this.data.sides).map(([seat, side]) => h("tr", {},
      h("th", { scope: "row" }, this.view.seatName(Number(seat))),
      h("td", { class: "accuracy" }, side.accuracy === null ? "—" : `${side.accuracy}`),
      ...LABELS.map((name) => h("td", { class: `count ${name}` }, String(side[name]))),
      h("td", {}, side.biggest_loss && side.biggest_loss.loss > 0
        ? h("button", { type: "button", class: "linkish", onclick: () => this.goTo(side.biggest_loss.ply) },
          t("analysis.swing", { step: side.biggest_loss.ply, loss: percent(side.biggest_loss.loss) }))
        : "—")));
    return h("div", { class: "analysis-sides-box" }, h("table", { class: "analysis-sides" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("analysis.side")),
        h("th", { scope: "col" }, t("analysis.accuracy")),
        ...LABELS.map((name) => h("th", { scope: "col" }, t(`analysis.labels.${name}`))),
        h("th", { scope: "col" }, t("analysis.biggest")))),
      h("tbody", {}, rows)));
  }

  /** The labelled decisions, a button each (the chart's points, for the keyboard). */
  moments() {
    const labelled = this.data.decisions.filter((j) => j.label);
    if (!labelled.length) return h("p", { class: "hint" }, t("analysis.clean"));
    return h("ul", { class: "analysis-moments", "aria-label": t("analysis.moments") },
      labelled.map((j) => h("li", {}, h("button", { type: "button", class: `btn small moment ${j.label}`,
        "data-ply": j.ply, onclick: () => this.goTo(j.ply) },
      t("analysis.moment", { step: j.ply, side: this.view.seatName(j.seat), label: t(`analysis.labels.${j.label}`) })))));
  }

  goTo(ply) {
    this.view.stop();
    this.view.go(ply);
  }

  /** What decision `j` lost, in words, with the better play when it lost enough for a label. */
  describe(j) {
    const played = this.view.playText(j.seat, j.played, j.ply);
    if (!j.label) return t("analysis.good", { step: j.ply, played, p: percent(j.win_probability) });
    return t("analysis.worse", {
      step: j.ply, played, label: t(`analysis.labels.${j.label}`), p: percent(j.win_probability),
      best: this.view.playText(j.seat, j.best, j.ply), bestP: percent(j.best_win_probability),
    });
  }

  /** The replay is at frame `i`, just after the decision of step `ply` (or none). */
  follow(i, ply) {
    if (!this.data) return;
    this.cursor.setAttribute("x1", this.x(i));
    this.cursor.setAttribute("x2", this.x(i));
    const j = ply === null ? null : this.judged(ply);
    this.note.className = `analysis-note${j?.label ? ` ${j.label}` : ""}`;
    this.note.textContent = j ? this.describe(j) : "";
  }
}

/** The mark of a label in a log line (?! ? ??), its name for the screen reader. */
export function labelBadge(label) {
  const sign = { inaccuracy: "?!", mistake: "?", blunder: "??" }[label];
  return h("span", { class: `judged ${label}`, title: t(`analysis.labels.${label}`) },
    sign, h("span", { class: "sr-only" }, ` ${t(`analysis.labels.${label}`)}`));
}
