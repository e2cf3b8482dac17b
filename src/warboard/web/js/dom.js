// Tiny DOM helpers: build elements without a framework.

const SVG_NS = "http://www.w3.org/2000/svg";

function fill(el, attrs, children) {
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") el.setAttribute("class", v);
    else if (k === "text") el.textContent = v;
    else if (k === "html") el.innerHTML = v; // only ever used with our own static markup
    else if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else if (k === "dataset") Object.assign(el.dataset, v);
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

/** An HTML element: h("button", {class: "x", onclick: f}, "label"). */
export function h(tag, attrs, ...children) {
  return fill(document.createElement(tag), attrs, children);
}

/** An SVG element, same calling convention as h(). */
export function s(tag, attrs, ...children) {
  return fill(document.createElementNS(SVG_NS, tag), attrs, children);
}

export function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
  return el;
}

/** Replace the contents of `el` by `children`. */
export function mount(el, ...children) {
  clear(el);
  return fill(el, {}, children);
}

/** The arrow keys -> a step on screen (right, down). */
export const ARROWS = { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };

/** Whether the page is used by touch (a coarse pointer): the hints say "tap", not "click". */
export function isTouch() {
  return matchMedia("(pointer: coarse)").matches;
}

/**
 * Run `draw` (which replaces what is inside `el`), then give the focus back to the element
 * with the same `data-focus-key` if one inside `el` had it, so a redraw never drops the
 * keyboard's place. Returns whether the focus was inside.
 */
export function keepFocus(el, draw) {
  const was = el.contains(document.activeElement) ? document.activeElement.dataset?.focusKey : null;
  draw();
  if (was) el.querySelector(`[data-focus-key="${CSS.escape(was)}"]`)?.focus();
  return !!was;
}

/** A request id; crypto.randomUUID only exists in secure contexts (not on http://LAN-IP). */
export function uuid() {
  if (globalThis.crypto?.randomUUID) return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
}

/** Copy text to the clipboard, falling back to a selected text field (insecure contexts). */
export async function copyText(text, field) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    if (field) {
      field.select();
      return document.execCommand?.("copy") ?? false;
    }
    return false;
  }
}
