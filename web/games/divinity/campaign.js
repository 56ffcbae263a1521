// The campaign: the lobby's form for a new one; its page (`/campaign/ID`:
// who sits where, the Origins to choose from with their texts, the party's
// link, then the current location); and following the party from one
// location to the next (`followCampaign`), which the location page uses
// once its location is over.

import { api } from "../../net.js";
import { h, morphChildren } from "../../dom.js";
import { showError } from "../../ui.js";
import { remember, seatOf } from "../../seats.js";
import { loadCatalogue, cat, originStats } from "./catalogue.js";
import { originName } from "./names.js";
import { cardChip } from "./chips.js";
import { joinNames } from "./actions.js";
import { sayError } from "./errors.js";

/// The last match of the campaign ended in a forced restart: the party
/// plays the same location again (after `POST …/next`).
export function mustRestart(st) {
  const last = st?.matches?.[st.matches.length - 1];
  return st?.stage === "between" && last?.outcome?.result === "party_lost";
}

/// The party's leader, if the host set one (only its `next` is accepted).
export const leaderOf = (st) => st?.saved?.options?.leader ?? null;

/// Ask for the next location; a refusal that only says another seat got
/// there first (or only the leader may) is not an error to show.
export async function askNext(id, token, { quiet = false } = {}) {
  try {
    await api("POST", `/api/campaigns/${id}/next`, undefined, token);
    return "started";
  } catch (e) {
    if (["not_leader", "not_ready_for_next"].includes(e.code)) return e.code;
    if (!quiet) showError(e.code, sayError(e.code, e.message));
    return "error";
  }
}

/// Poll the campaign until it has a current match other than `from`, then
/// go there (a seat's token is remembered for it; a spectator watches).
/// `autoNext()`: whether this page should ask for the next location now
/// (it is between locations and the party need not decide anything).
/// `onStatus(st)` hears every answer. Returns a stop function.
export function followCampaign({ id, token, seat, from, spectator, go, autoNext, onStatus }) {
  let stopped = false;
  let timer = null;
  const tick = async () => {
    timer = null;
    if (stopped) return;
    let st = null;
    try { st = await api("GET", `/api/campaigns/${id}`, undefined, spectator ? undefined : token); } catch { /* try again */ }
    if (stopped) return;
    if (st) {
      onStatus?.(st);
      const cur = st.current?.match_id;
      if (cur && cur !== from) {
        stopped = true;
        if (!spectator && token) remember(cur, { token, seat: st.you ?? seat, game: "divinity", campaign_id: id });
        go(spectator ? `/watch/${cur}` : `/match/${cur}`);
        return;
      }
      if (st.stage === "over") { stopped = true; return; }
      if (!spectator && token && st.stage === "between" && !mustRestart(st) && autoNext?.(st)) {
        await askNext(id, token, { quiet: true });
        if (stopped) return;
        timer = setTimeout(tick, 1000);
        return;
      }
    }
    timer = setTimeout(tick, 1500);
  };
  tick();
  return {
    stop: () => { stopped = true; if (timer) clearTimeout(timer); },
    now: () => { if (timer) { clearTimeout(timer); tick(); } },
  };
}

/// Copy a link to the clipboard; where the page may not, select its text
/// so the reader copies it by hand. `field()` finds the link's field in
/// the page as it is now (a redraw patches the page: never hold on to an
/// element drawn for it); `said(text)` keeps the result to show.
export function copyButton(field, note, said) {
  return [h("button", {
    type: "button", class: "small", "data-test": "copy-link",
    onclick: async () => {
      const input = field();
      if (!input) return;
      try {
        if (!navigator.clipboard?.writeText) throw new Error("no clipboard");
        await navigator.clipboard.writeText(input.value);
        said("Copied: paste it to your friends.");
      } catch {
        input.focus();
        input.select();
        said("Selected: press Ctrl+C (or ⌘C) to copy it.");
      }
    },
  }, "Copy"), note ? h("span", { class: "hint copied", "aria-live": "polite" }, " ", note) : null];
}

/// One Origin to choose, with what the book prints on its card.
function originCard(o, { own, takenBy, onChoose }) {
  const st = originStats(o.id, 1);
  return h("li", { class: `origin-card${own ? " own" : ""}`, "data-test": "origin-card", "data-origin": o.id, "data-key": `origin:${o.id}` },
    h("div", { class: "origin-head" },
      h("b", { class: "origin-name" }, o.name),
      o.keywords?.length ? h("span", { class: "keywords" }, o.keywords.join(" · ")) : null),
    st ? h("p", { class: "stats" }, `${st.hp} HP · ${st.ap} AP a turn · ${st.source} Source`) : null,
    h("p", { class: "ability" }, h("b", {}, "Special ability: "), o.special_ability ?? ""),
    h("p", { class: "starting" }, "Skills: ", (o.skills ?? []).map((s, i) => [i ? " " : null, cardChip(s)])),
    h("p", { class: "starting" }, "Items: ", (o.items ?? []).map((s, i) => [i ? " " : null, cardChip(s)]),
      (o.talents ?? []).length ? [" · Talent: ", (o.talents ?? []).map((s, i) => [i ? " " : null, cardChip(s)])] : null),
    h("button", {
      "data-test": "origin", "data-origin": o.id, class: own ? "primary" : undefined,
      disabled: takenBy != null && !own ? true : undefined, "data-focus": `origin:${o.id}`,
      onclick: onChoose,
    }, own ? `You play ${o.name}` : takenBy != null ? `${o.name} is taken` : `Play ${o.name}`));
}

/// `/campaign/ID`: who sits where, the Origins, the join link while seats
/// are free, then the current location (polled: a lobby page, no socket).
export function campaignPage(app, id, go) {
  const mine = seatOf(id);
  const root = h("section", { class: "campaign", "data-test": "campaign", "data-campaign-id": id });
  app.append(root);
  let stopped = false;
  let timer = null;
  let st = null;
  let copied = null;
  loadCatalogue().then(() => draw(), (e) => showError(e.code, `The cards could not be loaded: ${e.message}`));

  const choose = async (origin) => {
    try { await api("POST", `/api/campaigns/${id}/choose`, { choice: { origin } }, mine.token); refresh(); } catch (e) { showError(e.code, sayError(e.code, e.message)); }
  };
  const draw = () => {
    if (!st || stopped) return;
    root.dataset.stage = st.stage;
    const label = (x) => (x.label ? originName(x.label) : null);
    const seats = h("ul", { class: "list", "data-test": "campaign-seats" },
      st.seats.map((x) => h("li", { "data-test": "campaign-seat", "data-seat": x.seat, "data-taken": String(x.taken) },
        x.seat === st.you ? "You" : x.seat === 0 ? "The host" : `Player ${x.seat + 1}`, ": ",
        x.taken ? (label(x) ? `plays ${label(x)}` : "has not chosen an Origin yet") : "a free seat: waiting for a friend to join",
        x.connected ? " · at the table" : "")));
    const free = st.seats.filter((x) => !x.taken).length;
    const parts = [h("h2", {}, "Divinity campaign"),
      h("p", { class: "hint" }, `A party of ${st.seats.length}. ${free ? `${free} seat${free === 1 ? " is" : "s are"} still free.` : "Every seat is taken."}`),
      seats];
    if (mine?.join_code && free) {
      const link = `${location.origin}/campaign-join/${mine.join_code}`;
      const input = h("input", { class: "invite", readonly: true, value: link, "aria-label": "the party's link", "data-test": "join-link-text", onfocus: (ev) => ev.target.select() });
      parts.push(h("div", { class: "share" }, h("p", {}, "Send this link to your friends: each who opens it takes a free seat."),
        h("p", {}, h("a", { href: link, "data-test": "join-link" }, link)),
        h("p", {}, input, " ", copyButton(() => root.querySelector("[data-test=join-link-text]"), copied, (text) => { copied = text; draw(); }))));
    }
    if (st.stage === "choosing" && st.you != null && !cat()) {
      parts.push(h("p", { class: "hint" }, "Loading the Origins…"));
    } else if (st.stage === "choosing" && st.you != null) {
      const own = st.seats.find((x) => x.seat === st.you)?.label ?? null;
      const takenBy = new Map(st.seats.filter((x) => x.label).map((x) => [x.label, x.seat]));
      const waitingFor = st.seats.filter((x) => !x.label).length;
      parts.push(h("div", { class: "origins", "data-test": "origins" },
        h("h3", {}, own ? `You play ${originName(own)}` : "Choose your Origin"),
        h("p", { class: "hint" }, own
          ? `You may change your mind until the party sets out. ${waitingFor ? `The party sets out once every seat has an Origin (${waitingFor} still to choose).` : ""}`
          : "Each player plays one Origin, and no two the same. Each card shows what that Origin starts with; click a skill or item to read it."),
        h("ul", { class: "origin-cards" }, (cat()?.originList ?? []).map((o) => originCard(o, {
          own: o.id === own, takenBy: takenBy.get(o.id), onChoose: () => choose(o.id),
        })))));
    }
    if (st.stage === "between" && st.you != null) {
      const restart = mustRestart(st);
      const leader = leaderOf(st);
      parts.push(h("div", { class: "card next" },
        h("p", {}, restart ? "The party was forced back: it must try this location again." : "The party is between two locations."),
        leader != null && leader !== st.you ? h("p", { class: "hint" }, `The party's leader, ${label(st.seats[leader]) ?? `player ${leader + 1}`}, sets out.`) : null,
        h("button", {
          class: "primary", "data-test": restart ? "try-again" : "next-location",
          onclick: async () => { await askNext(id, mine.token); refresh(); },
        }, restart ? "Try again" : "Set out for the next location")));
    }
    if (st.current?.match_id) {
      const at = st.current.standing;
      parts.push(h("p", {}, at?.location_name ? `The party is at ${at.location_name}${at.round ? `, round ${at.round}` : ""}. ` : "The party is playing a location now. ",
        h("a", { href: `/match/${st.current.match_id}`, "data-link": true, "data-test": "play-location" }, st.you != null ? "Go to the table" : "Watch")));
    }
    if (st.stage === "over") parts.push(h("p", { "data-test": "campaign-over" }, "The campaign is over: the party reached its end."));
    const fresh = h("section", {}, parts);
    morphChildren(root, fresh);
  };
  const refresh = async () => {
    if (stopped) return;
    if (timer) { clearTimeout(timer); timer = null; }
    try {
      st = await api("GET", `/api/campaigns/${id}`, undefined, mine?.token);
    } catch (e) {
      root.replaceChildren(h("p", {}, `Could not load the campaign: ${e.message}`));
      showError(e.code, e.message);
      return;
    }
    if (stopped) return;
    // A seat goes straight to the table once the party has set out.
    if (st.current?.match_id && st.you != null && mine) {
      remember(st.current.match_id, { token: mine.token, seat: st.you, game: "divinity", campaign_id: id });
      stopped = true;
      go(`/match/${st.current.match_id}`, true);
      return;
    }
    // Between two locations after an exit: the page sets out by itself
    // (another seat's identical call may win the race; the leader's only
    // is accepted when the party has one).
    if (st.stage === "between" && st.you != null && mine && !mustRestart(st) && (leaderOf(st) == null || leaderOf(st) === st.you)) {
      const r = await askNext(id, mine.token, { quiet: true });
      if (r === "started") { refresh(); return; }
    }
    draw();
    timer = setTimeout(refresh, 1500);
  };
  refresh();
  return () => { stopped = true; if (timer) clearTimeout(timer); };
}

/// The lobby's form for a new campaign.
export function campaignForm(go) {
  const seats = h("select", { "data-test": "party-size", id: "party-size" },
    [1, 2, 3, 4].map((n) => h("option", { value: n, selected: n === 3 ? true : undefined }, `${n} ${n === 1 ? "player" : "players"}`)));
  const create = async (ev) => {
    ev.preventDefault();
    try {
      const c = await api("POST", "/api/campaigns", { game: "divinity", seats: Number(seats.value), options: {} });
      remember(c.campaign_id, { token: c.token, seat: c.seat, join_code: c.join_code, game: "divinity", campaign: true });
      go(`/campaign/${c.campaign_id}`);
    } catch (e) { showError(e.code, e.message); }
  };
  return h("form", { class: "card", onsubmit: create },
    h("h2", {}, "New Divinity campaign"),
    h("p", { class: "hint" }, "A party of 1 to 4 plays Divinity: Original Sin together, one location after another. You get a link to send your friends."),
    h("div", { class: "row" }, h("label", { for: "party-size" }, "Party"), seats),
    h("div", {}, h("button", { type: "submit", class: "primary", "data-test": "create-campaign" }, "Create campaign")));
}

/// A campaign's line in the lobby's lists: its party and how many seats
/// are taken (from the campaign: its matches hold no seats of their own).
export function campaignWords(st) {
  const taken = st.seats.filter((x) => x.taken);
  const names = taken.map((x) => (x.label ? originName(x.label) : null)).filter(Boolean);
  const at = st.current?.standing;
  const where = at?.location_name ? ` · at ${at.location_name}${at.round ? `, round ${at.round}` : ""}` : "";
  return `Divinity, a party of ${st.seats.length} · ${taken.length} of ${st.seats.length} seats taken${names.length ? ` (${joinNames(names)})` : ""}${where}`;
}
