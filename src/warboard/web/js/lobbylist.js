// The lobby's live part: the open games waiting for an opponent (take one), the games being
// played (watch one), and the computer's levels, polled from GET /api/lobby with its ETag so
// an unchanged listing costs a 304. Names are put on the page as text, never as markup.

import { api, lobbyListing } from "./api.js";
import { h, mount } from "./dom.js";
import { scenarioTitle } from "./htl/names.js";
import { hasKey, t } from "./i18n.js";
import { getPlayer, rememberGame } from "./store.js";
import { seatName } from "./units.js";

const POLL_MS = 3000;

const gameName = (game) => (hasKey(`names.${game}.short`) ? t(`names.${game}.short`) : game);
const title = (g) => `${gameName(g.game)}${g.options?.scenario ? ` · ${scenarioTitle(g.options.scenario, g.options.scenario)}` : ""}`;
const terms = (g) => [t(g.rated ? "lobby.termRated" : "lobby.termCasual"), g.clock ? t("lobby.termClock") : null]
  .filter(Boolean).join(" · ");

/** The three lists, kept current while the page is open; `playComputer(level)` chooses the
 * computer at that level in the new-game form. */
export function lobbyLists(playComputer, onLevels = null) {
  const open = h("div", { class: "open-games", "aria-live": "polite" }, h("p", { class: "muted" }, t("common.loading")));
  const live = h("div", { class: "live-games", "aria-live": "polite" });
  const computer = h("div", { class: "computer-levels" });
  const el = h("div", { class: "lobby-lists" },
    h("section", { class: "panel", "aria-labelledby": "open-h" }, h("h2", { id: "open-h" }, t("lobby.openGames")), open),
    h("section", { class: "panel", "aria-labelledby": "live-h" }, h("h2", { id: "live-h" }, t("lobby.liveGames")), live),
    h("section", { class: "panel", "aria-labelledby": "computer-h" },
      h("h2", { id: "computer-h" }, t("lobby.computer")), h("p", { class: "hint" }, t("lobby.alwaysThere")), computer));
  let etag = null;
  const poll = async () => {
    try {
      const answer = await lobbyListing(etag);
      if (answer) {
        etag = answer.etag;
        showOpen(open, answer.listing.open);
        showLive(live, answer.listing.live);
        onLevels?.(answer.listing.computer_levels);
        mount(computer, h("ul", { class: "level-list" }, answer.listing.computer.map((level) => h("li", {},
          h("button", { type: "button", class: "btn small", onclick: () => playComputer(level) },
            t("lobby.playLevel", { level: hasKey(`lobby.levelName.${level}`) ? t(`lobby.levelName.${level}`) : level }))))));
      }
    } catch (e) {
      mount(open, h("p", { class: "form-error" }, t("lobby.lobbyFailed", { reason: e.message })));
    }
    setTimeout(poll, document.hidden ? 4 * POLL_MS : POLL_MS);
  };
  poll();
  return el;
}

function showOpen(el, games) {
  if (!games.length) {
    mount(el, h("p", { class: "muted" }, t("lobby.noOpen")));
    return;
  }
  const me = getPlayer();
  mount(el, h("ul", { class: "game-list" }, games.map((g) => h("li", { class: "game-row open", dataset: { id: g.id } },
    h("div", { class: "game-row-main" }, h("strong", {}, title(g)),
      h("span", { class: "muted" }, ` · ${g.poster} · ${t("lobby.youPlay", { who: seatName(g.seat) })} · ${terms(g)}`)),
    h("div", { class: "game-row-actions" }, me && me.name === g.poster
      ? h("span", { class: "muted" }, t("lobby.yoursWaiting"))
      : h("button", { type: "button", class: "btn small primary take", disabled: !me,
        title: me ? "" : t("lobby.signInToPlay"), onclick: (ev) => take(ev.target, g) }, t(me ? "lobby.take" : "lobby.signInToTake")))))));
}

async function take(button, g) {
  button.disabled = true;
  try {
    const res = await api.take(g.id);
    rememberGame(res.id, { game: res.game, mode: res.mode, seat: res.seat, token: res.token,
      created: new Date().toISOString() });
    location.assign(`/play/${encodeURIComponent(res.id)}`);
  } catch (e) {
    button.textContent = t(e.status === 409 ? "lobby.taken" : "lobby.failed");
    button.title = e.message;
  }
}

function showLive(el, games) {
  if (!games.length) {
    mount(el, h("p", { class: "muted" }, t("lobby.nobodyPlaying")));
    return;
  }
  mount(el, h("ul", { class: "game-list" }, games.map((g) => h("li", { class: "game-row live", dataset: { id: g.id } },
    h("div", { class: "game-row-main" }, h("strong", {}, title(g)),
      h("span", { class: "muted" }, ` · ${t("lobby.versus", { a: g.players[0] || "?", b: g.players[1] || "?" })} · ${terms(g)}`),
      h("div", { class: "muted watchers" }, t("lobby.watching", { n: g.spectators }))),
    h("div", { class: "game-row-actions" },
      h("a", { class: "btn small watch", href: `/play/${encodeURIComponent(g.id)}` }, t("lobby.watch")))))));
}
