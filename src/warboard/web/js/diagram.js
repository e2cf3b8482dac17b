// A card's diagrams as SVG, drawn from the ruleset's offsets: the unit is the dark centre
// square; an attack square shows a burst (hits on its own) or a crosshair (needs support), a
// supply square an arrow (towards the unit when it draws supply, away when it pushes it), a
// support square a dot. Forward is up in the owner's frame; `turned` draws the card as the
// other side of the table sees it. Every marked square keeps its owner's-frame offset
// (data-dx, data-dy) and its kind (data-kind), so what is drawn can be checked against the data.

import { s } from "./dom.js";
import { t } from "./i18n.js";

/** A unit's marks: [{dx, dy, kind}] for one of its diagrams ("attack", "supply", "support"). */
export function diagramMarks(info, which) {
  if (which === "attack") {
    return [...(info.individual || []).map(([dx, dy]) => ({ dx, dy, kind: "individual" })),
      ...(info.combined || []).map(([dx, dy]) => ({ dx, dy, kind: "combined" }))];
  }
  return (info[which] || []).map(([dx, dy]) => ({ dx, dy, kind: which }));
}

/**
 * The grid of one diagram fitted into `box` ({x, y, w, h}, SVG units): every square from -1 to
 * 1 and out to the farthest mark. `push`: supply arrows point away from the unit.
 */
export function diagramGrid(marks, box, { turned = false, push = false, name = "" } = {}) {
  const at = ({ dx, dy }) => (turned ? [-dx, dy] : [dx, -dy]); // screen column and row
  const placed = marks.map((m) => [m, ...at(m)]);
  const cols = placed.map(([, c]) => c);
  const rows = placed.map(([, , r]) => r);
  const c0 = Math.min(-1, ...cols);
  const r0 = Math.min(-1, ...rows);
  const nc = Math.max(1, ...cols) - c0 + 1;
  const nr = Math.max(1, ...rows) - r0 + 1;
  const size = Math.min(box.w / nc, box.h / nr);
  const x0 = box.x + (box.w - nc * size) / 2;
  const y0 = box.y + (box.h - nr * size) / 2;
  const centre = (c, r) => [x0 + (c - c0 + 0.5) * size, y0 + (r - r0 + 0.5) * size];
  const g = s("g", { class: `dg${name ? ` dg-${name}` : ""}` });
  for (let r = r0; r < r0 + nr; r++) {
    for (let c = c0; c < c0 + nc; c++) {
      const [cx, cy] = centre(c, r);
      const self = c === 0 && r === 0;
      g.append(s("rect", { x: cx - size / 2 + size * 0.07, y: cy - size / 2 + size * 0.07,
        width: size * 0.86, height: size * 0.86, rx: size * 0.14, class: self ? "d-self" : "d-empty" }));
    }
  }
  for (const [m, c, r] of placed) {
    const [cx, cy] = centre(c, r);
    g.append(s("g", { class: `dg-mark d-${m.kind}`, "data-dx": m.dx, "data-dy": m.dy, "data-kind": m.kind },
      ...symbol(m.kind, cx, cy, size, push ? [c, r] : [-c, -r])));
  }
  return g;
}

function symbol(kind, cx, cy, size, [ux, uy]) {
  if (kind === "individual") return [s("path", { d: burst(cx, cy, size * 0.46, size * 0.2) })];
  if (kind === "combined") {
    const r = size * 0.27;
    const l = size * 0.44;
    return [s("circle", { cx, cy, r }),
      s("path", { d: `M${cx - l} ${cy}H${cx + l}M${cx} ${cy - l}V${cy + l}` })];
  }
  if (kind === "supply") {
    // an arrowhead along (ux, uy): towards the unit for pulled supply, away for pushed
    const n = Math.hypot(ux, uy) || 1;
    const [dx, dy] = [ux / n, uy / n];
    const [tip, back, half] = [size * 0.36, size * 0.26, size * 0.3];
    const pt = (a, b) => `${(cx + a).toFixed(2)} ${(cy + b).toFixed(2)}`;
    return [s("path", { d: `M${pt(dx * tip, dy * tip)}L${pt(-dx * back - dy * half, -dy * back + dx * half)}`
      + `L${pt(-dx * back + dy * half, -dy * back - dx * half)}Z` })];
  }
  return [s("circle", { cx, cy, r: size * 0.22 })];
}

/** A spiky star centred on (cx, cy): an attack that hits on its own, a hit taken. */
export function burst(cx, cy, r1, r2, n = 8) {
  const pts = [];
  for (let i = 0; i < n * 2; i++) {
    const r = i % 2 ? r2 : r1;
    const a = (Math.PI * i) / n - Math.PI / 2;
    pts.push(`${(cx + r * Math.cos(a)).toFixed(2)} ${(cy + r * Math.sin(a)).toFixed(2)}`);
  }
  return `M${pts.join(" L")} Z`;
}

/** The attack diagram alone, as its own small SVG (the rules page's table). */
export function attackDiagram(info, { big = false } = {}) {
  const svg = s("svg", {
    class: `diagram${big ? " big" : ""}`, viewBox: "0 0 36 60", "aria-hidden": "true",
  });
  svg.append(diagramGrid(diagramMarks(info, "attack"), { x: 0, y: 0, w: 36, h: 60 }, { name: "attack" }));
  return svg;
}

export function diagramText(rules, info) {
  const sq = (cells) => cells.map(([x, y]) => `${x},${y}`).join("  ");
  const support = rules.supportName;
  const parts = [
    t(info.needsSupport ? "table.diagramAttacksNeeds" : "table.diagramAttacks", { squares: sq(info.attack), support }),
    t("table.diagramSupport", { support, squares: sq(info.support) }),
    t(info.drop ? "table.diagramSupplyDrop" : "table.diagramSupply", { squares: sq(info.supply) }),
  ];
  if (info.attacks === 2) parts.push(t("table.diagramTwoAttacks"));
  return parts.join("; ");
}
