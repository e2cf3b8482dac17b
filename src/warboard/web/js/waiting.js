// The correspondence games waiting for this browser's move (from the seat tokens it keeps,
// js/store.js): a badge in the header, "(n)" in the page title, and, once asked for with a
// click, a browser notification when a new one comes.

import { api } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { allTokens } from "./store.js";

const EVERY_MS = 30000;
const PREFIX = /^\(\d+\) /;

/** The listed games whose correspondence clock runs for the seat this browser holds. */
export function waitingGames(games) {
  return games.filter((g) => g.status === "playing" && g.clock?.kind === "correspondence"
    && g.clock.running === g.seat);
}

export function watchWaiting(header) {
  const badge = h("a", { class: "waiting-badge", href: "/", hidden: true, title: t("common.waitingTitle") });
  const ask = h("button", { type: "button", class: "btn notify-btn", hidden: true,
    onclick: () => Notification.requestPermission().then(() => { ask.hidden = true; }) }, t("common.notifyMe"));
  header.append(badge, ask);
  let count = 0;
  let known = new Set();
  const title = () => {
    const bare = document.title.replace(PREFIX, "");
    const want = count ? `(${count}) ${bare}` : bare;
    if (document.title !== want) document.title = want;
  };
  new MutationObserver(title).observe(document.querySelector("title"), { childList: true });
  const poll = async () => {
    const tokens = allTokens();
    if (tokens.length) {
      try {
        const waiting = waitingGames((await api.games(tokens)).games);
        count = waiting.length;
        const fresh = waiting.filter((g) => !known.has(g.id));
        if (fresh.length && known.size && window.Notification?.permission === "granted") {
          new Notification("warboard", { body: t("common.waitingNotice", { count: fresh.length }) });
        }
        known = new Set(waiting.map((g) => g.id));
      } catch {
        // the server is away: try again next time
      }
    }
    badge.hidden = !count;
    badge.textContent = t("common.waitingBadge", { count });
    ask.hidden = !count || !window.Notification || Notification.permission !== "default";
    title();
  };
  poll();
  setInterval(poll, EVERY_MS);
}
