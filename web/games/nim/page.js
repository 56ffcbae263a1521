// Nim's page: the pile, whose turn, the takes the server lists (in the
// engine's words), and the log. It decides nothing: what it offers is the
// frame's `legal`, what it says is the server's words.

import { Connection } from "../../net.js";
import { h, showError, setConn } from "../../ui.js";
import { seatOf } from "../../seats.js";

export function nimPage(app, matchId, spectator) {
  const mine = spectator ? null : seatOf(matchId);
  let view = null, status = null, you = null, legal = [], names = [], log = [];
  const root = h("section", { class: "card nim", "data-test": "nim", "data-match-id": matchId });
  app.replaceChildren(root);
  const who = (seat) => names[seat] ?? `Seat ${seat}`;

  const draw = () => {
    if (!view) return;
    const finished = status?.status === "finished";
    const turn = finished
      ? `${who(status.seat)} took the last counter and won`
      : you === view.turn ? "Your turn" : `${who(view.turn)}'s turn`;
    const takes = legal.flatMap((l) => l.actions.map((action, i) => ({ action, words: l.words?.[i]?.text ?? `Take ${action.n}` })));
    root.replaceChildren(...[
      h("h2", {}, "Nim"),
      mine?.join_code && you === 0 && !names[1] && !finished
        ? h("p", {}, "Invite a player: ", h("a", { href: `/join/${mine.join_code}`, "data-test": "join-link" }, `${location.origin}/join/${mine.join_code}`))
        : null,
      h("p", { "data-test": "nim-pile-left" }, `${view.pile} ${view.pile === 1 ? "counter" : "counters"} on the pile`),
      h("div", { class: "nim-counters", "aria-hidden": "true" }, "● ".repeat(view.pile)),
      h("p", { "data-test": "nim-turn", class: finished ? "result" : "" }, turn),
      h("div", { class: "row" }, ...takes.map((t) =>
        h("button", { class: "primary", "data-test": "nim-take", onclick: () => conn.act(t.action) }, t.words))),
      h("h3", {}, "Log"),
      h("ol", { "data-test": "nim-log" }, ...log.map((l) => h("li", {}, l))),
    ].filter(Boolean)); // replaceChildren would write a null as "null"
  };

  const conn = new Connection({
    token: mine?.token,
    matchId,
    onState: (state) => { setConn(state); root.dataset.conn = state; },
    onFrame: (f) => {
      if (f.type === "welcome" || f.type === "update") {
        if (f.type === "welcome") {
          you = f.seat ?? null;
          names = f.names ?? [];
          log = (f.log ?? []).map((l) => l.text);
        } else {
          log.push(...(f.log ?? []));
        }
        view = f.view ?? view;
        status = f.status ?? status;
        legal = f.legal ?? [];
        root.dataset.seq = String(f.seq);
        root.dataset.seat = you == null ? "" : String(you);
        root.dataset.finished = String(status?.status === "finished");
        draw();
      } else if (f.type === "names") {
        names = f.names ?? [];
        draw();
      } else if (f.type === "error") {
        showError(f.code, f.message);
      }
    },
  });
  return () => conn.close();
}
