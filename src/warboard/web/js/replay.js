// The replay viewer at /replay/{id}: the server's replay of a finished game as the seat saw it
// (js/replayview.js steps through it), drawn with the card table's board, hand and counters.
// Hold the Line games get their own drawing (js/htl/replay.js).

import { api } from "./api.js";
import { Board } from "./board.js";
import { h, mount } from "./dom.js";
import { renderHand } from "./hand.js";
import { t } from "./i18n.js";
import { renderSeats } from "./panel.js";
import { Picker } from "./picker.js";
import { ReplayView, showReplayError } from "./replayview.js";
import { getGame, rememberGame, tokenFromHash } from "./store.js";
import { actionText, loadRuleset, playerLabel, seatName, unitTitle } from "./units.js";
import { endBanner } from "./said.js";

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
    mount(root, h("div", { class: "notice error" }, h("h1", {}, t("replay.noSeat")),
      h("p", {}, t("replay.noSeatText")),
      h("p", {}, h("a", { href: "/" }, t("common.backToLobby")))));
    return null;
  }
  mount(root, h("p", { class: "loading" }, t("replay.loading")));
  let rules;
  const load = async (token) => {
    try {
      const data = await api.replay(id, token);
      rules ??= await loadRuleset(data.game);
      return data;
    } catch (e) {
      showReplayError(root, id, e);
      return null;
    }
  };
  const data = await load(tokens[0]);
  return data && new CardReplay(root, id, data, { tokens, load, rules });
}

/** One sentence for step i (the move from frame i to frame i+1). */
function stepText(rules, steps, frames, i) {
  const st = steps[i];
  const before = frames[i];
  if (!st) return "";
  if (st.hidden) {
    if (st.seat !== null && st.seat !== undefined) {
      return t("replay.buriesHidden", { who: seatName(st.seat) });
    }
    const drawer = before?.drawing;
    return drawer !== null && drawer !== undefined ? t("replay.drawsCard", { who: seatName(drawer) })
      : t("replay.hiddenDraw");
  }
  const a = st.action;
  if (a?.chance === "draw") {
    const drawer = before?.drawing;
    const who = drawer !== null && drawer !== undefined ? seatName(drawer) : t("replay.aSeat");
    return t("replay.draws", { who, unit: unitTitle(rules, a.unit) });
  }
  return actionText(rules, st.seat, a, before?.board || []);
}

class CardReplay extends ReplayView {
  decisionWord = "play";
  stepMs = 900;
  autoplayByDecision = true;

  constructor(root, id, data, opts) {
    super(root, id, data, opts);
    this.rules = opts.rules;
    this.show();
    document.title = t("replay.pageTitle", { name: this.rules.short });
  }

  seatName(seat) {
    return seatName(seat);
  }

  playText(seat, action, ply) {
    return actionText(this.rules, seat, action, this.frames[ply - 1]?.board || []);
  }

  layout(controls) {
    this.eventLabel = h("p", { class: "event-text", "aria-live": "polite" });
    this.el = {
      boardHost: h("div", { class: "board-host" }),
      hand: h("section", { class: "hand-panel panel", "aria-label": t("replay.seatCards") }),
      seats: h("section", { class: "seats-panel panel", "aria-label": t("table.bothSides") }),
    };
    this.board = new Board(this.el.boardHost, { rules: this.rules, label: t("replay.board") });
    const seat = this.data.seat;
    if (seat === 1) this.board.setFlipped(true);
    return h("div", { class: "table-page replay-page" },
      h("div", { class: "table-top" },
        h("h1", { class: "game-title" }, t("replay.title", { game: this.rules.title }),
          h("span", { class: "mode-tag" }, seat === null ? t("replay.fullRecord") : t("replay.asSaw", { seat: seatName(seat) }))),
        h("div", { class: "turn-banner over" }, endBanner(this.data.end))),
      controls,
      this.eventLabel,
      h("div", { class: "table-grid" },
        h("section", { class: "board-area", "aria-label": t("table.board") }, this.el.boardHost, this.analysis.el),
        h("div", { class: "side" }, this.el.hand, this.el.seats,
          h("section", { class: "log-panel panel" }, h("h2", {}, t("replay.plays")),
            h("div", { class: "log" }, this.log)),
          h("div", { class: "table-actions" },
            h("a", { class: "btn", href: `/play/${encodeURIComponent(this.id)}` }, t("replay.backToGame")),
            h("a", { class: "btn primary", href: "/" }, t("common.navNewGame"))))));
  }

  /** A line for each decision and for who plays first; draws go without one. */
  logItems() {
    return this.steps.flatMap((st, i) => {
      if ((st.seat === null || st.seat === undefined) && st.action?.chance !== "first_player") return [];
      return [h("li", { "data-frame": i + 1 }, h("button", { type: "button", class: "linkish" },
        stepText(this.rules, this.steps, this.frames, i)))];
    });
  }

  draw() {
    const frame = this.frames[this.i];
    const st = this.i > 0 ? this.steps[this.i - 1] : null;
    const last = st && !st.hidden && st.seat !== null && st.seat !== undefined ? st : null;
    const better = last && this.betterPlay();
    this.board.render(frame.board, {}, better ? [last, { seat: better.seat, action: better.best, better: true }] : last);
    // a step made before the first turn (the deal, both burials) is the setup, whatever turn
    // number the view after it has reached
    const setup = ["deal", "bury"].includes(this.frames[this.i - 1]?.phase);
    this.eventLabel.textContent = this.i === 0 ? t("replay.start")
      : t(setup ? "replay.setupStep" : "replay.turnStep", { turn: frame.turn, text: stepText(this.rules, this.steps, this.frames, this.i - 1) });
    if (frame.seat !== null && frame.seat !== undefined) {
      renderHand(this.el.hand, {
        rules: this.rules, view: frame, legal: [], picker: new Picker(), active: false,
        title: t("table.seatHand", { who: seatName(frame.seat) }),
        onUnit: () => {}, onStrike: () => {},
      });
    } else {
      this.el.hand.hidden = true;
    }
    const players = this.data.players || [];
    renderSeats(this.el.seats, {
      rules: this.rules, view: frame, labels: [0, 1].map((s) => playerLabel(players[s], s, frame.seat)),
    });
  }
}
