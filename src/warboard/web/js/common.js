// What the two tables (js/table.js, js/htl/table.js) and the two replays (js/replay.js,
// js/htl/replay.js) share: the seats' sockets, the mode line, the invite panel and the notice
// shown when a replay cannot be had.

import { api, GameSocket } from "./api.js";
import { copyText, h, mount } from "./dom.js";
import { rememberGame } from "./store.js";
import { toast } from "./toast.js";

/** One socket per seat this browser holds (both seats of a hot-seat game, else the seat of
 * `first`, or "spectator"), kept in `table.sockets`; each state goes to `table.onState(k, msg)`.
 * On a refusal `onRefused()` runs before the table is drawn again, and a message that matches
 * `stale` fetches the game again. */
export function connectSeats(table, first, { stale, onRefused = () => {} }) {
  const seats = table.hotseat ? [0, 1] : [first.seat];
  table.sockets = {};
  for (const seat of seats) {
    const token = table.hotseat ? table.entry.tokens[seat] : table.entry.token;
    const k = seat ?? "spectator";
    table.sockets[k] = new GameSocket(table.id, seat === null || seat === undefined ? null : token, {
      onState: (msg) => table.onState(k, msg),
      onSeatToken: (seatToken) => rememberGame(table.id, { token: seatToken }),
      onThinking: (msg) => {
        table.thinking = msg.seat;
        table.render();
      },
      onError: (msg) => {
        table.busy = false;
        toast(msg.message || "Refused by the server", "error");
        onRefused();
        table.render();
        if (stale.test(msg.message || "")) {
          api.game(table.id, token).then((st) => table.onState(k, st)).catch(() => {});
        }
      },
      onStatus: (st) => {
        if (st === "refused") toast("The server refused this seat's key.", "error");
        table.root.classList.toggle("offline", st === "closed");
      },
    });
  }
}

/** "vs AI · level" for a game against the computer (`players` as the server lists them). */
export function aiModeLabel(players) {
  const ai = players.find((p) => /^ai/.test(p)) || "ai";
  return `vs AI · ${ai.replace(/^ai:?/, "") || "computer"}`;
}

/** The panel with the invite link (`invite`, a path) and a Copy button; `text` says what it
 * gives the friend. */
export function invitePanel(invite, text) {
  const url = new URL(invite, location.origin).href;
  const field = h("input", { type: "text", readonly: true, value: url, class: "invite-url",
    "aria-label": "Invite link", onfocus: (e) => e.target.select() });
  return h("div", { class: "invite panel" },
    h("h2", {}, "Invite a friend"),
    h("p", {}, text),
    h("div", { class: "invite-row" }, field,
      h("button", { type: "button", class: "btn primary", onclick: async () => {
        toast((await copyText(url, field)) ? "Invite link copied" : "Select the link and copy it");
      } }, "Copy")));
}

/** The notice in `root` when the replay of game `id` could not be loaded (error `e`). */
export function showReplayError(root, id, e) {
  mount(root, h("div", { class: "notice error" },
    h("h1", {}, e.status === 409 ? "The game is not over yet" : "No replay"),
    h("p", {}, e.status === 409 ? "A replay opens once the game has ended." : e.message),
    h("p", {}, h("a", { href: `/play/${encodeURIComponent(id)}` }, "Back to the game"), " · ",
      h("a", { href: "/" }, "Lobby"))));
}
