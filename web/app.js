// The Athlas web client: routes by path (the server answers every page path
// with this page) and draws the lobby or a game.

import { api } from "./net.js";
import { h, showError, setConn } from "./ui.js";
import { games, remember, seatOf } from "./seats.js";
import { gameModule, hostedGames, unknownGame } from "./games.js";
import { nameCard, nameField } from "./player.js";
import { redeemPage } from "./transfer.js";

const app = document.getElementById("app");
let leave = null; // the current page's clean-up (closes its socket)

export function go(path, replace = false) {
  if (replace) history.replaceState(null, "", path);
  else history.pushState(null, "", path);
  route();
}

async function route() {
  if (leave) { leave(); leave = null; }
  setConn("idle");
  app.replaceChildren();
  const path = location.pathname;
  let m;
  try {
    if (path === "/" || path === "") return lobby();
    if ((m = path.match(/^\/join\/([A-Za-z0-9]+)$/))) return await join(m[1]);
    if ((m = path.match(/^\/campaign-join\/([A-Za-z0-9]+)$/))) return await joinCampaign(m[1]);
    if ((m = path.match(/^\/transfer\/([A-Za-z0-9]+)$/))) return await redeemPage(app, m[1], go);
    if ((m = path.match(/^\/match\/([0-9a-f-]{36})$/))) return (leave = await gamePage(m[1], false));
    if ((m = path.match(/^\/watch\/([0-9a-f-]{36})$/))) return (leave = await gamePage(m[1], true));
    if ((m = path.match(/^\/replay\/([0-9a-f-]{36})$/))) return (leave = await replayPage(m[1]));
    if ((m = path.match(/^\/campaign\/([0-9a-f-]{36})$/))) return (leave = await campaignPage(m[1]));
    app.append(h("p", {}, "No such page. ", h("a", { href: "/", "data-link": true }, "Back to the lobby")));
  } catch (e) {
    showError(e.code ?? "error", e.message);
  }
}

/// `/campaign-join/CODE`: take a free seat of a campaign (a party's link).
async function joinCampaign(code) {
  app.append(h("p", {}, `Joining the party ${code}…`));
  try {
    const c = await api("POST", `/api/campaigns/join/${encodeURIComponent(code)}`);
    remember(c.campaign_id, { token: c.token, seat: c.seat, campaign: true });
    go(`/campaign/${c.campaign_id}`, true);
  } catch (e) {
    app.replaceChildren(h("p", {}, `Could not join ${code}: ${e.message}`), h("a", { href: "/", "data-link": true }, "Back to the lobby"));
    showError(e.code, e.message);
  }
}

/// A match's game: the seat's saved entry says, else the server (and a
/// seat's entry keeps it: a join's answer does not name the game). Null
/// when the server could not say (the error is shown).
async function matchGame(id, spectator) {
  const mine = spectator ? null : seatOf(id);
  if (mine?.game) return mine.game;
  try {
    const { game } = await api("GET", `/api/matches/${id}`);
    if (mine) remember(id, { game });
    return game;
  } catch (e) {
    showError(e.code, e.message);
    app.append(h("p", {}, `Could not open this match: ${e.message} `, h("a", { href: "/", "data-link": true }, "Back to the lobby")));
    return null;
  }
}

/// `/match/ID`, `/watch/ID`: the match's page, drawn by its game's module.
async function gamePage(id, spectator) {
  const game = await matchGame(id, spectator);
  if (!game) return null;
  const mod = await gameModule(game);
  if (!mod) { app.append(unknownGame(game)); return null; }
  return mod.page(app, id, spectator, go);
}

/// `/replay/ID`: a finished match step by step, if its game has a replay.
async function replayPage(id) {
  const game = await matchGame(id, false);
  if (!game) return null;
  const mod = await gameModule(game);
  if (!mod?.replay) { app.append(unknownGame(game, "This replay")); return null; }
  return mod.replay(app, id, go);
}

/// `/campaign/ID`: the campaign's page, drawn by its game's module.
async function campaignPage(id) {
  const mine = seatOf(id);
  let game = mine?.game;
  if (!game) {
    try {
      ({ game } = await api("GET", `/api/campaigns/${id}`, undefined, mine?.token));
      if (mine) remember(id, { game });
    } catch (e) {
      showError(e.code, e.message);
      app.append(h("p", {}, `Could not open this campaign: ${e.message} `, h("a", { href: "/", "data-link": true }, "Back to the lobby")));
      return null;
    }
  }
  const mod = await gameModule(game);
  if (!mod?.campaign) { app.append(unknownGame(game, "This campaign")); return null; }
  return mod.campaign.page(app, id, go);
}

/// `/join/CODE`: take the free seat, keep its token, go to the game (the
/// code page is replaced in the history so Back does not join again). A
/// code that opens no match may open a campaign (Divinity's party).
async function join(code) {
  // Your own invite link (or a link you joined by) takes you to your seat:
  // a seat of that match kept here answers it, without asking the server.
  const held = Object.entries(games()).find(([, g]) => g.join_code && g.join_code.toUpperCase() === code.toUpperCase() && !g.stale);
  if (held) return go(held[1].campaign ? `/campaign/${held[0]}` : `/match/${held[0]}`, true);
  app.append(h("p", {}, `Joining ${code}…`));
  try {
    let j;
    try {
      j = await api("POST", `/api/join/${encodeURIComponent(code)}`, nameField());
    } catch (e) {
      if (e.status !== 404) throw e;
      const c = await api("POST", `/api/campaigns/join/${encodeURIComponent(code)}`);
      remember(c.campaign_id, { token: c.token, seat: c.seat, campaign: true, join_code: code.toUpperCase() });
      return go(`/campaign/${c.campaign_id}`, true);
    }
    remember(j.match_id, { token: j.token, seat: j.seat, join_code: code.toUpperCase() });
    go(`/match/${j.match_id}`, true);
  } catch (e) {
    // A refused name: fixed here, then joined again (no seat was taken).
    const again = e.code === "bad_name"
      ? [nameCard(e.message), h("button", { class: "primary", "data-test": "join-again", onclick: () => route() }, `Join ${code}`)]
      : [];
    app.replaceChildren(h("p", {}, `Could not join ${code}: ${e.message}`), ...again, h("a", { href: "/", "data-link": true }, "Back to the lobby"));
    showError(e.code, e.message);
  }
}

/// The lobby: each hosted game's form, joining by code, this browser's
/// games, and the server's open and played matches.
async function lobby() {
  let names = nameCard();
  const lobbyEl = h("section", { class: "lobby", "data-test": "lobby", "data-ready": "false" }, names);
  app.append(lobbyEl);
  let hosted;
  try {
    hosted = await hostedGames();
  } catch (e) {
    showError(e.code, e.message);
    lobbyEl.append(h("p", { class: "card" }, `Could not list this server's games: ${e.message}`));
    lobbyEl.dataset.ready = "true";
    return;
  }
  if (!lobbyEl.isConnected) return; // left while the games were listed
  const byName = new Map(hosted.shown.map((g) => [g.name, g.module]));
  // The server's word on a name: said beside the name, to be fixed there.
  const badName = (message) => { const fixed = nameCard(message); names.replaceWith(fixed); names = fixed; fixed.querySelector("input")?.focus(); };
  const forms = hosted.shown.map((g) => g.module.newGameForm?.({ go, badName })).filter(Boolean);
  const missing = hosted.missing.length
    ? h("p", { class: "card hint", "data-test": "games-missing" }, `This server also hosts ${hosted.missing.join(", ")}, which this web client cannot show.`)
    : null;

  const open = h("ul", { "data-test": "open-matches", class: "list" }, h("li", {}, "Loading…"));
  const active = h("ul", { "data-test": "active-matches", class: "list" });
  const mine = h("ul", { "data-test": "my-games", class: "list" });
  const campaigns = [];
  for (const [id, g] of Object.entries(games()).sort((a, b) => b[1].saved_at - a[1].saved_at)) {
    if (g.campaign_id) continue; // a campaign's location: listed with its campaign
    const title = byName.get(g.game)?.title;
    const what = h("span", { class: "what" }, g.campaign ? `${title ?? "A"} campaign` : `${g.game ?? "a game"} · seat ${g.seat}`);
    if (g.campaign) campaigns.push([id, g, what]);
    mine.append(h("li", { "data-match-id": id, "data-test": "my-game" },
      what, ` · ${id.slice(0, 8)} `,
      h("a", { href: g.campaign ? `/campaign/${id}` : `/match/${id}`, "data-link": true, "data-test": "resume" }, "Resume")));
  }
  if (!mine.children.length) mine.append(h("li", {}, "None yet: create or join a game."));
  if (campaigns.length) describeMyCampaigns(campaigns, byName);
  const joinCode = h("input", { placeholder: "join code", "data-test": "join-code", "aria-label": "join code", size: 10 });
  lobbyEl.append(
      ...forms,
      ...(missing ? [missing] : []),
      h("form", { class: "card", onsubmit: (ev) => { ev.preventDefault(); if (joinCode.value.trim()) go(`/join/${joinCode.value.trim()}`); } },
        h("h2", {}, "Join with a code"), joinCode, " ", h("button", { type: "submit", "data-test": "join-submit" }, "Join")),
      h("div", { class: "card" }, h("h2", {}, "My games"), mine),
      h("div", { class: "card" }, h("h2", {}, "Open games"), open),
      h("div", { class: "card" }, h("h2", {}, "Being played"), active));
  // data-ready: both listings answered (or failed in words): tests wait on it.
  Promise.all([listMatches(open, "open", byName), listMatches(active, "active", byName)]).then(() => { lobbyEl.dataset.ready = "true"; });
}

/// The server's matches of one status, each in its game's words (a game
/// may leave some out: `listing` answers null); games this client cannot
/// show are left out.
async function listMatches(ul, status, byName) {
  try {
    const { matches } = await api("GET", `/api/matches?status=${status}`);
    ul.replaceChildren();
    for (const m of matches) {
      const listed = byName.get(m.game)?.listing?.(m, status);
      if (!listed) continue;
      const what = h("span", { class: "what" }, listed.words);
      listed.later?.then((words) => { if (words) what.textContent = words; }, () => {});
      ul.append(h("li", { "data-match-id": m.match_id, "data-test": "match-row", "data-status": status, "data-game": m.game },
        what, ` · move ${m.seq} `,
        status === "open" && m.join_code ? h("a", { href: `/join/${m.join_code}`, "data-link": true, "data-test": "join" }, "Join") : null, " ",
        h("a", { href: `/watch/${m.match_id}`, "data-link": true, "data-test": "watch" }, "Watch")));
    }
    if (!ul.children.length) ul.append(h("li", {}, status === "open" ? "No open game: create one." : "None."));
  } catch (e) {
    ul.replaceChildren(h("li", {}, `Could not list matches: ${e.message}`));
  }
}

/// This browser's campaigns in their games' words (the plain words stay
/// where a game says nothing more).
async function describeMyCampaigns(list, byName) {
  try {
    const { campaigns } = await api("POST", "/api/campaigns/mine", { tokens: list.map(([, g]) => g.token) });
    await Promise.all(list.map(async ([id, g, what]) => {
      const st = campaigns.find((c) => c.campaign_id === id);
      if (!st) return;
      const words = await byName.get(st.game)?.campaign?.describeMine?.(st);
      if (words) what.textContent = words;
    }));
  } catch { /* the plain words stay */ }
}

// Links inside the app change the page without a reload.
document.addEventListener("click", (ev) => {
  const a = ev.target.closest("a[data-link]");
  if (!a || ev.ctrlKey || ev.metaKey || ev.shiftKey || a.target) return;
  ev.preventDefault();
  go(a.getAttribute("href"));
});
window.addEventListener("popstate", route);
route();
