// A board cell's accessible name: its coordinates, what stands there and what may be done
// there now, e.g. "1,-1: your Infantry, in supply, legal place" or "0,2: empty".

import { cardState } from "./cardface.js";
import { seatName, unitInfo, unitTitle } from "./units.js";

export const BASES = [[0, -1], [0, 1]]; // seat 0's base, seat 1's base (contract §1)
const at = (cells, x, y) => (cells || []).findIndex((c) => c && c[0] === x && c[1] === y);

/** @param {object} p  {rules, board: the view's board, overlay: the picker's overlay with `mySeat`} */
export function cellName({ rules, board, overlay }, x, y) {
  const parts = [];
  const u = board.find((c) => c.x === x && c.y === y);
  const base = at(BASES, x, y);
  if (u) {
    const owner = u.seat === overlay.mySeat ? "your" : `${seatName(u.seat)}'s`;
    const state = cardState(rules, unitInfo(rules, u.unit), u.supplied !== false);
    parts.push(`${owner} ${unitTitle(rules, u.unit)}`);
    if (u.supplied === true) parts.push("in supply");
    if (state) parts.push(state);
  } else if (x === 0 && y === 0) {
    parts.push(`${rules.hillName}, no card is played here`);
  } else {
    parts.push("empty");
  }
  if (base >= 0) parts.push(`${seatName(base)}'s ${rules.baseName}`);
  if (at(overlay.places, x, y) >= 0) parts.push(`legal: place ${overlay.unitTitle || "the card"} here`);
  if (at(overlay.targets, x, y) >= 0) parts.push("legal target");
  if (overlay.chosen && at([overlay.chosen], x, y) >= 0) parts.push("chosen square");
  const hit = at(overlay.hits, x, y);
  if (hit >= 0) parts.push(`hit ${hit + 1}`);
  return `${x},${y}: ${parts.join(", ")}`;
}
