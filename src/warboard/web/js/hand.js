// The player's own cards: the hand grouped by unit, the strike button, the burial picker,
// and the cards put under the deck. Rendered from the seat's own view only.

import { h, mount } from "./dom.js";
import { cardState, cardSvg } from "./cardface.js";
import { diagramText } from "./diagram.js";
import { t, tapOrClick } from "./i18n.js";
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
      note = nPlaces ? t("hand.places", { count: nPlaces }) : t("hand.noPlace");
    }
    if (burying && picked) note = t("hand.picked", { count: picked });
    return h("button", {
      type: "button",
      // off-turn cards look normal (just inert); on the turn, cards with no place are dimmed
      class: `hand-card s${view.seat}${selected ? " selected" : ""}`
        + `${!active ? " idle" : usable ? "" : " unusable"}`,
      "aria-pressed": selected ? "true" : "false",
      "aria-disabled": usable ? null : "true",
      "aria-label": [unitTitle(rules, u.name), t("hand.inHand", { count: n }), cardState(rules, u), note]
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
    title: canStrike ? t("hand.strikeUse", { strike: rules.strikeName, tap: tapOrClick() })
      : t("hand.strikesLeft", { strikes: rules.strikesName, count: left }),
  }, h("span", { class: "strike-icon", "data-icon": rules.strikeIcon }, icon(rules.strikeIcon)),
  `${rules.strikeName} `, h("span", { class: "badge" }, t("table.left", { count: left })));

  const parts = [
    h("div", { class: "hand-head" },
      h("h2", {}, `${p.title || t("table.yourHand")} `, h("span", { class: "muted" }, t("hand.cardCount", { count: total }))),
      strikeBtn),
    cards.length ? h("div", { class: "hand-cards", role: "group", "aria-label": t("table.yourHand") }, cards)
      : h("p", { class: "muted" }, t("hand.empty")),
  ];

  if (burying && active) parts.push(buryBar(p));
  else if (active && picker.mode !== "idle") parts.push(hintBar(p));

  const bottom = view.bottom || [];
  if (bottom.length) {
    parts.push(h("p", { class: "bottom-cards" },
      h("strong", {}, t("hand.underDeck")), h("span", { class: "muted" }, t("hand.underDeckNote")),
      bottom.map((u) => unitTitle(rules, u)).join(", ")));
  }
  const deck = orderedCounts(rules, view.deck || {});
  if (deck.length) {
    parts.push(h("details", { class: "deck-contents" },
      h("summary", {}, t("hand.deck", { n: view.deck_sizes?.[view.seat] ?? "?" })),
      h("p", {}, deck.map(([u, n]) => t("hand.deckEntry", { n, unit: u.title })).join(t("common.listSep")))));
  }
  mount(el, ...parts);
}

function buryBar(p) {
  const { rules, picker } = p;
  const [a, b] = picker.bury;
  const text = !a ? t("hand.buryFirst")
    : !b ? t("hand.burySecond", { unit: unitTitle(rules, a) })
      : t("hand.buryConfirm", { first: unitTitle(rules, a), second: unitTitle(rules, b) });
  return h("div", { class: "action-bar", role: "status" },
    h("span", {}, text),
    h("div", { class: "bar-buttons" },
      a ? h("button", { type: "button", class: "btn", onclick: p.onBuryUndo, "data-focus-key": "undo" },
        t("hand.undoPick")) : null,
      b ? h("button", { type: "button", class: "btn primary", onclick: p.onBuryConfirm },
        t("hand.putUnder")) : null));
}

function hintBar(p) {
  const { rules, picker } = p;
  const tap = tapOrClick();
  let text = "";
  if (picker.mode === "unit") text = t("hand.hintUnit", { unit: unitTitle(rules, picker.unit), tap });
  else if (picker.mode === "targets") {
    const n = picker.hitCount();
    const at = picker.at.join(",");
    text = n > 1 ? t("hand.hintHits", { unit: unitTitle(rules, picker.unit), at, hit: picker.hits.length + 1, n, tap })
      : t("hand.hintHit", { unit: unitTitle(rules, picker.unit), at, tap });
  } else if (picker.mode === "strike") text = t("hand.hintStrike", { strike: rules.strikeName, tap });
  // on a phone the bar stays at the foot of the screen while the play is being made
  return h("div", { class: "action-bar play-prompt", role: "status" },
    h("span", {}, text),
    h("button", { type: "button", class: "btn", onclick: p.onCancel }, t("common.cancel")));
}
