// A board card seen close up: a tap (or Enter) on a unit when no play is being made opens its
// face large, as it lies on the board, with its diagrams in words. On a phone a board card is
// about 45 px wide, too small to read its squares; here it is 240 px.

import { h } from "./dom.js";
import { cardState, cardSvg } from "./cardface.js";
import { diagramText } from "./diagram.js";
import { seatName, unitInfo, unitTitle } from "./units.js";

const KEY = [
  ["★", "attacks on its own"], ["⊕", "attacks with support"], ["▲", "supply"], ["●", "support"],
];

/**
 * @param {object} rules  the ruleset
 * @param {object} c  the board entry {x, y, seat, unit, supplied}
 * @param {object} opts  {mine: the unit is the viewer's, turned: drawn for the other side,
 *                        onClose(): where the focus goes when the card it came from is gone}
 */
export function openCardZoom(rules, c, { mine = false, turned = false, onClose = null } = {}) {
  const info = unitInfo(rules, c.unit);
  const supplied = c.supplied !== false;
  const back = document.activeElement;
  const title = `${mine ? "Your" : `${seatName(c.seat)}'s`} ${unitTitle(rules, c.unit)} at ${c.x},${c.y}`;
  const state = [cardState(rules, info, supplied), c.supplied === true ? "in supply" : ""].filter(Boolean);
  let dialog = null;
  const close = () => {
    dialog.remove();
    document.removeEventListener("keydown", onKey, true);
    if (back?.isConnected) back.focus();
    else onClose?.();
  };
  const onKey = (e) => {
    if (e.key !== "Escape") return;
    e.stopImmediatePropagation(); // Escape closes the card, it cancels nothing at the table
    close();
  };
  dialog = h("div", { class: "card-zoom", role: "dialog", "aria-modal": "true", "aria-labelledby": "card-zoom-title",
    onclick: (e) => e.target === dialog && close() },
  h("div", { class: `card-zoom-card s${c.seat}` },
    h("h2", { id: "card-zoom-title" }, title),
    cardSvg(rules, info, { turned, supplied }, "card-face big"),
    state.length ? h("p", { class: "card-zoom-state" }, state.join(", ")) : null,
    h("p", { class: "card-zoom-text" }, diagramText(rules, info)),
    h("ul", { class: "card-zoom-key" }, KEY.map(([mark, text]) => h("li", {}, h("span", { "aria-hidden": "true" }, mark), ` ${text}`))),
    h("button", { type: "button", class: "btn primary", onclick: close }, "Close")));
  document.body.append(dialog);
  document.addEventListener("keydown", onKey, true);
  dialog.querySelector("button").focus();
}
