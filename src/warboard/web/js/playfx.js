// What the card table shows of a play as it lands (js/table.js, for the other side's plays): a
// deployed card flies in, an Air Strike / Cruise Missile drops onto its target. Destroyed cards
// fall away through Board.effects. The motion is CSS (css/follow.css), left out under
// prefers-reduced-motion.

import { s } from "./dom.js";

const STRIKE_MS = 1400;

/** Play `action`'s arrival on `board` (a Board just drawn with the play on it). */
export function playArrival(board, action) {
  if (action?.play === "deploy") {
    const [x, y] = action.at;
    board.layers.units.querySelector(`[data-cell="${x},${y}"]`)?.classList.add("arrive");
  } else if (action?.play === "strike") {
    const [px, py] = board.toSvg(action.target[0], action.target[1]);
    const mark = s("g", { class: "strike-land", transform: `translate(${px} ${py})`, "aria-hidden": "true" },
      s("g", { class: "strike-drop" },
        s("circle", { r: 30 }),
        s("path", { d: "M0 -44 V-18 M0 18 V44 M-44 0 H-18 M18 0 H44" })));
    board.layers.fx.append(mark);
    setTimeout(() => mark.remove(), STRIKE_MS);
  }
}
