// The player's own cards: the hand grouped by unit, the strike button, the burial picker,
// and the cards put under the deck. Rendered from the seat's own view only.

import { h, mount, tapOrClick } from "./dom.js";
import { cardState, cardSvg } from "./cardface.js";
import { diagramText } from "./diagram.js";
import { icon } from "./icons.js";
import { orderedCounts, unitTitle } from "./units.js";
import { placesByUnit, strikes } from "./picker.js";

/**
 * @param {HTMLElement} el  the container
 * @param {object} p  {rules, view, legal, picker, active, onUnit, onStrike, onBuryConfirm,
 *                     onBuryUndo, onCancel}
 */
export function renderHand(el, p) {
  const { rules, view, legal, picker, active } = p;
  const hand = view.hand || {};
  const places = placesByUnit(legal);
  const burying = picker.mode === "bury";
  const total = Object.values(hand).reduce((a, b) => a + b, 0);

  const cards = orderedCounts(rules, hand).map(([u, n]) => {
    const nPlaces = places[u.name] || 0;
    const picked = burying ? picker.bury.filter((b) => b === u.name).length : 0;
    const selected = (picker.unit === u.name && picker.mode !== "idle") || picked > 0;
    const usable = active && (burying ? picked < n : nPlaces > 0);
    let note = "";
    if (active && !burying) {
      note = nPlaces ? `${nPlaces} place${nPlaces === 1 ? "" : "s"}` : "no place now";
    }
    if (burying && picked) note = `picked ×${picked}`;
    return h("button", {
      type: "button",
      // off-turn cards look normal (just inert); on the turn, cards with no place are dimmed
      class: `hand-card s${view.seat}${selected ? " selected" : ""}`
        + `${!active ? " idle" : usable ? "" : " unusable"}`,
      "aria-pressed": selected ? "true" : "false",
      "aria-disabled": usable ? null : "true",
      "aria-label": [unitTitle(rules, u.name), `${n} in hand`, cardState(rules, u), note]
        .filter(Boolean).join(", "),
      title: `${u.title}: ${diagramText(rules, u)}`,
      "data-unit": u.name,
      "data-focus-key": `card:${u.name}`,
      // detail 0: pressed with Enter or space, not clicked (the keyboard goes on to the board)
      onclick: (ev) => usable && p.onUnit(u.name, ev.detail === 0),
    },
    cardSvg(rules, u),
    h("span", { class: "hc-title" }, u.title),
    n > 1 ? h("span", { class: "hc-count", "aria-hidden": "true" }, `×${n}`) : null,
    note ? h("span", { class: "hc-note" }, note) : null);
  });

  const left = view.strikes?.[view.seat] ?? 0;
  const canStrike = active && strikes(legal).length > 0;
  const strikeBtn = h("button", {
    type: "button", class: `strike-btn${picker.mode === "strike" ? " selected" : ""}`,
    disabled: !canStrike, "aria-pressed": picker.mode === "strike" ? "true" : "false",
    "data-focus-key": "strike",
    onclick: (ev) => p.onStrike(ev.detail === 0),
    title: canStrike ? `Use an ${rules.strikeName}, then ${tapOrClick()} the enemy unit to hit`
      : `${rules.strikesName}: ${left} left`,
  }, h("span", { class: "strike-icon", "data-icon": rules.strikeIcon }, icon(rules.strikeIcon)),
  `${rules.strikeName} `, h("span", { class: "badge" }, `${left} left`));

  const parts = [
    h("div", { class: "hand-head" },
      h("h2", {}, `${p.title || "Your hand"} `, h("span", { class: "muted" }, `(${total} card${total === 1 ? "" : "s"})`)),
      strikeBtn),
    cards.length ? h("div", { class: "hand-cards", role: "group", "aria-label": "Your hand" }, cards)
      : h("p", { class: "muted" }, "No cards in hand."),
  ];

  if (burying && active) parts.push(buryBar(p));
  else if (active && picker.mode !== "idle") parts.push(hintBar(p));

  const bottom = view.bottom || [];
  if (bottom.length) {
    parts.push(h("p", { class: "bottom-cards" },
      h("strong", {}, "Under your deck "), h("span", { class: "muted" }, "(drawn last, in this order): "),
      bottom.map((u) => unitTitle(rules, u)).join(", ")));
  }
  const deck = orderedCounts(rules, view.deck || {});
  if (deck.length) {
    parts.push(h("details", { class: "deck-contents" },
      h("summary", {}, `Your deck: ${view.deck_sizes?.[view.seat] ?? "?"} cards`),
      h("p", {}, deck.map(([u, n]) => `${n} ${u.title}`).join(", "))));
  }
  mount(el, ...parts);
}

function buryBar(p) {
  const { rules, picker } = p;
  const [a, b] = picker.bury;
  const text = !a ? "Setup: choose the card to put under your deck first."
    : !b ? `${unitTitle(rules, a)} goes under the deck. Now choose the second card (drawn last).`
      : `Put ${unitTitle(rules, a)} under your deck, then ${unitTitle(rules, b)} under it (drawn last)?`;
  return h("div", { class: "action-bar", role: "status" },
    h("span", {}, text),
    h("div", { class: "bar-buttons" },
      a ? h("button", { type: "button", class: "btn", onclick: p.onBuryUndo, "data-focus-key": "undo" },
        "Undo pick") : null,
      b ? h("button", { type: "button", class: "btn primary", onclick: p.onBuryConfirm },
        "Put under deck") : null));
}

function hintBar(p) {
  const { rules, picker } = p;
  const tap = tapOrClick();
  let text = "";
  if (picker.mode === "unit") text = `${unitTitle(rules, picker.unit)}: ${tap} a green square on the board.`;
  else if (picker.mode === "targets") {
    const n = picker.hitCount();
    text = `${unitTitle(rules, picker.unit)} at (${picker.at.join(",")}): ${tap} the unit to hit`
      + (n > 1 ? ` (hit ${picker.hits.length + 1} of ${n}).` : ".");
  } else if (picker.mode === "strike") text = `${rules.strikeName}: ${tap} the enemy unit to hit.`;
  // on a phone the bar stays at the foot of the screen while the play is being made
  return h("div", { class: "action-bar play-prompt", role: "status" },
    h("span", {}, text),
    h("button", { type: "button", class: "btn", onclick: p.onCancel }, "Cancel"));
}
