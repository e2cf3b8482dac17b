// Short messages in a corner (refused plays, "link copied"), read out by screen readers.

import { h } from "./dom.js";

let region = null;

export function toast(text, kind = "info", ms = 4000) {
  if (!region || !region.isConnected) {
    region = h("div", { class: "toasts", role: "status", "aria-live": "polite" });
    document.body.append(region);
  }
  const el = h("div", { class: `toast ${kind}` }, text);
  region.append(el);
  setTimeout(() => el.classList.add("leaving"), ms - 300);
  setTimeout(() => el.remove(), ms);
}
