// The public counters of both seats, the turn line and the game log.

import { h, mount } from "./dom.js";
import { t } from "./i18n.js";
import { orderedCounts, seatName, unitCount } from "./units.js";
import { endBanner } from "./said.js";

/**
 * @param {HTMLElement} el
 * @param {object} p  {rules, view, labels: ["you", "AI (easy)"]}
 */
export function renderSeats(el, p) {
  const { rules, view, labels } = p;
  const ogre = rules.name === "ogre218";
  const row = (seat) => {
    const onBoard = view.board.filter((c) => c.seat === seat).length;
    const count = unitCount(rules, view.board, seat);
    const lost = destroyedCards(rules, view.destroyed?.[seat]);
    const toMove = view.to_move === seat && view.phase !== "over";
    return h("tr", { class: `seat-row s${seat}${toMove ? " to-move" : ""}` },
      h("th", { scope: "row" },
        h("span", { class: `chip s${seat}`, "aria-hidden": "true" }),
        h("span", { class: "seat-name" }, seatName(seat)),
        labels?.[seat] ? h("span", { class: "seat-label" }, labels[seat]) : null),
      h("td", { "data-label": t("table.hand") }, view.hand_sizes?.[seat] ?? "–"),
      h("td", { "data-label": t("table.deck") }, view.deck_sizes?.[seat] ?? "–"),
      h("td", { "data-label": rules.strikesName }, strikePips(view.strikes?.[seat] ?? 0)),
      h("td", { "data-label": t("table.inPlay") }, String(onBoard),
        ogre && count !== onBoard ? h("span", { class: "counts-as", title: t("table.ogreCounts2") },
          t("table.counts", { count })) : null),
      h("td", { "data-label": t("table.destroyed"), class: "lost" },
        lost.length ? lost.map(([u, n]) => h("span", { class: `lost-chip s${seat}`, title: u.title },
          `${n > 1 ? `${n}×` : ""}${u.abbrev}`)) : h("span", { class: "muted" }, "–")));
  };
  mount(el, h("table", { class: "seats" },
    h("caption", { class: "sr-only" }, t("table.bothSides")),
    h("thead", {}, h("tr", {},
      h("th", { scope: "col" }, h("span", { class: "sr-only" }, t("table.side"))),
      h("th", { scope: "col" }, t("table.hand")),
      h("th", { scope: "col" }, t("table.deck")),
      h("th", { scope: "col", title: rules.strikesName }, ogre ? t("table.missiles") : rules.strikesName),
      h("th", { scope: "col" }, t("table.inPlay")),
      h("th", { scope: "col" }, t("table.destroyed")))),
    h("tbody", {}, row(0), row(1))));
}

/** A seat's destroyed cards (`destroyed`: {unit: n}) as [[unit, n], ...]: a destroyed Ogre is
 * one card, though the engine counts its damaged side too (a hit-changed card replaced it). */
export function destroyedCards(rules, destroyed = {}) {
  const replacements = new Set(rules.units.map((u) => u.becomes).filter(Boolean));
  return orderedCounts(rules, destroyed || {}).filter(([u]) => !replacements.has(u.name));
}

function strikePips(n) {
  return h("span", { class: "pips", role: "img", "aria-label": t("table.left", { count: n }) },
    [0, 1].map((i) => h("span", { class: `pip${i < n ? " on" : ""}`, "aria-hidden": "true" })),
    h("span", { class: "pip-n", "aria-hidden": "true" }, n));
}

/** The one-line answer to "whose move is it?". */
export function turnText({ view, seat, status, end, thinking, names }) {
  const who = (s) => (s === seat ? t("table.youSubject") : names?.[s] || seatName(s));
  if (view.phase === "over" || status === "over") return endBanner(end);
  if (thinking !== null && thinking !== undefined) return t("table.thinking", { who: who(thinking) });
  const mover = view.to_move;
  if (mover === null || mover === undefined || mover < 0) return t("table.dealing");
  if (view.phase === "bury") {
    return mover === seat ? t("table.buryMine") : t("table.buryOther", { who: seatName(mover) });
  }
  const left = t("table.playsLeft", { count: view.plays_left });
  return mover === seat ? t("table.turnMine", { turn: view.turn, left })
    : t("table.turnOther", { turn: view.turn, who: who(mover), left });
}
