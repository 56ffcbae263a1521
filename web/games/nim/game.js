// Nim's web module (the toy game: protocol/NIM.md). The whole game's web
// side is this folder: the lobby finds it through GET /api/games
// (web/games.js), and the interface is web/TESTING.md's "Game modules".

import { api } from "../../net.js";
import { h, showError } from "../../ui.js";
import { remember } from "../../seats.js";
import { nameField } from "../../player.js";
import { nimPage } from "./page.js";

export default {
  title: "Nim",
  order: 90, // a toy: the real games come first
  page: (app, id, spectator) => nimPage(app, id, spectator),
  newGameForm,
  listing(m) {
    return { words: `Nim · ${m.seats_taken.length} of ${m.seats} seats taken` };
  },
};

/// The lobby's "New Nim" form: the pile's size, then seat 0 and the page.
function newGameForm({ go, badName }) {
  const pile = h("input", { type: "number", min: 1, max: 100, value: 15, id: "nim-pile", "data-test": "nim-pile" });
  const create = async (ev) => {
    ev.preventDefault();
    try {
      const c = await api("POST", "/api/matches", { game: "nim", ...nameField(), options: { pile: Number(pile.value) } });
      remember(c.match_id, { token: c.token, seat: c.seat, join_code: c.join_code, game: "nim" });
      go(`/match/${c.match_id}`);
    } catch (e) {
      if (e.code === "bad_name") badName(e.message);
      showError(e.code, e.message);
    }
  };
  return h("form", { class: "card nim-form", onsubmit: create },
    h("h2", {}, "New Nim"),
    h("p", { class: "hint" }, "A toy game: take 1 to 3 counters in turn; who takes the last one wins."),
    h("div", { class: "row" }, h("label", { for: "nim-pile" }, "Counters"), pile),
    h("div", {}, h("button", { type: "submit", class: "primary", "data-test": "create-nim" }, "Create Nim")));
}
