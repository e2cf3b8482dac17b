// What the server says as messages ({key, params}: docs/server-api.md#messages) — log lines,
// Hold the Line's events, the end's words — in the page's language (js/i18n.js), falling back
// to the English text the server sends next to them.
import { t, tMsg } from "./i18n.js";

/** `msg` in the page's language, or `text` where there is no message. */
export function said(msg, text) {
  return msg ? tMsg(msg) : text;
}

/** A Hold the Line event's sentence (view.events: {text, msg}). */
export function eventText(e) {
  return said(e.msg, e.text);
}

/** Whether `msg` or one of its params (however deep) has a key `re` matches. */
export function saysKey(msg, re) {
  if (!msg || typeof msg !== "object") return false;
  return re.test(msg.key || "") || Object.values(msg.params || {}).some((p) => saysKey(p, re));
}

/** One of the end's words (`end.title`, `end.outcome`, `end.reason`: {text, msg}). */
export function endSaid(part) {
  return part ? said(part.msg, part.text) : "";
}

/** "Game over — <why it ended>" for a banner, from a state's or a replay's `end`. */
export function endBanner(end) {
  return end ? t("end.common.banner", { reason: endSaid(end.reason) }) : t("end.common.over");
}
