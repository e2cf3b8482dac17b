// The rules page at /rules: both games in brief (from docs/playing.md and the rules contract),
// with each unit's attack diagram.

import { h, mount } from "./dom.js";
import { attackDiagram } from "./diagram.js";
import { t, tRich } from "./i18n.js";
import { loadRuleset, seatName } from "./units.js";

const sq = (cells) => {
  const key = cells.map(([x, y]) => `${x},${y}`).sort().join(" ");
  const names = {
    "-1,0 0,-1 0,1 1,0": "rules.sq.orth",
    "-1,-1 -1,1 1,-1 1,1": "rules.sq.diag",
    "-1,-1 -1,0 -1,1 0,-1 0,1 1,-1 1,0 1,1": "rules.sq.all8",
    "-1,2 0,2 0,3 1,2": "rules.sq.artillery",
  };
  return names[key] ? t(names[key]) : key;
};

function unitTable(rules) {
  const ogre = rules.name === "ogre218";
  // focusable: on a phone it scrolls sideways inside the page, by keys too
  return h("table", { class: "rules-units", tabindex: 0 },
    h("caption", {}, t("rules.unitsCaption", { game: rules.title })),
    h("thead", {}, h("tr", {},
      [t("rules.col.unit"), t("rules.col.cards"), t("rules.col.attacks"), t("rules.col.needs", { support: rules.supportName }),
        t(ogre ? "rules.col.targetSquares" : "rules.col.supportSquares"),
        t(ogre ? "rules.col.supplies" : "rules.col.suppliedFrom")].map((c) => h("th", { scope: "col" }, c)))),
    h("tbody", {}, rules.units.map((u) => h("tr", {},
      h("th", { scope: "row" }, h("span", { class: "abbr-tag" }, u.abbrev), " ", u.title),
      h("td", {}, u.count || "—"),
      h("td", { class: "diagram-cell" }, attackDiagram(u, { big: true }),
        h("span", {}, sq(u.attack), u.attacks === 2 ? " ×2" : "")),
      h("td", {}, t(u.needsSupport ? "rules.yes" : "rules.no")),
      h("td", {}, sq(u.support)),
      h("td", {}, sq(u.supply), u.drop ? t("rules.orDrops") : "")))));
}

/** A paragraph (or list item: `tag`) of the catalogue's prose `key`. */
const para = (key, tag = "p") => h(tag, {}, tRich(key));

export async function showRules(root) {
  document.title = t("rules.pageTitle");
  let hill;
  let ogre;
  try {
    [hill, ogre] = await Promise.all([loadRuleset("hill218"), loadRuleset("ogre218")]);
  } catch (e) {
    mount(root, h("div", { class: "notice error" }, h("h1", {}, t("rules.cannotShow")),
      h("p", {}, e.message)));
    return;
  }
  mount(root, h("article", { class: "rules-page panel" },
    h("h1", {}, t("lobby.howToPlay")),
    h("p", { class: "lede" }, t("rules.lede")),
    h("nav", { class: "toc", "aria-label": t("rules.onThisPage") },
      h("a", { href: "#hill218" }, hill.title), " · ", h("a", { href: "#ogre218" }, ogre.title),
      " · ", h("a", { href: "#table" }, t("rules.usingTable"))),

    h("section", { id: "hill218" },
      h("h2", {}, hill.title),
      h("h3", {}, t("rules.board")),
      h("p", {}, t("rules.boardText1"), " ",
        h("span", { class: "s0-text" }, seatName(0)), t("rules.boardSouth"), " ",
        h("span", { class: "s1-text" }, seatName(1)), t("rules.boardNorth"), " ", t("rules.boardText2")),
      h("h3", {}, t("rules.setup")),
      para("rules.setupText"),
      h("h3", {}, t("rules.turn")),
      para("rules.turnText"),
      h("h3", {}, t("rules.deploying")),
      h("ul", {}, para("rules.deploy1", "li"), para("rules.deploy2", "li"), para("rules.deploy3", "li")),
      h("h3", {}, t("rules.attacks")),
      para("rules.attacksText"),
      unitTable(hill),
      h("h3", {}, hill.strikesName),
      para("rules.strikeText"),
      h("h3", {}, t("rules.winning")),
      para("rules.winningText")),

    h("section", { id: "ogre218" },
      h("h2", {}, ogre.title),
      para("rules.ogreText"),
      h("ul", {}, para("rules.ogre1", "li"), para("rules.ogre2", "li"), para("rules.ogre3", "li"),
        para("rules.ogre4", "li")),
      unitTable(ogre)),

    h("section", { id: "table" },
      h("h2", {}, t("rules.usingTable")),
      h("ol", {}, ["rules.use1", "rules.use2", "rules.use3", "rules.use4", "rules.use5"].map((k) => para(k, "li"))),
      h("p", {}, h("a", { class: "btn primary", href: "/" }, t("rules.startGame"))))));
}
