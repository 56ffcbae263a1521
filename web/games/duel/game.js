// The duel's web module: what the lobby and the router need of it (the
// interface: web/TESTING.md, "Game modules"; loaded by web/games.js).

import { api } from "../../net.js";
import { h, showError } from "../../ui.js";
import { remember } from "../../seats.js";
import { nameField } from "../../player.js";
import { duelPage } from "./page.js";
import { replayPage } from "./replay.js";

export default {
  title: "Duel",
  order: 0, // the lobby's first form: the game most come to play
  page: (app, id, spectator) => duelPage(app, id, spectator),
  replay: (app, id) => replayPage(app, id),
  newGameForm,
  listing(m, status) {
    return { words: `${m.live ? "live" : "correspondence"} duel · ${m.seats_taken.length} of ${m.seats} seats taken` };
  },
};

/// The lobby's "New duel" form: creates the match, seat 0, and opens it.
function newGameForm({ go, badName }) {
  const points = h("input", { type: "number", min: 1, max: 500, value: 250, "data-test": "summoning-points", id: "points" });
  const mode = h("select", { "data-test": "mode", id: "mode" },
    h("option", { value: "correspondence" }, "Correspondence (no timers)"),
    h("option", { value: "live" }, "Live (timed response windows)"));
  const priv = h("input", { type: "checkbox", "data-test": "private", id: "private" });
  const create = async (ev) => {
    ev.preventDefault();
    const options = { summoning_points: Number(points.value), live: mode.value === "live" };
    if (priv.checked) options.private = true;
    try {
      const c = await api("POST", "/api/matches", { game: "duel", ...nameField(), options });
      remember(c.match_id, { token: c.token, seat: c.seat, join_code: c.join_code, game: "duel" });
      go(`/match/${c.match_id}`);
    } catch (e) {
      if (e.code === "bad_name") badName(e.message);
      showError(e.code, e.message);
    }
  };
  return h("form", { class: "card duel-form", onsubmit: create },
    h("h2", {}, "New duel"),
    h("div", { class: "row" }, h("label", { for: "mode" }, "Mode"), mode),
    h("div", { class: "row" }, h("label", { for: "points" }, "Summoning points"), points,
      h("small", { class: "hint" }, "the book recommends 250; at most 500")),
    h("div", { class: "row" }, h("label", {}, priv, " private: not listed; share the link yourself")),
    h("div", {}, h("button", { type: "submit", class: "primary", "data-test": "create-duel" }, "Create duel")));
}
