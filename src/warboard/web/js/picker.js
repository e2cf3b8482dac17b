// Turning clicks into one of the server's legal plays. No rules here: every choice is a
// filter on the `legal` list the server sent, so the client can only ever send a legal play.
//
// Deploy: pick a unit -> its cells light up -> pick a cell -> if several hit sequences remain,
// pick the hits in order (each step lights the possible next targets) -> the play is sent as
// soon as exactly one legal play is left. Strike: button -> pick a target. Burial: two cards in
// order, then confirm.

const same = (a, b) => a && b && a[0] === b[0] && a[1] === b[1];
const key = (c) => `${c[0]},${c[1]}`;

function uniqueCells(cells) {
  const seen = new Map();
  for (const c of cells) if (c && !seen.has(key(c))) seen.set(key(c), c);
  return [...seen.values()];
}

export function deploys(legal) {
  return legal.filter((a) => a.play === "deploy");
}

export function strikes(legal) {
  return legal.filter((a) => a.play === "strike");
}

export function burials(legal) {
  return legal.filter((a) => a.play === "bury");
}

/** unit name -> number of legal places, for the hand. */
export function placesByUnit(legal) {
  const out = {};
  for (const a of deploys(legal)) {
    out[a.unit] ??= new Set();
    out[a.unit].add(key(a.at));
  }
  return Object.fromEntries(Object.entries(out).map(([u, s]) => [u, s.size]));
}

export class Picker {
  constructor() {
    this.legal = [];
    this.reset();
  }

  reset() {
    this.mode = "idle"; // idle | unit | targets | strike | bury
    this.unit = null;
    this.at = null;
    this.hits = [];
    this.bury = [];
  }

  /** New legal list (a new state): keep a selection only if it still makes sense. */
  setLegal(legal) {
    const before = this.mode;
    const unit = this.unit;
    this.legal = legal || [];
    this.reset();
    if (before === "unit" && unit && this.cellsFor(unit).length) {
      this.mode = "unit";
      this.unit = unit;
    }
    if (burials(this.legal).length) this.mode = "bury";
  }

  cellsFor(unit) {
    return uniqueCells(deploys(this.legal).filter((a) => a.unit === unit).map((a) => a.at));
  }

  /** Deploys of the chosen unit at `at` whose attacks start with the chosen hits. */
  candidates(at = this.at, hits = this.hits) {
    return deploys(this.legal).filter((a) => a.unit === this.unit && same(a.at, at)
      && hits.every((hcell, i) => same((a.attacks || [])[i], hcell)));
  }

  /** Every cell some play of the chosen unit at `cell` would hit (hover preview). */
  preview(cell) {
    if (this.mode !== "unit" || !this.unit) return [];
    return uniqueCells(this.candidates(cell, []).flatMap((a) => a.attacks || []));
  }

  selectUnit(unit) {
    if (this.mode === "bury") return this.addBurial(unit);
    if (this.mode === "unit" && this.unit === unit) {
      this.reset();
      return null;
    }
    this.reset();
    if (!this.cellsFor(unit).length) return null;
    this.mode = "unit";
    this.unit = unit;
    return null;
  }

  startStrike() {
    if (this.mode === "strike") {
      this.reset();
      return null;
    }
    this.reset();
    if (strikes(this.legal).length) this.mode = "strike";
    return null;
  }

  /** A click on a board cell; returns a complete legal play to send (and starts over), or
   *  null while more choices are needed. */
  clickCell(cell) {
    const play = this.step(cell);
    if (play) this.reset();
    return play;
  }

  step(cell) {
    if (this.mode === "strike") {
      const play = strikes(this.legal).find((a) => same(a.target, cell));
      return play || null;
    }
    if (this.mode === "unit") {
      const cands = this.candidates(cell, []);
      if (!cands.length) return null;
      this.at = cell;
      this.hits = [];
      return this.settle();
    }
    if (this.mode === "targets") {
      const next = this.nextTargets();
      if (!next.some((c) => same(c, cell))) return null;
      this.hits = [...this.hits, cell];
      return this.settle();
    }
    return null;
  }

  /** One play left: it is the answer. Several: ask for the next hit. */
  settle() {
    const cands = this.candidates();
    if (cands.length === 1) return cands[0];
    this.mode = "targets";
    return null;
  }

  /** Cells the next hit may go to, in target mode. */
  nextTargets() {
    const k = this.hits.length;
    return uniqueCells(this.candidates().map((a) => (a.attacks || [])[k]));
  }

  /** Total hits the chosen play will make (for "hit 1 of 2"). */
  hitCount() {
    return Math.max(0, ...this.candidates().map((a) => (a.attacks || []).length));
  }

  addBurial(unit) {
    if (this.bury.length >= 2) return null;
    const next = [...this.bury, unit];
    const ok = burials(this.legal).some((a) => next.every((u, i) => a.cards[i] === u));
    if (ok) this.bury = next;
    return null;
  }

  undoBurial() {
    this.bury = this.bury.slice(0, -1);
  }

  burialPlay() {
    if (this.bury.length !== 2) return null;
    return burials(this.legal).find((a) => a.cards[0] === this.bury[0]
      && a.cards[1] === this.bury[1]) || null;
  }

  /** What the board should light up now. */
  overlay() {
    if (this.mode === "unit") return { places: this.cellsFor(this.unit), targets: [], chosen: null };
    if (this.mode === "targets") {
      return { places: [], targets: this.nextTargets(), chosen: this.at, hits: this.hits };
    }
    if (this.mode === "strike") {
      return { places: [], targets: strikes(this.legal).map((a) => a.target), chosen: null };
    }
    return { places: [], targets: [], chosen: null };
  }
}
