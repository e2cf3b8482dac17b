// Players: sign in with a name (/players), move the key to another device (a one-time link
// and its QR code), a player's profile (/players/ID) and the leaderboards (/leaderboard/GAME).
// Names are only ever put on the page as text (h() children), never as markup.

import { api } from "./api.js";
import { copyText, h, mount } from "./dom.js";
import { getPlayer, setPlayer } from "./store.js";
import { toast } from "./toast.js";

const GAMES = [
  ["hill218", "The Battle for Hill 218"],
  ["ogre218", "Ogre: Objective 218"],
  ["holdtheline", "Hold the Line"],
];
const gameTitle = (game) => (GAMES.find(([g]) => g === game) || [game, game])[1];
const TRANSFER = /(?:^#|&)transfer=([^&]+)/;

function failure(root, title, err) {
  mount(root, h("div", { class: "notice error" }, h("h1", {}, title), h("p", {}, err.message),
    h("p", {}, h("a", { href: "/" }, "Back to the lobby"))));
}

/** A transfer link (#transfer=CODE) opened here: this browser becomes that player. */
export async function redeemTransfer() {
  const m = TRANSFER.exec(location.hash);
  if (!m) return;
  history.replaceState(null, "", location.pathname);
  try {
    const player = await api.transferIn(decodeURIComponent(m[1]));
    setPlayer(player);
    toast(`Signed in as ${player.name}.`);
  } catch (err) {
    toast(`The transfer link did not work: ${err.message}`, "error", 8000);
  }
}

/** /players: sign in with a name, or (signed in) this browser's player and its key's move. */
export function showPlayers(root) {
  document.title = "warboard — you";
  const player = getPlayer();
  mount(root, h("section", { class: "panel player-page" }, player ? signedIn(player) : signUp()));
}

function signUp() {
  const name = h("input", { name: "name", id: "player-name", required: true, minlength: 3,
    maxlength: 24, pattern: "[A-Za-z0-9]+([ ._\\-][A-Za-z0-9]+)*", autocomplete: "nickname" });
  const err = h("p", { class: "form-error", role: "alert" });
  const form = h("form", { class: "sign-up" },
    h("h1", {}, "Choose a name"),
    h("p", { class: "hint" }, "3 to 24 letters and digits, with single spaces, dots, dashes or ",
      "underscores between them. No password: this browser keeps your key."),
    h("div", { class: "field" }, h("label", { for: "player-name" }, "Name"), name),
    err, h("button", { type: "submit", class: "btn primary" }, "Sign in"));
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    err.textContent = "";
    try {
      setPlayer(await api.signUp(name.value.trim()));
      location.assign("/players");
    } catch (e) {
      err.textContent = e.message;
    }
  });
  return form;
}

function signedIn(player) {
  const out = h("div", { class: "transfer", "aria-live": "polite" });
  const show = h("button", { type: "button", class: "btn" }, "Use on another device");
  show.addEventListener("click", async () => {
    try {
      const offer = await api.transferOut();
      const link = h("input", { readonly: true, value: offer.link, class: "transfer-link",
        "aria-label": "Transfer link" });
      const qr = h("img", { class: "transfer-qr", alt: "QR code of the transfer link",
        src: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(offer.qr_svg)}` });
      const copy = h("button", { type: "button", class: "btn" }, "Copy");
      copy.addEventListener("click", async () => {
        if (await copyText(offer.link, link)) toast("Link copied.");
      });
      mount(out, h("p", {}, "Open this link on the other device, or scan the code. It works ",
        "once, for ten minutes; it is not shown again."), qr, h("p", {}, link, copy));
    } catch (e) {
      mount(out, h("p", { class: "form-error" }, e.message));
    }
  });
  const leave = h("button", { type: "button", class: "btn" }, "Sign out on this browser");
  leave.addEventListener("click", () => {
    if (confirm("Without a transfer to another device first, this name is lost. Sign out?")) {
      setPlayer(null);
      location.assign("/players");
    }
  });
  return h("div", {},
    h("h1", {}, "Signed in as ", h("span", { class: "player-name" }, player.name)),
    h("p", {}, h("a", { href: `/players/${encodeURIComponent(player.id)}` },
      "Your profile: ratings and games"), " · ", h("a", { href: "/leaderboard" }, "Leaderboards")),
    h("p", {}, show, " ", leave), out);
}

const rating = (r) => `${Math.round(r.rating)} ± ${Math.round(2 * r.deviation)}`;

/** /players/ID: a player's ratings and latest games. */
export async function showProfile(root, id) {
  mount(root, h("p", { class: "loading" }, "Loading the player…"));
  let data;
  try {
    data = await api.player(id);
  } catch (err) {
    failure(root, "No such player", err);
    return;
  }
  document.title = `warboard — ${data.name}`;
  const rated = Object.entries(data.ratings);
  mount(root, h("section", { class: "panel profile" },
    h("h1", { class: "player-name" }, data.name),
    h("h2", {}, "Ratings"),
    rated.length ? h("table", { class: "ratings" },
      h("thead", {}, h("tr", {}, h("th", {}, "Game"), h("th", {}, "Rating"), h("th", {}, "Games"))),
      h("tbody", {}, rated.map(([game, r]) => h("tr", { dataset: { game } },
        h("td", {}, h("a", { href: `/leaderboard/${game}` }, gameTitle(game))),
        h("td", { class: "rating" }, rating(r)), h("td", {}, String(r.games))))))
      : h("p", { class: "muted" }, "No rated games yet."),
    h("h2", {}, "Latest games"),
    data.games.length ? h("ul", { class: "profile-games" }, data.games.map((g) =>
      h("li", { dataset: { game: g.id } },
        h("a", { href: `/replay/${encodeURIComponent(g.id)}` }, gameTitle(g.game)),
        ` — ${g.mode}${g.rated ? ", rated" : ""}, ${g.status}, ${g.updated.slice(0, 10)}`)))
      : h("p", { class: "muted" }, "No games yet.")));
}

/** /leaderboard/GAME (the first game for /leaderboard). */
export async function showLeaderboard(root, game = GAMES[0][0]) {
  document.title = `warboard — ${gameTitle(game)} leaderboard`;
  const tabs = h("nav", { class: "leaderboard-games", "aria-label": "Games" },
    GAMES.map(([g, title]) => h("a", { href: `/leaderboard/${g}`, "aria-current": g === game ? "page" : null }, title)));
  mount(root, h("section", { class: "panel leaderboard" }, h("h1", {}, "Leaderboard"), tabs,
    h("p", { class: "loading" }, "Loading…")));
  let data;
  try {
    data = await api.leaderboard(game);
  } catch (err) {
    failure(root, "No leaderboard", err);
    return;
  }
  const me = getPlayer();
  mount(root, h("section", { class: "panel leaderboard" }, h("h1", {}, "Leaderboard"), tabs,
    data.players.length ? h("table", { class: "standings" },
      h("thead", {}, h("tr", {}, h("th", {}, "#"), h("th", {}, "Player"), h("th", {}, "Rating"),
        h("th", {}, "Games"))),
      h("tbody", {}, data.players.map((p) => h("tr", { class: p.id === me?.id ? "me" : null },
        h("td", {}, String(p.rank)),
        h("td", {}, h("a", { href: `/players/${encodeURIComponent(p.id)}` }, p.name)),
        h("td", { class: "rating" }, rating(p)), h("td", {}, String(p.games))))))
      : h("p", { class: "muted" }, "Nobody has played a rated game of this one yet.")));
}
