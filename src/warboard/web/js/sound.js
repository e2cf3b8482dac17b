// Short table sounds made with the Web Audio API (no audio files): a play, a hit, a destroyed
// unit and "your turn". Off by default; the header's toggle turns them on, remembered in
// localStorage. Browsers let a page make sound only after a user gesture, so the audio context
// is made (or resumed) on the first click or key press with sound on; sounds asked for before
// that are skipped.

import { icon } from "./icons.js";
import { mount } from "./dom.js";
import { t } from "./i18n.js";

const KEY = "warboard.sound";

// each sound: notes of [start s, length s, start Hz, end Hz, wave, peak gain]
const SOUNDS = {
  play: [[0, 0.09, 520, 600, "triangle", 0.22], [0.07, 0.1, 780, 820, "triangle", 0.18]],
  hit: [[0, 0.14, 260, 150, "square", 0.12], [0.1, 0.12, 200, 120, "square", 0.1]],
  destroyed: [[0, 0.35, 320, 60, "sawtooth", 0.16], [0.04, 0.3, 180, 40, "square", 0.1]],
  turn: [[0, 0.14, 660, 660, "sine", 0.25], [0.15, 0.22, 990, 990, "sine", 0.22]],
};

let audio = null; // the AudioContext, once a gesture allowed one
let toggle = null;

export function soundEnabled() {
  try {
    return localStorage.getItem(KEY) === "on";
  } catch {
    return false; // storage blocked: sound stays off
  }
}

function setEnabled(on) {
  try {
    localStorage.setItem(KEY, on ? "on" : "off");
  } catch {
    // not remembered; the toggle still works for this page
  }
}

/** Within a user gesture: the context made or resumed (null where Web Audio is missing). */
function unlock() {
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!Ctx) return null;
  audio ??= new Ctx();
  if (audio.state === "suspended") audio.resume();
  return audio;
}

/** Play `name` ("play", "hit", "destroyed", "turn") when sound is on and allowed. */
export function playSound(name) {
  const notes = SOUNDS[name];
  if (!notes || !soundEnabled() || !audio || audio.state !== "running") return;
  const t0 = audio.currentTime + 0.01;
  for (const [start, length, f0, f1, wave, peak] of notes) {
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.type = wave;
    osc.frequency.setValueAtTime(f0, t0 + start);
    osc.frequency.exponentialRampToValueAtTime(f1, t0 + start + length);
    gain.gain.setValueAtTime(0.0001, t0 + start);
    gain.gain.exponentialRampToValueAtTime(peak, t0 + start + 0.012);
    gain.gain.exponentialRampToValueAtTime(0.0001, t0 + start + length);
    osc.connect(gain).connect(audio.destination);
    osc.start(t0 + start);
    osc.stop(t0 + start + length + 0.02);
  }
  if (toggle) toggle.dataset.played = name; // the last sound made, for tests
}

function show(btn, on) {
  btn.setAttribute("aria-pressed", String(on));
  btn.title = t(on ? "common.soundOn" : "common.soundOff");
  mount(btn, icon(on ? "soundOn" : "soundOff"));
}

/** Wire the header's toggle (a button with aria-label "Sound"); state from localStorage. */
export function wireSoundToggle(btn) {
  if (!btn) return;
  toggle = btn;
  show(btn, soundEnabled());
  btn.addEventListener("click", () => {
    const on = !soundEnabled();
    setEnabled(on);
    show(btn, on);
    if (on) {
      unlock();
      // a short confirmation once the context runs
      audio?.resume().then(() => playSound("play"));
    }
  });
  // a sound left on from an earlier visit starts with the page's first gesture
  const first = () => soundEnabled() && unlock();
  document.addEventListener("pointerdown", first, { capture: true });
  document.addEventListener("keydown", first, { capture: true });
  btn.disabled = false; // the page's HTML has it disabled: a click before this would do nothing
}
