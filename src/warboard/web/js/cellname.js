// A board cell's accessible name: its coordinates, what stands there and what may be done
// there now, e.g. "1,-1: your Infantry, in supply, legal: place Infantry here" or "0,2: empty".

import { cardState } from "./cardface.js";
import { t } from "./i18n.js";
import { seatName, unitInfo, unitTitle } from "./units.js";

export const BASES = [[0, -1], [0, 1]]; // seat 0's base, seat 1's base (contract §1)
const at = (cells, x, y) => (cells || []).findIndex((c) => c && c[0] === x && c[1] === y);

/** @param {object} p  {rules, board: the view's board, overlay: the picker's overlay with `mySeat`} */
export function cellName({ rules, board, overlay }, x, y) {
  const parts = [];
  const u = board.find((c) => c.x === x && c.y === y);
  const base = at(BASES, x, y);
  if (u) {
    const unit = unitTitle(rules, u.unit);
    parts.push(u.seat === overlay.mySeat ? t("table.cell.yours", { unit })
      : t("table.cell.theirs", { who: seatName(u.seat), unit }));
    if (u.supplied === true) parts.push(t("table.cell.inSupply"));
    const state = cardState(rules, unitInfo(rules, u.unit), u.supplied !== false);
    if (state) parts.push(state);
  } else if (x === 0 && y === 0) {
    parts.push(t("table.cell.hill", { hill: rules.hillName }));
  } else {
    parts.push(t("table.cell.empty"));
  }
  if (base >= 0) parts.push(t("table.cell.base", { who: seatName(base), base: rules.baseName }));
  if (at(overlay.places, x, y) >= 0) {
    parts.push(t("table.cell.place", { unit: overlay.unitTitle || t("table.theCard") }));
  }
  if (at(overlay.targets, x, y) >= 0) parts.push(t("table.cell.target"));
  if (overlay.chosen && at([overlay.chosen], x, y) >= 0) parts.push(t("table.cell.chosen"));
  const hit = at(overlay.hits, x, y);
  if (hit >= 0) parts.push(t("table.cell.hit", { n: hit + 1 }));
  return t("table.cell.name", { at: `${x},${y}`, what: parts.join(t("common.listSep")) });
}
