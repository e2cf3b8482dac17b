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
  // the strike cards (a ruleset's strike_icon)
  airplane: "M11 2h2l1 7 8 4v2l-8-2-.5 5 2.5 2v2l-4-1-4 1v-2l2.5-2L10 13l-8 2v-2l8-4z",
  missile: "M12 1c1.7 1.5 2.6 3.6 2.6 5.8V16H9.4V6.8C9.4 4.6 10.3 2.5 12 1z M9.4 11 6 15.5V18l3.4-1.2z"
    + " M14.6 11 18 15.5V18l-3.4-1.2z M10.4 17.2h3.2L12 23z",
  // sound on and off (the header's toggle)
  soundOn: "M3 9h4l5-4v14l-5-4H3z M15 8.5a5 5 0 0 1 0 7l-1.4-1.4a3 3 0 0 0 0-4.2z"
    + " M17.8 5.7a9 9 0 0 1 0 12.6l-1.4-1.4a7 7 0 0 0 0-9.8z",
  soundOff: "M3 9h4l5-4v14l-5-4H3z M15 9.4l1.4-1.4 2.1 2.1 2.1-2.1 1.4 1.4-2.1 2.1 2.1 2.1-1.4 1.4"
    + "-2.1-2.1-2.1 2.1-1.4-1.4 2.1-2.1z",
};

export function icon(name) {
  return s("svg", { class: "icon", viewBox: "0 0 24 24", "aria-hidden": "true", focusable: "false" },
    s("path", { d: PATHS[name] }));
}
