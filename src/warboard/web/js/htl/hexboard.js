// The Hold the Line board in SVG: odd-r pointy-top hexes with terrain, home edges, objectives,
// units as counters, leaders, VP counters, and the table's overlay (units that can act, the
// selection, destinations with their AP cost, targets with their hit numbers and line of
// sight, decision hexes, the last action). Clicks come back as hexes ([col, row]).

import { ARROWS, h, s, clear, keepFocus } from "../dom.js";
import { localName, t } from "../i18n.js";
import { KINDS, TERRAIN, hexKey, hexText, leaderById, onBoard, sideColour, sideTitle, unitById } from "./names.js";

const R = 50; // hex radius (centre to corner), in SVG user units
const W = Math.sqrt(3) * R; // hex width
const PAD = 34; // room around the board for the edge labels

let cornerOffset = -30; // degrees: -30 draws pointy-top hexes, 0 flat-top (the board turned a quarter)
const corners = (cx, cy, r = R) => Array.from({ length: 6 }, (_, i) => {
  const a = (Math.PI / 180) * (60 * i + cornerOffset);
  return [cx + r * Math.cos(a), cy + r * Math.sin(a)];
});
const pts = (list) => list.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(" ");

export class HexBoard {
  /** @param {HTMLElement} host  @param {object} opts {onHex(at, event), label} */
  constructor(host, opts) {
    this.host = host;
    this.opts = opts;
    this.flipped = false;
    this.zoom = 1;
    this.geometryKey = null;
    this.svg = s("svg", { class: "htl-svg", role: "group", "aria-label": opts.label || "Board",
      xmlns: "http://www.w3.org/2000/svg" });
    this.svg.append(defs());
    this.layers = {};
    for (const name of ["terrain", "edges", "marks", "coords", "last", "under", "units", "over", "badges", "fx"]) {
      this.layers[name] = this.svg.appendChild(s("g", { class: `hl-${name}` }));
    }
    this.scroller = h("div", { class: "htl-scroller" }, this.svg);
    const btn = (label, text, fn) => h("button", { type: "button", class: "zoom-btn", "aria-label": label,
      title: label, onclick: fn }, text);
    this.controls = h("div", { class: "board-controls" },
      btn(t("table.zoomIn"), "+", () => this.setZoom(this.zoom * 1.3)),
      btn(t("table.zoomOut"), "−", () => this.setZoom(this.zoom / 1.3)),
      btn(t("htl.fitBoard"), "⤢", () => this.setZoom(1)),
      btn(t("table.turnRound"), "⇅", () => {
        this.flipped = !this.flipped;
        this.redraw();
      }));
    host.append(this.scroller, this.controls);
    this.svg.addEventListener("click", (e) => {
      const el = e.target.closest?.("[data-hex]");
      if (!el) return;
      const [c, r] = el.dataset.hex.split(",").map(Number);
      this.opts.onHex?.([c, r], e);
    });
    this.svg.addEventListener("keydown", (e) => {
      if (ARROWS[e.key] && e.target.closest?.("[data-hex]")) {
        e.preventDefault();
        e.stopPropagation(); // the arrows move over the board here, not a replay's steps
        this.focusToward(e.target, ARROWS[e.key]);
        return;
      }
      if (e.key !== "Enter" && e.key !== " ") return;
      const el = e.target.closest?.("[data-hex]");
      if (!el) return;
      e.preventDefault();
      const [c, r] = el.dataset.hex.split(",").map(Number);
      this.opts.onHex?.([c, r], e);
    });
    this.svg.addEventListener("pointerover", (e) => {
      const el = e.target.closest?.("[data-hover]");
      this.hoverKey = el ? el.dataset.hover : null;
      this.applyHover();
    });
    this.svg.addEventListener("pointerleave", () => {
      this.hoverKey = null;
      this.applyHover();
    });
  }

  /** The arrow keys: the focus goes to the nearest unit, leader or highlighted hex that can be
   *  chosen in that direction on screen. */
  focusToward(from, [dx, dy]) {
    const mid = (el) => {
      const r = el.getBoundingClientRect();
      return [r.x + r.width / 2, r.y + r.height / 2];
    };
    const [x0, y0] = mid(from);
    let best = null;
    for (const el of this.svg.querySelectorAll("[data-hex][tabindex='0']")) {
      const [x, y] = mid(el);
      const along = (x - x0) * dx + (y - y0) * dy;
      const across = Math.abs((x - x0) * dy - (y - y0) * dx);
      if (el === from || along <= 1 || across > along * 2) continue; // in a cone about the arrow
      const cost = along + across * 2;
      if (!best || cost < best.cost) best = { el, cost };
    }
    best?.el.focus();
  }

  // ------------------------------------------------------------------ geometry

  centre([c, r]) {
    let x = PAD + W / 2 + W * (c + 0.5 * (r & 1));
    let y = PAD + R + 1.5 * R * r;
    if (this.flipped) {
      x = this.wu - x;
      y = this.hu - y;
    }
    // a quarter turn clockwise (tall boards for phones held upright)
    return this.rotated ? [this.hu - y, x] : [x, y];
  }

  /** Where a board edge is drawn: "north" | "south" | "west" | "east". */
  screenEdge(edge) {
    let e = edge;
    if (this.flipped) e = { north: "south", south: "north", west: "east", east: "west" }[e];
    if (this.rotated) e = { north: "east", east: "south", south: "west", west: "north" }[e];
    return e;
  }

  setSize(cols, rows) {
    this.cols = cols;
    this.rows = rows;
    this.wu = 2 * PAD + W * (cols + 0.5);
    this.hu = 2 * PAD + 2 * R + 1.5 * R * (rows - 1);
    this.width = this.rotated ? this.hu : this.wu;
    this.height = this.rotated ? this.wu : this.hu;
    cornerOffset = this.rotated ? 0 : -30;
    this.svg.setAttribute("viewBox", `0 0 ${this.width.toFixed(1)} ${this.height.toFixed(1)}`);
    this.applyZoom();
  }

  /** On a phone held upright, turn a board wider than tall a quarter, so that it fills the
   * screen's height (and follow the phone when it is turned). */
  fitPhone(view) {
    const portrait = matchMedia("(max-width: 700px) and (orientation: portrait)");
    this.rotated = portrait.matches && view.cols > view.rows;
    portrait.addEventListener?.("change", (ev) => this.setRotated(ev.matches && view.cols > view.rows));
  }

  /** Turn the board a quarter (true) or back (false). */
  setRotated(rotated) {
    if (rotated === !!this.rotated) return;
    this.rotated = rotated;
    this.redraw();
  }

  setZoom(z) {
    this.zoom = Math.max(1, Math.min(4, z));
    this.applyZoom();
  }

  applyZoom() {
    this.svg.style.width = `${(this.zoom * 100).toFixed(1)}%`;
    this.svg.style.aspectRatio = `${this.width} / ${this.height}`;
    this.host.classList.toggle("zoomed", this.zoom > 1.01);
  }

  /** Scroll so that `at` is in view (when zoomed). */
  reveal(at) {
    if (this.zoom <= 1.01 || !at) return;
    const [x, y] = this.centre(at);
    const k = this.svg.clientWidth / this.width;
    const sc = this.scroller;
    sc.scrollTo({ left: x * k - sc.clientWidth / 2, top: y * k - sc.clientHeight / 2, behavior: "smooth" });
  }

  // ------------------------------------------------------------------ drawing

  /** Draw `view` (the observation) with `overlay` (see HtlTable.overlay). */
  render(view, overlay) {
    this.view = view;
    this.overlay = overlay || {};
    const key = `${view.cols}x${view.rows}:${this.flipped}:${this.rotated}:${JSON.stringify(view.terrain)}`;
    if (key !== this.geometryKey) {
      this.setSize(view.cols, view.rows);
      this.drawTerrain(view);
      this.geometryKey = key;
    }
    this.drawMarks(view);
    // a redraw (a state, a spectator's message, the phone turned) keeps the keyboard's place
    keepFocus(this.svg, () => {
      this.drawPieces(view, this.overlay);
      this.drawOverlay(view, this.overlay);
    });
  }

  redraw() {
    this.geometryKey = null;
    if (this.view) this.render(this.view, this.overlay);
  }

  drawTerrain(view) {
    const terrain = new Map((view.terrain || []).map((t) => [hexKey(t.at), t.terrain]));
    const g = clear(this.layers.terrain);
    const coords = clear(this.layers.coords);
    for (let r = 0; r < view.rows; r++) {
      for (let c = 0; c < view.cols; c++) {
        const ter = terrain.get(`${c},${r}`) || "clear";
        const [x, y] = this.centre([c, r]);
        const cell = s("g", { class: `hex t-${ter}`, "data-hex": `${c},${r}` },
          s("polygon", { class: "hex-base", points: pts(corners(x, y)) }));
        const art = terrainArt(ter, x, y);
        if (art) cell.append(art);
        cell.append(s("title", {}, `${hexText([c, r])}: ${TERRAIN[ter]?.title || ter} — ${TERRAIN[ter]?.effect || ""}`));
        g.append(cell);
        coords.append(s("text", { class: "hex-coord", x, y: y - R * 0.68 }, `${c},${r}`));
      }
    }
    // home edges, as coloured bands along the board's sides
    const e = clear(this.layers.edges);
    (view.home_edges || []).forEach((edges, seat) => {
      for (const edge of edges || []) e.append(this.edgeBand(edge, seat, view));
    });
  }

  edgeBand(edge, seat, view) {
    const colour = sideColour(view, seat);
    const side = this.screenEdge(edge);
    const w = this.width;
    const hgt = this.height;
    const band = 10;
    const rect = { north: [0, 0, w, band], south: [0, hgt - band, w, band], west: [0, 0, band, hgt],
      east: [w - band, 0, band, hgt] }[side];
    if (!rect) return s("g", {});
    const label = t("htl.homeEdge", { side: sideTitle(view, seat) });
    const [lx, ly, rot] = { north: [w / 2, 24, 0], south: [w / 2, hgt - 14, 0], west: [22, hgt / 2, -90],
      east: [w - 22, hgt / 2, 90] }[side];
    return s("g", { class: `edge c-${colour}` },
      s("rect", { x: rect[0], y: rect[1], width: rect[2], height: rect[3], class: "edge-band" }),
      s("text", { class: "edge-label", x: lx, y: ly, transform: rot ? `rotate(${rot} ${lx} ${ly})` : null }, label));
  }

  drawMarks(view) {
    const g = clear(this.layers.marks);
    const named = new Set();
    for (const p of view.places || []) {
      const [x, y] = this.centre(p.at);
      named.add(hexKey(p.at));
      g.append(s("text", { class: "place-name", x, y: y - R * 0.62 }, localName(p.name)));
    }
    // a named hex shows its name where the others show their coordinates
    for (const el of this.layers.coords.querySelectorAll("text")) {
      el.toggleAttribute("hidden", named.has(el.textContent));
    }
    for (const o of view.objectives || []) {
      const at = o.at || o.hex || o;
      if (!Array.isArray(at)) continue;
      const [x, y] = this.centre(at);
      const holder = o.side ?? o.seat;
      g.append(s("g", { class: `objective${holder !== undefined ? ` c-${sideColour(view, holder)}` : ""}` },
        s("polygon", { class: "objective-ring", points: pts(corners(x, y, R * 0.9)) }),
        s("g", { transform: `translate(${x - R * 0.55} ${y - R * 0.62})` },
          s("path", { class: "flag-pole", d: "M0 0 V26" }),
          s("path", { class: "flag", d: "M0 1 L17 6 L0 12 Z" })),
        o.vp ? s("text", { class: "objective-vp", x: x + R * 0.5, y: y - R * 0.45 }, `${o.vp} VP`) : null,
        s("title", {}, t(o.vp ? "htl.objectiveVp" : "htl.objective", { at: hexText(at), vp: o.vp }))));
    }
    // reinforcements still to come: a dashed hex where they enter, with their number and turn
    const coming = new Map();
    for (const p of [...(view.units || []), ...(view.leaders || [])]) {
      const at = p.status === "waiting" ? p.enter_at || p.entry?.[0] : null;
      if (!at) continue;
      const k = `${hexKey(at)}:${p.side}`;
      if (!coming.has(k)) coming.set(k, { at, side: p.side, pieces: [] });
      coming.get(k).pieces.push(p);
    }
    for (const { at, side, pieces } of coming.values()) {
      const [x, y] = this.centre(at);
      const turns = [...new Set(pieces.map((p) => p.arrive))].sort((a, b) => a - b);
      const names = pieces.map((p) => (p.kind ? `${KINDS[p.kind]?.title || p.kind} ${p.id}` : `★ ${localName(p.name) || p.id}`));
      g.append(s("g", { class: `reinforce-mark c-${sideColour(view, side)}`, "data-reinforce": hexKey(at) },
        s("polygon", { class: "reinforce-ring", points: pts(corners(x, y, R * 0.8)) }),
        s("text", { class: "reinforce-label", x, y: y + R * 0.7 }, `+${pieces.length} T${turns.join("/")}`),
        s("title", {}, t("htl.reinforcements", { side: sideTitle(view, side), at: hexText(at),
          turns: turns.join(t("htl.or")), names: names.join(t("common.listSep")) }))));
    }
    for (const ex of view.exits || []) {
      const list = Array.isArray(ex.hexes) ? ex.hexes : Array.isArray(ex.at) ? [ex.at] : [];
      for (const at of list) {
        const [x, y] = this.centre(at);
        const seat = ex.side ?? ex.seat;
        g.append(s("g", { class: `exit-mark c-${sideColour(view, seat ?? 0)}` },
          s("polygon", { class: "exit-ring", points: pts(corners(x, y, R * 0.86)) }),
          s("text", { class: "exit-label", x, y: y + R * 0.78 }, t("htl.exitMark")),
          s("title", {}, (seat !== undefined ? `${sideTitle(view, seat)} ` : "") + t("htl.exitHex", { at: hexText(at) }))));
      }
    }
  }

  drawPieces(view, o) {
    const g = clear(this.layers.units);
    const byHex = new Map();
    const slot = (at) => {
      const k = hexKey(at);
      if (!byHex.has(k)) byHex.set(k, { at, units: [], leaders: [], vp: [] });
      return byHex.get(k);
    };
    for (const u of view.units || []) if (onBoard(u)) slot(u.at).units.push(u);
    for (const l of view.leaders || []) if (onBoard(l)) slot(l.at).leaders.push(l);
    for (const v of view.vp_counters || []) if (v.at) slot(v.at).vp.push(v);
    const canAct = o.canAct || new Set();
    const active = view.active;
    for (const { at, units, leaders, vp } of byHex.values()) {
      const [x, y] = this.centre(at);
      const k = hexKey(at);
      for (const v of vp) {
        g.append(s("g", { class: `vp-token c-${sideColour(view, v.side)}`, "data-hex": k },
          s("circle", { cx: x - R * 0.5, cy: y + R * 0.42, r: 13 }),
          s("text", { x: x - R * 0.5, y: y + R * 0.42 + 4.5 }, "VP"),
          s("title", {}, t("htl.vpCounter", { side: sideTitle(view, v.side), id: v.id || "", at: hexText(at) }))));
      }
      const shift = leaders.length && units.length ? -6 : 0;
      const n = units.length;
      units.forEach((u, i) => {
        const size = n > 1 ? 42 : 58;
        const dx = n > 1 ? (i - (n - 1) / 2) * 44 : 0;
        g.append(this.counter(view, u, x + dx, y + shift, size, {
          canAct: canAct.has(`u:${u.id}`), selected: o.selected === `u:${u.id}`,
          done: u.side === active && u.acted && !canAct.has(`u:${u.id}`),
          choosable: o.choosableUnits?.has(u.id),
        }));
      });
      leaders.forEach((l, i) => {
        const alone = !units.length;
        const lx = alone ? x + (i - (leaders.length - 1) / 2) * 34 : x + R * 0.52 - i * 26;
        const ly = alone ? y - 6 : y - R * 0.5;
        g.append(this.leader(view, l, lx, ly, alone ? y + 22 : y + R * 0.72, {
          canAct: canAct.has(`l:${l.id}`), selected: o.selected === `l:${l.id}`,
          done: l.side === active && l.acted && !canAct.has(`l:${l.id}`),
        }, i));
      });
    }
  }

  counter(view, u, x, y, size, st) {
    const colour = sideColour(view, u.side);
    const kind = KINDS[u.kind] || { title: u.kind, mark: "" };
    const half = size / 2;
    const cls = ["counter", `c-${colour}`, `k-${u.kind}`, st.canAct ? "can-act" : "", st.selected ? "selected" : "",
      st.done ? "done" : "", st.choosable ? "choosable" : ""].filter(Boolean).join(" ");
    const g = s("g", { class: cls, "data-hex": hexKey(u.at), "data-unit": u.id, "data-focus-key": `u:${u.id}`,
      tabindex: st.canAct || st.choosable ? 0 : null, role: st.canAct || st.choosable ? "button" : null,
      "aria-label": t("htl.counterLabel", { side: sideTitle(view, u.side), kind: kind.title, id: u.id, mp: u.mp })
        + (st.canAct ? t("htl.canAct") : "") });
    if (st.canAct || st.selected || st.choosable) {
      g.append(s("rect", { class: "act-ring", x: x - half - 6, y: y - half - 6, width: size + 12, height: size + 12,
        rx: 10 }));
    }
    g.append(s("rect", { class: "counter-shadow", x: x - half + 2, y: y - half + 3, width: size, height: size, rx: 7 }));
    g.append(s("rect", { class: "counter-body", x: x - half, y: y - half, width: size, height: size, rx: 7 }));
    // the kind symbol (NATO style) across the top
    const sw = size * 0.58;
    const sh = size * 0.3;
    const sx = x - sw / 2;
    const sy = y - half + size * 0.1;
    g.append(kindSymbol(u.kind, sx, sy, sw, sh));
    // MP, big
    g.append(s("text", { class: "mp", x, y: y + half - size * 0.12, "font-size": size * 0.5 }, String(u.mp)));
    // elite / light / militia marks in the corner
    if (kind.mark) {
      g.append(s("g", { class: `mark m-${u.kind}` },
        s("rect", { x: x - half - 3, y: y + half - 15, width: kind.mark.length > 1 ? 22 : 16, height: 16, rx: 4 }),
        s("text", { x: x - half - 3 + (kind.mark.length > 1 ? 11 : 8), y: y + half - 2.5 }, kind.mark)));
    }
    // lost MP as small pips on the right side
    const lost = Math.max(0, (u.start_mp || u.mp) - u.mp);
    for (let i = 0; i < lost; i++) {
      g.append(s("circle", { class: "lost-pip", cx: x + half - 6, cy: y + half - 7 - i * 8, r: 3 }));
    }
    if (st.done) g.append(s("text", { class: "done-mark", x: x + half - 7, y: y - half + 13 }, "✓"));
    g.append(s("title", {}, t("htl.counterTitle", { side: sideTitle(view, u.side), kind: kind.title, id: u.id, at: hexText(u.at), mp: u.mp })
      + (u.start_mp && u.start_mp !== u.mp ? t("htl.startedWith", { n: u.start_mp }) : "")
      + (u.acted ? t("htl.hasActedTurn") : "")));
    return g;
  }

  leader(view, l, x, y, labelY, st, i) {
    const colour = sideColour(view, l.side);
    const cls = ["leader", `c-${colour}`, st.canAct ? "can-act" : "", st.selected ? "selected" : "",
      st.done ? "done" : ""].filter(Boolean).join(" ");
    const g = s("g", { class: cls, "data-hex": hexKey(l.at), "data-leader": l.id, "data-focus-key": `l:${l.id}`,
      tabindex: st.canAct ? 0 : null, role: st.canAct ? "button" : null,
      "aria-label": t("htl.leaderLabel", { side: sideTitle(view, l.side), name: localName(l.name) }) + (st.canAct ? t("htl.canAct") : "") });
    if (st.canAct || st.selected) g.append(s("circle", { class: "act-ring", cx: x, cy: y, r: 19 }));
    g.append(s("circle", { class: "leader-disc", cx: x, cy: y, r: 14 }));
    g.append(s("path", { class: "leader-star", d: starPath(x, y, 11, 4.6) }));
    const name = localName(l.name) || l.id;
    const short = name.length > 11 ? `${name.slice(0, 10)}…` : name;
    // a Japanese name's characters are about twice as wide as Latin letters
    const tw = [...short].reduce((w, ch) => w + (ch.codePointAt(0) >= 0x2e80 ? 12 : 6.6), 10);
    const ly = labelY + i * 15;
    g.append(s("rect", { class: "leader-tag", x: x - tw / 2, y: ly - 10, width: tw, height: 14, rx: 7 }));
    g.append(s("text", { class: "leader-name", x, y: ly + 1 }, short));
    g.append(s("title", {}, t("htl.leaderTitle", { side: sideTitle(view, l.side), name, at: hexText(l.at) })
      + (l.rating ? t("htl.leaderRating", { rating: l.rating.join("/") }) : "") + (l.acted ? t("htl.hasActed") : "")));
    return g;
  }

  drawOverlay(view, o) {
    const under = clear(this.layers.under);
    const over = clear(this.layers.over);
    const badges = clear(this.layers.badges);
    const last = clear(this.layers.last);
    this.drawLast(last, o.last || []);
    if (o.selectedHex) {
      const [x, y] = this.centre(o.selectedHex);
      under.append(s("polygon", { class: "sel-hex", points: pts(corners(x, y, R * 0.96)) }));
    }
    // destinations: the hex outlined, its AP cost in a badge; the path on hover
    for (const d of o.destinations || []) {
      const [x, y] = this.centre(d.at);
      const k = hexKey(d.at);
      over.append(s("g", { class: `dest${d.multi ? " multi" : ""}`, "data-hex": k, "data-hover": `d:${k}`,
        "data-focus-key": `d:${k}`,
        tabindex: 0, role: "button", "aria-label": `${d.label}` },
      s("polygon", { class: "dest-hex", points: pts(corners(x, y, R * 0.88)) }),
      s("title", {}, d.label)));
      badges.append(s("g", { class: "ap-badge", transform: `translate(${x} ${y + R * 0.5})` },
        s("rect", { x: -20, y: -11, width: 40, height: 21, rx: 10.5 }),
        s("text", { x: 0, y: 4.5 }, d.apText)));
      if (d.path) {
        const line = [this.centre(d.from), ...d.path.map((p) => this.centre(p))];
        under.append(s("polyline", { class: "path-line", "data-for": `d:${k}`, points: pts(line) }));
      }
    }
    // targets: outlined in red, the hit number and dice in a badge, the line of sight
    for (const t of o.targets || []) {
      const [x, y] = this.centre(t.at);
      const k = hexKey(t.at);
      const hk = `t:${k}`;
      if (t.from) {
        const [fx, fy] = this.centre(t.from);
        under.append(s("line", { class: `los-line${t.los === false ? " blocked" : ""}`, "data-for": hk,
          x1: fx, y1: fy, x2: x, y2: y }));
      }
      over.append(s("g", { class: `target ${t.kind}`, "data-hex": k, "data-hover": hk, "data-focus-key": hk,
        tabindex: 0, role: "button",
        "aria-label": t.label },
      s("polygon", { class: "target-hex", points: pts(corners(x, y, R * 0.88)) }),
      t.kind === "assault" ? swords(x, y + R * 0.66, 0.45) : crosshair(x, y + R * 0.68, 0.45),
      s("title", {}, t.label)));
      const w = t.text.length * 8.4 + 14;
      badges.append(s("g", { class: `hit-badge ${t.kind}`, transform: `translate(${x} ${y - R * 0.8})` },
        s("rect", { x: -w / 2, y: -12, width: w, height: 23, rx: 6 }),
        s("text", { x: 0, y: 5 }, t.text)));
    }
    // rally: the unit's hex gets a "+1" badge
    for (const rl of o.rallies || []) {
      const [x, y] = this.centre(rl.at);
      const k = hexKey(rl.at);
      over.append(s("g", { class: "rally", "data-hex": k, "data-focus-key": `r:${k}`, tabindex: 0, role: "button",
        "aria-label": rl.label },
        s("polygon", { class: "rally-hex", points: pts(corners(x, y, R * 0.8)) }),
        s("title", {}, rl.label)));
      badges.append(s("g", { class: "rally-badge", transform: `translate(${x} ${y + R * 0.52})` },
        s("rect", { x: -26, y: -11, width: 52, height: 21, rx: 10.5 }),
        s("text", { x: 0, y: 4.5 }, "+1 MP")));
    }
    // decision hexes (retreat, displacement, escape)
    for (const c of o.choices || []) {
      const [x, y] = this.centre(c.at);
      over.append(s("g", { class: "choice-hex", "data-hex": hexKey(c.at), "data-focus-key": `c:${hexKey(c.at)}`,
        tabindex: 0, role: "button",
        "aria-label": c.label },
      s("polygon", { points: pts(corners(x, y, R * 0.86)) }),
      s("text", { x, y: y + R * 0.62 }, c.short || ""),
      s("title", {}, c.label)));
    }
    // the pending action's target
    if (o.pendingTarget) {
      const [x, y] = this.centre(o.pendingTarget);
      under.append(s("polygon", { class: "pending-hex", points: pts(corners(x, y, R * 0.94)) }));
    }
    this.applyHover();
  }

  /** The marks of the last plays ([{path, from, target, kind, now, better}], see lastMark;
   * `better`: the better play a post-game analysis found). */
  drawLast(g, marks) {
    for (const last of marks) {
      const now = `${last.now ? " now" : ""}${last.better ? " better" : ""}`;
      if (last.path && last.path.length) {
        const line = [last.from ? this.centre(last.from) : null, ...last.path.map((p) => this.centre(p))]
          .filter(Boolean);
        if (line.length > 1) {
          g.append(s("polyline", { class: `last-move${now}`, points: pts(line), "marker-end": "url(#arrow)" }));
        }
      }
      if (last.from && last.target) {
        const [fx, fy] = this.centre(last.from);
        const [tx, ty] = this.centre(last.target);
        g.append(s("line", { class: `last-fire ${last.kind || ""}${now}`, x1: fx, y1: fy, x2: tx, y2: ty,
          "marker-end": "url(#arrow-red)" }));
      }
      // a better play's end is ringed: its line mostly runs under the counters
      const end = last.target || last.path?.[last.path.length - 1];
      if (last.better && end) {
        const [ex, ey] = this.centre(end);
        g.append(s("circle", { class: "better-at", cx: ex, cy: ey, r: 44 }));
      }
    }
  }

  applyHover() {
    for (const el of this.svg.querySelectorAll("[data-for]")) {
      el.classList.toggle("hot", el.dataset.for === this.hoverKey);
    }
  }
}

// ------------------------------------------------------------------ drawings

function defs() {
  const d = s("defs", {});
  const pat = (id, w, hgt, ...children) => s("pattern", { id, width: w, height: hgt,
    patternUnits: "userSpaceOnUse" }, ...children);
  d.append(
    pat("p-swamp", 22, 16, s("path", { d: "M3 12 q4 -6 8 0 M12 5 q3 -4 6 0", class: "pp-swamp" })),
    pat("p-water", 30, 14, s("path", { d: "M0 8 q7.5 -6 15 0 t15 0", class: "pp-water" })),
    pat("p-ford", 14, 14, s("circle", { cx: 4, cy: 4, r: 2.2, class: "pp-ford" }),
      s("circle", { cx: 11, cy: 10, r: 1.8, class: "pp-ford" })),
    pat("p-fence", 20, 20, s("path", { d: "M0 20 L20 0", class: "pp-fence" })),
    s("marker", { id: "arrow", viewBox: "0 0 10 10", refX: 7, refY: 5, markerWidth: 5, markerHeight: 5,
      orient: "auto-start-reverse" }, s("path", { d: "M0 0 L10 5 L0 10 z", class: "arrow-head" })),
    s("marker", { id: "arrow-red", viewBox: "0 0 10 10", refX: 7, refY: 5, markerWidth: 5, markerHeight: 5,
      orient: "auto-start-reverse" }, s("path", { d: "M0 0 L10 5 L0 10 z", class: "arrow-head red" })),
  );
  return d;
}

function terrainArt(t, x, y) {
  const g = s("g", { class: "art", "aria-hidden": "true" });
  const inner = pts(corners(x, y, R * 0.97));
  switch (t) {
    case "forest":
      for (const [dx, dy, k] of [[-18, -10, 1], [10, -16, 0.9], [18, 8, 1], [-10, 14, 0.95], [0, -2, 0.8]]) {
        g.append(s("circle", { class: "tree", cx: x + dx, cy: y + dy, r: 12 * k }));
      }
      return g;
    case "hill":
      g.append(s("ellipse", { class: "contour c1", cx: x, cy: y + 4, rx: R * 0.78, ry: R * 0.62 }));
      g.append(s("ellipse", { class: "contour c2", cx: x, cy: y + 2, rx: R * 0.5, ry: R * 0.38 }));
      g.append(s("ellipse", { class: "contour c3", cx: x, cy: y, rx: R * 0.22, ry: R * 0.16 }));
      return g;
    case "town":
      for (const [dx, dy, w, hh] of [[-22, -18, 16, 13], [4, -22, 20, 14], [-14, 8, 20, 14], [12, 4, 14, 18]]) {
        g.append(s("rect", { class: "house", x: x + dx, y: y + dy, width: w, height: hh, rx: 1.5 }));
        g.append(s("path", { class: "roof", d: `M${x + dx - 2} ${y + dy + 1} L${x + dx + w / 2} ${y + dy - 6} L${x + dx + w + 2} ${y + dy + 1} Z` }));
      }
      return g;
    case "swamp":
      g.append(s("polygon", { class: "swamp-pat", points: inner }));
      return g;
    case "waterway":
      g.append(s("polygon", { class: "water-pat", points: inner }));
      return g;
    case "bridge":
      g.append(s("polygon", { class: "water-pat", points: inner }));
      g.append(s("rect", { class: "bridge-deck", x: x - R * 0.9, y: y - 10, width: R * 1.8, height: 20, rx: 2 }));
      for (let i = -3; i <= 3; i++) {
        g.append(s("path", { class: "plank", d: `M${x + i * 10} ${y - 10} V${y + 10}` }));
      }
      return g;
    case "ford":
      g.append(s("polygon", { class: "ford-pat", points: inner }));
      return g;
    case "fence":
      g.append(s("path", { class: "fence-line", d: `M${x - R * 0.8} ${y + 12} L${x + R * 0.8} ${y - 12}` }));
      for (let i = -3; i <= 3; i++) {
        const px = x + i * R * 0.22;
        const py = y - i * 3.3 * 1.0;
        g.append(s("path", { class: "fence-post", d: `M${px} ${py - 8} V${py + 8}` }));
      }
      return g;
    case "entrenchment": {
      const d = `M${x - R * 0.75} ${y + 8} Q${x} ${y - 26} ${x + R * 0.75} ${y + 8}`;
      g.append(s("path", { class: "works", d }));
      g.append(s("path", { class: "works-teeth", d }));
      return g;
    }
    default:
      return null;
  }
}

function kindSymbol(kind, x, y, w, hh) {
  const g = s("g", { class: "kind-sym" });
  g.append(s("rect", { x, y, width: w, height: hh, class: "sym-box" }));
  if (kind === "artillery") {
    g.append(s("circle", { cx: x + w / 2, cy: y + hh / 2, r: hh * 0.24, class: "sym-fill" }));
  } else if (kind === "dragoon") {
    g.append(s("path", { d: `M${x} ${y + hh} L${x + w} ${y}`, class: "sym-line" }));
  } else {
    g.append(s("path", { d: `M${x} ${y} L${x + w} ${y + hh} M${x} ${y + hh} L${x + w} ${y}`, class: "sym-line" }));
    if (kind === "light") {
      g.append(s("path", { d: `M${x + w * 0.2} ${y + hh + 3} H${x + w * 0.8}`, class: "sym-line" }));
    }
  }
  return g;
}

function starPath(cx, cy, r1, r2) {
  const p = [];
  for (let i = 0; i < 10; i++) {
    const r = i % 2 ? r2 : r1;
    const a = (Math.PI / 5) * i - Math.PI / 2;
    p.push(`${(cx + r * Math.cos(a)).toFixed(1)} ${(cy + r * Math.sin(a)).toFixed(1)}`);
  }
  return `M${p.join(" L")} Z`;
}

function crosshair(x, y, k = 1) {
  return s("g", { class: "xhair", transform: `translate(${x} ${y}) scale(${k}) translate(${-x} ${-y})` },
    s("circle", { cx: x, cy: y, r: 17 }),
    s("path", { d: `M${x - 25} ${y} H${x - 9} M${x + 9} ${y} H${x + 25} M${x} ${y - 25} V${y - 9} M${x} ${y + 9} V${y + 25}` }));
}

function swords(x, y, k = 1) {
  return s("g", { class: "swords", transform: `translate(${x} ${y}) scale(${k}) translate(${-x} ${-y})` },
    s("path", { d: `M${x - 17} ${y - 17} L${x + 15} ${y + 15} M${x + 17} ${y - 17} L${x - 15} ${y + 15}` }),
    s("path", { class: "hilt", d: `M${x + 6} ${y + 14} L${x + 14} ${y + 6} M${x - 6} ${y + 14} L${x - 14} ${y + 6}` }));
}

/** The board's mark for the last decision `action` (a move's path, a shot's line), in `view`
 * (the view after it); `before` (the view before it, when known) gives a move's start. */
export function lastMark(view, action, before = null) {
  const a = action;
  if (!a) return null;
  if (a.type === "move" && a.path?.length) {
    // the mover stands at the end of its path now; where it came from, only `before` knows
    const mover = before ? (a.unit ? unitById(before, a.unit) : leaderById(before, a.leader)) : null;
    return { path: a.path, from: mover?.at || null };
  }
  if (a.type === "fire" || a.type === "assault") {
    const u = unitById(view, a.unit);
    if (u?.at) return { from: u.at, target: a.target, kind: a.type };
  }
  return null;
}

/** The legend: every terrain on this board with its effects. */
export function legend(view) {
  return legendList(view, new Set(["clear", ...(view.terrain || []).map((x) => x.terrain)]));
}

function legendList(view, used) {
  const ul = h("ul", { class: "htl-legend" });
  for (const p of view.places || []) {
    ul.append(h("li", {}, h("span", { class: "legend-place" }, "⌖"),
      h("span", {}, h("strong", {}, localName(p.name)), t("htl.placeHex", { at: hexText(p.at) }))));
  }
  for (const t of used) {
    const svg = s("svg", { class: "legend-hex", viewBox: "-52 -52 104 104", "aria-hidden": "true" },
      s("g", { class: `hex t-${t}` }, s("polygon", { class: "hex-base", points: pts(corners(0, 0)) }),
        terrainArt(t, 0, 0)));
    ul.append(h("li", {}, svg, h("span", {}, h("strong", {}, TERRAIN[t]?.title || t), " — ",
      TERRAIN[t]?.effect || "")));
  }
  return ul;
}

