// The SVG board: the unbounded grid drawn around whatever is on it, with pan (drag), zoom
// (wheel, pinch, buttons) and highlights. It only draws what it is given (a view's board and
// the picker's overlay); clicks come back as grid cells. The keyboard has a cursor over the
// cells (a roving tabindex: one cell in the tab order, arrow keys move it, Enter or space is a
// click), each cell named for screen readers by what is on it and what may be done there.

import { ARROWS, h, s, clear } from "./dom.js";
import { CARD, cardFace, cardState } from "./cardface.js";
import { BASES, cellName } from "./cellname.js";
import { t } from "./i18n.js";
import { playSound } from "./sound.js";
import { hitState, seatName, unitInfo, unitTitle } from "./units.js";

const C = 100; // one cell, in SVG user units
const HALF = C / 2;
const HALF_CARD = CARD / 2;
const key = (x, y) => `${x},${y}`;
const same = (a, b) => a && b && a[0] === b[0] && a[1] === b[1];

export class Board {
  /**
   * @param {HTMLElement} host  element to fill (gets the svg and the zoom buttons)
   * @param {object} opts  {rules, onCell(cell), onHover(cell|null), label, sounds: sounds for
   *                        new plays and effects (the live table, not replays)}
   */
  constructor(host, opts) {
    this.host = host;
    this.opts = opts;
    this.rules = opts.rules;
    this.flipped = false;
    this.view = { cx: 0, cy: 0, scale: 1 }; // scale: user units per CSS pixel
    this.userMoved = false;
    this.pointers = new Map();
    this.hover = null;
    this.board = [];
    this.overlay = {};
    this.cursor = null; // the keyboard's cell
    this.build();
  }

  build() {
    this.svg = s("svg", {
      class: "board-svg", role: "group", "aria-label": this.opts.label || "Board",
      xmlns: "http://www.w3.org/2000/svg",
    });
    this.svg.append(s("defs", {},
      s("pattern", { id: "hatch", width: 10, height: 10, patternUnits: "userSpaceOnUse",
        patternTransform: "rotate(45)" },
      s("rect", { width: 4, height: 10, class: "hatch-stroke" })),
    ));
    this.layers = {};
    for (const name of ["grid", "labels", "terrain", "last", "units", "overlay", "fx", "keys"]) {
      this.layers[name] = this.svg.appendChild(s("g", { class: `layer-${name}` }));
    }
    const btn = (label, text, fn) => h("button", {
      type: "button", class: "zoom-btn", "aria-label": label, title: label, onclick: fn,
    }, text);
    this.controls = h("div", { class: "board-controls" },
      btn(t("table.zoomIn"), "+", () => this.zoomBy(1 / 1.25)),
      btn(t("table.zoomOut"), "−", () => this.zoomBy(1.25)),
      btn(t("table.fit"), "⤢", () => this.fit(true)),
      btn(t("table.turnRound"), "⇅", () => this.setFlipped(!this.flipped)),
    );
    this.host.append(this.svg, this.controls);
    this.attachPointer();
    this.svg.addEventListener("keydown", (e) => this.onKey(e));
    // a cell focused another way (a click, a screen reader) is the cursor: a redraw keeps it
    this.svg.addEventListener("focusin", (e) => {
      const cell = e.target.classList?.contains("kcell") && e.target.dataset.cell;
      if (cell) this.moveCursor(cell.split(",").map(Number));
    });
    new ResizeObserver(() => this.applyView()).observe(this.svg);
  }

  // ------------------------------------------------------------------ geometry

  /** grid cell -> SVG point (North at the top unless the board is turned round). */
  toSvg(x, y) {
    return this.flipped ? [-x * C, y * C] : [x * C, -y * C];
  }

  toCell(px, py) {
    const x = Math.round(px / C);
    const y = Math.round(-py / C);
    return this.flipped ? [-x, -y] : [x, y];
  }

  clientToCell(clientX, clientY) {
    const ctm = this.svg.getScreenCTM();
    if (!ctm) return null;
    const p = new DOMPoint(clientX, clientY).matrixTransform(ctm.inverse());
    return this.toCell(p.x, p.y);
  }

  /** Cells to show: hill, bases, units and highlights, with a one-cell margin. */
  bounds() {
    const cells = [[0, 0], ...BASES, ...this.board.map((c) => [c.x, c.y]),
      ...(this.overlay.places || []), ...(this.overlay.targets || [])];
    const xs = cells.map((c) => c[0]);
    const ys = cells.map((c) => c[1]);
    return {
      x0: Math.min(...xs) - 1, x1: Math.max(...xs) + 1,
      y0: Math.min(...ys) - 1, y1: Math.max(...ys) + 1,
    };
  }

  // ------------------------------------------------------------------ view (pan and zoom)

  size() {
    const r = this.svg.getBoundingClientRect();
    return [Math.max(r.width, 1), Math.max(r.height, 1)];
  }

  applyView() {
    const [w, h2] = this.size();
    const { cx, cy, scale } = this.view;
    this.svg.setAttribute("viewBox",
      `${cx - (w * scale) / 2} ${cy - (h2 * scale) / 2} ${w * scale} ${h2 * scale}`);
  }

  /** Fit the grid (plus its labels) in the box; `byUser` = the Fit button. */
  fit(byUser = false) {
    if (byUser) this.userMoved = false;
    const b = this.bounds();
    const [ax, ay] = this.toSvg(b.x0, b.y0);
    const [bx, by] = this.toSvg(b.x1, b.y1);
    const pad = C * 0.9; // room for the coordinate labels
    const wx = Math.abs(bx - ax) + C + pad;
    const wy = Math.abs(by - ay) + C + pad;
    const [w, h2] = this.size();
    // keep the grid clear of the zoom buttons along the right edge
    const side = w > 300 ? 56 : 0;
    const scale = Math.max(wx / (w - side), wy / h2, 0.25);
    this.animateTo({ cx: (ax + bx) / 2 + (side / 2) * scale, cy: (ay + by) / 2, scale });
  }

  animateTo(target) {
    cancelAnimationFrame(this.anim);
    const from = { ...this.view };
    const reduce = matchMedia("(prefers-reduced-motion: reduce)").matches;
    if (reduce || !this.drawnOnce) {
      this.view = target;
      this.applyView();
      return;
    }
    const t0 = performance.now();
    const step = (t) => {
      const k = Math.min(1, (t - t0) / 220);
      const e = 1 - (1 - k) ** 3;
      this.view = {
        cx: from.cx + (target.cx - from.cx) * e,
        cy: from.cy + (target.cy - from.cy) * e,
        scale: from.scale * (target.scale / from.scale) ** e,
      };
      this.applyView();
      if (k < 1) this.anim = requestAnimationFrame(step);
    };
    this.anim = requestAnimationFrame(step);
  }

  /** Zoom by `f` (>1 = out) around a client point (the centre by default). */
  zoomBy(f, clientX = null, clientY = null) {
    cancelAnimationFrame(this.anim);
    const scale = Math.min(8, Math.max(0.2, this.view.scale * f));
    const real = scale / this.view.scale;
    if (clientX !== null) {
      const r = this.svg.getBoundingClientRect();
      const [w, h2] = this.size();
      // keep the point under the cursor fixed
      const px = this.view.cx + (clientX - r.left - w / 2) * this.view.scale;
      const py = this.view.cy + (clientY - r.top - h2 / 2) * this.view.scale;
      this.view.cx = px + (this.view.cx - px) * real;
      this.view.cy = py + (this.view.cy - py) * real;
    }
    this.view.scale = scale;
    this.userMoved = true;
    this.applyView();
  }

  panBy(dxPx, dyPx) {
    this.view.cx -= dxPx * this.view.scale;
    this.view.cy -= dyPx * this.view.scale;
    this.userMoved = true;
    this.applyView();
  }

  setFlipped(flipped) {
    if (flipped === this.flipped) return;
    this.flipped = flipped;
    this.draw();
    this.fit();
  }

  attachPointer() {
    const svg = this.svg;
    let drag = null; // {x, y, moved, multi}
    let pinch = null; // {dist, mx, my}
    svg.addEventListener("pointerdown", (e) => {
      if (e.button !== 0 && e.pointerType === "mouse") return;
      this.pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
      svg.setPointerCapture?.(e.pointerId);
      if (this.pointers.size === 1) drag = { x: e.clientX, y: e.clientY, moved: false, multi: false };
      else if (drag) drag.multi = true;
      if (this.pointers.size === 2) pinch = this.pinchInfo();
    });
    svg.addEventListener("pointermove", (e) => {
      const p = this.pointers.get(e.pointerId);
      if (!p) {
        if (e.pointerType === "mouse") this.setHover(this.clientToCell(e.clientX, e.clientY));
        return;
      }
      const dx = e.clientX - p.x;
      const dy = e.clientY - p.y;
      p.x = e.clientX;
      p.y = e.clientY;
      if (this.pointers.size >= 2 && pinch) {
        const now = this.pinchInfo();
        this.zoomBy(pinch.dist / now.dist, now.mx, now.my);
        this.panBy(now.mx - pinch.mx, now.my - pinch.my);
        pinch = now;
        return;
      }
      if (!drag) return;
      if (!drag.moved && Math.hypot(e.clientX - drag.x, e.clientY - drag.y) > 6) {
        drag.moved = true;
        svg.classList.add("panning");
      }
      if (drag.moved) this.panBy(dx, dy);
    });
    const end = (e) => {
      if (!this.pointers.has(e.pointerId)) return;
      this.pointers.delete(e.pointerId);
      if (this.pointers.size < 2) pinch = null;
      if (this.pointers.size === 0) {
        svg.classList.remove("panning");
        if (drag && !drag.moved && !drag.multi && e.type === "pointerup") {
          const cell = this.clientToCell(e.clientX, e.clientY);
          if (cell) this.opts.onCell?.(cell);
        }
        drag = null;
      }
    };
    svg.addEventListener("pointerup", end);
    svg.addEventListener("pointercancel", end);
    svg.addEventListener("pointerleave", (e) => {
      if (e.pointerType === "mouse") this.setHover(null);
    });
    svg.addEventListener("wheel", (e) => {
      e.preventDefault();
      const f = Math.exp(Math.max(-60, Math.min(60, e.deltaY)) * 0.004);
      this.zoomBy(f, e.clientX, e.clientY);
    }, { passive: false });
  }

  pinchInfo() {
    const [a, b] = [...this.pointers.values()];
    return { dist: Math.max(1, Math.hypot(a.x - b.x, a.y - b.y)), mx: (a.x + b.x) / 2, my: (a.y + b.y) / 2 };
  }

  setHover(cell) {
    const k = cell ? key(...cell) : null;
    if (k === (this.hover ? key(...this.hover) : null)) return;
    this.hover = cell;
    this.opts.onHover?.(cell);
  }

  // ------------------------------------------------------------------ drawing

  /**
   * @param {Array} board  the view's board: [{x, y, seat, unit}]
   * @param {object} overlay  {places, targets, chosen, hits, preview, chosenUnit, mySeat}
   * @param {object|Array} last  the last decision {seat, action} or null, or the plays to
   *   mark [{seat, action, now, better}] (`now`: the one being followed, `better`: the better
   *   play a post-game analysis found)
   */
  render(board, overlay = {}, last = null) {
    this.board = board || [];
    this.overlay = overlay;
    const play = ["deploy", "strike"].includes(last?.action?.play) ? JSON.stringify(last) : null;
    if (this.opts.sounds && this.drawnOnce && play && play !== this.lastPlay) playSound("play");
    this.lastPlay = play;
    this.last = last;
    const b = this.bounds();
    const grew = !this.lastBounds || ["x0", "x1", "y0", "y1"].some((k) => b[k] !== this.lastBounds[k]);
    this.lastBounds = b;
    this.draw();
    if (!this.drawnOnce || (grew && !this.userMoved)) this.fit();
    this.drawnOnce = true;
  }

  /** Redraw the highlights only (hover previews), without refitting the view. */
  setOverlay(overlay) {
    this.overlay = overlay;
    this.drawOverlay();
  }

  draw() {
    const b = this.lastBounds || this.bounds();
    this.drawGrid(b);
    this.drawTerrain();
    this.drawLast();
    this.drawUnits();
    this.drawOverlay();
    this.drawKeys();
  }

  drawGrid(b) {
    const g = clear(this.layers.grid);
    const lab = clear(this.layers.labels);
    for (let x = b.x0; x <= b.x1; x++) {
      for (let y = b.y0; y <= b.y1; y++) {
        const [px, py] = this.toSvg(x, y);
        g.append(s("rect", { x: px - HALF, y: py - HALF, width: C, height: C, class: "cell" }));
      }
    }
    // coordinates on all four sides, like the terminal board
    const [lx0, ly0] = this.toSvg(b.x0, b.y0);
    const [lx1, ly1] = this.toSvg(b.x1, b.y1);
    const top = Math.min(ly0, ly1) - HALF - 18;
    const bottom = Math.max(ly0, ly1) + HALF + 30;
    const left = Math.min(lx0, lx1) - HALF - 22;
    const right = Math.max(lx0, lx1) + HALF + 22;
    for (let x = b.x0; x <= b.x1; x++) {
      const [px] = this.toSvg(x, 0);
      lab.append(s("text", { x: px, y: top, class: "coord" }, x));
      lab.append(s("text", { x: px, y: bottom, class: "coord" }, x));
    }
    for (let y = b.y0; y <= b.y1; y++) {
      const [, py] = this.toSvg(0, y);
      lab.append(s("text", { x: left, y: py + 7, class: "coord" }, y));
      lab.append(s("text", { x: right, y: py + 7, class: "coord" }, y));
    }
  }

  drawTerrain() {
    const g = clear(this.layers.terrain);
    const [hx, hy] = this.toSvg(0, 0);
    const ogre = this.rules.name === "ogre218";
    const hill = s("g", { class: ogre ? "crater" : "hill", transform: `translate(${hx} ${hy})` },
      s("title", {}, t("table.hillTitle", { hill: this.rules.hillName })));
    if (ogre) {
      hill.append(
        s("circle", { r: 40, class: "crater-rim" }),
        s("circle", { r: 28, class: "crater-pit" }),
        s("text", { y: 6, class: "terrain-label light" }, this.rules.hillName),
      );
    } else {
      hill.append(
        s("ellipse", { rx: 44, ry: 38, class: "contour c1" }),
        s("ellipse", { rx: 32, ry: 26, class: "contour c2" }),
        s("ellipse", { rx: 18, ry: 13, class: "contour c3" }),
        s("text", { y: 7, class: "terrain-label" }, "218"),
      );
    }
    g.append(hill);
    const occupied = new Set(this.board.map((c) => key(c.x, c.y)));
    BASES.forEach(([bx, by], seat) => {
      const [px, py] = this.toSvg(bx, by);
      const base = s("g", { class: `base s${seat}`, transform: `translate(${px} ${py})` },
        s("title", {}, t("table.baseTitle", { who: seatName(seat), base: this.rules.baseName, at: `${bx},${by}` })),
        s("rect", { x: -46, y: -46, width: 92, height: 92, rx: 10, class: "base-ring" }));
      if (!occupied.has(key(bx, by))) {
        base.append(
          s("path", { d: "M-10 -22 v34 M-10 -22 l24 8 l-24 8", class: "base-flag" }),
          s("text", { y: 32, class: "base-label" },
            t(this.rules.name === "ogre218" ? "table.baseLabelCp" : "table.baseLabel", { who: seatName(seat) })),
        );
      }
      g.append(base);
    });
  }

  drawUnits() {
    const g = clear(this.layers.units);
    for (const c of this.board) g.append(this.unitCard(c));
  }

  unitCard(c, extraClass = "") {
    const [px, py] = this.toSvg(c.x, c.y);
    const info = unitInfo(this.rules, c.unit);
    const damaged = hitState(this.rules, c.unit).taken > 0;
    const cut = c.supplied === false; // older records have no supply: nothing is marked
    const outer = s("g", {
      class: `unit s${c.seat}${damaged ? " damaged" : ""}${cut ? " unsupplied" : ""} ${extraClass}`,
      transform: `translate(${px} ${py})`, "data-cell": key(c.x, c.y), "data-unit": c.unit,
      "data-supplied": String(!cut),
    });
    const state = cardState(this.rules, info, !cut);
    const inner = s("g", { class: "unit-body" },
      s("title", {}, t("table.unitAt", { who: seatName(c.seat), unit: unitTitle(this.rules, c.unit), at: `(${c.x},${c.y})` })
        + (state ? ` — ${state}` : "")),
      s("rect", { x: -HALF_CARD, y: -HALF_CARD, width: CARD, height: CARD, rx: 9, class: "card" }));
    if (damaged) {
      inner.append(s("rect", { x: -HALF_CARD, y: -HALF_CARD, width: CARD, height: CARD, rx: 9,
        class: "damage-hatch" }));
    }
    // facing: a notch on the card's forward edge (South faces up the board, North down); a
    // card's diagrams turn with it, so their squares lie the way they point on the board
    const up = (c.seat === 0) !== this.flipped;
    inner.append(s("path", { d: up ? "M-9 -40 L0 -47 L9 -40" : "M-9 40 L0 47 L9 40", class: "facing" }),
      ...cardFace(this.rules, info, { turned: !up, supplied: !cut }));
    outer.append(inner);
    return outer;
  }

  drawLast() {
    const g = clear(this.layers.last);
    // the plays to mark: the last decision, or the other side's plays of its last turn
    const plays = Array.isArray(this.last) ? this.last : this.last ? [this.last] : [];
    for (const play of plays) {
      const a = play.action;
      if (!a) continue;
      // `now`: the play being followed; `better`: the analysis' better play (js/analysis.js)
      const kind = `${play.now ? " now" : ""}${play.better ? " better" : ""}`;
      const mark = (cell, cls) => {
        const [px, py] = this.toSvg(cell[0], cell[1]);
        g.append(s("rect", { x: px - 48, y: py - 48, width: 96, height: 96, rx: 11, class: `${cls}${kind}`,
          "data-cell": key(cell[0], cell[1]) }));
      };
      if (a.play === "deploy") {
        mark(a.at, `last-at s${play.seat}`);
        for (const t of a.attacks || []) mark(t, "last-hit");
      } else if (a.play === "strike") {
        mark(a.target, "last-hit");
      }
    }
  }

  drawOverlay() {
    const g = clear(this.layers.overlay);
    const o = this.overlay;
    for (const [x, y] of o.places || []) {
      const [px, py] = this.toSvg(x, y);
      g.append(s("g", { class: "place", transform: `translate(${px} ${py})`, "data-cell": key(x, y) },
        s("rect", { x: -44, y: -44, width: 88, height: 88, rx: 10 }),
        s("path", { d: "M-12 0 H12 M0 -12 V12", class: "plus" })));
    }
    for (const [x, y] of o.preview || []) g.append(this.reticle(x, y, "preview"));
    for (const [x, y] of o.targets || []) g.append(this.reticle(x, y, "target"));
    if (o.chosen) {
      const [px, py] = this.toSvg(...o.chosen);
      g.append(s("g", { class: "chosen", transform: `translate(${px} ${py})` },
        s("rect", { x: -44, y: -44, width: 88, height: 88, rx: 10 }),
        s("text", { y: 10, class: "abbrev" }, o.chosenAbbrev || "")));
    }
    (o.hits || []).forEach(([x, y], i) => {
      const [px, py] = this.toSvg(x, y);
      g.append(s("g", { class: "picked-hit", transform: `translate(${px} ${py})` },
        s("path", { d: "M-26 -26 L26 26 M26 -26 L-26 26" }),
        s("text", { x: 30, y: -26, class: "hit-order" }, i + 1)));
    });
  }

  reticle(x, y, cls) {
    const [px, py] = this.toSvg(x, y);
    return s("g", { class: cls, transform: `translate(${px} ${py})`, "data-cell": key(x, y) },
      s("circle", { r: 36 }),
      s("path", { d: "M0 -46 V-26 M0 26 V46 M-46 0 H-26 M26 0 H46" }));
  }

  // ------------------------------------------------------------------ keyboard

  /** The cells' focus targets over everything, one of them (the cursor) in the tab order;
   *  the focus stays on the cursor across a redraw. */
  drawKeys() {
    const g = this.layers.keys;
    const focused = g.contains(document.activeElement);
    clear(g);
    const b = this.lastBounds || this.bounds();
    const inside = (c) => c && c[0] >= b.x0 && c[0] <= b.x1 && c[1] >= b.y0 && c[1] <= b.y1;
    if (!inside(this.cursor)) this.cursor = this.legalCells()[0] || BASES[this.overlay.mySeat ?? 0];
    const info = { rules: this.rules, board: this.board, overlay: this.overlay };
    for (let y = b.y1; y >= b.y0; y--) {
      for (let x = b.x0; x <= b.x1; x++) {
        const [px, py] = this.toSvg(x, y);
        g.append(s("rect", {
          x: px - HALF + 3, y: py - HALF + 3, width: C - 6, height: C - 6, rx: 12, class: "kcell",
          role: this.opts.onCell ? "button" : "img", tabindex: same(this.cursor, [x, y]) ? 0 : -1, "data-cell": key(x, y),
          "aria-label": cellName(info, x, y),
        }));
      }
    }
    if (focused) this.focusCursor();
  }

  legalCells() {
    return [...(this.overlay.places || []), ...(this.overlay.targets || [])];
  }

  cursorEl() {
    return this.cursor && this.layers.keys.querySelector(`[data-cell="${key(...this.cursor)}"]`);
  }

  /** Put the keyboard's focus on the board; `toLegal`: on a legal square, if there is one
   *  and the cursor is not on one already. */
  focusCursor(toLegal = false) {
    const legal = this.legalCells();
    if (toLegal && legal.length && !legal.some((c) => same(c, this.cursor))) this.moveCursor(legal[0]);
    this.cursorEl()?.focus();
  }

  moveCursor(cell) {
    const old = this.cursorEl();
    this.cursor = cell;
    const el = this.cursorEl();
    if (!el) return;
    old?.setAttribute("tabindex", -1);
    el.setAttribute("tabindex", 0);
    if (old && document.activeElement === old) el.focus();
  }

  onKey(e) {
    if (!e.target.classList?.contains("kcell")) return;
    const step = ARROWS[e.key];
    if (step) {
      e.preventDefault();
      e.stopPropagation(); // the arrows move the cursor here, not a replay's steps
      const f = this.flipped ? -1 : 1; // screen right is +x, screen up is +y (turned: the opposite)
      const next = [this.cursor[0] + step[0] * f, this.cursor[1] - step[1] * f];
      const b = this.lastBounds;
      if (next[0] < b.x0 || next[0] > b.x1 || next[1] < b.y0 || next[1] > b.y1) return;
      this.moveCursor(next);
      this.opts.onHover?.(next);
    } else if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      e.stopPropagation();
      this.opts.onCell?.([...this.cursor]);
    }
  }

  /**
   * Short effects for what changed: destroyed units fade and shake where they stood, hit
   * Ogres shake. `gone`: [{x, y, seat, unit}] no longer on the board; `hit`: cells damaged.
   */
  effects(gone, hit) {
    const fx = this.layers.fx;
    if (this.opts.sounds) playSound(gone.length ? "destroyed" : "hit");
    for (const c of gone) {
      const ghost = this.unitCard(c, "destroyed");
      fx.append(ghost);
      setTimeout(() => ghost.remove(), 1100);
    }
    for (const [x, y] of hit) {
      const el = this.layers.units.querySelector(`[data-cell="${key(x, y)}"]`);
      el?.classList.add("hit");
    }
  }
}

/** What disappeared or was damaged between two boards (for Board.effects). */
export function boardChanges(before, after, rules) {
  const now = new Map(after.map((c) => [key(c.x, c.y), c]));
  const gone = [];
  const hit = [];
  for (const c of before) {
    const n = now.get(key(c.x, c.y));
    if (!n || n.seat !== c.seat) gone.push(c);
    else if (n.unit !== c.unit && unitInfo(rules, c.unit).becomes === n.unit) hit.push([c.x, c.y]);
    else if (n.unit !== c.unit) gone.push(c);
  }
  return { gone, hit };
}
