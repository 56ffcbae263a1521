// The games this web client can show, as the server names them. Each game
// lives in its own folder, `web/games/<name>/`, whose `game.js` exports the
// game's module as its default export (the interface: web/TESTING.md,
// "Game modules"). `GET /api/games` says which games this server hosts;
// a game is shown only if its folder has a `game.js`. Nothing here (nor in
// app.js) names a game: adding one is a new folder.

import { api } from "./net.js";
import { h } from "./ui.js";

// A name as the server spells games: it becomes part of a module's path.
const NAME = /^[a-z][a-z0-9_]*$/;

const modules = new Map(); // name -> Promise<module | null>
let hosted = null; // Promise<[{ name, info, module }]>

/// The module of one game, or null when this client has none for it (no
/// folder, or a name no folder could have). Loaded once per page load.
export function gameModule(name) {
  if (typeof name !== "string" || !NAME.test(name)) return Promise.resolve(null);
  if (!modules.has(name)) {
    modules.set(name, import(`./games/${name}/game.js`).then(
      (m) => (m.default && typeof m.default.page === "function" ? { ...m.default, name } : null),
      () => null,
    ));
  }
  return modules.get(name);
}

/// The games this server hosts that this client can show, each with the
/// server's entry (`info`: `rules_version`, `campaign`, `catalogue`) and
/// its module, in the modules' `order` (then by name); `missing` lists the
/// hosted games without a folder here. A failed listing is asked again by
/// the next caller.
export function hostedGames() {
  if (!hosted) {
    hosted = (async () => {
      const { games } = await api("GET", "/api/games");
      const found = await Promise.all(games.map(async (info) => ({ name: info.game, info, module: await gameModule(info.game) })));
      const shown = found.filter((g) => g.module)
        .sort((a, b) => (a.module.order ?? 100) - (b.module.order ?? 100) || a.name.localeCompare(b.name));
      return { shown, missing: found.filter((g) => !g.module).map((g) => g.name) };
    })();
    hosted.catch(() => { hosted = null; });
  }
  return hosted;
}

/// What a page says of a game it cannot show (no module for it here).
export function unknownGame(name, what = "This match") {
  return h("section", { class: "card", "data-test": "unknown-game", "data-game": name ?? "" },
    h("p", {}, `${what} is a game of ${name ? `"${name}"` : "a kind the server did not name"}, which this web client cannot show.`),
    h("a", { href: "/", "data-link": true }, "Back to the lobby"));
}
