// Players: sign in with a name (/players), move the key to another device (a one-time link
// and its QR code), a player's profile (/players/ID) and the leaderboards (/leaderboard/GAME).
// Names are only ever put on the page as text (h() children), never as markup.

import { api } from "./api.js";
import { copyText, h, mount } from "./dom.js";
import { t } from "./i18n.js";
import { getPlayer, setPlayer } from "./store.js";
import { toast } from "./toast.js";

const GAMES = ["hill218", "ogre218", "holdtheline"];
const gameTitle = (game) => (GAMES.includes(game) ? t(`names.${game}.title`) : game);
const TRANSFER = /(?:^#|&)transfer=([^&]+)/;

function failure(root, title, err) {
  mount(root, h("div", { class: "notice error" }, h("h1", {}, title), h("p", {}, err.message),
    h("p", {}, h("a", { href: "/" }, t("common.backToLobby")))));
}

/** A transfer link (#transfer=CODE) opened here: this browser becomes that player. */
export async function redeemTransfer() {
  const m = TRANSFER.exec(location.hash);
  if (!m) return;
  history.replaceState(null, "", location.pathname);
  try {
    const player = await api.transferIn(decodeURIComponent(m[1]));
    setPlayer(player);
    toast(t("players.signedInToast", { name: player.name }));
  } catch (err) {
    toast(t("players.transferFailed", { reason: err.message }), "error", 8000);
  }
}

/** /players: sign in with a name, or (signed in) this browser's player and its key's move. */
export function showPlayers(root) {
  document.title = t("players.pageTitle");
  const player = getPlayer();
  mount(root, h("section", { class: "panel player-page" }, player ? signedIn(player) : signUp()));
}

function signUp() {
  const name = h("input", { name: "name", id: "player-name", required: true, minlength: 3,
    maxlength: 24, pattern: "[A-Za-z0-9]+([ ._\\-][A-Za-z0-9]+)*", autocomplete: "nickname" });
  const err = h("p", { class: "form-error", role: "alert" });
  const form = h("form", { class: "sign-up" },
    h("h1", {}, t("players.chooseName")),
    h("p", { class: "hint" }, t("players.nameHint")),
    h("div", { class: "field" }, h("label", { for: "player-name" }, t("players.name")), name),
    err, h("button", { type: "submit", class: "btn primary" }, t("lobby.signIn")));
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
  const show = h("button", { type: "button", class: "btn" }, t("players.transfer"));
  show.addEventListener("click", async () => {
    try {
      const offer = await api.transferOut();
      const link = h("input", { readonly: true, value: offer.link, class: "transfer-link",
        "aria-label": t("players.transferLink") });
      const qr = h("img", { class: "transfer-qr", alt: t("players.qrAlt"),
        src: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(offer.qr_svg)}` });
      const copy = h("button", { type: "button", class: "btn" }, t("common.copy"));
      copy.addEventListener("click", async () => {
        if (await copyText(offer.link, link)) toast(t("players.linkCopied"));
      });
      mount(out, h("p", {}, t("players.transferText")), qr, h("p", {}, link, copy));
    } catch (e) {
      mount(out, h("p", { class: "form-error" }, e.message));
    }
  });
  const leave = h("button", { type: "button", class: "btn" }, t("players.signOut"));
  leave.addEventListener("click", () => {
    if (confirm(t("players.signOutConfirm"))) {
      setPlayer(null);
      location.assign("/players");
    }
  });
  return h("div", {},
    h("h1", {}, t("players.signedInAs"), h("span", { class: "player-name" }, player.name)),
    h("p", {}, h("a", { href: `/players/${encodeURIComponent(player.id)}` },
      t("players.yourProfile")), " · ", h("a", { href: "/leaderboard" }, t("players.leaderboards"))),
    h("p", {}, show, " ", leave), out);
}

const rating = (r) => `${Math.round(r.rating)} ± ${Math.round(2 * r.deviation)}`;

/** /players/ID: a player's ratings and latest games. */
export async function showProfile(root, id) {
  mount(root, h("p", { class: "loading" }, t("players.loading")));
  let data;
  try {
    data = await api.player(id);
  } catch (err) {
    failure(root, t("players.noSuch"), err);
    return;
  }
  document.title = `warboard — ${data.name}`;
  const rated = Object.entries(data.ratings);
  mount(root, h("section", { class: "panel profile" },
    h("h1", { class: "player-name" }, data.name),
    h("h2", {}, t("players.ratings")),
    rated.length ? h("table", { class: "ratings" },
      h("thead", {}, h("tr", {}, h("th", {}, t("lobby.game")), h("th", {}, t("lobby.rating")), h("th", {}, t("players.games")))),
      h("tbody", {}, rated.map(([game, r]) => h("tr", { dataset: { game } },
        h("td", {}, h("a", { href: `/leaderboard/${game}` }, gameTitle(game))),
        h("td", { class: "rating" }, rating(r)), h("td", {}, String(r.games))))))
      : h("p", { class: "muted" }, t("players.noRated")),
    h("h2", {}, t("players.latest")),
    data.games.length ? h("ul", { class: "profile-games" }, data.games.map((g) =>
      h("li", { dataset: { game: g.id } },
        h("a", { href: `/replay/${encodeURIComponent(g.id)}` }, gameTitle(g.game)),
        ` — ${t(`players.mode.${g.mode}`)}${g.rated ? t("players.ratedSuffix") : ""}${t("common.listSep")}`
        + `${t(`players.status.${g.status}`)}${t("common.listSep")}${g.updated.slice(0, 10)}`)))
      : h("p", { class: "muted" }, t("lobby.noGames"))));
}

/** /leaderboard/GAME (the first game for /leaderboard). */
export async function showLeaderboard(root, game = GAMES[0]) {
  document.title = t("players.leaderboardTitle", { game: gameTitle(game) });
  const tabs = h("nav", { class: "leaderboard-games", "aria-label": t("players.games") },
    GAMES.map((g) => h("a", { href: `/leaderboard/${g}`, "aria-current": g === game ? "page" : null }, gameTitle(g))));
  mount(root, h("section", { class: "panel leaderboard" }, h("h1", {}, t("common.navLeaderboard")), tabs,
    h("p", { class: "loading" }, t("common.loading"))));
  let data;
  try {
    data = await api.leaderboard(game);
  } catch (err) {
    failure(root, t("players.noLeaderboard"), err);
    return;
  }
  const me = getPlayer();
  mount(root, h("section", { class: "panel leaderboard" }, h("h1", {}, t("common.navLeaderboard")), tabs,
    data.players.length ? h("table", { class: "standings" },
      h("thead", {}, h("tr", {}, h("th", {}, "#"), h("th", {}, t("players.player")), h("th", {}, t("lobby.rating")),
        h("th", {}, t("players.games")))),
      h("tbody", {}, data.players.map((p) => h("tr", { class: p.id === me?.id ? "me" : null },
        h("td", {}, String(p.rank)),
        h("td", {}, h("a", { href: `/players/${encodeURIComponent(p.id)}` }, p.name)),
        h("td", { class: "rating" }, rating(p)), h("td", {}, String(p.games))))))
      : h("p", { class: "muted" }, t("players.nobodyRated"))));
}
