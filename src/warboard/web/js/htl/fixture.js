// A hand-made state message of a Hold the Line game (docs/holdtheline-engine.md), for working
// on the table without a server: in the browser console of any warboard page,
//   (await import("/static/js/htl/table.js")).showFixture(document.getElementById("app"))

const T = (c, r, terrain) => ({ at: [c, r], terrain });

export const FIXTURE_VIEW = {
  game: "holdtheline", scenario: "tutorial", options: {},
  cols: 13, rows: 9,
  terrain: [
    T(3, 3, "forest"), T(4, 3, "forest"), T(3, 4, "forest"), T(8, 2, "hill"), T(9, 2, "hill"),
    T(6, 4, "town"), T(7, 4, "town"), T(0, 5, "swamp"), T(1, 5, "swamp"),
    T(0, 6, "waterway"), T(1, 6, "waterway"), T(2, 6, "waterway"), T(3, 6, "bridge"), T(4, 6, "waterway"),
    T(5, 6, "waterway"), T(6, 6, "ford"), T(7, 6, "waterway"), T(8, 6, "waterway"), T(9, 6, "waterway"),
    T(10, 6, "waterway"), T(11, 6, "waterway"), T(12, 6, "waterway"),
    T(10, 4, "fence"), T(11, 4, "fence"), T(5, 1, "entrenchment"), T(6, 1, "entrenchment"),
  ],
  sides: ["american", "british"],
  home_edges: [["south"], ["north"]],
  turn: 2, turn_limit: 8, active: 0, to_move: 0,
  ap: 3, command_ap: [3, 2], leaders_lost: [0, 0], vp: [1, 0],
  units: [
    { id: "A1", side: 0, kind: "regular", mp: 4, start_mp: 4, at: [4, 7], acted: false, moved: false, fired_at: false },
    { id: "A2", side: 0, kind: "militia", mp: 2, start_mp: 3, at: [6, 7], acted: true, moved: true, fired_at: false },
    { id: "A3", side: 0, kind: "light", mp: 3, start_mp: 3, at: [8, 5], acted: false, moved: false, fired_at: false },
    { id: "A4", side: 0, kind: "artillery", mp: 3, start_mp: 3, at: [4, 7], acted: false, moved: false, fired_at: false },
    { id: "A5", side: 0, kind: "dragoon", mp: 3, start_mp: 3, at: [10, 7], acted: false, moved: false, fired_at: false },
    { id: "B1", side: 1, kind: "elite", mp: 4, start_mp: 4, at: [6, 3], acted: false, moved: false, fired_at: false },
    { id: "B2", side: 1, kind: "regular", mp: 2, start_mp: 4, at: [8, 3], acted: false, moved: false, fired_at: true },
    { id: "B3", side: 1, kind: "regular", mp: 4, start_mp: 4, at: [3, 2], acted: false, moved: false, fired_at: false },
    { id: "B4", side: 1, kind: "artillery", mp: 3, start_mp: 3, at: [9, 2], acted: false, moved: false, fired_at: false },
    // a reinforcement still to come (drawn as a dashed hex where it enters)
    { id: "B5", side: 1, kind: "dragoon", mp: 3, start_mp: 3, at: null, status: "waiting", arrive: 3,
      enter_at: [12, 0], entry: [[12, 0], [11, 0]], acted: false, moved: false, fired_at: false },
  ],
  leaders: [
    { id: "washington", name: "Washington", side: 0, at: [4, 7], rating: [2, 2], hits: 0, acted: false },
    { id: "greene", name: "Greene", side: 0, at: [2, 8], rating: [1, 2], hits: 0, acted: false },
    { id: "rahl", name: "Rahl", side: 1, at: [6, 3], rating: [2, 1], hits: 0, acted: false },
    { id: "knyphausen", name: "Knyphausen", side: 1, at: null, status: "waiting", arrive: 3, enter_at: [12, 0],
      entry: [[12, 0]], rating: [1, 1], hits: 0, acted: false },
  ],
  vp_counters: [{ id: "V1", side: 1, at: [6, 2] }, { id: "V2", side: 0, at: [5, 8] }],
  objectives: [{ at: [7, 4], side: 0, vp: 1 }],
  exits: [{ side: 1, hexes: [[3, 8]] }],
  pending: null,
  result: null,
};

const mv = (unit, path, extra = {}) => ({ type: "move", unit, path, ...extra });

export const FIXTURE_LEGAL = [
  mv("A1", [[4, 6]]), mv("A1", [[3, 6]]), mv("A1", [[5, 6]]), mv("A1", [[4, 6]], { leader: "washington" }),
  mv("A1", [[4, 6], [4, 5]], { leader: "washington", bonus: true }),
  { type: "fire", unit: "A1", target: [3, 2] },
  mv("A3", [[8, 4]]), mv("A3", [[7, 5]]), mv("A3", [[9, 5]]), mv("A3", [[8, 4], [7, 4]]),
  { type: "fire", unit: "A3", target: [8, 3] }, { type: "fire", unit: "A3", target: [6, 3] },
  { type: "assault", unit: "A3", target: [8, 3] },
  { type: "fire", unit: "A4", target: [6, 3] }, { type: "fire", unit: "A4", target: [3, 2] },
  mv("A5", [[10, 6]]), mv("A5", [[11, 6]]), mv("A5", [[9, 6]]),
  mv("A5", [[10, 6]], { fire: [9, 5] }),
  { type: "move", leader: "greene", path: [[3, 8]] }, { type: "move", leader: "greene", path: [[3, 8], [4, 8]] },
  { type: "rally", leader: "washington", unit: "A1" },
  { type: "end" },
];

export const FIXTURE_HINTS = FIXTURE_LEGAL.map((a) => {
  if (a.type === "move") return { ap: (a.bonus ? 2 : 1) + (a.fire ? 1 : 0), to: a.path[a.path.length - 1] };
  // A4's far shot cannot hit (hit on 7): the table marks it
  if (a.type === "fire") {
    const hitOn = a.unit === "A4" && a.target[0] === 3 ? 7 : a.target[0] === 6 ? 6 : 5;
    return { ap: 1, dice: 3, hit_on: hitOn, range: 2, los: true };
  }
  if (a.type === "assault") return { ap: 2, dice: 3, hit_on: 4, range: 1, los: true };
  if (a.type === "end") return { ap: 0 };
  return { ap: 1 };
});

export const FIXTURE_STATE = {
  type: "state", id: "fixture", game: "holdtheline", options: { scenario: "tutorial" }, mode: "ai",
  seat: 0, version: 14, status: "playing", result: null, players: ["human", "ai:easy"],
  view: FIXTURE_VIEW, legal: FIXTURE_LEGAL, hints: FIXTURE_HINTS, undo: true,
  log: [
    "Turn 1 — British: action die 2, 4 AP",
    "British B2 fires at A3 (8,5): 3, 5, 1 — 1 hit; leader check 4: no leader hit",
    "A3 loses 1 MP (3 left)",
    "British end their turn",
    "Turn 2 — American: action die 1, 3 AP",
    "American A2 moves to 6,7",
  ],
  dice: [
    { title: "B2 fires at 8,5 (hits on 5+)", dice: [
      { value: 3, text: "miss", outcome: "miss" }, { value: 5, text: "hit", outcome: "hit" },
      { value: 1, text: "miss · leader check", outcome: "miss" }] },
    { title: "Leader casualty check", dice: [{ value: 4, text: "no leader hit", outcome: "pass" }] },
    { title: "American action die", dice: [{ value: 1, text: "+1 AP", outcome: "info" }] },
  ],
  last: { seat: 0, action: { type: "move", unit: "A2", path: [[6, 7]] } },
};
