// The lobby at /: start a game (ruleset, opponent, seat, options) and see this browser's games.

import { api } from "./api.js";
import { h, mount } from "./dom.js";
import { campaignTitle, scenarioTitle, sideLabel } from "./htl/names.js";
import { lang, t } from "./i18n.js";
import { lobbyLists } from "./lobbylist.js";
import { allTokens, forgetGame, getPlayer, rememberGame } from "./store.js";
import { loadRuleset, resultText, seatName } from "./units.js";

// the clocks offered (docs/playing.md#clocks): "" for none, else POST /api/games' `clock`
const CLOCKS = [
  ["", "lobby.clock.none"],
  ["300+3", "lobby.clock.blitz"],
  ["900+10", "lobby.clock.rapid"],
  ["1d", "lobby.clock.day"],
  ["3d", "lobby.clock.days3"],
];

function clockSpec(value) {
  if (!value) return null;
  if (value.endsWith("d")) return { days: Number(value.slice(0, -1)) };
  const [initial, increment] = value.split("+").map(Number);
  return { initial, increment };
}

const LEVELS = ["easy", "medium", "hard", "expert", "master"];
let gameLevels = null; // each game's levels (GET /api/lobby), once the lobby listing came

export function showLobby(root) {
  document.title = t("common.pageTitle");
  const form = newGameForm();
  const games = h("div", { class: "my-games", "aria-live": "polite" },
    h("p", { class: "muted" }, t("lobby.loadingGames")));
  mount(root, h("div", { class: "lobby" },
    h("section", { class: "hero" },
      h("h1", {}, t("lobby.hero")),
      h("p", { class: "lede" },
        t("lobby.ledePlay"), h("em", {}, "The Battle for Hill 218"), t("common.listSep"), h("em", {}, "Ogre: Objective 218"),
        t("lobby.ledeHex"), h("em", {}, "Hold the Line"),
        t("lobby.ledeAgainst"),
        h("a", { href: "/rules" }, t("lobby.howToPlay")), t("lobby.ledeEnd"))),
    lobbyLists((level) => {
      form.querySelector("#mode-ai").checked = true;
      form.querySelector("#ai-level").value = level;
      form.dispatchEvent(new Event("change"));
      form.querySelector("button[type=submit]").focus();
    }, (levels) => {
      gameLevels = levels;
      syncLevels(form.querySelector("#ai-level"), levels[form.querySelector("input[name=game]:checked")?.value]);
    }),
    h("div", { class: "lobby-grid" },
      h("section", { class: "panel new-game", "aria-labelledby": "new-game-h" },
        h("h2", { id: "new-game-h" }, t("common.navNewGame")), form),
      h("section", { class: "panel", "aria-labelledby": "my-games-h" },
        h("h2", { id: "my-games-h" }, t("lobby.yourGames")), games))));
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
    LEVELS.map((v) => h("option", { value: v, selected: v === "easy" }, t(`lobby.level.${v}`))));
  const handicap = (seat) => h("select", { name: `dog${seat}`, "aria-label": t("lobby.handicapLabel", { who: seatName(seat) }) },
    [0, 1, 2].map((n) => h("option", { value: n }, String(n))));
  const err = h("p", { class: "form-error", role: "alert" });
  const submit = h("button", { type: "submit", class: "btn primary big" }, t("lobby.start"));

  const form = h("form", { class: "new-game-form" },
    h("fieldset", {}, h("legend", {}, t("lobby.game")),
      h("div", { class: "choices two" },
        radio("game", "hill218", "The Battle for Hill 218", true, t("lobby.gameHill218")),
        radio("game", "ogre218", "Ogre: Objective 218", false, t("lobby.gameOgre218")),
        radio("game", "holdtheline", "Hold the Line", false, t("lobby.gameHtl")))),
    htlScenarioField(),
    h("fieldset", {}, h("legend", {}, t("lobby.opponent")),
      h("div", { class: "choices three" },
        radio("mode", "ai", t("lobby.modeAi"), true),
        radio("mode", "friend", t("lobby.modeFriend"), false, t("lobby.modeFriendNote")),
        radio("mode", "hotseat", t("lobby.modeHotseat"), false, t("lobby.modeHotseatNote")),
        getPlayer() ? radio("mode", "open", t("lobby.modeOpen"), false, t("lobby.modeOpenNote")) : null),
      h("div", { class: "field ai-only" }, h("label", { for: "ai-level" }, t("lobby.aiLevel")), level),
      h("div", { class: "field" }, h("label", { for: "clock" }, t("lobby.clock")),
        h("select", { name: "clock", id: "clock" }, CLOCKS.map(([v, key]) => h("option", { value: v }, t(key)))))),
    h("fieldset", { class: "seat-field" }, h("legend", {}, t("lobby.yourSide")),
      h("div", { class: "choices three" },
        radio("seat", "0", seatName(0), true, t("lobby.southNote")),
        radio("seat", "1", seatName(1), false, t("lobby.northNote")),
        radio("seat", "random", t("lobby.either"), false, t("lobby.eitherNote"))),
      h("p", { class: "hint seat-hint" }, t("lobby.firstRandom"))),
    h("fieldset", { class: "cards-only" }, h("legend", {}, t("lobby.options")),
      h("label", { class: "check" }, h("input", { type: "checkbox", name: "quick_start", id: "quick-start" }),
        h("span", {}, h("strong", {}, t("lobby.quickStart")), t("lobby.quickStartNote"))),
      h("div", { class: "field ogre-only", hidden: true },
        h("span", { class: "field-label" }, t("lobby.handicap")),
        h("span", { class: "inline" }, `${seatName(0)} `, handicap(0), ` ${seatName(1)} `, handicap(1)))),
    ratedField(), err, submit);

  const sync = () => {
    const d = new FormData(form);
    form.querySelector(".ai-only").hidden = d.get("mode") !== "ai";
    form.querySelector(".seat-field").hidden = d.get("mode") === "hotseat";
    const rated = form.querySelector(".rated-field");
    if (rated) rated.hidden = d.get("mode") === "hotseat";
    form.querySelector(".ogre-only").hidden = d.get("game") !== "ogre218";
    syncLevels(level, gameLevels?.[d.get("game")]);
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
      err.textContent = t("lobby.startFailed", { reason: e.message });
      submit.disabled = false;
    }
  });
  return form;
}

/** "Rated" for a signed-in player (a friend must sign in too, before opening the invite). */
/** Offer the levels that play the chosen game (`master` only where a model ships); a level
 * it has not gives way to its strongest. */
function syncLevels(select, levels) {
  if (!levels) return;
  for (const option of select.options) option.disabled = !levels.includes(option.value);
  if (!levels.includes(select.value)) select.value = levels[levels.length - 1];
}

function ratedField() {
  const player = getPlayer();
  if (!player) {
    return h("p", { class: "hint" }, h("a", { href: "/players" }, t("lobby.signIn")),
      t("lobby.signInNote"));
  }
  return h("fieldset", { class: "rated-field" }, h("legend", {}, t("lobby.rating")),
    h("label", { class: "check" }, h("input", { type: "checkbox", name: "rated", id: "rated" }),
      h("span", {}, h("strong", {}, t("lobby.rated")), t("lobby.ratedNote"),
        h("a", { href: `/players/${encodeURIComponent(player.id)}` }, player.name),
        t("lobby.ratedNoteEnd"))));
}

// ------------------------------------------------------------------ Hold the Line


let scenarios = null; // GET /api/scenarios, once
let campaigns = []; // GET /api/campaigns, once (Hold the Line's), listed after the scenarios
const CAMPAIGN = "campaign:"; // the scenario list's value of a campaign: CAMPAIGN + its name

function htlScenarioField() {
  const select = h("select", { name: "scenario", id: "scenario" },
    h("option", { value: "tutorial" }, t("lobby.loadingScenarios")));
  const about = h("p", { class: "hint scenario-about" });
  return h("fieldset", { class: "htl-only", hidden: true }, h("legend", {}, t("lobby.scenario")),
    h("div", { class: "field" }, h("label", { for: "scenario", class: "sr-only" }, t("lobby.scenario")), select),
    about);
}

/** Show the Hold the Line fields (scenario, its sides) or the card games' ones. */
async function syncHtl(form, on) {
  form.querySelector(".htl-only").hidden = !on;
  form.querySelector(".cards-only").hidden = on;
  const labels = form.querySelectorAll(".seat-field .choice");
  const hint = form.querySelector(".seat-hint");
  if (!on) {
    [t("lobby.southNote"), t("lobby.northNote")].forEach((extra, i) => {
      labels[i].querySelector(".choice-label").textContent = seatName(i);
      labels[i].querySelector(".choice-extra").textContent = extra;
    });
    hint.textContent = t("lobby.firstRandom");
    return;
  }
  const select = form.querySelector("#scenario");
  if (!scenarios) {
    try {
      scenarios = (await api.scenarios()).scenarios || [];
      campaigns = ((await api.campaigns()).campaigns || []).filter((c) => c.game === "holdtheline");
    } catch (e) {
      form.querySelector(".scenario-about").textContent = t("lobby.scenariosFailed", { reason: e.message });
      return;
    }
    const chosen = select.value;
    mount(select, scenarios.map((sc) => h("option", { value: sc.name, selected: sc.name === chosen },
      `${scenarioTitle(sc.name, sc.title)}${sc.date ? ` (${sc.date.slice(0, 4)})` : ""}`)),
    campaigns.length ? h("optgroup", { label: t("lobby.campaigns") },
      campaigns.map((c) => h("option", { value: CAMPAIGN + c.name },
        `${campaignTitle(c.name, c.title)} — ${c.games.map((g) => scenarioTitle(g.options?.scenario, g.title)).join(t("common.listSep"))}`))) : null);
    select.addEventListener("change", () => syncHtl(form, true));
  }
  const chosenCampaign = campaigns.find((c) => CAMPAIGN + c.name === select.value);
  const sc = chosenCampaign
    ? scenarios.find((x) => x.name === chosenCampaign.games[0].options.scenario)
    : scenarios.find((x) => x.name === select.value) || scenarios[0];
  if (!sc) return;
  form.querySelector(".scenario-about").textContent = localized(sc, "summary");
  sc.sides.forEach((side, i) => {
    labels[i].querySelector(".choice-label").textContent = sideLabel(side.label);
    labels[i].querySelector(".choice-extra").textContent = t("lobby.homeEdge", {
      edges: side.home_edges.map((e) => t(`lobby.edge.${e}`)).join(t("common.listSep")) });
  });
  hint.textContent = t("lobby.htlFirst", { side: sideLabel(sc.sides[sc.first].label), turns: sc.turns });
  if (chosenCampaign) {
    form.querySelector(".scenario-about").textContent = `${localized(chosenCampaign, "summary")} ${t("lobby.campaignNote")}`;
  }
}

/** A packaged scenario's or campaign's `field` in the page's language (`words`), else its own. */
const localized = (item, field) => item.words?.[lang()]?.[field] ?? item[field];

async function loadGames(el) {
  const tokens = allTokens();
  if (!tokens.length) {
    mount(el, h("p", { class: "muted" }, t("lobby.noGamesYet")));
    return;
  }
  let list;
  const htl = t("names.holdtheline.title");
  const rulesets = { holdtheline: { title: htl, short: htl } };
  try {
    list = (await api.games(tokens)).games || [];
    for (const game of new Set(list.map((g) => g.game))) rulesets[game] ??= await loadRuleset(game);
  } catch (e) {
    mount(el, h("p", { class: "form-error" }, t("lobby.gamesFailed", { reason: e.message })));
    return;
  }
  // a hot-seat game answers once per seat: show it once
  const seen = new Set();
  list = list.filter((g) => !seen.has(g.id) && seen.add(g.id));
  list.sort((a, b) => String(b.updated || b.created).localeCompare(String(a.updated || a.created)));
  if (!list.length) {
    mount(el, h("p", { class: "muted" }, t("lobby.noGames")));
    return;
  }
  mount(el, h("ul", { class: "game-list" }, list.map((g) => gameRow(g, rulesets[g.game], el))));
}

function gameRow(g, rules, listEl) {
  const hot = g.mode === "hotseat";
  const mode = t(g.mode === "ai" ? "lobby.rowAi" : g.mode === "friend" ? "table.modeFriend" : "table.modeHotseat");
  let status = t(g.status === "waiting" ? "lobby.waitingFriend" : g.status === "playing" ? "lobby.inPlay" : "lobby.over");
  const summary = g.result?.summary || g.result;
  if (g.status === "over" && summary && "winner" in summary && g.game === "holdtheline") {
    status = summary.winner === null ? t("lobby.draw") : hot ? summary.text || t("lobby.over")
      : t(summary.winner === g.seat ? "lobby.youWon" : "lobby.youLost");
  } else if (g.status === "over" && summary && "winner" in summary) {
    status = resultText(rules, summary, hot ? null : g.seat);
  } else if (g.status === "over" && g.result?.abandoned) {
    status = g.result.by === g.seat && !hot ? t("lobby.youResigned") : t("lobby.resigned", { who: seatName(g.result.by) });
  }
  const when = g.updated || g.created;
  return h("li", { class: `game-row ${g.status}` },
    h("div", { class: "game-row-main" },
      h("a", { href: `/play/${encodeURIComponent(g.id)}`, class: "game-link" }, rules.title),
      h("span", { class: "muted" }, ` · ${mode}${hot || g.game === "holdtheline" ? "" : t("lobby.youAre", { who: seatName(g.seat) })}`),
      h("div", { class: `game-status ${g.status}` }, status,
        when ? h("time", { datetime: when, class: "muted" }, ` · ${new Date(when).toLocaleString(lang())}`) : null)),
    h("div", { class: "game-row-actions" },
      h("a", { class: "btn small", href: `/play/${encodeURIComponent(g.id)}` },
        t(g.status === "over" ? "lobby.open" : "lobby.continue")),
      g.status === "over" ? h("a", { class: "btn small", href: `/replay/${encodeURIComponent(g.id)}` }, t("lobby.replay")) : null,
      h("button", { type: "button", class: "btn small ghost", "aria-label": t("lobby.forgetLabel", { game: rules.short }),
        onclick: () => {
          if (!confirm(t("lobby.forgetConfirm"))) return;
          forgetGame(g.id);
          loadGames(listEl);
        } }, t("lobby.forget"))));
}
