// The rules page at /rules: both games in brief (from docs/playing.md and the rules contract),
// with each unit's attack diagram.

import { h, mount } from "./dom.js";
import { attackDiagram } from "./diagram.js";
import { loadRuleset } from "./units.js";

const sq = (cells) => {
  const key = cells.map(([x, y]) => `${x},${y}`).sort().join(" ");
  const names = {
    "-1,0 0,-1 0,1 1,0": "4 orthogonal",
    "-1,-1 -1,1 1,-1 1,1": "4 diagonal",
    "-1,-1 -1,0 -1,1 0,-1 0,1 1,-1 1,0 1,1": "all 8",
    "-1,2 0,2 0,3 1,2": "3 and 4 ahead",
  };
  return names[key] || key;
};

function unitTable(rules) {
  const support = rules.supportName === "target" ? "Target squares" : "Support squares";
  // focusable: on a phone it scrolls sideways inside the page, by keys too
  return h("table", { class: "rules-units", tabindex: 0 },
    h("caption", {}, `${rules.title}: the units`),
    h("thead", {}, h("tr", {},
      ["Unit", "Cards", "Attacks", "Needs " + rules.supportName, support,
        rules.name === "ogre218" ? "Supplies" : "Supplied from"].map((t) => h("th", { scope: "col" }, t)))),
    h("tbody", {}, rules.units.map((u) => h("tr", {},
      h("th", { scope: "row" }, h("span", { class: "abbr-tag" }, u.abbrev), " ", u.title),
      h("td", {}, u.count || "—"),
      h("td", { class: "diagram-cell" }, attackDiagram(u, { big: true }),
        h("span", {}, sq(u.attack), u.attacks === 2 ? " ×2" : "")),
      h("td", {}, u.needsSupport ? "yes" : "no"),
      h("td", {}, sq(u.support)),
      h("td", {}, sq(u.supply), u.drop ? ", or drops" : "")))));
}

export async function showRules(root) {
  document.title = "Rules — warboard";
  let hill;
  let ogre;
  try {
    [hill, ogre] = await Promise.all([loadRuleset("hill218"), loadRuleset("ogre218")]);
  } catch (e) {
    mount(root, h("div", { class: "notice error" }, h("h1", {}, "The rules cannot be shown"),
      h("p", {}, e.message)));
    return;
  }
  mount(root, h("article", { class: "rules-page panel" },
    h("h1", {}, "How to play"),
    h("p", { class: "lede" }, "Both games are the same card-placement battle: build a supplied line from your ",
      "base, destroy the enemy's cards, and take the enemy base — or hold more of the field when the decks ",
      "run out. This is a summary; the rulebooks and the rules contract are the full text."),
    h("nav", { class: "toc", "aria-label": "On this page" },
      h("a", { href: "#hill218" }, hill.title), " · ", h("a", { href: "#ogre218" }, ogre.title),
      " · ", h("a", { href: "#table" }, "Using the table")),

    h("section", { id: "hill218" },
      h("h2", {}, hill.title),
      h("h3", {}, "The board"),
      h("p", {}, "The grid has no edge. Hill 218 is the cell (0,0); no card is ever played on it. ",
        h("span", { class: "s0-text" }, "South"), " (blue) has its base at (0,−1) and faces up the board; ",
        h("span", { class: "s1-text" }, "North"), " (red) has its base at (0,1) and faces down. ",
        "North's cards are turned half a circle, so every diagram below is drawn from its owner's side: ",
        "up is forward."),
      h("h3", {}, "Cards and setup"),
      h("p", {}, "Each side has a 24-card deck and 2 Air Strikes, which lie face up beside play. ",
        "A random draw decides who plays first. Each side draws 5 cards and puts 2 of them under its deck ",
        "(the second one chosen is drawn last). With ", h("strong", {}, "quick start"),
        " each side just draws 3."),
      h("h3", {}, "A turn"),
      h("p", {}, "Draw 2 cards, then make 2 plays (the first player's very first turn: 1 draw, 1 play). ",
        "A play deploys a unit card or uses an Air Strike. You must play while you have a legal play; ",
        "there is no pass. With no legal play, the rest of the turn is lost."),
      h("h3", {}, "Deploying and supply"),
      h("ul", {},
        h("li", {}, "A unit may always go onto your own base while it is empty."),
        h("li", {}, "Anywhere else, your base must hold one of your units, and the new cell must be ",
          h("em", {}, "supplied"), ": one of your supplied units must stand on a square of the new unit's ",
          "supply diagram (orthogonal for most units, diagonal for Special Forces). A unit cut off from the ",
          "base stays, but supplies nothing until the chain is restored."),
        h("li", {}, "Paratroopers may also ", h("em", {}, "drop"), " without supply onto any empty cell within ",
          "2 cells of the hill and every unit — never onto the enemy base.")),
      h("h3", {}, "Attacks"),
      h("p", {}, "After deploying, a unit must hit one enemy unit on its attack squares if it can. ",
        "Tanks and Artillery hit on their own (solid squares below). The others need ",
        h("em", {}, "support"), ": another of your units already on the board whose support diagram covers ",
        "the target (outlined squares). An attack without support does nothing."),
      unitTable(hill),
      h("h3", {}, "Air Strikes"),
      h("p", {}, "Turn one face down to destroy any one enemy unit on the board. It is a play."),
      h("h3", {}, "Winning"),
      h("p", {}, "Deploying a unit onto the enemy base wins at once. Otherwise the game ends when both decks ",
        "are empty and neither side can play: more units on the board wins; equal counts are a draw.")),

    h("section", { id: "ogre218" },
      h("h2", {}, ogre.title),
      h("p", {}, "The same game with new names: the crater at (0,0), command posts for bases, Cruise ",
        "Missiles instead of Air Strikes and ", h("em", {}, "target"), " squares instead of support. ",
        "Each deck has 26 cards: the six standard units and 2 Ogres."),
      h("ul", {},
        h("li", {}, h("strong", {}, "Supply is pushed. "), "A card may go on a cell in the supply diagram ",
          "of one of your supplied units already on the board (a GEV supplies its 4 diagonal neighbours)."),
        h("li", {}, h("strong", {}, "Ogres. "), "An Ogre takes both plays of a turn: it can only be the ",
          "first play of a 2-play turn, and it ends the turn. It makes 2 attacks, one after the other, each ",
          "on any of its 8 neighbours, and needs no target squares. Both may hit the same cell."),
        h("li", {}, h("strong", {}, "Damaged Ogres. "), "A hit on an Ogre turns it into a Damaged Ogre ",
          "(drawn hatched on the board): its diagrams shrink to the orthogonal ones and it still makes 2 ",
          "attacks. A second hit destroys it. For the final count an Ogre counts 2, a Damaged Ogre 1."),
        h("li", {}, h("strong", {}, "Handicap. "), "A side may start with some of its Ogres already damaged.")),
      unitTable(ogre)),

    h("section", { id: "table" },
      h("h2", {}, "Using the table"),
      h("ol", {},
        h("li", {}, "Choose a card in your hand: the cells where it may go light up in green. ",
          "Hover a green cell to see what it would hit."),
        h("li", {}, "Click a cell. If only one play fits, it is made at once. If the unit could hit ",
          "different enemies, the possible targets are marked with red rings: click them in order."),
        h("li", {}, "For an Air Strike / Cruise Missile, press its button, then click the enemy unit."),
        h("li", {}, "At setup, click two cards in order, then confirm: the first goes under your deck, the ",
          "second under it (drawn last)."),
        h("li", {}, "Drag the board to move it, use the wheel or pinch to zoom, ⤢ to fit, ⇅ to turn it round. ",
          "Escape cancels a choice.")),
      h("p", {}, h("a", { class: "btn primary", href: "/" }, "Start a game")))));
}
