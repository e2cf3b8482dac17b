// Small inline SVG icons (font glyphs such as ⏮ are missing on many systems).

import { s } from "./dom.js";

const PATHS = {
  first: "M5 4h2v16H5z M19 4v16L8 12z",
  prevPlay: "M12 4v16L3 12z M21 4v16l-9-8z",
  back: "M17 4v16L6 12z",
  play: "M7 4v16l12-8z",
  pause: "M6 4h4v16H6z M14 4h4v16h-4z",
  forward: "M7 4v16l11-8z",
  nextPlay: "M3 4v16l9-8z M12 4v16l9-8z",
  last: "M17 4h2v16h-2z M5 4v16l11-8z",
};

export function icon(name) {
  return s("svg", { class: "icon", viewBox: "0 0 24 24", "aria-hidden": "true", focusable: "false" },
    s("path", { d: PATHS[name] }));
}
