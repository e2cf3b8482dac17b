// The Hold the Line replay at /replay/{id} (js/replay.js hands over when the game is
// "holdtheline"): the server's replay of a finished game (js/replayview.js steps through it),
// drawn with the table's own board and panels, every decision and die a step.

import { api } from "../api.js";
import { h, mount } from "../dom.js";
import { t } from "../i18n.js";
import { ReplayView, showReplayError } from "../replayview.js";
import { HexBoard, lastMark, legend } from "./hexboard.js";
import { actionText, loadScenarioWords, loadTables, sideColour, sideTitle } from "./names.js";
import { eventLines, gameTitle, renderDice, renderTracks } from "./panel.js";
import { newEvents, playEvents } from "./playfx.js";
import { endBanner, eventText } from "../said.js";

export async function showHtlReplay(root, id, token) {
  mount(root, h("p", { class: "loading" }, t("replay.loadingReplay")));
  let data;
  try {
    [data] = await Promise.all([api.replay(id, token), loadTables()]);
    await loadScenarioWords(data.start?.scenario);
  } catch (e) {
    showReplayError(root, id, e);
    return null;
  }
  return new HtlReplay(root, id, data, { token });
}

class HtlReplay extends ReplayView {
  logClass = "htl-log";

  constructor(root, id, data, opts) {
    super(root, id, data, opts);
    // the frame in which each engine event (view.events[n]) first appears
    this.eventFrame = [];
    this.frames.forEach((f, i) => {
      while (this.eventFrame.length < (f.events || []).length) this.eventFrame.push(i);
    });
    // a hot-seat game has no "you"
    this.you = data.mode === "hotseat" ? null : data.seat;
    this.show();
    document.title = t("replay.pageTitle", { name: t("names.holdtheline.title") });
  }

  seatName(seat) {
    return sideTitle(this.frames[0], seat);
  }

  playText(seat, action, ply) {
    const before = this.frames[ply - 1];
    return t("htl.pending.who", { side: sideTitle(before, seat) }) + actionText(before, action);
  }

  layout(controls) {
    const view = this.frames[this.n];
    const e = (this.el = {
      boardHost: h("div", { class: "htl-board-host" }),
      event: h("p", { class: "event-text htl-event", "aria-live": "polite" }),
      tracks: h("section", { class: "panel htl-tracks", "aria-label": t("htl.tracksLabel") }),
      dice: h("section", { class: "panel htl-dice", "aria-label": t("htl.dice") }),
    });
    this.board = new HexBoard(e.boardHost, { label: t("replay.board"), onHex: () => {} });
    if (this.data.seat === 1 && (view.home_edges?.[1] || []).includes("north")) this.board.flipped = true;
    this.board.fitPhone(view);
    const result = this.data.result || view.result;
    const banner = endBanner(this.data.end);
    const winner = result?.summary?.winner ?? result?.winner;
    return h("div", { class: "table-page htl-page htl-replay-page", dataset: { game: "holdtheline" } },
      h("div", { class: "table-top" },
        h("h1", { class: "game-title" }, ...gameTitle(view, "replay")),
        h("div", { class: `turn-banner over${winner === 0 || winner === 1 ? ` c-${sideColour(view, winner)}` : ""}` }, banner)),
      controls,
      e.event,
      h("div", { class: "htl-grid" },
        h("section", { class: "htl-board-area", "aria-label": "Board" }, e.boardHost, this.analysis.el),
        h("div", { class: "htl-side" },
          e.tracks, e.dice,
          h("section", { class: "log-panel panel", "aria-label": t("table.gameLog") }, h("h2", {}, t("table.gameLog")),
            h("div", { class: "log", tabindex: 0, "aria-label": t("replay.logLabel") }, this.log)),
          h("details", { class: "panel htl-legend-panel" }, h("summary", {}, t("htl.mapKey")), legend(view)),
          h("div", { class: "table-actions" },
            h("a", { class: "btn", href: `/play/${encodeURIComponent(this.id)}` }, t("replay.finalBoard")),
            h("a", { class: "btn primary", href: "/" }, t("common.navNewGame"))))));
  }

  logItems() {
    return eventLines(this.frames[this.n]).map((line) => h("li", {
      class: line.cls || "", dataset: { frame: this.eventFrame[line.n] ?? 0 },
    }, h("button", { type: "button", class: "linkish", tabindex: -1 }, line.text)));
  }

  /** What step i did, in words: the engine's own sentences for it, else the action's. */
  stepText(i) {
    if (i === 0) return t("replay.start");
    const before = this.frames[i - 1];
    const after = this.frames[i];
    const said = (after.events || []).slice((before.events || []).length).map(eventText);
    if (said.length) return said.join(" · ");
    const st = this.steps[i - 1];
    if (st.hidden || !st.action) return t("replay.hidden");
    if (st.seat === null || st.seat === undefined) return t("replay.die", { value: st.action.value ?? "?" });
    return this.playText(st.seat, st.action, i);
  }

  draw() {
    const view = this.frames[this.i];
    const st = this.i > 0 ? this.steps[this.i - 1] : null;
    const j = this.lastDecision[this.i];
    const mark = j === null ? null : lastMark(view, this.steps[j].action, this.frames[j]);
    // the better play from the view its seat decided in
    const better = this.betterPlay();
    const betterMark = better && lastMark(this.frames[j], better.best, this.frames[j]);
    this.board.render(view, {
      last: [mark, betterMark && { ...betterMark, better: true }].filter(Boolean),
      pendingTarget: view.pending?.target || null,
    });
    // the dice of the last decision's attack beside its target, die by die as they are rolled
    const before = j === null ? null : this.frames[j];
    playEvents(this.board, before, newEvents(before, view), { motion: false });
    renderTracks(this.el.tracks, view, { players: this.data.players || [], seat: this.you });
    renderDice(this.el.dice, view, {});
    const kind = !st ? "" : st.seat === null || st.seat === undefined ? "die" : "decision";
    const side = st && st.seat !== null && st.seat !== undefined ? st.seat : view.active;
    mount(this.el.event,
      h("span", { class: "dice-turn" }, `T${view.turn}`),
      kind ? h("span", { class: `step-kind ${kind} c-${side >= 0 ? sideColour(view, side) : ""}` },
        kind === "die" ? t("replay.dieKind") : sideTitle(view, side)) : null,
      h("span", { class: "step-text" }, this.stepText(this.i)));
  }
}
