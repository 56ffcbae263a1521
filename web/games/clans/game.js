// The clan battle's web module: what the lobby and the router need of it
// (the interface: web/TESTING.md, "Game modules"; loaded by web/games.js).

import { api } from "../../net.js";
import { h, showError } from "../../ui.js";
import { remember } from "../../seats.js";
import { nameField } from "../../player.js";
import { clansPage } from "./page.js";
import { loadCatalogue, clanIds, clanName, clanStatus, fieldIds, fieldName } from "./cards.js";

export default {
  title: "Clan battle",
  order: 20,
  page: (app, id, spectator) => clansPage(app, id, spectator),
  newGameForm,
  listing(m) {
    return { words: `clan battle · ${m.seats === 4 ? "2 against 2" : "1 against 1"} · ${m.seats_taken.length} of ${m.seats} seats taken` };
  },
};

const TEAM = (seat) => `team ${(seat % 2) + 1}`;

/// The lobby's "New clan battle" form: 1v1 or 2v2, a clan per seat, the
/// battlefield, the FAQ's variant (SP and EXP per turn), a turn limit.
/// Creates the match as seat 0 and opens it.
function newGameForm({ go, badName }) {
  const size = h("select", { "data-test": "clans-size", id: "clans-size" },
    h("option", { value: "2" }, "1 against 1"),
    h("option", { value: "4" }, "2 against 2 (teams: seats 0 + 2, seats 1 + 3)"));
  const clanBox = h("div", { class: "clans-seats" });
  const field = h("select", { "data-test": "clans-battlefield", id: "clans-battlefield" });
  const sp = h("input", { type: "number", min: 0, max: 20, value: 4, "data-test": "clans-sp", id: "clans-sp" });
  const exp = h("input", { type: "number", min: 0, max: 5, value: 0, "data-test": "clans-exp", id: "clans-exp" });
  const turns = h("input", { type: "number", min: 1, max: 999, placeholder: "none", "data-test": "clans-max-turns", id: "clans-max-turns" });
  const picks = []; // the clan selects by seat

  const drawSeats = () => {
    const n = Number(size.value);
    const kept = picks.map((s) => s.value);
    picks.length = 0;
    clanBox.replaceChildren(...Array.from({ length: n }, (_, seat) => {
      const sel = h("select", { "data-test": "clans-clan", "data-seat": seat, id: `clans-clan-${seat}` },
        clanIds().map((c) => h("option", { value: c }, `${clanName(c)} (${clanStatus(c)})`)));
      sel.value = kept[seat] ?? clanIds()[seat % 2] ?? clanIds()[0];
      picks.push(sel);
      return h("div", { class: "row" }, h("label", { for: `clans-clan-${seat}` }, `Seat ${seat}${seat === 0 ? " (you)" : ""}, ${TEAM(seat)}`), sel);
    }));
  };
  const drawFields = () => {
    const was = field.value;
    field.replaceChildren(...fieldIds().map((f) => h("option", { value: f }, fieldName(f))));
    if (was) field.value = was;
  };
  size.addEventListener("change", drawSeats);
  drawSeats();
  drawFields();
  loadCatalogue().then(() => { drawSeats(); drawFields(); }, () => { /* the defaults' names stand */ });

  const create = async (ev) => {
    ev.preventDefault();
    const options = {
      clans: picks.map((s) => s.value),
      battlefield: field.value,
      sp_per_turn: Number(sp.value),
      exp_per_turn: Number(exp.value),
    };
    if (turns.value) options.max_turns = Number(turns.value);
    try {
      const c = await api("POST", "/api/matches", { game: "clans", ...nameField(), options });
      remember(c.match_id, { token: c.token, seat: c.seat, join_code: c.join_code, game: "clans" });
      go(`/match/${c.match_id}`);
    } catch (e) {
      if (e.code === "bad_name") badName(e.message);
      showError(e.code, e.message);
    }
  };
  return h("form", { class: "card clans-form", "data-test": "clans-form", onsubmit: create },
    h("h2", {}, "New clan battle"),
    h("p", { class: "hint" }, "Gods and their clans fight on a square grid of ground, forest, water and mountains until a God falls. Cards and battlefields authored for Athlas."),
    h("div", { class: "row" }, h("label", { for: "clans-size" }, "Players"), size),
    clanBox,
    h("div", { class: "row" }, h("label", { for: "clans-battlefield" }, "Battlefield"), field),
    h("div", { class: "row" }, h("label", { for: "clans-sp" }, "SP per turn"), sp, h("small", { class: "hint" }, "4 in an official game")),
    h("div", { class: "row" }, h("label", { for: "clans-exp" }, "EXP per turn"), exp, h("small", { class: "hint" }, "0 officially, 1 fast-paced")),
    h("div", { class: "row" }, h("label", { for: "clans-max-turns" }, "Turn limit"), turns, h("small", { class: "hint" }, "optional: then the Gods' HP decide")),
    h("div", {}, h("button", { type: "submit", class: "primary", "data-test": "create-clans" }, "Create clan battle")));
}
