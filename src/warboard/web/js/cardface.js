// A unit card's face, the same on the board and in the hand: its abbreviation, the attack
// diagram (left, the largest), the supply and support diagrams (right), the hits it has taken
// when it takes more than one, and a cut-supply badge when it is out of supply. Drawn in an
// 84 × 84 box centred on (0, 0), the size of a card on the board.

import { s } from "./dom.js";
import { burst, diagramGrid, diagramMarks } from "./diagram.js";
import { t } from "./i18n.js";
import { hitState } from "./units.js";

export const CARD = 84;
const HALF = CARD / 2;

/**
 * The face's parts (SVG elements to put on a card).
 * @param {object} opts  {turned: drawn for the other side of the table, supplied: false for a
 *                        unit cut off from its base}
 */
export function cardFace(rules, info, { turned = false, supplied = true } = {}) {
  const push = rules.supplyModel === "push";
  const parts = [
    s("text", { x: -HALF + 5, y: -HALF + 16, class: "cf-abbrev" }, info.abbrev),
    diagramGrid(diagramMarks(info, "attack"), { x: -HALF + 3, y: -HALF + 20, w: 38, h: 61 },
      { turned, name: "attack" }),
    diagramGrid(diagramMarks(info, "supply"), { x: 3, y: -HALF + 20, w: 37, h: 29 },
      { turned, push, name: "supply" }),
    diagramGrid(diagramMarks(info, "support"), { x: 3, y: 10, w: 37, h: 29 },
      { turned, name: "support" }),
  ];
  const hits = hitState(rules, info.name);
  if (hits.total > 1) parts.push(hitPips(hits));
  if (!supplied) {
    // over the supply diagram: a struck-through ring, readable without colour
    parts.push(s("g", { class: "cut-badge", transform: `translate(21.5 ${-HALF + 34.5})` },
      s("circle", { r: 12 }), s("path", { d: "M-8.5 8.5 L8.5 -8.5" })));
  }
  return parts;
}

/** Hits taken out of the hits that destroy the unit: a burst per hit taken, a ring per hit left. */
function hitPips({ taken, total }) {
  const g = s("g", { class: "hit-pips", "data-taken": taken, "data-total": total });
  for (let i = 0; i < total; i++) {
    const cx = HALF - 10 - (total - 1 - i) * 15;
    const cy = -HALF + 10.5;
    g.append(i < taken ? s("path", { class: "pip taken", d: burst(cx, cy, 8, 3.6) })
      : s("circle", { class: "pip", cx, cy, r: 5.5 }));
  }
  return g;
}

/** The face as its own SVG: a card in the hand (the owner's frame), or a board card seen
 *  close up (`opts` as for cardFace). */
export function cardSvg(rules, info, opts = {}, cls = "card-face") {
  return s("svg", { class: cls, viewBox: `${-HALF} ${-HALF} ${CARD} ${CARD}`,
    "aria-hidden": "true", focusable: "false" }, ...cardFace(rules, info, opts));
}

/** Words for what the face shows beyond the unit's name (titles and accessible names). */
export function cardState(rules, info, supplied = true) {
  const { taken, total } = hitState(rules, info.name);
  const parts = [];
  if (total > 1) parts.push(t("table.hitsTaken", { taken, total }));
  if (!supplied) parts.push(t("table.outOfSupply"));
  return parts.join(t("common.listSep"));
}
