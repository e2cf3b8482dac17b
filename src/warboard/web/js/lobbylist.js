// The lobby's live part: the open games waiting for an opponent (take one), the games being
// played (watch one), and the computer's levels, polled from GET /api/lobby with its ETag so
// an unchanged listing costs a 304. Names are put on the page as text, never as markup.

import { api, lobbyListing } from "./api.js";
import { h, mount } from "./dom.js";
import { getPlayer, rememberGame } from "./store.js";
import { seatName } from "./units.js";

const POLL_MS = 3000;
const TITLES = { hill218: "Hill 218", ogre218: "Ogre 218", holdtheline: "Hold the Line" };
const LEVEL_NAMES = { easy: "Easy", medium: "Medium", hard: "Hard", expert: "Expert" };

const title = (g) => `${TITLES[g.game] || g.game}${g.options?.scenario ? ` · ${g.options.scenario}` : ""}`;
const terms = (g) => [g.rated ? "rated" : "casual", g.clock ? "clock" : null].filter(Boolean).join(" · ");

/** The three lists, kept current while the page is open; `playComputer(level)` chooses the
 * computer at that level in the new-game form. */
export function lobbyLists(playComputer) {
  const open = h("div", { class: "open-games", "aria-live": "polite" }, h("p", { class: "muted" }, "Loading…"));
  const live = h("div", { class: "live-games", "aria-live": "polite" });
  const computer = h("div", { class: "computer-levels" });
  const el = h("div", { class: "lobby-lists" },
    h("section", { class: "panel", "aria-labelledby": "open-h" }, h("h2", { id: "open-h" }, "Open games"), open),
    h("section", { class: "panel", "aria-labelledby": "live-h" }, h("h2", { id: "live-h" }, "Live games"), live),
    h("section", { class: "panel", "aria-labelledby": "computer-h" },
      h("h2", { id: "computer-h" }, "The computer"), h("p", { class: "hint" }, "Always there to play."), computer));
  let etag = null;
  const poll = async () => {
    try {
      const answer = await lobbyListing(etag);
      if (answer) {
        etag = answer.etag;
        showOpen(open, answer.listing.open);
        showLive(live, answer.listing.live);
        mount(computer, h("ul", { class: "level-list" }, answer.listing.computer.map((level) => h("li", {},
          h("button", { type: "button", class: "btn small", onclick: () => playComputer(level) },
            `Play ${LEVEL_NAMES[level] || level}`)))));
      }
    } catch (e) {
      mount(open, h("p", { class: "form-error" }, `Could not load the lobby: ${e.message}`));
    }
    setTimeout(poll, document.hidden ? 4 * POLL_MS : POLL_MS);
  };
  poll();
  return el;
}

function showOpen(el, games) {
  if (!games.length) {
    mount(el, h("p", { class: "muted" }, "No open game now: post one."));
    return;
  }
  const me = getPlayer();
  mount(el, h("ul", { class: "game-list" }, games.map((g) => h("li", { class: "game-row open", dataset: { id: g.id } },
    h("div", { class: "game-row-main" }, h("strong", {}, title(g)),
      h("span", { class: "muted" }, ` · ${g.poster} · you play ${seatName(g.seat)} · ${terms(g)}`)),
    h("div", { class: "game-row-actions" }, me && me.name === g.poster
      ? h("span", { class: "muted" }, "yours: waiting")
      : h("button", { type: "button", class: "btn small primary take", disabled: !me,
        title: me ? "" : "Sign in to play", onclick: (ev) => take(ev.target, g) }, me ? "Take" : "Sign in to take"))))));
}

async function take(button, g) {
  button.disabled = true;
  try {
    const res = await api.take(g.id);
    rememberGame(res.id, { game: res.game, mode: res.mode, seat: res.seat, token: res.token,
      created: new Date().toISOString() });
    location.assign(`/play/${encodeURIComponent(res.id)}`);
  } catch (e) {
    button.textContent = e.status === 409 ? "Taken" : "Failed";
    button.title = e.message;
  }
}

function showLive(el, games) {
  if (!games.length) {
    mount(el, h("p", { class: "muted" }, "Nobody is playing in the lobby now."));
    return;
  }
  mount(el, h("ul", { class: "game-list" }, games.map((g) => h("li", { class: "game-row live", dataset: { id: g.id } },
    h("div", { class: "game-row-main" }, h("strong", {}, title(g)),
      h("span", { class: "muted" }, ` · ${g.players[0] || "?"} vs ${g.players[1] || "?"} · ${terms(g)}`),
      h("div", { class: "muted watchers" }, `${g.spectators} watching`)),
    h("div", { class: "game-row-actions" },
      h("a", { class: "btn small watch", href: `/play/${encodeURIComponent(g.id)}` }, "Watch"))))));
}
