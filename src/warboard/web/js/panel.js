// The public counters of both seats, the turn line and the game log.

import { h, mount } from "./dom.js";
import { orderedCounts, resultText, seatName, unitCount } from "./units.js";

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
      h("td", { "data-label": "Hand" }, view.hand_sizes?.[seat] ?? "–"),
      h("td", { "data-label": "Deck" }, view.deck_sizes?.[seat] ?? "–"),
      h("td", { "data-label": rules.strikesName }, strikePips(view.strikes?.[seat] ?? 0)),
      h("td", { "data-label": "In play" }, String(onBoard),
        ogre && count !== onBoard ? h("span", { class: "counts-as", title: "an Ogre counts 2" },
          `counts ${count}`) : null),
      h("td", { "data-label": "Destroyed", class: "lost" },
        lost.length ? lost.map(([u, n]) => h("span", { class: `lost-chip s${seat}`, title: u.title },
          `${n > 1 ? `${n}×` : ""}${u.abbrev}`)) : h("span", { class: "muted" }, "–")));
  };
  mount(el, h("table", { class: "seats" },
    h("caption", { class: "sr-only" }, "Both sides"),
    h("thead", {}, h("tr", {},
      h("th", { scope: "col" }, h("span", { class: "sr-only" }, "Side")),
      h("th", { scope: "col" }, "Hand"),
      h("th", { scope: "col" }, "Deck"),
      h("th", { scope: "col", title: rules.strikesName }, ogre ? "Missiles" : "Air Strikes"),
      h("th", { scope: "col" }, "In play"),
      h("th", { scope: "col" }, "Destroyed"))),
    h("tbody", {}, row(0), row(1))));
}

/** A seat's destroyed cards (`destroyed`: {unit: n}) as [[unit, n], ...]: a destroyed Ogre is
 * one card, though the engine counts its damaged side too (a hit-changed card replaced it). */
export function destroyedCards(rules, destroyed = {}) {
  const replacements = new Set(rules.units.map((u) => u.becomes).filter(Boolean));
  return orderedCounts(rules, destroyed || {}).filter(([u]) => !replacements.has(u.name));
}

function strikePips(n) {
  return h("span", { class: "pips", role: "img", "aria-label": `${n} left` },
    [0, 1].map((i) => h("span", { class: `pip${i < n ? " on" : ""}`, "aria-hidden": "true" })),
    h("span", { class: "pip-n", "aria-hidden": "true" }, n));
}

/** The one-line answer to "whose move is it?". */
export function turnText({ rules, view, seat, status, result, thinking, names }) {
  const who = (s) => (s === seat ? "You" : names?.[s] || seatName(s));
  if (view.phase === "over" || status === "over") {
    if (result?.abandoned) return `Game over — ${who(result.by)} resigned`;
    const r = view.result || result?.summary; // the engine's, or a ruling (time, a claim)
    return r ? `Game over — ${resultText(rules, r, seat)}` : "Game over.";
  }
  if (thinking !== null && thinking !== undefined) return `${who(thinking)} is thinking…`;
  const t = view.to_move;
  if (t === null || t === undefined || t < 0) return "Dealing…";
  if (view.phase === "bury") {
    return t === seat ? "Setup: put 2 cards under your deck"
      : `Setup: ${seatName(t)} puts 2 cards under its deck`;
  }
  const left = `${view.plays_left} play${view.plays_left === 1 ? "" : "s"} left`;
  return t === seat ? `Turn ${view.turn} — your turn, ${left}`
    : `Turn ${view.turn} — ${who(t)} to play, ${left}`;
}
