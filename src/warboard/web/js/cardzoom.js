// A board card seen close up: a tap (or Enter) on a unit when no play is being made opens its
// face large, as it lies on the board, with its diagrams in words. On a phone a board card is
// about 45 px wide, too small to read its squares; here it is 240 px.

import { h } from "./dom.js";
import { cardState, cardSvg } from "./cardface.js";
import { diagramText } from "./diagram.js";
import { t } from "./i18n.js";
import { seatName, unitInfo, unitTitle } from "./units.js";

const KEY = [
  ["★", "table.zoom.attacksAlone"], ["⊕", "table.zoom.attacksSupported"], ["▲", "table.zoom.supply"],
  ["●", "table.zoom.support"],
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
  const unit = unitTitle(rules, c.unit);
  const at = `${c.x},${c.y}`;
  const title = mine ? t("table.zoom.yours", { unit, at }) : t("table.zoom.theirs", { who: seatName(c.seat), unit, at });
  const state = [cardState(rules, info, supplied), c.supplied === true ? t("table.cell.inSupply") : ""].filter(Boolean);
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
  // A click on the backdrop closes the card only when the press began there: the tap that
  // opened the card ends in a click that lands on whatever is under the finger by then, which
  // is the backdrop wherever the card does not cover the cell tapped.
  let pressedBackdrop = false;
  dialog = h("div", { class: "card-zoom", role: "dialog", "aria-modal": "true", "aria-labelledby": "card-zoom-title",
    onpointerdown: (e) => { pressedBackdrop = e.target === dialog; },
    onclick: (e) => e.target === dialog && pressedBackdrop && close() },
  h("div", { class: `card-zoom-card s${c.seat}` },
    h("h2", { id: "card-zoom-title" }, title),
    cardSvg(rules, info, { turned, supplied }, "card-face big"),
    state.length ? h("p", { class: "card-zoom-state" }, state.join(t("common.listSep"))) : null,
    h("p", { class: "card-zoom-text" }, diagramText(rules, info)),
    h("ul", { class: "card-zoom-key" }, KEY.map(([mark, key]) => h("li", {}, h("span", { "aria-hidden": "true" }, mark), ` ${t(key)}`))),
    h("button", { type: "button", class: "btn primary", onclick: close }, t("table.zoom.close"))));
  document.body.append(dialog);
  document.addEventListener("keydown", onKey, true);
  dialog.querySelector("button").focus();
}
