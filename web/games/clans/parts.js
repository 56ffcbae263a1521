// Pieces of the clan battle's page that only draw: the players and teams,
// a figure's card, a hand card, the log, the end with the reveal. Each
// takes what it shows as arguments; the page keeps the state.

import { h } from "../../dom.js";
import { card, cardName, clanName, statLine, costLine, cardText, statusName, STATUS_TEXT, terrainWords } from "./cards.js";
import { SEAT_COLOUR_NAME, tileName } from "./board.js";

/// Names by seat: the players' display names, else "Seat N".
export function namer(names, me) {
  const base = (s) => names?.[s] || `Seat ${s}`;
  return { me, seat: base, you: (s) => (s === me ? `${base(s)} (you)` : base(s)) };
}

// A seat's colour (a class: the page's CSP allows no inline styles).
const swatch = (seat) => h("span", { class: `clans-swatch s${seat}`, "aria-hidden": "true" });

/// The two teams and their players: clan, SP, EXP, the stacks' counts,
/// terrain effects cast, placed or out, whose turn.
export function playersCard(v, me, who) {
  const teams = [0, 1].map((team) => {
    const ps = (v.players ?? []).filter((p) => p.team === team);
    return h("div", { class: `clans-team team${team}`, "data-test": "team", "data-team": team },
      h("h4", {}, `Team ${team + 1}`, me != null && v.players?.[me]?.team === team ? " (yours)" : ""),
      h("ul", { class: "clans-players" }, ps.map((p) => {
        const active = v.phase?.phase === "playing" && v.active === p.seat;
        const god = (v.figures ?? []).find((f) => f.owner === p.seat && card(f.card)?.god);
        return h("li", {
          class: `clans-player${active ? " active" : ""}${p.out ? " out" : ""}`, "data-test": "player", "data-seat": p.seat,
          "data-team": p.team, "data-out": String(!!p.out), "data-placed": String(!!p.placed), "data-sp": p.sp, "data-exp": p.exp,
          "data-allies-left": p.allies_left, "data-tactics-left": p.tactics_left,
        },
        h("div", { class: "who" }, swatch(p.seat), h("b", {}, who.you(p.seat)), ` · ${clanName(p.clan)} · ${SEAT_COLOUR_NAME[p.seat] ?? ""}`,
          active ? h("span", { class: "tag" }, "their turn") : null,
          p.out ? h("span", { class: "tag out" }, "out") : null),
        h("div", { class: "stats" },
          h("span", { "data-test": "sp" }, `${p.sp} SP`), " · ", h("span", { "data-test": "exp" }, `${p.exp} EXP`),
          ` · stacks: ${p.allies_left} allies, ${p.tactics_left} tactics`,
          god ? ` · God ${god.hp}/${god.max_hp} HP` : "",
          v.phase?.phase === "placement" ? (p.placed ? " · placed" : " · placing…") : ""),
        (p.terrain ?? []).length ? h("div", { class: "stats" }, "Terrain: ", p.terrain.map(terrainWords).join("; ")) : null,
        p.assimilated && active ? h("div", { class: "stats" }, "has assimilated this turn") : null);
      })));
  });
  return h("div", { class: "card clans-teams", "data-test": "players", "data-key": "players" }, h("h3", {}, "Teams"), teams);
}

/// A figure's card: what it is, whose, its stats as they stand now.
export function figureCard(v, f, who, onClose) {
  const c = card(f.card);
  return h("div", { class: "clans-figure-card", "data-test": "figure-card", "data-figure": f.id, "data-owner": f.owner, "data-key": `figure-card:${f.id}` },
    h("h4", {}, swatch(f.owner), `${cardName(f.card)} ${f.id}`, " ",
      h("button", { class: "small", "data-test": "close-figure", onclick: onClose }, "Close")),
    h("p", { class: "stats" }, `${f.owner === who.me ? "Yours" : `${who.seat(f.owner)}'s`} · on ${tileName(f.pos)} · `, h("b", {}, `${f.hp}/${f.max_hp} HP`),
      ` · ${f.atk} ATK · ${f.spd} SPD · Range ${f.range}`),
    h("p", { class: "stats" }, statLine(c)),
    h("p", {}, cardText(c)),
    f.equipment ? h("p", {}, "Equipped: ", h("b", {}, cardName(f.equipment)), ` (${statLine(card(f.equipment))})`) : null,
    (f.statuses ?? []).length ? h("p", { class: "warn" }, f.statuses.map((s) => STATUS_TEXT[s] ?? statusName(s)).join("; ")) : null,
    h("p", { class: "hint" }, [
      f.just_summoned ? "summoned this turn: waits until its player's next turn" : null,
      f.done ? "its turn is over" : f.acted ? "has acted" : f.steps_used ? `${f.steps_used} steps used` : null,
      f.ot_used ? "used its (OT) ability this turn" : null,
    ].filter(Boolean).join(" · ")));
}

/// One card of the reader's own hand, with its text and what it can do now.
export function handCard(id, kind, { picked, playable, buttons, onPick }) {
  const c = card(id);
  return h("li", { class: `clans-hand-card k-${c?.type ?? kind}${picked ? " picked" : ""}`, "data-test": "hand-card", "data-card": id, "data-kind": c?.type ?? kind },
    h("div", { class: "cat-head" }, h("b", {}, cardName(id)), h("span", { class: "stats" }, statLine(c))),
    h("div", { class: "stats" }, costLine(c)),
    h("div", { class: "card-text" }, cardText(c)),
    playable ? h("button", { class: picked ? "small primary" : "small", "data-test": "card-play", "data-card": id, "aria-pressed": String(!!picked), onclick: onPick },
      picked ? "Cancel" : c?.type === "ally" ? "Summon…" : "Play…") : null,
    buttons);
}

/// The log in the server's words, newest first.
export function logCard(records) {
  const items = [];
  for (let i = records.length - 1; i >= 0; i--) {
    const r = records[i];
    items.push(h("li", { value: r.seq, "data-test": "log-record", "data-seq": r.seq, "data-key": `log:${r.seq}` },
      r.lines.map((t, j) => h("div", { "data-test": "log-entry", "data-seq": r.seq, "data-key": `log:${r.seq}:${j}` }, t))));
  }
  return h("div", { class: "card log-card", "data-key": "log" }, h("h3", {}, "What happened"),
    items.length ? null : h("p", { class: "hint" }, "Nothing yet."),
    h("ol", { class: "log", "data-test": "log", reversed: true, "aria-live": "polite" }, items));
}

/// The commitments: each seat's hash, then whether its reveal opened it.
export function commitmentsCard(st, who) {
  const seats = Object.keys(st.commitments).map(Number).sort((a, b) => a - b);
  if (!seats.length) return null;
  return h("div", { class: "card commitments", "data-test": "commitments", "data-key": "commitments" }, h("h3", {}, "Commitments"),
    h("p", { class: "hint" }, "Each player's deck and placement were sealed with a hash when they placed; the end opens them."),
    h("ul", { class: "list" }, seats.map((seat) => {
      const ok = st.verified[seat];
      const state = !st.reveals[seat] ? "locked" : ok === undefined ? "pending" : String(ok);
      return h("li", { "data-test": "commitment", "data-seat": seat, "data-hash": st.commitments[seat], "data-verified": state },
        `${who.you(seat)}: `, h("code", { title: st.commitments[seat] }, `${st.commitments[seat].slice(0, 16)}…`), " ",
        state === "locked" ? h("span", { class: "hint" }, "sealed") : state === "pending" ? "checking…"
          : ok ? h("span", { class: "ok", "data-test": "verified", "data-ok": "true" }, "✓ verified")
            : h("span", { class: "broken", "data-test": "verified", "data-ok": "false" }, "✗ does not match"));
    })));
}

/// The end: who won, and each seat's revealed deck and placement.
export function endCard(v, st, who) {
  const o = v.phase.outcome ?? {};
  const me = st.seat;
  const team = o.result === "win" ? o.seat % 2 : null;
  const winners = team == null ? [] : (v.players ?? []).filter((p) => p.team === team).map((p) => who.you(p.seat));
  const title = o.result === "draw" ? "A draw"
    : me != null ? (v.players?.[me]?.team === team ? "Your team won!" : "Your team lost")
      : `${winners.join(" and ")} won`;
  const reveals = Object.keys(st.reveals).map(Number).sort((a, b) => a - b);
  return h("div", { class: "card clans-end", "data-test": "end", "data-result": o.result ?? "", "data-winner-team": team ?? "", "data-key": "end" },
    h("h2", {}, title),
    o.result === "win" ? h("p", {}, `${winners.join(" and ")} ${winners.length > 1 ? "win" : "wins"}.`) : null,
    reveals.length ? h("div", { class: "reveals", "data-test": "reveals" }, reveals.map((seat) => {
      const sec = st.reveals[seat].secret ?? {};
      const fits = matches(v, st, seat, sec);
      return h("div", { "data-test": "reveal", "data-seat": seat, "data-consistent": String(fits) },
        h("h4", {}, swatch(seat), `${who.you(seat)} · ${clanName(sec.clan)}`),
        h("p", { class: "stats" }, `Homebase on ${sec.homebase ? tileName(sec.homebase) : "?"}, God on ${sec.god ? tileName(sec.god) : "?"}`),
        h("p", { class: "stats" }, "Allies: ", (sec.allies ?? []).map(cardName).join(", ")),
        h("p", { class: "stats" }, "Tactics: ", (sec.tactics ?? []).map(cardName).join(", ")),
        fits ? h("p", { class: "ok" }, "✓ its clan, homebase and the cards it played match this deck")
          : h("p", { class: "broken" }, "✗ what it played does not match this deck"));
    })) : h("p", { class: "hint" }, "Waiting for the decks to be revealed…"));
}

/// Whether seat `seat`'s revealed secret agrees with the game as this page
/// saw it: its clan, its homebase, every figure and equipment of its on the
/// field, and every card its events showed it play (the God is not in the
/// stacks: it starts on the field).
function matches(v, st, seat, sec) {
  const p = v.players?.[seat];
  const deck = new Set([...(sec.allies ?? []), ...(sec.tactics ?? [])]);
  if (!p || p.clan !== sec.clan) return false;
  if (p.homebase && String(p.homebase) !== String(sec.homebase)) return false;
  for (const f of v.figures ?? []) {
    if (f.owner !== seat) continue;
    if (!card(f.card)?.god && !deck.has(f.card)) return false;
    if (f.equipment && !deck.has(f.equipment)) return false;
  }
  return [...(st.played[seat] ?? [])].every((c) => deck.has(c));
}
