// The action panel of a location: every legal action the frame lists, as
// a button in the server's words (`legal[].words[i].text`), grouped by who
// acts (the receiver, then each seat handed to it) and by what kind of
// thing it is (`words[i].group`). A skill or item with targets can be
// picked first: its targets light up on the map. An action the server
// warns about asks first, in the page (`confirmBox`).

import { h } from "../../dom.js";
import { seatName, cardName } from "./names.js";
import { cardChip, textChip } from "./chips.js";
import { cat } from "./catalogue.js";

/// The headings of the server's groups, in the order the panel shows them.
export const GROUPS = [
  ["party", "Party decisions"],
  ["dice", "Dice"],
  ["turn", "Turn"],
  ["travel", "Travel and move"],
  ["explore", "Explore"],
  ["skills", "Skills"],
  ["items", "Items"],
  ["interlude", "Interlude"],
];
const GROUP_NAMES = Object.fromEntries(GROUPS);

/// The group of an action when the frame has no words for it.
function groupOf(a) {
  switch (a.type) {
    case "choose_round": case "resolve": case "hold": case "break_tie": case "choose_route": case "command":
    case "place_item": return "party";
    case "reroll": case "accept": case "challenge": case "reduce_dice": return "dice";
    case "travel": return "travel";
    case "reveal": case "pass": case "take_holding": return "explore";
    case "use": return a.card?.kind === "skill" ? "skills" : "items";
    case "equip": case "store": case "give": case "take": case "discard": case "attach_rune": return "items";
    case "level_up": case "visit_merchant": case "restock": case "buy": case "sell": case "finish_interlude": return "interlude";
    default: return "turn";
  }
}

/// The frame's `legal` as one list: each action with its seat, its words
/// ("Action" when the frame has none: never its JSON), its group and
/// warning, and a key that names it on the page.
export function entriesOf(legal) {
  const out = [];
  for (const l of legal ?? []) {
    (l.actions ?? []).forEach((action, i) => {
      const w = l.words?.[i];
      const json = JSON.stringify(action);
      out.push({
        seat: l.seat,
        action,
        json,
        text: typeof w?.text === "string" && w.text ? w.text : "Action",
        group: w?.group && GROUP_NAMES[w.group] ? w.group : groupOf(action),
        warn: w?.warn || null,
        key: `${l.seat}:${json}`,
      });
    });
  }
  return out;
}

/// What an action is aimed at, as the map names it: `{kind, id}` with
/// kind `origin` (a seat), `enemy` (an enemy id) or `space` (a space id).
export function targetOf(a) {
  const aim = (x) => (x && x.kind ? { kind: x.kind, id: x.kind === "space" ? String(x.id) : Number(x.id) } : null);
  switch (a.type) {
    case "use": case "use_ability": return aim(a.aim);
    case "break_tie": case "command": return aim(a.target);
    case "taunt": return { kind: "enemy", id: Number(a.enemy) };
    case "travel": return a.to == null ? null : { kind: "space", id: String(a.to) };
    case "move": return { kind: "space", id: String(a.to) };
    case "revive": case "give": return { kind: "origin", id: Number(a.to) };
    case "take": return { kind: "origin", id: Number(a.from) };
    default: return null;
  }
}

export const targetKey = (t) => (t ? `${t.kind}:${t.id}` : null);

/// The card an action is about, for sub-grouping skills and items: a
/// skill, item, consumable or rune id ("summon" for the active summon).
export function cardOf(a) {
  switch (a.type) {
    case "use": return a.card?.kind === "summon" ? "summon" : a.card?.id ?? null;
    case "equip": case "store": case "give": case "take": case "discard": case "sell": return a.item ?? null;
    case "attach_rune": return a.rune ?? null;
    case "use_talent": return a.talent ?? null;
    // Not cards, but picked the same way: their targets light up.
    case "use_ability": return "ability";
    case "taunt": return "taunt";
    case "revive": return "revive";
    default: return null;
  }
}

/// What the panel calls the things that are not cards.
export const PSEUDO = {
  summon: "Your summon",
  ability: "Your special ability",
  taunt: "Taunt: pull an enemy from a space next to yours into yours",
  revive: "Revive a downed Origin with some of your HP",
};

const AIMED = new Set(["use", "use_ability", "taunt", "revive"]);
/// A targeted use of a card (what lights up on the map when it is picked).
export const aimed = (e) => AIMED.has(e.action.type) && targetOf(e.action) != null;

const MANAGE = new Set(["equip", "store", "give", "take", "discard", "attach_rune"]);

/// What a proposal standing for this action makes of its button: "Agree:
/// …" for a player who has not agreed (pressing it agrees), "You agreed:
/// …" for one who has (pressing it does nothing).
export const PROPOSED = { agree: "Agree: ", agreed: "You agreed: " };

function button(e, st, label = e.text) {
  const pr = st.proposed?.(e) ?? null;
  const prefix = pr ? PROPOSED[pr] : "";
  const full = prefix + e.text;
  const shown = prefix + label;
  const cls = [e.warn ? "warn-action" : "", st.match?.has(e.key) ? "match" : "", pr ? `proposed ${pr}` : ""].filter(Boolean).join(" ");
  return h("button", {
    "data-test": "action", "data-seat": e.seat, "data-type": e.action.type, "data-action": e.json,
    "data-focus": `act:${e.key}`, "data-focus-group": "actions", class: cls || undefined,
    title: e.warn ? `${full}: ${e.warn}` : shown !== full ? full : undefined,
    "aria-label": shown !== full ? full : undefined,
    "aria-disabled": pr === "agreed" ? "true" : undefined,
    onclick: () => st.onAct(e),
  }, shown, e.warn ? h("span", { class: "warn-mark", "aria-hidden": "true" }, " ⚠") : null);
}

/// Under its card's name an action's words need not repeat it: "Ricochet
/// on Sebille (2 AP)" reads "on Sebille (2 AP)" there (the whole text
/// stays the button's accessible name and tooltip).
function underCard(e, card) {
  const name = card === "ability" ? "Use your special ability" : cardName(card);
  for (const join of [" on ", " at "]) {
    if (e.text.startsWith(name + join)) return e.text.slice(name.length + 1);
  }
  return e.text;
}

/// One card's actions under its name (and its text), with the button that
/// picks it for the map when it has targets.
function cardBlock(card, list, st, view) {
  const picked = st.picked === `${list[0].seat}|${card}`;
  const hasTargets = list.some(aimed);
  const origin = view.origins?.[list[0].seat]?.origin;
  const name = card === "ability"
    ? textChip("ability", origin, PSEUDO.ability, cat()?.origins.get(origin)?.special_ability ?? "", { bold: true })
    : PSEUDO[card] ? h("b", {}, PSEUDO[card]) : cardChip(card, { bold: true });
  return h("div", { class: `card-actions${picked ? " picked" : ""}`, "data-test": "card-actions", "data-card": card, "data-seat": list[0].seat, "data-key": `cards:${list[0].seat}:${card}` },
    h("div", { class: "card-actions-head" }, name,
      hasTargets ? h("button", {
        class: `small${picked ? " on" : ""}`, "data-test": "card-pick", "data-card": card, "data-seat": list[0].seat,
        "aria-pressed": String(picked), "data-focus": `pick:${list[0].seat}:${card}`,
        onclick: () => st.onPick(picked ? null : `${list[0].seat}|${card}`),
      }, picked ? "Targets shown on the map" : "Show targets on the map") : null),
    h("div", { class: "buttons targets" }, [...list.filter((e) => !e.warn), ...list.filter((e) => e.warn)].map((e) => button(e, st, underCard(e, card)))));
}

function byCard(list) {
  const m = new Map();
  for (const e of list) {
    const c = cardOf(e.action) ?? "";
    if (!m.has(c)) m.set(c, []);
    m.get(c).push(e);
  }
  return m;
}

/// The panel. `st`: {picked, match (Set of keys to mark), onAct(entry),
/// onPick(key|null), proposed(entry) (`agree`, `agreed` or null: what a
/// standing proposal makes of its button), together (party decisions are
/// proposed)}; `skip`: action types drawn elsewhere (the interlude).
export function actionsPanel(view, you, entries, st, skip = new Set()) {
  const shown = entries.filter((e) => !skip.has(e.action.type));
  const seats = [...new Set(shown.map((e) => e.seat))].sort((a, b) => (a === you ? -1 : b === you ? 1 : a - b));
  const waiting = (view.waiting ?? []).map((s) => seatName(view, s));
  const head = you == null ? "You are watching"
    : shown.some((e) => e.seat === you) ? "Your move"
    : shown.length ? "You act for a friend"
    : waiting.length ? `Waiting for ${joinNames(waiting)}` : "Nothing to do now";
  const parts = [h("h3", {}, head)];
  if (you != null && !shown.length && view.phase?.phase !== "finished") {
    parts.push(h("p", { class: "hint", "data-test": "no-actions" }, "Nothing to do for you now: the buttons appear here when it is your turn to act."));
  }
  for (const seat of seats) {
    const mine = shown.filter((e) => e.seat === seat);
    const sec = [];
    if (seat !== you) sec.push(h("h4", { class: "acting-for" }, `Acting for ${seatName(view, seat)}`));
    for (const [g, title] of GROUPS) {
      const list = mine.filter((e) => e.group === g);
      if (!list.length) continue;
      if (g === "skills" || g === "items") {
        const uses = list.filter((e) => !MANAGE.has(e.action.type));
        const manage = list.filter((e) => MANAGE.has(e.action.type));
        if (uses.length) {
          sec.push(h("div", { class: "group", "data-test": "action-group", "data-group": g, "data-key": `group:${seat}:${g}` },
            h("h4", {}, g === "skills" ? "Skills" : "Items to use"),
            [...byCard(uses)].map(([card, l]) => (card ? cardBlock(card, l, st, view) : h("div", { class: "buttons" }, l.map((e) => button(e, st)))))));
        }
        if (manage.length) {
          sec.push(h("details", { class: "group manage", "data-test": "action-group", "data-group": `${g}-manage`, "data-key": `group:${seat}:${g}-manage` },
            h("summary", {}, `Equip, trade and discard (${manage.length} ${manage.length === 1 ? "choice" : "choices"})`),
            [...byCard(manage)].map(([card, l]) => (card ? cardBlock(card, l, st, view) : h("div", { class: "buttons" }, l.map((e) => button(e, st)))))));
        }
        continue;
      }
      sec.push(h("div", { class: "group", "data-test": "action-group", "data-group": g, "data-key": `group:${seat}:${g}` },
        h("h4", {}, g === "turn" ? (seat === you ? "Your turn" : `${seatName(view, seat)}'s turn`) : title),
        g === "party" && st.together ? h("p", { class: "hint", "data-test": "party-hint" }, "The party decides this together: pressing an option proposes it to the others, and it is done once every player agrees.") : null,
        h("div", { class: "buttons" }, list.map((e) => button(e, st)))));
    }
    parts.push(h("div", { class: "seat-actions", "data-test": "seat-actions", "data-seat": seat, "data-key": `seat-actions:${seat}` }, sec));
  }
  return h("div", { class: "card actions", "data-test": "legal-actions" }, parts);
}

/// "Ifan", "Ifan and Sebille", "Ifan, Sebille and Lohse".
export function joinNames(names) {
  if (names.length <= 1) return names.join("");
  return `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

/// The question before an action the server warns about.
export function confirmBox(c, onYes, onNo) {
  return h("div", { class: "card confirm", "data-test": "confirm", "data-type": c.action.type, "data-action": c.json, role: "alertdialog", "aria-label": "confirm this action" },
    h("p", {}, h("b", {}, c.text)),
    h("p", { class: "warn-text" }, c.warn),
    h("p", {}, "Do it anyway?"),
    h("button", { class: "danger primary", "data-test": "confirm-yes", "data-focus": "confirm-yes", onclick: onYes }, "Yes, do it"),
    h("button", { "data-test": "confirm-no", "data-focus": "confirm-no", onclick: onNo }, "No"));
}
