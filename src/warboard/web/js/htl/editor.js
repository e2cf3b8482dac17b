// The Hold the Line scenario editor (/editor, docs/scenarios.md "The editor"): a battle drawn on
// the table's own board (HexBoard), its forms, and the server's validator checking the model
// after every change (POST /api/scenarios/check). The model is the scenario file's data
// (terrain by name); the server writes the TOML, stores it (POST /api/scenarios) and plays it.

import { api } from "../api.js";
import { h, mount } from "../dom.js";
import { t } from "../i18n.js";
import { said } from "../said.js";
import { rememberGame } from "../store.js";
import { toast } from "../toast.js";
import { HexBoard } from "./hexboard.js";
import { KINDS, TERRAIN, loadTables, optionText } from "./names.js";

const GAME = "holdtheline";
const EDGES = ["north", "south", "west", "east"];
const MIN_SIZE = 5;
const MAX_SIZE = 30;
const CHECK_DELAY_MS = 300;


const hexOf = (text) => text.split(",").map(Number);
const key = ([c, r]) => `${c},${r}`;
const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);
const listOf = (v) => (Array.isArray(v) ? v : [v]);
// a check's problem in the page's language (the server's English where it sends no message)
const problemText = (err) => said(err.msg, err.problem);

function blankSide(label, home) {
  return { label, home: [home], command_ap: 2, vp_target: 3, vp_counters: [], objectives: [],
    exits: [], units: [], leaders: [], reinforcements: [] };
}

export function blankModel() {
  return { title: t("editor.blankTitle"), summary: t("editor.blankSummary"), history: t("editor.blankHistory"),
    special_rules: "", cols: 10, rows: 8, first: "american", turn_limit: 8, time_out: "draw",
    options: {}, terrain: {}, places: {},
    sides: { american: blankSide("Americans", "south"), british: blankSide("British", "north") } };
}

/** The board's view (what HexBoard draws) of a model: pieces, marks and terrain. */
function viewOf(m) {
  const names = Object.keys(m.sides);
  const sides = names.map((n) => m.sides[n]);
  const onBoard = (side) => (p) => ({ ...p, side, at: hexOf(p.at), start_mp: p.mp });
  const waiting = (side, r) => (p) => ({ ...p, side, at: null, status: "waiting", arrive: r.turn,
    enter_at: hexOf(p.at) });
  return {
    cols: m.cols, rows: m.rows, sides: names, labels: sides.map((s, i) => s.label || capital(names[i])),
    terrain: Object.entries(m.terrain).flatMap(([t, hexes]) => hexes.map((x) => ({ at: hexOf(x), terrain: t }))),
    home_edges: sides.map((s) => listOf(s.home)),
    places: Object.entries(m.places || {}).map(([at, name]) => ({ at: hexOf(at), name })),
    units: sides.flatMap((s, i) => [...s.units.map(onBoard(i)),
      ...s.reinforcements.flatMap((r) => r.units.map(waiting(i, r)))]),
    leaders: sides.flatMap((s, i) => [...s.leaders.map(onBoard(i)),
      ...s.reinforcements.flatMap((r) => r.leaders.map(waiting(i, r)))]),
    vp_counters: sides.flatMap((s, i) => s.vp_counters.map((at) => ({ side: i, at: hexOf(at) }))),
    objectives: sides.flatMap((s, i) => s.objectives.map((o) => ({ side: i, at: hexOf(o.at), vp: o.vp }))),
    exits: sides.map((s, i) => ({ side: i, hexes: s.exits.map(hexOf) })),
  };
}

export class ScenarioEditor {
  constructor(root, tables) {
    this.root = root;
    this.tables = tables;
    this.model = blankModel();
    this.checked = null; // the server's last answer
    this.tool = "terrain";
    this.brush = "forest";
    this.sideName = "american";
    this.into = "board"; // where placed pieces go: "board" or a reinforcement's index
    this.timer = null;
    this.asked = 0;
  }

  // ------------------------------------------------------------------ changes

  /** Change the model, redraw and check it again (debounced). */
  change(fn, { forms = true } = {}) {
    fn(this.model);
    this.unshare();
    this.render(forms);
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.check(), CHECK_DELAY_MS);
  }

  async check() {
    const asked = ++this.asked;
    this.status.textContent = t("editor.checking");
    this.status.className = "editor-status checking";
    this.status.dataset.ok = "checking"; // nothing is saved or downloaded from an old answer
    for (const b of this.needValid) b.disabled = true;
    try {
      const answer = await api.checkScenario({ game: GAME, model: this.model });
      if (asked !== this.asked) return; // a newer check is on its way
      this.checked = answer;
    } catch (e) {
      this.checked = { ok: false, errors: [{ field: "(request)", problem: e.message, at: null }] };
    }
    this.showCheck();
  }

  showCheck() {
    const c = this.checked;
    const ok = !!c?.ok;
    this.status.className = `editor-status ${ok ? "ok" : "problem"}`;
    this.status.dataset.ok = String(ok);
    this.status.textContent = ok ? t("editor.valid", { title: c.summary.title, summary: c.summary.summary })
      : `✗ ${c.errors[0].field}: ${problemText(c.errors[0])}`;
    for (const b of this.needValid) b.disabled = !ok;
    this.drawBoard();
  }

  side() {
    return this.model.sides[this.sideName];
  }

  /** The list a placed piece goes to: the side's own, or one of its reinforcements'. */
  target(kind) {
    const side = this.side();
    return this.into === "board" ? side[kind] : side.reinforcements[this.into][kind];
  }

  nextId(prefix) {
    const used = new Set();
    for (const s of Object.values(this.model.sides)) {
      for (const p of [...s.units, ...s.leaders, ...s.reinforcements.flatMap((r) => [...r.units, ...r.leaders])]) {
        used.add(p.id);
      }
    }
    let n = 1;
    while (used.has(`${prefix}${n}`)) n++;
    return `${prefix}${n}`;
  }

  clickHex(at) {
    const x = key(at);
    const tool = this.tool;
    this.change((m) => {
      const side = this.side();
      if (tool === "terrain") {
        for (const t of Object.keys(m.terrain)) {
          m.terrain[t] = m.terrain[t].filter((y) => y !== x);
          if (!m.terrain[t].length) delete m.terrain[t];
        }
        if (this.brush !== "clear") (m.terrain[this.brush] ||= []).push(x);
      } else if (tool === "unit") {
        const kind = this.form.kind.value;
        const mp = Number(this.form.mp.value) || this.tables.units[kind].max_mp;
        const id = this.form.uid.value.trim() || this.nextId(this.sideName.charAt(0).toUpperCase());
        this.target("units").push({ id, kind, mp, at: x });
        this.form.uid.value = "";
      } else if (tool === "leader") {
        const id = this.nextId("leader_");
        const name = this.form.lname.value.trim() || capital(id.replace("_", " "));
        this.target("leaders").push({ id, name, at: x,
          rating: [Number(this.form.combat.value), Number(this.form.hits.value)] });
        this.form.lname.value = "";
      } else if (tool === "vp") {
        toggle(side.vp_counters, x);
      } else if (tool === "objective") {
        const i = side.objectives.findIndex((o) => o.at === x);
        if (i >= 0) side.objectives.splice(i, 1);
        else side.objectives.push({ at: x, vp: Number(this.form.ovp.value) || 1 });
      } else if (tool === "exit") {
        toggle(side.exits, x);
        if (side.exits.length) side.exit_vp ||= [1, 1];
        else delete side.exit_vp;
      } else if (tool === "entry" && this.into !== "board") {
        toggle(side.reinforcements[this.into].entry, x);
      } else if (tool === "place") {
        const name = this.form.place.value.trim();
        if (name) m.places[x] = name;
        else delete m.places[x];
      } else if (tool === "erase") {
        for (const s of Object.values(m.sides)) {
          for (const group of [s, ...s.reinforcements]) {
            group.units = group.units.filter((p) => p.at !== x);
            group.leaders = group.leaders.filter((p) => p.at !== x);
          }
          s.vp_counters = s.vp_counters.filter((y) => y !== x);
          s.objectives = s.objectives.filter((o) => o.at !== x);
        }
      }
    });
  }

  // ------------------------------------------------------------------ drawing

  show() {
    this.status = h("p", { class: "editor-status", role: "status", "aria-live": "polite" }, "…");
    this.boardHost = h("div", { class: "htl-board-host editor-board" });
    this.board = new HexBoard(this.boardHost, { label: t("editor.board"), onHex: (at) => this.clickHex(at) });
    this.forms = h("div", { class: "editor-forms" });
    this.toolbar = h("div", { class: "editor-tools" });
    this.links = h("div", { class: "editor-links" });
    const download = h("button", { type: "button", class: "btn", id: "editor-download",
      onclick: () => this.download() }, t("editor.download"));
    const save = h("button", { type: "button", class: "btn primary", id: "editor-save",
      onclick: () => this.save() }, t("editor.save"));
    const upload = h("input", { type: "file", accept: ".toml,text/plain", id: "editor-upload",
      class: "sr-only", onchange: (e) => this.upload(e.target.files[0]) });
    this.needValid = [download, save];
    mount(this.root, h("section", { class: "editor" },
      h("h1", {}, t("editor.title")),
      h("p", { class: "hint editor-help" }, t("editor.help")),
      h("div", { class: "editor-actions" }, save, download,
        h("label", { class: "btn", for: "editor-upload" }, t("editor.upload")), upload,
        h("button", { type: "button", class: "btn ghost", onclick: () => this.load(blankModel()) }, t("editor.new"))),
      this.links, this.status, this.toolbar,
      h("div", { class: "editor-main" }, this.boardHost, this.forms)));
    this.render(true);
    this.check();
  }

  load(model) {
    this.model = model;
    this.unshare();
    this.sideName = Object.keys(model.sides)[0];
    this.into = "board";
    this.render(true);
    this.check();
  }

  /** The saved battle's link and games are no longer this one's: save it again to share it. */
  unshare() {
    if (!this.links.firstChild) return;
    mount(this.links);
    history.replaceState(null, "", "/editor");
  }

  render(forms) {
    this.drawTools();
    if (forms) this.drawForms();
    this.drawBoard();
  }

  drawBoard() {
    const err = this.checked && !this.checked.ok ? this.checked.errors[0] : null;
    const choices = err?.at ? [{ at: err.at, label: `${err.field}: ${problemText(err)}`, short: "⚠" }] : [];
    this.board.render(viewOf(this.model), { choices });
  }

  drawTools() {
    const tools = ["terrain", "unit", "leader", "vp", "objective", "exit", "entry", "place", "erase"]
      .map((k) => [k, t(`editor.tool.${k}`)]);
    const sides = Object.keys(this.model.sides);
    const f = this.form || {};
    const sel = (id, options, value, onchange) => h("select", { id, onchange },
      options.map(([v, label]) => h("option", { value: v, selected: String(v) === String(value) || null }, label)));
    const kinds = Object.keys(this.tables.units);
    const kind = f.kind?.value || kinds[0];
    this.form = {
      kind: sel("editor-kind", kinds.map((k) => [k, KINDS[k]?.title || this.tables.units[k].label]), kind, () => {
        this.form.mp.value = this.form.mp.max = this.tables.units[this.form.kind.value].max_mp;
      }),
      mp: h("input", { id: "editor-mp", type: "number", min: 1, max: this.tables.units[kind].max_mp, value: f.mp?.value || this.tables.units[kind].max_mp }),
      uid: h("input", { id: "editor-uid", size: 6, placeholder: t("editor.auto"), value: f.uid?.value || "" }),
      lname: h("input", { id: "editor-lname", size: 10, placeholder: t("editor.namePlaceholder"), value: f.lname?.value || "" }),
      combat: sel("editor-combat", [[1, "1"], [2, "2"]], f.combat?.value || 1),
      hits: sel("editor-hits", [[1, "1"], [2, "2"]], f.hits?.value || 1),
      ovp: h("input", { id: "editor-ovp", type: "number", min: 1, max: 99, value: f.ovp?.value || 1 }),
      place: h("input", { id: "editor-place", size: 12, placeholder: t("editor.hexName"), value: f.place?.value || "" }),
    };
    const into = [["board", t("editor.intoBoard")],
      ...this.side().reinforcements.map((r, i) => [i, t("editor.intoReinforcement", { n: i + 1, turn: r.turn })])];
    const extra = {
      terrain: [h("label", { for: "editor-brush" }, t("editor.terrain")), sel("editor-brush",
        Object.keys(this.tables.terrain).map((ter) => [ter, TERRAIN[ter]?.title || capital(ter)]), this.brush, (e) => { this.brush = e.target.value; })],
      unit: [h("label", { for: "editor-kind" }, t("editor.kind")), this.form.kind, h("label", { for: "editor-mp" }, "MP"),
        this.form.mp, h("label", { for: "editor-uid" }, t("editor.id")), this.form.uid],
      leader: [h("label", { for: "editor-lname" }, t("players.name")), this.form.lname,
        h("label", { for: "editor-combat" }, t("editor.ratingCombat")), this.form.combat,
        h("label", { for: "editor-hits" }, t("editor.ratingHits")), this.form.hits],
      objective: [h("label", { for: "editor-ovp" }, "VP"), this.form.ovp],
      place: [h("label", { for: "editor-place" }, t("editor.placeName")), this.form.place],
      entry: this.into === "board" ? [h("span", { class: "hint" }, t("editor.entryFirst"))] : [],
    }[this.tool] || [];
    const pieces = ["unit", "leader"].includes(this.tool)
      ? [h("label", { for: "editor-into" }, t("editor.into")), sel("editor-into", into, this.into, (e) => {
        this.into = e.target.value === "board" ? "board" : Number(e.target.value);
      })] : [];
    mount(this.toolbar,
      h("div", { class: "field" }, h("label", { for: "editor-tool" }, t("editor.toolLabel")),
        sel("editor-tool", tools, this.tool, (e) => { this.tool = e.target.value; this.drawTools(); }),
        h("label", { for: "editor-side" }, t("table.side")),
        sel("editor-side", sides.map((n) => [n, this.model.sides[n].label || capital(n)]), this.sideName, (e) => {
          this.sideName = e.target.value;
          this.into = "board";
          this.drawTools();
        }), ...extra, ...pieces));
  }

  drawForms() {
    const m = this.model;
    const names = Object.keys(m.sides);
    // checked as it is typed: a change left for the blur would redraw the board under a click
    const text = (label, id, value, set, attrs = {}) => h("div", { class: "field" },
      h("label", { for: id }, label),
      h(attrs.rows ? "textarea" : "input", { id, value: attrs.rows ? null : value, ...attrs,
        oninput: (e) => this.change((mm) => set(mm, e.target.value), { forms: false }) },
      attrs.rows ? value : null));
    const num = (label, id, value, set, attrs = {}) => text(label, id, value ?? "", (mm, v) => set(mm, v === "" ? null : Number(v)),
      { type: "number", ...attrs });
    const general = h("fieldset", {}, h("legend", {}, t("editor.battle")),
      text(t("editor.fieldTitle"), "editor-title", m.title, (mm, v) => { mm.title = v; }),
      text(t("editor.summary"), "editor-summary", m.summary, (mm, v) => { mm.summary = v; }),
      text(t("editor.date"), "editor-date", m.date || "", (mm, v) => {
        if (v) mm.date = v;
        else delete mm.date;
      }),
      text(t("editor.history"), "editor-history", m.history, (mm, v) => { mm.history = v; }, { rows: 3 }),
      text(t("editor.special"), "editor-special", m.special_rules || "", (mm, v) => { mm.special_rules = v; }, { rows: 2 }),
      num(t("editor.cols"), "editor-cols", m.cols, (mm, v) => { mm.cols = v; }, { min: MIN_SIZE, max: MAX_SIZE }),
      num(t("editor.rows"), "editor-rows", m.rows, (mm, v) => { mm.rows = v; }, { min: MIN_SIZE, max: MAX_SIZE }),
      num(t("editor.turnLimit"), "editor-turns", m.turn_limit, (mm, v) => { mm.turn_limit = v; }, { min: 1, max: 50 }),
      this.choice(t("editor.firstSide"), "editor-first", names.map((n) => [n, n]), m.first, (mm, v) => { mm.first = v; }),
      this.choice(t("editor.atLimit"), "editor-timeout",
        [...names.map((n) => [n, t("htl.timeOutWin", { side: n })]), ["draw", t("htl.timeOutDraw")], ["vp", t("editor.moreVpWins")]], m.time_out,
        (mm, v) => { mm.time_out = v; }));
    const options = h("fieldset", {}, h("legend", {}, t("editor.optionalRules")),
      Object.entries(this.tables.options).map(([name, o]) => (name === "ap_adjust"
        ? text(`${o.rule} ${optionText(name, o.text)} ${t("editor.twoNumbers")}`, "editor-opt-ap_adjust",
          (m.options.ap_adjust || []).join(","), (mm, v) => {
            if (v.trim()) mm.options.ap_adjust = v.split(",").map(Number);
            else delete mm.options.ap_adjust;
          })
        : h("label", { class: "check" }, h("input", { type: "checkbox", id: `editor-opt-${name}`,
          checked: m.options[name] === true || null,
          onchange: (e) => this.change((mm) => {
            if (e.target.checked) mm.options[name] = true;
            else delete mm.options[name];
          }, { forms: false }) }), ` ${o.rule} ${name}: ${optionText(name, o.text)}`))));
    mount(this.forms, general, ...names.map((n) => this.sideForm(n)), options);
  }

  choice(label, id, options, value, set) {
    return h("div", { class: "field" }, h("label", { for: id }, label),
      h("select", { id, onchange: (e) => this.change((mm) => set(mm, e.target.value)) },
        options.map(([v, l]) => h("option", { value: v, selected: v === value || null }, l))));
  }

  sideForm(name) {
    const s = this.model.sides[name];
    const id = (what) => `editor-${name}-${what}`;
    // a field whose change redraws the forms (a name, a turn) is taken when it is left
    const input = (label, what, value, set, { redraw = false, ...attrs } = {}) => h("div", { class: "field" },
      h("label", { for: id(what) }, label),
      h("input", { id: id(what), value, ...attrs,
        [redraw ? "onchange" : "oninput"]: (e) => this.change((m) => set(m.sides[name], e.target.value, m),
          { forms: redraw }) }));
    const numbers = (v) => v.split(",").map((x) => x.trim()).filter(Boolean).map(Number);
    const pieces = (group, where) => h("ul", { class: "editor-pieces" },
      group.units.map((u, i) => h("li", {}, t("editor.unitEntry", { id: u.id, kind: KINDS[u.kind]?.title || u.kind, mp: u.mp, at: u.at }),
        this.remove(t("editor.removeUnit", { id: u.id }), () => where(this.model.sides[name]).units.splice(i, 1)))),
      group.leaders.map((ld, i) => h("li", {}, t("editor.leaderEntry", { name: ld.name, rating: ld.rating.join("/"), at: ld.at }),
        this.remove(t("editor.removeLeader", { name: ld.name }), () => where(this.model.sides[name]).leaders.splice(i, 1)))));
    return h("fieldset", { class: "editor-side", "data-side": name },
      h("legend", {}, t("editor.sideLegend", { side: s.label || name })),
      input(t("editor.sideName"), "name", name, (_, v, m) => {
        if (renameSide(m, name, v.trim()) && this.sideName === name) this.sideName = v.trim();
      }, { redraw: true }),
      input(t("editor.label"), "label", s.label || "", (side, v) => { side.label = v; }),
      h("div", { class: "field" }, h("span", { class: "field-label" }, t("editor.homeEdges")),
        EDGES.map((e) => h("label", { class: "check" }, h("input", { type: "checkbox", id: id(`home-${e}`),
          checked: listOf(s.home).includes(e) || null,
          onchange: (ev) => this.change((m) => {
            const side = m.sides[name];
            const home = listOf(side.home).filter((x) => x !== e);
            side.home = ev.target.checked ? [...home, e] : home;
          }, { forms: false }) }), ` ${t(`lobby.edge.${e}`)}`))),
      input(t("editor.commandAp"), "ap", listOf(s.command_ap).join(","), (side, v) => {
        const ap = numbers(v);
        side.command_ap = ap.length === 1 ? ap[0] : ap;
      }),
      input(t("editor.vpTarget"), "vp", s.vp_target ?? "", (side, v) => {
        if (v.trim()) side.vp_target = Number(v);
        else delete side.vp_target;
      }),
      s.exits.length ? input(t("editor.exitVp"), "exit-vp", (s.exit_vp || [1, 1]).join(","),
        (side, v) => { side.exit_vp = numbers(v); }) : null,
      h("p", { class: "hint" }, t("editor.sideSummary", { counters: s.vp_counters.join(" ") || t("editor.none"),
        objectives: s.objectives.map((o) => `${o.at} (${o.vp} VP)`).join(" ") || t("editor.none"),
        exits: s.exits.join(" ") || t("editor.none") })),
      pieces(s, (side) => side),
      h("div", { class: "editor-reinforcements" },
        s.reinforcements.map((r, i) => h("div", { class: "editor-reinforcement" },
          input(t("editor.reinforcementTurn", { n: i + 1 }), `r${i}-turn`, r.turn, (side, v) => { side.reinforcements[i].turn = Number(v); },
            { type: "number", min: 2, redraw: true }),
          h("p", { class: "hint" }, t("editor.entryHexes", { hexes: r.entry.join(" ") || t("editor.entryNone") })),
          pieces(r, (side) => side.reinforcements[i]),
          this.remove(t("editor.removeReinforcement", { n: i + 1 }), () => {
            this.model.sides[name].reinforcements.splice(i, 1);
            this.into = "board";
          }))),
        h("button", { type: "button", class: "btn small", onclick: () => this.change((m) => {
          m.sides[name].reinforcements.push({ turn: 2, entry: [], units: [], leaders: [] });
          this.sideName = name;
          this.into = m.sides[name].reinforcements.length - 1;
        }) }, t("editor.addReinforcement"))));
  }

  remove(label, fn) {
    return h("button", { type: "button", class: "btn small ghost", "aria-label": label, title: label,
      onclick: () => this.change(fn) }, "×");
  }

  // ------------------------------------------------------------------ files and the server

  download() {
    const blob = new Blob([this.checked.toml], { type: "application/toml" });
    const a = h("a", { href: URL.createObjectURL(blob),
      download: `${(this.model.title || "scenario").toLowerCase().replace(/[^a-z0-9]+/g, "_")}.toml` });
    document.body.append(a);
    a.click();
    a.remove();
  }

  async upload(file) {
    if (!file) return;
    const answer = await api.checkScenario({ game: GAME, toml: await file.text() });
    if (!answer.ok) {
      this.checked = answer;
      this.showCheck();
      const [err] = answer.errors;
      toast(t("editor.badFile", { field: err.field, problem: problemText(err) }), "error");
      return;
    }
    this.load(answer.model);
  }

  async save() {
    try {
      const saved = await api.storeScenario({ game: GAME, model: this.model });
      this.showLinks(saved.id);
    } catch (e) {
      toast(t("editor.notSaved", { reason: e.message }), "error");
    }
  }

  showLinks(id) {
    const path = `/editor?scenario=${encodeURIComponent(id)}`;
    const link = `${location.origin}${path}`;
    history.replaceState(null, "", path);
    const play = (mode, label) => h("button", { type: "button", class: "btn primary", "data-mode": mode,
      onclick: () => this.play(id, mode) }, label);
    mount(this.links, h("p", {}, t("editor.saved"), h("a", { href: link, id: "editor-link" }, link)),
      h("div", { class: "editor-actions" }, play("ai", t("editor.playAi")), play("friend", t("editor.playFriend"))));
  }

  async play(id, mode) {
    try {
      const res = await api.createGame({ game: GAME, mode, custom_scenario: id });
      rememberGame(res.id, { game: res.game, mode: res.mode, seat: res.seat, token: res.token,
        invite: res.invite, created: new Date().toISOString() });
      location.assign(`/play/${encodeURIComponent(res.id)}`);
    } catch (e) {
      toast(t("lobby.startFailed", { reason: e.message }), "error");
    }
  }
}

function toggle(list, x) {
  const i = list.indexOf(x);
  if (i >= 0) list.splice(i, 1);
  else list.push(x);
}

/** Rename a side, keeping the sides' order and the fields that name it. */
function renameSide(m, from, to) {
  if (!to || to === from || m.sides[to]) return false;
  m.sides = Object.fromEntries(Object.entries(m.sides).map(([n, s]) => [n === from ? to : n, s]));
  if (m.first === from) m.first = to;
  if (m.time_out === from) m.time_out = to;
  return true;
}

/** The editor page: a new battle, or the stored one named by ?scenario=ID. */
export async function showEditor(root) {
  mount(root, h("p", { class: "notice" }, t("editor.loading")));
  const [tables] = await Promise.all([api.rules(GAME), loadTables()]);
  const editor = new ScenarioEditor(root, tables);
  editor.show();
  const id = new URLSearchParams(location.search).get("scenario");
  if (id) {
    try {
      const stored = await api.customScenario(id);
      editor.load(stored.model);
      editor.showLinks(id);
    } catch (e) {
      toast(t("editor.scenarioFailed", { id, reason: e.message }), "error");
    }
  }
  return editor;
}
