// A card's attack diagram as a small SVG (owner's frame: forward is up), for the hand and the
// rules page. Solid squares hit on their own; outlined squares need support / a target square.

import { s } from "./dom.js";

const SQ = 10;

export function attackDiagram(info, { big = false } = {}) {
  // columns -1..1 (2 for nothing wider), rows -1..3 covers every printed diagram
  const xs = [-1, 0, 1];
  const ys = [3, 2, 1, 0, -1];
  const w = xs.length * SQ;
  const hgt = ys.length * SQ;
  const svg = s("svg", {
    class: `diagram${big ? " big" : ""}`, viewBox: `0 0 ${w} ${hgt}`, "aria-hidden": "true",
  });
  const hits = new Set((info.attack || []).map(([dx, dy]) => `${dx},${dy}`));
  ys.forEach((dy, r) => xs.forEach((dx, c) => {
    const k = `${dx},${dy}`;
    let cls = "d-empty";
    if (dx === 0 && dy === 0) cls = "d-self";
    else if (hits.has(k)) cls = info.needsSupport ? "d-combined" : "d-individual";
    svg.append(s("rect", { x: c * SQ + 0.8, y: r * SQ + 0.8, width: SQ - 1.6, height: SQ - 1.6,
      rx: 1.5, class: cls }));
  }));
  return svg;
}

export function diagramText(rules, info) {
  const sq = (cells) => cells.map(([x, y]) => `${x},${y}`).join("  ");
  const parts = [
    `attacks ${sq(info.attack)}${info.needsSupport ? ` (needs ${rules.supportName})` : " (on its own)"}`,
    `${rules.supportName} squares ${sq(info.support)}`,
    `supply ${sq(info.supply)}${info.drop ? ", or drops" : ""}`,
  ];
  if (info.attacks === 2) parts.push("2 attacks, uses both plays");
  return parts.join("; ");
}
