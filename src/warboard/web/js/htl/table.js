// The Hold the Line table at /play/{id} (js/table.js hands over when the game is
// "holdtheline"): the hex board, the AP and turn tracks, the selected unit's options, pending
// decisions as prompts, the dice tray, the log and undo. Everything is public in this game, so a
// hot-seat table simply shows the seat that is to decide.
//
// Input: click a unit that can act (gold ring) → its destinations (green, with the AP cost) and
// targets (red, with dice and hit number, and the line of sight) appear; click one to play it.
// When several plays end in one hex (with or without a leader, a dragoon's fire after the
// move), a small menu asks which.

import { nextBattleLink } from "../campaign.js";
import { h, mount, uuid } from "../dom.js";
import { localName, t, tapOrClick } from "../i18n.js";
import { TableBase, renderLog } from "../tablebase.js";
import { toast } from "../toast.js";
import { HexBoard, lastMark, legend } from "./hexboard.js";
import {
  DECISION_TYPES, KINDS, TERRAIN, actionHex, actionText, apText, decisionPrompt, hexKey, hexText,
  hitText, leaderById, leaderName, loadScenarioWords, loadTables, sameHex, sideColour, sideTitle, unitById,
  unitLabel,
} from "./names.js";
import { eventLines, gameTitle, renderDice, renderTracks } from "./panel.js";
import { PACES, reducedMotion } from "../playback.js";
import { newEvents, playEvents } from "./playfx.js";
import { endBanner, endSaid, eventText } from "../said.js";

export async function showHtlTable(root, id, first, entry) {
  try {
    await Promise.all([loadTables(), loadScenarioWords(first.view?.scenario)]);
  } catch (e) {
    mount(root, h("div", { class: "notice error" }, h("h1", {}, t("table.cannotOpen")),
      h("p", {}, e.message), h("p", {}, h("a", { href: "/" }, t("common.backToLobby")))));
    return null;
  }
  return new HtlTable(root, id, first, entry || {});
}

/** Draw the hand-made fixture (js/htl/fixture.js) without a server, for development. */
export async function showFixture(root) {
  const [{ FIXTURE_STATE }] = await Promise.all([import("./fixture.js"), loadTables()]);
  return new HtlTable(root, "fixture", structuredClone(FIXTURE_STATE), {}, { offline: true });
}

/** A fire or assault whose hit number no die can make (hint.hit_on 7 or more). */
const cannotHit = (hint) => hint?.hit_on !== undefined && hint.hit_on !== null && hint.hit_on >= 7;

const actorOf = (a) => {
  if (a.type === "move") return a.unit ? `u:${a.unit}` : `l:${a.leader}`;
  if (a.type === "fire" || a.type === "assault") return `u:${a.unit}`;
  if (a.type === "rally") return `l:${a.leader}`;
  return null;
};

class HtlTable extends TableBase {
  constructor(root, id, first, entry, opts = {}) {
    super(root, id, first, entry, first.mode === "hotseat" && !!entry.tokens);
    this.offline = !!opts.offline;
    this.sel = null; // "u:ID" or "l:ID"
    this.menu = null; // {at, items}
    this.zoomSet = false;
    this.build();
    this.onState(first.seat ?? "spectator", { last: null, ...first });
    if (!this.offline) this.connect(first, { stale: /stale|moved on|refresh/i });
  }

  // ------------------------------------------------------------------ layout

  build() {
    const e = (this.el = {
      title: h("h1", { class: "game-title" }),
      banner: h("div", { class: "turn-banner", role: "status", "aria-live": "polite" }),
      boardHost: h("div", { class: "htl-board-host" }),
      prompt: h("div", { class: "htl-prompt", hidden: true, role: "alert" }),
      menu: h("div", { class: "htl-menu", hidden: true }),
      tracks: h("section", { class: "panel htl-tracks", "aria-label": t("htl.tracksLabel") }),
      actions: h("section", { class: "panel htl-actions", "aria-label": t("htl.yourActions") }),
      dice: h("section", { class: "panel htl-dice", "aria-label": t("htl.dice") }),
      log: h("div", { class: "log", tabindex: 0, "aria-label": t("table.gameLog") }),
      legend: h("div", {}),
      extra: h("div", { class: "table-extra" }),
      end: h("div", { class: "end-screen", hidden: true }),
      bar: h("div", { class: "htl-bar" }),
    });
    this.board = new HexBoard(e.boardHost, {
      label: t("table.boardLabel", { game: t("names.holdtheline.title") }),
      onHex: (at) => this.clickHex(at),
    });
    this.resignBtn = h("button", { type: "button", class: "btn danger", onclick: () => this.resign() }, t("table.resign"));
    mount(this.root, h("div", { class: "table-page htl-page", dataset: { game: "holdtheline" } },
      h("div", { class: "table-top" }, e.title, e.banner, this.playback.el),
      h("div", { class: "htl-grid" },
        h("section", { class: "htl-board-area", "aria-label": t("table.board") }, e.boardHost, e.prompt, e.menu),
        h("div", { class: "htl-side" },
          e.bar, e.extra, e.actions, e.tracks, e.dice,
          h("section", { class: "log-panel panel", "aria-label": t("table.gameLog") }, h("h2", {}, t("table.gameLog")), e.log),
          h("details", { class: "panel htl-legend-panel" }, h("summary", {}, t("htl.mapKey")), e.legend),
          h("div", { class: "table-actions" }, this.resignBtn, ...this.hintParts(), h("a", { class: "btn", href: "/" }, t("table.lobby")))))),
    e.end);
    // on a phone the bar is fixed at the foot of the screen; the prompt and menu sit above it
    new ResizeObserver(() => this.root.style.setProperty("--dock-h", `${e.bar.offsetHeight}px`)).observe(e.bar);
    this.keyHandler = (ev) => {
      if (ev.key === "Escape") this.deselect();
    };
    document.addEventListener("keydown", this.keyHandler);
    document.title = t("table.title", { name: t("names.holdtheline.title") });
  }

  modeLabel() {
    return this.offline ? t("htl.fixture") : super.modeLabel();
  }

  spectating() {
    const st = this.current();
    return st?.seat === null || st?.seat === undefined;
  }

  // ------------------------------------------------------------------ the server

  /** The state on screen: in hot-seat games, the seat that is to decide. */
  current() {
    if (this.hotseat) {
      const acting = [0, 1].find((s) => this.states[s]?.legal?.length);
      const newest = [this.states[0], this.states[1]].filter(Boolean)
        .sort((a, b) => b.version - a.version)[0];
      return acting !== undefined && this.states[acting].version >= (newest?.version ?? 0)
        ? this.states[acting] : newest;
    }
    const keys = Object.keys(this.states);
    return this.states[keys[0]];
  }

  socket() {
    const msg = this.current();
    if (this.offline || !msg) return null;
    return this.sockets[msg.seat ?? "spectator"];
  }

  received(k, msg, fresh) {
    if (!fresh) return;
    this.busy = false;
    this.menu = null;
    // keep the selection while the unit can still act
    if (this.sel && !this.items(msg).some((it) => actorOf(it.a) === this.sel)) this.sel = null;
  }

  send(action) {
    const msg = this.current();
    this.menu = null;
    if (this.offline) {
      toast(`(fixture) ${actionText(msg.view, action)}`);
      this.sel = null;
      this.render();
      return;
    }
    const sock = this.socket();
    if (!sock) return;
    this.busy = true;
    sock.version = msg.version;
    sock.play(action);
    this.sel = null;
    this.render();
  }

  undo() {
    const msg = this.current();
    if (this.offline) {
      toast("(fixture) undo");
      return;
    }
    const sock = this.socket();
    if (!sock) return;
    this.busy = true;
    this.sel = null;
    this.menu = null;
    sock.send({ type: "undo", version: msg.version, request_id: uuid() });
    this.render();
  }

  // ------------------------------------------------------------------ what may be played

  items(msg = this.current()) {
    const legal = msg?.legal || [];
    const hints = msg?.hints || [];
    return legal.map((a, i) => ({ a, hint: hints[i] || {}, i }));
  }

  /** Actor keys ("u:ID", "l:ID") with at least one activation. */
  actors(items) {
    return new Set(items.map((it) => actorOf(it.a)).filter(Boolean));
  }

  optionsOf(items, key) {
    if (!key) return [];
    const [kind, id] = [key.slice(0, 1), key.slice(2)];
    return items.filter((it) => actorOf(it.a) === key || (kind === "u" && it.a.type === "rally" && it.a.unit === id));
  }

  selHex(view) {
    if (!this.sel) return null;
    const id = this.sel.slice(2);
    return (this.sel[0] === "u" ? unitById(view, id) : leaderById(view, id))?.at || null;
  }

  overlay(msg, items) {
    const view = msg.view;
    const decisions = items.filter((it) => DECISION_TYPES.has(it.a.type));
    const o = { canAct: this.busy ? new Set() : this.actors(items), selected: this.sel, selectedHex: this.selHex(view) };
    // the other side's plays since this screen's last one, else the last decision
    o.last = (this.marks.length ? this.marks : [{ msg, action: msg.last?.action, before: null }])
      .map((m) => ({ ...lastMark(m.msg.view, m.action, m.before?.view), now: this.isNow(m) }))
      .filter((m) => m.path || m.target);
    if (view.pending?.target) o.pendingTarget = view.pending.target;
    if (this.busy) return o;
    if (decisions.length) {
      o.choices = decisions.filter((it) => it.a.to).map((it) => ({
        at: it.a.to, label: actionText(view, it.a, it.hint), short: it.a.type,
      }));
      o.choosableUnits = new Set(decisions.filter((it) => it.a.type === "allocate").map((it) => it.a.unit));
      return o;
    }
    const mine = this.optionsOf(items, this.sel);
    const from = o.selectedHex;
    const dest = new Map();
    const targets = new Map();
    const rallies = new Map();
    for (const it of mine) {
      const { a, hint } = it;
      if (a.type === "move" && actorOf(a) === this.sel) {
        const at = actionHex(a, hint);
        const k = hexKey(at);
        if (!dest.has(k)) dest.set(k, { at, items: [], path: a.path, from });
        dest.get(k).items.push(it);
      } else if (a.type === "fire" || a.type === "assault") {
        const k = hexKey(a.target);
        if (!targets.has(k)) targets.set(k, { at: a.target, items: [], from });
        targets.get(k).items.push(it);
      } else if (a.type === "rally") {
        const unit = unitById(view, a.unit);
        if (unit) {
          const k = hexKey(unit.at);
          if (!rallies.has(k)) rallies.set(k, { at: unit.at, items: [] });
          rallies.get(k).items.push(it);
        }
      }
    }
    o.destinations = [...dest.values()].map((d) => {
      const aps = d.items.map((it) => it.hint.ap ?? 1);
      const lo = Math.min(...aps);
      const hi = Math.max(...aps);
      return { ...d, multi: d.items.length > 1, apText: lo === hi ? apText(lo) : apText(`${lo}–${hi}`),
        label: d.items.length === 1 ? actionText(view, d.items[0].a, d.items[0].hint)
          : t("htl.waysToMove", { n: d.items.length, at: hexText(d.at) }) };
    });
    o.targets = [...targets.values()].map((tg) => {
      const fire = tg.items.find((it) => it.a.type === "fire") || tg.items[0];
      const hint = fire.hint || {};
      const kind = fire.a.type;
      const noHit = cannotHit(hint);
      const text = noHit ? t("htl.cannotHit") : hint.hit_on !== undefined
        ? `${kind === "assault" ? "⚔ " : ""}${hitText(hint.hit_on)} ×${hint.dice ?? "?"}` : kind === "assault" ? "⚔" : t("htl.fire");
      return { ...tg, kind: noHit ? `${kind} no-hit` : kind, los: hint.los, text,
        label: tg.items.map((it) => actionText(view, it.a, it.hint)).join("; ") };
    });
    o.rallies = [...rallies.values()].map((r) => ({ ...r,
      label: r.items.map((it) => actionText(view, it.a, it.hint)).join("; ") }));
    return o;
  }

  // ------------------------------------------------------------------ input

  clickHex(at) {
    const msg = this.current();
    if (!msg || this.busy) return;
    const view = msg.view;
    const items = this.items(msg);
    const decisions = items.filter((it) => DECISION_TYPES.has(it.a.type));
    if (decisions.length) {
      const hit = decisions.filter((it) => (it.a.to && sameHex(it.a.to, at))
        || (it.a.type === "allocate" && sameHex(unitById(view, it.a.unit)?.at, at)));
      if (hit.length === 1) this.send(hit[0].a);
      else if (hit.length > 1) this.openMenu(at, hit);
      return;
    }
    if (this.menu) {
      this.menu = null;
      this.render();
      return;
    }
    if (this.sel) {
      const here = this.optionsOf(items, this.sel).filter((it) => {
        const { a, hint } = it;
        if (a.type === "move") return actorOf(a) === this.sel && sameHex(actionHex(a, hint), at);
        if (a.type === "fire" || a.type === "assault") return sameHex(a.target, at);
        if (a.type === "rally") return sameHex(unitById(view, a.unit)?.at, at);
        return false;
      });
      if (here.length === 1) return this.send(here[0].a);
      if (here.length > 1) return this.openMenu(at, here);
    }
    // select (or cycle through) the actors in this hex
    const actors = this.actors(items);
    const inHex = [
      ...(view.units || []).filter((u) => sameHex(u.at, at)).map((u) => `u:${u.id}`),
      ...(view.leaders || []).filter((l) => sameHex(l.at, at)).map((l) => `l:${l.id}`),
    ].filter((k) => actors.has(k));
    if (!inHex.length) {
      this.deselect();
      return;
    }
    const i = inHex.indexOf(this.sel);
    this.sel = inHex[(i + 1) % inHex.length];
    this.render();
  }

  select(key) {
    this.sel = key;
    this.menu = null;
    this.render();
    const at = this.selHex(this.current().view);
    if (at) this.board.reveal(at);
  }

  deselect() {
    if (!this.sel && !this.menu) return;
    this.sel = null;
    this.menu = null;
    this.render();
  }

  openMenu(at, items) {
    this.menu = { at, items };
    this.render();
  }

  // ------------------------------------------------------------------ drawing

  render() {
    const msg = this.current();
    if (!msg) return;
    const view = msg.view;
    const items = this.items(msg);
    const seat = msg.seat;
    const over = msg.status === "over" || !!view.result;
    const mine = !over && items.length > 0;
    this.root.dataset.version = msg.version;
    this.root.dataset.busy = String(this.busy);
    this.root.dataset.mine = String(mine);
    this.root.dataset.phase = over ? "over" : view.pending ? `pending-${view.pending.kind}` : "play";

    if (!this.zoomSet) {
      this.zoomSet = true;
      // a player sees the board from their own home edge; a phone held upright gets the
      // board turned a quarter, so that a wide board fills the screen's height
      if (seat === 1 && !this.hotseat && (view.home_edges?.[1] || []).includes("north")) this.board.flipped = true;
      this.board.fitPhone(view);
    }
    mount(this.el.title, ...gameTitle(view, this.modeLabel()));

    this.board.render(view, this.overlay(msg, items));
    if (this.fresh) {
      const before = this.drawnView;
      playEvents(this.board, before, newEvents(before, view),
        { motion: !reducedMotion() && this.step > 0, ms: PACES[this.playback.pace] * 0.7 });
    }
    if (this.fresh || !this.drawnView) this.drawnView = view;
    this.renderBanner(this.bannerText(msg, mine, over), { mine, over,
      cls: `c-${view.to_move >= 0 ? sideColour(view, view.to_move) : ""}`,
      spinner: this.thinking !== null && !over });
    renderTracks(this.el.tracks, view, msg, this.hotseat);
    this.renderActions(msg, items, mine);
    renderDice(this.el.dice, view, msg);
    this.renderFollowedLog(msg);
    this.renderMenu(msg);
    this.renderPrompt(msg, items, mine);
    this.renderExtra(msg, over,
      t("htl.inviteText", { side: sideTitle(msg.view, 1 - msg.seat) }), true);
    if (!this.el.legend.firstChild) mount(this.el.legend, legend(view));
    this.resignBtn.hidden = over || this.offline || (seat === null && !this.hotseat);
    this.renderHint(msg, mine && !this.offline, over);
    this.setTitle(mine, over, t("names.holdtheline.title"));
    this.endOnce(over, msg, 400);
  }

  /** The log, the events of the other side's last plays marked (the one followed now
   * highlighted), and the newest play said beside the banner. */
  renderFollowedLog(msg) {
    const view = msg.view;
    if (!view.events) {
      renderLog(this.el.log, (msg.log || []).map((text) => ({ text })), "htl-log");
      return;
    }
    const eventClass = new Map();
    for (const m of this.marks.filter((mark) => mark.before)) {
      for (const e of newEvents(m.before.view, m.msg.view)) eventClass.set(e.n, this.isNow(m) ? "log-now" : "log-recent");
    }
    renderLog(this.el.log, eventLines(view).map((line) => (eventClass.has(line.n) && line.cls !== "log-turn"
      ? { ...line, cls: [line.cls, eventClass.get(line.n)].filter(Boolean).join(" ") } : line)), "htl-log");
    const newest = this.marks[this.marks.length - 1];
    this.playback.say(newest?.before ? newEvents(newest.before.view, newest.msg.view)
      .filter((e) => e.type !== "die" && e.type !== "hits").map(eventText).join(" · ") : "");
  }

  seatLabel(view, s) {
    const ai = /^ai/.test(this.players[s] || "");
    return ai ? t("table.aiSeat", { who: sideTitle(view, s) }) : sideTitle(view, s);
  }

  bannerText(msg, mine, over) {
    const view = msg.view;
    const toMove = view.to_move;
    let text;
    if (over) {
      text = endBanner(msg.end);
    } else if (this.thinking !== null && this.thinking !== undefined) {
      text = t("table.thinking", { who: this.seatLabel(view, this.thinking) });
    } else if (mine) {
      const side = this.hotseat ? t("htl.pending.who", { side: sideTitle(view, toMove) }) : "";
      const d = decisionPrompt(view, msg.legal, true);
      text = side + (d || t("htl.yourTurn", { ap: view.ap }));
    } else if (toMove === null || toMove === undefined || toMove < 0) {
      text = t("htl.rolling");
    } else if (view.phase === "assign") {
      text = t("htl.assigning", { who: this.seatLabel(view, toMove) });
    } else {
      const d = decisionPrompt(view, [], false);
      text = d || t(view.active === toMove ? "htl.toPlayAp" : "htl.toDecide", { who: this.seatLabel(view, toMove), ap: view.ap });
    }
    return text;
  }

  renderActions(msg, items, mine) {
    const view = msg.view;
    const parts = [];
    const decisions = items.filter((it) => DECISION_TYPES.has(it.a.type));
    const endItem = items.find((it) => it.a.type === "end");
    const canUndo = !!msg.undo && !this.busy;
    const undoBtn = msg.undo !== undefined || this.offline
      ? h("button", { type: "button", class: "btn htl-undo", disabled: !canUndo, onclick: () => this.undo(),
        title: t(canUndo ? "htl.undoTitle" : "htl.undoNone") },
      t("htl.undo")) : null;
    const endBtn = endItem ? h("button", { type: "button", class: `btn htl-end${view.ap === 0 ? " primary" : ""}`,
      disabled: this.busy, onclick: () => {
        if (view.ap > 0 && this.actors(items).size && !confirm(t("htl.endConfirm", { ap: view.ap }))) return;
        this.send(endItem.a);
      } }, t("htl.endTurn")) : null;
    // the bar: what matters now, kept at hand on a phone
    const cancelBtn = mine && this.sel ? h("button", { type: "button", class: "btn", onclick: () => this.deselect() },
      t("common.cancel")) : null;
    mount(this.el.bar, h("div", { class: "htl-bar-text" }, this.barText(msg, items, mine)),
      h("div", { class: "htl-bar-buttons" }, cancelBtn, undoBtn, endBtn));
    this.el.bar.hidden = !mine && !msg.undo;

    if (!mine) {
      parts.push(h("h2", {}, t("htl.actions")),
        h("p", { class: "muted" }, t(msg.status === "over" ? "htl.isOver"
          : msg.seat === null && !this.hotseat ? "htl.watching" : "htl.waitingOther")));
    } else if (decisions.length) {
      parts.push(h("h2", {}, decisionPrompt(view, msg.legal, true) || t("htl.decide")),
        h("div", { class: "htl-options" }, decisions.map((it) => h("button", {
          type: "button", class: "btn option", onclick: () => this.send(it.a),
        }, actionText(view, it.a, it.hint)))));
    } else if (this.sel) {
      parts.push(this.selectedCard(view, items));
    } else {
      const actors = [...this.actors(items)];
      parts.push(h("h2", {}, t("htl.yourTurn", { ap: view.ap })),
        h("p", { class: "hint" }, actors.length ? t("htl.hintActors", { tap: tapOrClick(true) })
          : t("htl.hintNoActors")),
        h("div", { class: "htl-actor-list" }, actors.map((k) => this.actorButton(view, k))));
    }
    mount(this.el.actions, ...parts);
  }

  barText(msg, items, mine) {
    const view = msg.view;
    if (!mine) return msg.undo ? t("htl.mayUndo") : "";
    if (items.some((it) => DECISION_TYPES.has(it.a.type))) return decisionPrompt(view, msg.legal, true);
    if (this.sel) {
      const id = this.sel.slice(2);
      const name = this.sel[0] === "u" ? unitLabel(view, id) : leaderName(view, id);
      return t("htl.barSelected", { name, ap: view.ap });
    }
    return t("htl.barIdle", { ap: view.ap });
  }

  actorButton(view, key) {
    const id = key.slice(2);
    const isUnit = key[0] === "u";
    const u = isUnit ? unitById(view, id) : leaderById(view, id);
    const label = isUnit ? `${id} · ${KINDS[u?.kind]?.title || u?.kind} · ${t("htl.mp", { n: u?.mp })}` : `★ ${leaderName(view, id)}`;
    return h("button", { type: "button", class: `btn small actor c-${sideColour(view, u?.side ?? 0)}`,
      dataset: { actor: key }, onclick: () => this.select(key) }, label, h("span", { class: "muted" }, ` @${hexText(u?.at)}`));
  }

  selectedCard(view, items) {
    const id = this.sel.slice(2);
    const isUnit = this.sel[0] === "u";
    const opts = this.optionsOf(items, this.sel);
    const u = isUnit ? unitById(view, id) : leaderById(view, id);
    const terrain = (view.terrain || []).find((tr) => sameHex(tr.at, u?.at))?.terrain || "clear";
    const head = isUnit
      ? h("div", { class: "sel-head" },
        h("strong", {}, `${KINDS[u.kind]?.title || u.kind} ${u.id}`),
        h("span", { class: "mp-pill" }, t("htl.mp", { n: u.mp }), u.start_mp && u.start_mp !== u.mp ? t("htl.mpOf", { n: u.start_mp }) : ""),
        h("span", { class: "muted" }, t("htl.unitAt", { at: hexText(u.at), terrain: TERRAIN[terrain]?.title || terrain })))
      : h("div", { class: "sel-head" }, h("strong", {}, `★ ${localName(u.name)}`),
        h("span", { class: "muted" }, t("htl.leaderAt", { at: hexText(u.at) }) + (u.rating ? t("htl.rating", { rating: u.rating.join("/") }) : "")));
    const groups = [["move", (it) => it.a.type === "move"], ["fire", (it) => it.a.type === "fire"],
      ["assault", (it) => it.a.type === "assault"], ["rally", (it) => it.a.type === "rally"]];
    const lists = groups.map(([kind, f]) => {
      // attacks that cannot hit come last, marked
      const list = opts.filter(f).sort((a, b) => cannotHit(a.hint) - cannotHit(b.hint));
      if (!list.length) return null;
      const buttons = h("div", { class: "htl-options" }, list.map((it) => h("button", {
        type: "button", class: `btn option ${it.a.type}${cannotHit(it.hint) ? " cannot-hit" : ""}`,
        onclick: () => this.send(it.a),
      }, actionText(view, it.a, it.hint))));
      if (kind === "move" && list.length > 4) {
        // many destinations: the green hexes say it all; the list stays at hand, folded
        return h("details", { class: "opt-group" },
          h("summary", {}, h("h3", {}, t("htl.moveWays", { n: list.length }))), buttons);
      }
      return h("div", { class: "opt-group" }, h("h3", {}, t(`htl.group.${kind}`)), buttons);
    });
    return h("div", { class: "selected-card" }, head,
      h("p", { class: "hint" }, t("htl.selectedHint")),
      lists,
      h("button", { type: "button", class: "btn small ghost", onclick: () => this.deselect() }, t("htl.cancelEsc")));
  }

  renderMenu(msg) {
    const m = this.menu;
    if (!m) {
      this.el.menu.hidden = true;
      return;
    }
    const view = msg.view;
    mount(this.el.menu, h("div", { class: "htl-menu-card", role: "dialog", "aria-label": t("htl.chooseAt", { at: hexText(m.at) }) },
      h("h3", {}, t("htl.menuAt", { at: hexText(m.at) })),
      m.items.map((it) => h("button", { type: "button", class: "btn option", onclick: () => this.send(it.a) },
        actionText(view, it.a, it.hint))),
      h("button", { type: "button", class: "btn small ghost", onclick: () => {
        this.menu = null;
        this.render();
      } }, t("common.cancel"))));
    this.el.menu.hidden = false;
    this.el.menu.querySelector("button")?.focus();
  }

  renderPrompt(msg, items, mine) {
    const view = msg.view;
    const decisions = items.filter((it) => DECISION_TYPES.has(it.a.type));
    const el = this.el.prompt;
    if (this.busy || msg.status === "over") {
      el.hidden = true;
      return;
    }
    if (mine && decisions.length) {
      const buttons = decisions.filter((it) => ["advance", "allocate", "assign_ratings"].includes(it.a.type));
      mount(el, h("strong", {}, decisionPrompt(view, msg.legal, true)),
        buttons.length ? h("div", { class: "prompt-buttons" }, buttons.map((it) => h("button", {
          type: "button", class: `btn ${it.a.yes ? "primary" : ""}`, onclick: () => this.send(it.a),
        }, actionText(view, it.a, it.hint)))) : h("span", { class: "muted" }, t("htl.clickHex", { tap: tapOrClick() })));
      el.hidden = false;
      el.className = "htl-prompt mine";
      return;
    }
    if (!mine && view.phase === "assign") {
      mount(el, h("span", {}, t("htl.assigningNow", { who: this.seatLabel(view, view.to_move) })));
      el.hidden = false;
      el.className = "htl-prompt theirs";
      return;
    }
    if (!mine && view.pending && view.to_move !== view.active && view.to_move >= 0) {
      const what = view.pending.kind === "retreat" ? t("htl.decidingRetreat") : view.pending.kind || t("htl.decidingChoice");
      mount(el, h("span", {}, t("htl.deciding", { who: this.seatLabel(view, view.to_move), what })));
      el.hidden = false;
      el.className = "htl-prompt theirs";
      return;
    }
    el.hidden = true;
  }

  /** The links to this game's replay (none for the fixture). */
  replayLinks() {
    return this.offline ? null : super.replayLinks();
  }

  showEnd(msg) {
    const view = msg.view;
    const you = this.hotseat ? null : msg.seat;
    const result = msg.result?.summary || msg.result || view.result;
    const winner = msg.result?.abandoned ? (msg.result.by === null ? null : 1 - msg.result.by) : result?.winner;
    const mine = you !== null && you !== undefined;
    // the end's words are the server's: a hot seat reads them as a spectator would
    this.endDialog({
      title: endSaid(mine ? msg.end?.title : msg.end?.outcome), reason: endSaid(msg.end?.reason),
      cls: !mine || winner === null || winner === undefined ? "" : winner === you ? "win" : "loss",
      needs: winNeeds(view, (msg.result?.summary || msg.result || view.result)?.vp || view.vp || []),
      columns: [t("end.htl.vpColumn"), t("end.htl.vpNeeded"), t("end.htl.unitsLeft")],
      rows: [0, 1].map((s) => ({ chip: `c-${sideColour(view, s)}`, name: sideTitle(view, s),
        cells: [view.vp?.[s] ?? 0, view.vp_target?.[s] ?? "–",
          (view.units || []).filter((u) => u.side === s && u.at).length] })),
      buttons: [nextBattleLink(msg, this.id)
        || h("a", { class: "btn primary", href: "/" }, t("common.navNewGame")), this.replayLinks()],
    });
  }
}

/** What each side needed to win and what it had (`vp`: both sides' VP at the end). */
function winNeeds(view, vp) {
  const lines = [0, 1].filter((s) => view.vp_target?.[s])
    .map((s) => t("end.htl.needed", { side: sideTitle(view, s), target: view.vp_target[s], vp: vp[s] ?? 0 }));
  const limit = view.turn_limit;
  const w = view.time_out_winner;
  if (view.time_out_by_vp) lines.push(t("end.htl.moreVpWins", { turn: limit }));
  else if (w !== null && w !== undefined) {
    lines.push(t("end.htl.holdOut", { side: sideTitle(view, w), turn: limit }));
  }
  return lines;
}
