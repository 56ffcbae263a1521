// What the table waits for now, in words: whose combat turn it is, a roll
// and its dice (what each die shows), a challenge, the party's decisions
// for an enemy, an item nobody has room for, the cards revealed and held.

import { h } from "../../dom.js";
import { faceWords, rollTotals } from "./catalogue.js";
import { seatName, whoName, enemyName, enemyById, cardName, itemName, statusName, spaceName } from "./names.js";
import { joinNames } from "./actions.js";

const COLOURS = { white: "White", blue: "Blue", red: "Red" };

export function diceLine(dice) {
  const t = rollTotals(dice);
  return h("p", { class: "dice", "data-test": "dice", "data-hits": t.hits, "data-specials": t.specials },
    dice.map((d, i) => [i ? " " : null, h("span", { class: `die ${d.colour}`, "data-test": "die", "data-index": i, title: `${COLOURS[d.colour] ?? "A"} die: ${faceWords(d.colour, d.face)}` },
      h("span", { class: "die-name" }, `${COLOURS[d.colour] ?? "Die"} die`), " ", faceWords(d.colour, d.face))]),
    h("span", { class: "total" }, ` In all: ${t.hits} hit${t.hits === 1 ? "" : "s"}${t.specials ? `, ${t.specials} special${t.specials === 1 ? "" : "s"}` : ""}.`));
}

const names = (view, list, you) => joinNames((list ?? []).map((w) => whoName(view, w, you)));

/// How the round under way works, in a sentence or two (the book's
/// "Steps to Resolve" of each round, L313-400).
const HOW = {
  choose_round: "No enemy is on the map: the party chooses. Explore: each Origin travels, then each group reveals a card of its space. Rest: each Origin heals 2, clears its statuses and may trade, but time passes all the same.",
  travel: "Explore round. Each Origin travels along open paths to any numbered space, or stays. Then each group of Origins sharing a space explores it.",
  groups: "Explore round. Each group of Origins sharing a space reveals the next card of its space, or resolves a card from the holding area, or explores nothing.",
  resolve: "Explore round. The party picks the order in which the revealed cards are resolved.",
  rest: "Rest round. On its turn each Origin heals 2 and clears its statuses, may revive a downed friend, trade items, and use one skill or item for free.",
  combat: "Combat round. Fast enemies act first, then the Origins in the order they choose, then slow enemies. On your turn: start it to gain your AP, spend them on moves, skills and items, then end it.",
};

/// The situation card: how the round works, and what is pending.
export function situation(view, you) {
  const lines = [];
  const ph = view.phase ?? {};
  if (HOW[ph.phase]) lines.push(h("p", { class: "hint", "data-test": "phase-help" }, HOW[ph.phase]));
  if (ph.phase === "combat") {
    if (ph.active != null) lines.push(h("p", { "data-test": "turn" }, `${seatName(view, ph.active, you)} is taking a combat turn.`));
  }
  const p = view.pending;
  if (p) {
    const pur = p.purpose ?? {};
    const what = pur.kind === "attack"
      ? `attacks ${names(view, pur.targets, you)} with ${cardName(pur.label)}`
      : "rolls for a challenge";
    lines.push(h("p", { "data-test": "pending-roll" }, `${seatName(view, p.seat, you)} ${what}. The roll may be rerolled (1 Source) or let stand.`),
      diceLine(p.roll?.dice ?? []));
  }
  const r = view.enemy_roll;
  if (r) {
    lines.push(h("p", { "data-test": "enemy-roll" }, `${enemyName(enemyById(view, r.enemy))} attacks ${names(view, r.targets, you)}. Each Origin with Source may reroll it or let it stand.`),
      diceLine(r.roll?.dice ?? []));
  }
  if (view.roll_reduction) {
    const rr = view.roll_reduction;
    lines.push(h("p", { "data-test": "roll-reduction" }, `${seatName(view, rr.seat, you)} rolls ${rr.remove} ${rr.remove === 1 ? "die" : "dice"} fewer and picks which.`));
  }
  if (view.reduction) {
    const rd = view.reduction;
    lines.push(h("p", { "data-test": "reduction" }, `${enemyName(enemyById(view, rd.enemy))} rolls ${rd.remove} ${rd.remove === 1 ? "die" : "dice"} fewer: the party picks which.`));
  }
  if (view.tie) {
    lines.push(h("p", { "data-test": "tie" }, `${enemyName(enemyById(view, view.tie.enemy))} could go for ${names(view, view.tie.options, you)}: the party picks its target.`));
  }
  if (view.route) {
    lines.push(h("p", { "data-test": "route" }, `${enemyName(enemyById(view, view.route.enemy))} has several ways to ${whoName(view, view.route.target, you)}: the party picks one.`));
  }
  if (view.turn_start) {
    lines.push(h("p", { "data-test": "turn-start" }, `${enemyName(enemyById(view, view.turn_start.enemy))} suffers ${joinNames(view.turn_start.statuses.map(statusName))} at the start of its turn: the party picks the order.`));
  }
  if (view.dominated_turn != null) {
    lines.push(h("p", { "data-test": "dominated" }, `${enemyName(enemyById(view, view.dominated_turn))} is dominated: the party gives its orders.`));
  }
  if (view.reaction) {
    lines.push(h("p", { "data-test": "reaction" }, `${enemyName(enemyById(view, view.reaction.enemy))}'s turn waits for a reaction's roll.`));
  }
  if (view.challenge) {
    const c = view.challenge;
    const card = [...(view.revealed ?? []), ...(view.holding ?? [])].find((x) => x.id === c.card);
    lines.push(h("p", { "data-test": "challenge" }, `A challenge in ${spaceName(view, Number(c.space), { article: true })}: ${joinNames(c.group.map((s) => seatName(view, s, you)))} roll${c.group.length === 1 ? "s" : ""}.`),
      card?.text ? h("blockquote", { class: "card-text" }, card.text) : null);
    // The card's back, once flipped for an automatic success: its rows.
    if (view.challenge_rows?.length) {
      lines.push(h("p", {}, "The card's results, one to choose:"),
        h("ol", { class: "list", "data-test": "challenge-rows" }, view.challenge_rows.map((r, i) => h("li", { "data-row": i },
          r.min_hits ? `${r.min_hits} hit${r.min_hits === 1 ? "" : "s"} or more: ` : "Any roll: ", r.text))));
    }
  }
  for (const o of view.overflow ?? []) {
    lines.push(h("p", { "data-test": "overflow" }, `Nobody has room for ${itemName(o.item)}: the party gives it to someone who makes room, or discards it.`));
  }
  if (!lines.length) return null;
  return h("div", { class: "card situation", "data-test": "situation" }, h("h3", {}, "Now"), lines);
}

/// The location cards revealed and in the holding area, with their text.
export function cardsInPlay(view) {
  const revealed = view.revealed ?? [];
  const holding = view.holding ?? [];
  if (!revealed.length && !holding.length) return null;
  const item = (c) => h("li", { "data-test": "location-card", "data-key": `lc:${c.id}` }, c.text || "A location card.");
  return h("div", { class: "card location-cards", "data-test": "cards-in-play" },
    revealed.length ? [h("h3", {}, "Revealed cards, waiting to be resolved"), h("ul", { class: "list" }, revealed.map(item))] : null,
    holding.length ? [h("h3", {}, "In the holding area"), h("p", { class: "hint" }, "A group may resolve one of these instead of exploring its space."), h("ul", { class: "list" }, holding.map(item))] : null);
}
