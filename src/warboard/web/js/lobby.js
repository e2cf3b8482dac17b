// The lobby at /: start a game (ruleset, opponent, seat, options) and see this browser's games.

import { api } from "./api.js";
import { h, mount } from "./dom.js";
import { lobbyLists } from "./lobbylist.js";
import { allTokens, forgetGame, getPlayer, rememberGame } from "./store.js";
import { loadRuleset, resultText, seatName } from "./units.js";

// the clocks offered (docs/playing.md#clocks): "" for none, else POST /api/games' `clock`
const CLOCKS = [
  ["", "No clock"],
  ["300+3", "5 minutes + 3 s a turn"],
  ["900+10", "15 minutes + 10 s a turn"],
  ["1d", "Correspondence: 1 day a turn"],
  ["3d", "Correspondence: 3 days a turn"],
];

function clockSpec(value) {
  if (!value) return null;
  if (value.endsWith("d")) return { days: Number(value.slice(0, -1)) };
  const [initial, increment] = value.split("+").map(Number);
  return { initial, increment };
}

const LEVELS = [
  ["easy", "Easy — greedy, plays at once"],
  ["medium", "Medium"],
  ["hard", "Hard — answers within a second"],
  ["expert", "Expert — up to 5 s a play"],
];

export function showLobby(root) {
  document.title = "warboard — Hill 218, Ogre 218, Hold the Line";
  const form = newGameForm();
  const games = h("div", { class: "my-games", "aria-live": "polite" },
    h("p", { class: "muted" }, "Loading your games…"));
  mount(root, h("div", { class: "lobby" },
    h("section", { class: "hero" },
      h("h1", {}, "Two armies. One hill."),
      h("p", { class: "lede" },
        "Play ", h("em", {}, "The Battle for Hill 218"), ", ", h("em", {}, "Ogre: Objective 218"),
        " or the hex wargame ", h("em", {}, "Hold the Line"),
        " against the computer, a friend on another device, or a friend on this screen. ",
        h("a", { href: "/rules" }, "How to play"), ".")),
    lobbyLists((level) => {
      form.querySelector("#mode-ai").checked = true;
      form.querySelector("#ai-level").value = level;
      form.dispatchEvent(new Event("change"));
      form.querySelector("button[type=submit]").focus();
    }),
    h("div", { class: "lobby-grid" },
      h("section", { class: "panel new-game", "aria-labelledby": "new-game-h" },
        h("h2", { id: "new-game-h" }, "New game"), form),
      h("section", { class: "panel", "aria-labelledby": "my-games-h" },
        h("h2", { id: "my-games-h" }, "Your games"), games))));
  loadGames(games);
}

function radio(name, value, label, checked, extra = null) {
  const id = `${name}-${value}`;
  return h("label", { class: "choice", for: id },
    h("input", { type: "radio", name, value, id, checked }),
    h("span", { class: "choice-body" }, h("span", { class: "choice-label" }, label),
      extra ? h("span", { class: "choice-extra" }, extra) : null));
}

function newGameForm() {
  const level = h("select", { name: "ai_level", id: "ai-level" },
    LEVELS.map(([v, t]) => h("option", { value: v, selected: v === "easy" }, t)));
  const handicap = (seat) => h("select", { name: `dog${seat}`, "aria-label": `${seatName(seat)}'s damaged Ogres` },
    [0, 1, 2].map((n) => h("option", { value: n }, String(n))));
  const err = h("p", { class: "form-error", role: "alert" });
  const submit = h("button", { type: "submit", class: "btn primary big" }, "Start the game");

  const form = h("form", { class: "new-game-form" },
    h("fieldset", {}, h("legend", {}, "Game"),
      h("div", { class: "choices two" },
        radio("game", "hill218", "The Battle for Hill 218", true, "infantry, tanks, artillery, air strikes"),
        radio("game", "ogre218", "Ogre: Objective 218", false, "GEVs, howitzers, cruise missiles — and Ogres"),
        radio("game", "holdtheline", "Hold the Line", false, "hex battles of the American Revolution"))),
    htlScenarioField(),
    h("fieldset", {}, h("legend", {}, "Opponent"),
      h("div", { class: "choices three" },
        radio("mode", "ai", "Computer", true),
        radio("mode", "friend", "A friend", false, "by invite link"),
        radio("mode", "hotseat", "Hot-seat", false, "two players, this screen"),
        getPlayer() ? radio("mode", "open", "Anyone", false, "an open game in the lobby") : null),
      h("div", { class: "field ai-only" }, h("label", { for: "ai-level" }, "Computer level"), level),
      h("div", { class: "field" }, h("label", { for: "clock" }, "Clock"),
        h("select", { name: "clock", id: "clock" }, CLOCKS.map(([v, t]) => h("option", { value: v }, t))))),
    h("fieldset", { class: "seat-field" }, h("legend", {}, "Your side"),
      h("div", { class: "choices three" },
        radio("seat", "0", "South", true, "blue, base at the bottom"),
        radio("seat", "1", "North", false, "red, base at the top"),
        radio("seat", "random", "Either", false, "drawn at random")),
      h("p", { class: "hint seat-hint" }, "Who moves first is drawn at random.")),
    h("fieldset", { class: "cards-only" }, h("legend", {}, "Options"),
      h("label", { class: "check" }, h("input", { type: "checkbox", name: "quick_start", id: "quick-start" }),
        h("span", {}, h("strong", {}, "Quick start"), " — each side draws 3 cards; nobody puts cards under the deck")),
      h("div", { class: "field ogre-only", hidden: true },
        h("span", { class: "field-label" }, "Handicap: Ogres that start damaged"),
        h("span", { class: "inline" }, "South ", handicap(0), " North ", handicap(1)))),
    ratedField(), err, submit);

  const sync = () => {
    const d = new FormData(form);
    form.querySelector(".ai-only").hidden = d.get("mode") !== "ai";
    form.querySelector(".seat-field").hidden = d.get("mode") === "hotseat";
    const rated = form.querySelector(".rated-field");
    if (rated) rated.hidden = d.get("mode") === "hotseat";
    form.querySelector(".ogre-only").hidden = d.get("game") !== "ogre218";
    syncHtl(form, d.get("game") === "holdtheline");
  };
  form.addEventListener("change", sync);
  sync();

  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const d = new FormData(form);
    const game = d.get("game");
    const mode = d.get("mode");
    // a campaign (its battles' options are the server's) is chosen in the scenario list
    const campaign = game === "holdtheline" && d.get("scenario").startsWith(CAMPAIGN)
      ? d.get("scenario").slice(CAMPAIGN.length) : null;
    const options = campaign ? {} : game === "holdtheline" ? { scenario: d.get("scenario") }
      : { quick_start: d.get("quick_start") === "on" };
    if (game === "ogre218") {
      const dog = [Number(d.get("dog0")), Number(d.get("dog1"))];
      if (dog[0] || dog[1]) options.damaged_ogres = dog;
    }
    const seat = d.get("seat") === "random" ? "random" : Number(d.get("seat"));
    const body = { game, options, mode, seat: mode === "hotseat" ? 0 : seat };
    if (mode === "ai") body.ai_level = d.get("ai_level");
    if (d.get("rated") === "on" && mode !== "hotseat") body.rated = true;
    const clock = clockSpec(d.get("clock"));
    if (clock) body.clock = clock;
    if (campaign) body.campaign = campaign;
    submit.disabled = true;
    err.textContent = "";
    try {
      const res = await api.createGame(body);
      rememberGame(res.id, {
        game: res.game, mode: res.mode, seat: res.seat, token: res.token,
        tokens: res.tokens, invite: res.invite, created: new Date().toISOString(),
      });
      location.assign(`/play/${encodeURIComponent(res.id)}`);
    } catch (e) {
      err.textContent = `Could not start the game: ${e.message}`;
      submit.disabled = false;
    }
  });
  return form;
}

/** "Rated" for a signed-in player (a friend must sign in too, before opening the invite). */
function ratedField() {
  const player = getPlayer();
  if (!player) {
    return h("p", { class: "hint" }, h("a", { href: "/players" }, "Sign in"),
      " with a name to play rated games.");
  }
  return h("fieldset", { class: "rated-field" }, h("legend", {}, "Rating"),
    h("label", { class: "check" }, h("input", { type: "checkbox", name: "rated", id: "rated" }),
      h("span", {}, h("strong", {}, "Rated"), " — the result changes your rating (",
        h("a", { href: `/players/${encodeURIComponent(player.id)}` }, player.name),
        "); a friend signs in before opening the invite")));
}

// ------------------------------------------------------------------ Hold the Line

const HTL_RULES = { title: "Hold the Line", short: "Hold the Line" };
let scenarios = null; // GET /api/scenarios, once
let campaigns = []; // GET /api/campaigns, once (Hold the Line's), listed after the scenarios
const CAMPAIGN = "campaign:"; // the scenario list's value of a campaign: CAMPAIGN + its name

function htlScenarioField() {
  const select = h("select", { name: "scenario", id: "scenario" },
    h("option", { value: "tutorial" }, "Loading the scenarios…"));
  const about = h("p", { class: "hint scenario-about" });
  return h("fieldset", { class: "htl-only", hidden: true }, h("legend", {}, "Scenario"),
    h("div", { class: "field" }, h("label", { for: "scenario", class: "sr-only" }, "Scenario"), select),
    about);
}

/** Show the Hold the Line fields (scenario, its sides) or the card games' ones. */
async function syncHtl(form, on) {
  form.querySelector(".htl-only").hidden = !on;
  form.querySelector(".cards-only").hidden = on;
  const labels = form.querySelectorAll(".seat-field .choice");
  const hint = form.querySelector(".seat-hint");
  if (!on) {
    [["South", "blue, base at the bottom"], ["North", "red, base at the top"]].forEach(([name, extra], i) => {
      labels[i].querySelector(".choice-label").textContent = name;
      labels[i].querySelector(".choice-extra").textContent = extra;
    });
    hint.textContent = "Who moves first is drawn at random.";
    return;
  }
  const select = form.querySelector("#scenario");
  if (!scenarios) {
    try {
      scenarios = (await api.scenarios()).scenarios || [];
      campaigns = ((await api.campaigns()).campaigns || []).filter((c) => c.game === "holdtheline");
    } catch (e) {
      form.querySelector(".scenario-about").textContent = `Could not load the scenarios: ${e.message}`;
      return;
    }
    const chosen = select.value;
    mount(select, scenarios.map((sc) => h("option", { value: sc.name, selected: sc.name === chosen },
      `${sc.title}${sc.date ? ` (${sc.date.slice(0, 4)})` : ""}`)),
    campaigns.length ? h("optgroup", { label: "Campaigns (battles in order, VP added up)" },
      campaigns.map((c) => h("option", { value: CAMPAIGN + c.name },
        `${c.title} — ${c.games.map((g) => g.title).join(", ")}`))) : null);
    select.addEventListener("change", () => syncHtl(form, true));
  }
  const chosenCampaign = campaigns.find((c) => CAMPAIGN + c.name === select.value);
  const sc = chosenCampaign
    ? scenarios.find((x) => x.name === chosenCampaign.games[0].options.scenario)
    : scenarios.find((x) => x.name === select.value) || scenarios[0];
  if (!sc) return;
  form.querySelector(".scenario-about").textContent = sc.summary;
  sc.sides.forEach((side, i) => {
    labels[i].querySelector(".choice-label").textContent = side.label;
    labels[i].querySelector(".choice-extra").textContent = `home edge: ${side.home_edges.join(", ")}`;
  });
  hint.textContent = `${sc.sides[sc.first].label} move first; ${sc.turns} turns.`;
  if (chosenCampaign) {
    form.querySelector(".scenario-about").textContent = `${chosenCampaign.summary} Your side `
      + "plays every battle; a campaign has no clock.";
  }
}

async function loadGames(el) {
  const tokens = allTokens();
  if (!tokens.length) {
    mount(el, h("p", { class: "muted" }, "No games yet. Games you start or join appear here."));
    return;
  }
  let list;
  const rulesets = { holdtheline: HTL_RULES };
  try {
    list = (await api.games(tokens)).games || [];
    for (const game of new Set(list.map((g) => g.game))) rulesets[game] ??= await loadRuleset(game);
  } catch (e) {
    mount(el, h("p", { class: "form-error" }, `Could not load your games: ${e.message}`));
    return;
  }
  // a hot-seat game answers once per seat: show it once
  const seen = new Set();
  list = list.filter((g) => !seen.has(g.id) && seen.add(g.id));
  list.sort((a, b) => String(b.updated || b.created).localeCompare(String(a.updated || a.created)));
  if (!list.length) {
    mount(el, h("p", { class: "muted" }, "No games yet."));
    return;
  }
  mount(el, h("ul", { class: "game-list" }, list.map((g) => gameRow(g, rulesets[g.game], el))));
}

function gameRow(g, rules, listEl) {
  const hot = g.mode === "hotseat";
  const mode = g.mode === "ai" ? "vs computer" : g.mode === "friend" ? "vs a friend" : "hot-seat";
  let status = g.status === "waiting" ? "waiting for your friend" : g.status === "playing" ? "in play" : "over";
  const summary = g.result?.summary || g.result;
  if (g.status === "over" && summary && "winner" in summary && g.game === "holdtheline") {
    status = summary.winner === null ? "draw" : hot ? summary.text || "over"
      : summary.winner === g.seat ? "you won" : "you lost";
  } else if (g.status === "over" && summary && "winner" in summary) {
    status = resultText(rules, summary, hot ? null : g.seat);
  } else if (g.status === "over" && g.result?.abandoned) {
    status = g.result.by === g.seat && !hot ? "you resigned" : `${seatName(g.result.by)} resigned`;
  }
  const when = g.updated || g.created;
  return h("li", { class: `game-row ${g.status}` },
    h("div", { class: "game-row-main" },
      h("a", { href: `/play/${encodeURIComponent(g.id)}`, class: "game-link" }, rules.title),
      h("span", { class: "muted" }, ` · ${mode}${hot || g.game === "holdtheline" ? "" : ` · you are ${seatName(g.seat)}`}`),
      h("div", { class: `game-status ${g.status}` }, status,
        when ? h("time", { datetime: when, class: "muted" }, ` · ${new Date(when).toLocaleString()}`) : null)),
    h("div", { class: "game-row-actions" },
      h("a", { class: "btn small", href: `/play/${encodeURIComponent(g.id)}` },
        g.status === "over" ? "Open" : "Continue"),
      g.status === "over" ? h("a", { class: "btn small", href: `/replay/${encodeURIComponent(g.id)}` }, "Replay") : null,
      h("button", { type: "button", class: "btn small ghost", "aria-label": `Forget this ${rules.short} game`,
        onclick: () => {
          if (!confirm("Remove this game from the list? Its seat key is forgotten on this browser.")) return;
          forgetGame(g.id);
          loadGames(listEl);
        } }, "Forget")));
}
