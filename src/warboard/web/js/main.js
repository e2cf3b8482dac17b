// The router: one page shell (index.html) for every address the server sends it for.

import { showEditor } from "./htl/editor.js";
import { showLobby } from "./lobby.js";
import { redeemTransfer, showLeaderboard, showPlayers, showProfile } from "./players.js";
import { showReplay } from "./replay.js";
import { showRules } from "./rules.js";
import { wireSoundToggle } from "./sound.js";
import { showTable } from "./table.js";
import { h, mount } from "./dom.js";
import { initI18n, langSwitch, t, translateStatic } from "./i18n.js";
import { watchWaiting } from "./waiting.js";

function route() {
  const root = document.getElementById("app");
  const path = location.pathname.replace(/\/+$/, "") || "/";
  const m = /^\/(play|replay)\/([^/]+)$/.exec(path);
  document.body.dataset.page = m ? m[1] : path === "/rules" ? "rules" : path === "/editor" ? "editor"
    : path === "/" ? "lobby" : "other";
  for (const a of document.querySelectorAll(".site-nav a")) {
    a.toggleAttribute("aria-current", a.getAttribute("href") === path);
  }
  if (m && m[1] === "play") return showTable(root, decodeURIComponent(m[2]));
  if (m && m[1] === "replay") return showReplay(root, decodeURIComponent(m[2]));
  if (path === "/rules") return showRules(root);
  if (path === "/editor") return showEditor(root);
  const player = /^\/players\/([^/]+)$/.exec(path);
  if (player) return showProfile(root, decodeURIComponent(player[1]));
  if (path === "/players") return showPlayers(root);
  const board = /^\/leaderboard(?:\/([^/]+))?$/.exec(path);
  if (board) return showLeaderboard(root, board[1] && decodeURIComponent(board[1]));
  if (path === "/" || path === "/index.html") return showLobby(root);
  mount(root, h("div", { class: "notice" }, h("h1", {}, t("common.notFound")),
    h("p", {}, h("a", { href: "/" }, t("common.backToLobby")))));
  return null;
}

// the catalogues first: every page draws its strings through t()
await initI18n();
translateStatic();
document.getElementById("sound-toggle").after(langSwitch());
redeemTransfer().then(route);
watchWaiting(document.querySelector(".site-header"));
wireSoundToggle(document.getElementById("sound-toggle"));
