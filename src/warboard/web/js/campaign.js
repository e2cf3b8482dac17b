// A campaign game's panel (docs/server-api.md#campaigns): which battle of the campaign this
// is, the VP each side has banked so far, and once the battle is over the "Next battle" link
// (the same seat key holds the next battle's seat) or the campaign's result.

import { h } from "./dom.js";
import { campaignTitle, sideName } from "./htl/names.js";
import { t } from "./i18n.js";
import { getGame, rememberGame } from "./store.js";

function totalsText(progress) {
  return Object.entries(progress.totals || {}).map(([side, vp]) => t("campaign.sideVp", { side: sideName(side), vp }))
    .join(t("common.listSep"));
}

/** The panel of `msg.campaign` (null when the game is no campaign's); `gameId`: this game. */
export function campaignPanel(msg, gameId) {
  const c = msg.campaign;
  if (!c) return null;
  const p = c.progress || {};
  const battles = p.campaign?.battles || [];
  const title = campaignTitle(p.campaign?.name, p.campaign?.title || c.name);
  const parts = [h("strong", {}, t("campaign.battleOf", { title, n: c.index + 1, of: battles.length || c.games.length })),
    h("span", { class: "campaign-totals" }, t("campaign.banked", { totals: totalsText(p) }))];
  if (c.next_game) {
    parts.push(" ", nextBattleLink(msg, gameId));
  } else if (p.over) {
    parts.push(" ", h("strong", { class: "campaign-result" },
      p.winner ? t("campaign.overWin", { side: sideName(p.winner) }) : t("campaign.overDraw")));
  }
  return h("div", { class: "campaign panel", "aria-live": "polite" }, ...parts);
}

/** The "Next battle" link of a finished campaign battle (null for any other game). */
export function nextBattleLink(msg, gameId) {
  const next = msg.campaign?.next_game;
  if (!next) return null;
  return h("a", { class: "btn primary next-battle", href: `/play/${encodeURIComponent(next)}`,
    onclick: () => {
      // the next battle is played with this battle's seat key
      const entry = getGame(gameId);
      if (entry) rememberGame(next, { ...entry, created: new Date().toISOString() });
    } }, t("campaign.nextBattle"));
}
