// The people around a table: how many watch it, and the players' chat (friend and open games;
// never shown to spectators, whom the server sends no chat). Chat lines are put on the page as
// text (h() children), never as markup.

import { h, mount } from "./dom.js";
import { t } from "./i18n.js";
import { seatName } from "./units.js";

const CHAT_MAX = 300; // the server's limit, in characters
const CHAT_MODES = ["friend", "open"];

export class Social {
  /** `seat`: the seat on screen (null: a spectator); `socket()`: the seat's GameSocket. */
  constructor({ mode, seat, socket }) {
    this.seat = seat;
    this.socket = socket;
    this.lines = [];
    this.muted = false;
    this.watchers = h("p", { class: "watchers muted", "aria-live": "polite" });
    const chatOn = seat !== null && seat !== undefined && CHAT_MODES.includes(mode);
    this.el = h("section", { class: "social panel", "aria-label": t("table.socialLabel") },
      this.watchers, chatOn ? this.chatBox() : null);
    this.spectators(0);
  }

  chatBox() {
    this.list = h("ol", { class: "chat-lines", "aria-live": "polite", "aria-label": t("table.chat") });
    this.input = h("input", { type: "text", maxlength: CHAT_MAX, class: "chat-input",
      "aria-label": t("table.chatLabel"), placeholder: t("table.chatPlaceholder") });
    this.muteBox = h("input", { type: "checkbox", class: "chat-mute",
      onchange: () => this.socket()?.mute(this.muteBox.checked) });
    const form = h("form", { class: "chat-form", onsubmit: (ev) => {
      ev.preventDefault();
      const text = this.input.value.trim();
      if (!text) return;
      this.socket()?.say(text);
      this.input.value = "";
    } }, this.input, h("button", { type: "submit", class: "btn small" }, t("table.send")));
    return h("div", { class: "chat" }, h("h2", {}, t("table.chat")), this.list, form,
      h("label", { class: "check" }, this.muteBox, h("span", {}, t("table.mute"))));
  }

  spectators(count) {
    this.watchers.textContent = t("table.spectators", { count });
    this.el.dataset.spectators = String(count); // for tests
  }

  /** A `chat` message: the whole chat (`replace`) or one more line. */
  chat(msg) {
    if (!this.list) return;
    this.lines = msg.replace ? msg.lines : [...this.lines, ...msg.lines];
    this.muted = msg.muted;
    this.muteBox.checked = msg.muted;
    mount(this.list, this.lines.map((line) => h("li", { class: `chat-line s${line.seat}` },
      h("strong", {}, line.seat === this.seat ? t("table.youSubject") : seatName(line.seat)), ": ", line.text)));
    this.list.scrollTop = this.list.scrollHeight;
  }
}
