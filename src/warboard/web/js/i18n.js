// The message catalogue: every string the client shows comes from
// /static/i18n/<lang>/<namespace>.json (flat objects of "<namespace>.<rest>" -> text with
// {placeholders}; plurals as "<key>_one" / "<key>_other" chosen by a numeric `count` param).
// The language follows navigator.languages (ja* -> ja, else en) unless the header's switch
// stored another in localStorage "warboard.lang"; <html lang> follows. A key missing from the
// page's language falls back to English, then to the key itself, reported on the console (so
// the browser tests, which fail on console errors, catch it).

import { h, isTouch } from "./dom.js";

export const LANGS = ["en", "ja"];
const NAMESPACES = ["common", "lobby", "table", "hand", "htl", "names", "replay", "rules",
  "players", "campaign", "editor", "log", "end", "server", "datafile", "analysis"];
const KEY = "warboard.lang";
// the name of each language in itself, for the switch
const OWN_NAME = { en: "English", ja: "日本語" };

const catalogues = { en: {}, ja: {} };
let current = "en";

function stored() {
  try {
    const v = localStorage.getItem(KEY);
    return LANGS.includes(v) ? v : null;
  } catch {
    return null; // storage blocked: follow the browser
  }
}

/** The language the browser asks for: ja for any ja* in navigator.languages before an en*. */
function browserLang() {
  const asked = navigator.languages?.length ? navigator.languages : [navigator.language || "en"];
  for (const tag of asked) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (LANGS.includes(base)) return base;
  }
  return "en";
}

/** The page's language, "en" or "ja". */
export function lang() {
  return current;
}

async function loadLang(code) {
  const parts = await Promise.all(NAMESPACES.map(async (ns) => {
    const r = await fetch(`/static/i18n/${code}/${ns}.json`);
    return r.ok ? r.json() : {};
  }));
  catalogues[code] = Object.assign({}, ...parts);
}

/** Load English and the page's language; call before the first render. */
export async function initI18n() {
  current = stored() || browserLang();
  await Promise.all([...new Set(["en", current])].map(loadLang));
  document.documentElement.lang = current;
}

/** Switch the page to `code` (remembered) and draw it again in that language. */
export function setLang(code) {
  try {
    localStorage.setItem(KEY, code);
  } catch {
    // not remembered: the reload below follows the browser again
  }
  location.reload();
}

function lookup(key) {
  return catalogues[current][key] ?? catalogues.en[key];
}

function pluralKey(key, count) {
  const rule = new Intl.PluralRules(current).select(count);
  for (const k of [`${key}_${rule}`, `${key}_other`]) if (lookup(k) !== undefined) return k;
  return key;
}

function isMsg(v) {
  return v !== null && typeof v === "object" && typeof v.key === "string";
}

/** The text of `key` in the page's language, its {placeholders} filled from `params`. */
// names of the game being shown (a scenario's places and leaders) in the page's language:
// English name -> its words; a param that is one of them is said in them
let glossary = {};

/** Say these names so from now on (`names`: English -> words; none: as they are). */
export function setGlossary(names) {
  glossary = names || {};
}

/** A name of the game being shown (a place, a leader) in the page's language. */
export function localName(name) {
  return typeof name === "string" && Object.hasOwn(glossary, name) ? glossary[name] : name;
}

export function t(key, params) {
  const k = typeof params?.count === "number" ? pluralKey(key, params.count) : key;
  const text = lookup(k);
  if (text === undefined) {
    console.error(`i18n: missing key ${k}`);
    return key;
  }
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (m, name) => {
    if (!(name in params)) return m;
    const v = params[name];
    return isMsg(v) ? tMsg(v) : String(localName(v));
  });
}

/** `t(key, params)` as nodes: `**strong**` and `*em*` in the text become those elements (for
 * prose whose words a translation reorders). */
export function tRich(key, params) {
  return t(key, params).split(/(\*\*[^*]+\*\*|\*[^*]+\*)/).filter(Boolean).map((part) => {
    if (part.startsWith("**")) return h("strong", {}, part.slice(2, -2));
    if (part.startsWith("*") && part.length > 2) return h("em", {}, part.slice(1, -1));
    return part;
  });
}

/** Whether the catalogue has `key` (for names that only some units have). */
export function hasKey(key) {
  return lookup(key) !== undefined;
}

/** A message object {key, params} (params may be message objects themselves) as text. */
export function tMsg(msg) {
  return t(msg.key, msg.params);
}

/** Fill index.html's static strings: data-i18n="key" (text), data-i18n-<attr>="key" (attributes). */
export function translateStatic(root = document) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const attr of ["aria-label", "title"]) {
    for (const el of root.querySelectorAll(`[data-i18n-${attr}]`)) {
      el.setAttribute(attr, t(el.getAttribute(`data-i18n-${attr}`)));
    }
  }
}

/** The header's language switch: a button naming the other language, in that language. */
export function langSwitch() {
  const other = LANGS.find((l) => l !== current);
  return h("button", {
    type: "button", id: "lang-toggle", class: "lang-toggle", lang: other,
    title: t("common.switchLanguage"),
    onclick: () => setLang(other),
  }, OWN_NAME[other]);
}

/** The hints' verb in the page's language: "tap" on a touch screen, "click" with a mouse
 *  (`capital`: at the start of a sentence). */
export function tapOrClick(capital = false) {
  return t(`common.${isTouch() ? "tap" : "click"}${capital ? "Cap" : ""}`);
}
