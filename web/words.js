// Actions and events of the duel in words, for buttons and the log. Card
// names come from the catalogue; unit words from the view the frame came
// with (a unit is named by its Alpha's genus once that Alpha is public).

import { name, genusOf, card } from "./duel/cards.js";

const nice = (id) => String(id ?? "").replaceAll("_", " ");
export const hexName = (h) => (Array.isArray(h) ? `[${h[0]},${h[1]}]` : "?");
const DIRS = ["east", "north-east", "north-west", "west", "south-west", "south-east"];
const seatName = (s, me) => (s === undefined || s === null ? "?" : s === me ? "you" : `seat ${s}`);

/// "your unit 3 (Raider of the Deep)" / "seat 1's unit 4 (Forsaken Drake)".
export function unitName(id, view, me) {
  const u = view?.units?.find((x) => x.id === id);
  if (!u) return `unit ${id}`;
  const alpha = view.players?.[u.owner]?.alphas?.[u.alpha];
  const g = genusOf(alpha?.design?.cards);
  const whose = u.owner === me ? "your" : `seat ${u.owner}'s`;
  return `${whose} unit ${id} (Alpha ${u.alpha + 1}${g ? ` ${g.name}` : ""})`;
}

export function alphaName(view, seat, index) {
  const g = genusOf(view?.players?.[seat]?.alphas?.[index]?.design?.cards);
  return `Alpha ${index + 1}${g ? ` (${g.name})` : ""}`;
}

export function target(t, ctx) {
  if (!t) return "";
  const parts = [];
  if (t.unit !== undefined) parts.push(unitName(t.unit, ctx.view, ctx.seat));
  if (t.hex) parts.push(`hex ${hexName(t.hex)}`);
  if (t.hexes) parts.push(`hex${t.hexes.length > 1 ? "es" : ""} ${t.hexes.map(hexName).join(" ")}`);
  if (t.terrain) parts.push(`into ${t.terrain}`);
  if (t.direction !== undefined) parts.push(`pushed ${DIRS[t.direction] ?? t.direction}`);
  if (t.distance !== undefined) parts.push(`${t.distance} hex${t.distance === 1 ? "" : "es"}`);
  if (t.dest) parts.push(`to ${hexName(t.dest)}`);
  if (t.carry_relic === false) parts.push("leaving the relic");
  return parts.length ? ` on ${parts.join(", ")}` : "";
}

/// A legal action in words. `ctx` = {view, seat} (both optional).
export function describeAction(a, ctx = {}) {
  const v = ctx.view;
  switch (a.type) {
    case "use_preset": return `Use the preset “${nice(a.preset)}” as it is`;
    case "summon": {
      const al = v?.players?.[ctx.seat]?.alphas?.[a.alpha];
      return `Summon ${alphaName(v, ctx.seat, a.alpha)}${al?.cost != null ? ` for ${al.cost} points` : ""} at ${hexName(a.hex)}`;
    }
    case "activate": return `Activate ${unitName(a.unit, v, ctx.seat)}`;
    case "move": return `Move to ${hexName(a.to)}${a.carry_relic === false ? " without the relic" : ""}`;
    case "pass_relic": return `Pass the relic to ${unitName(a.to, v, ctx.seat)}`;
    case "use_power": {
      const p = card(a.card)?.powers?.[a.power ?? 0]?.name;
      return `${p ? `${p} (${name(a.card)})` : name(a.card)}${target(a.target, ctx)}`;
    }
    case "end_activation": return "End this activation";
    case "end_activations": return "Done activating: go to summoning";
    case "end_turn": return "End the turn";
    case "cast_di": {
      const top = v?.players?.[ctx.seat]?.di_stack?.[0];
      const when = a.at === undefined ? "" : a.at === 0 ? ", timed at the start of this activation (what followed is undone)"
        : `, timed at moment ${a.at} of this activation (what followed is undone)`;
      return `Cast ${top ? name(top) : "your top Divine Intervention"}${target(a.target, ctx)}${when}`;
    }
    case "discard_di": return `Discard ${a.count ?? 1} Divine Intervention card${(a.count ?? 1) > 1 ? "s" : ""} from the top`;
    case "pass": return "Pass (cast nothing)";
    case "set_auto_pass": return a.on ? "Pass every response window" : "Stop passing automatically";
    case "choose_casualty": return `${unitName(a.unit, v, ctx.seat)} is the casualty`;
    case "carry_relic": return a.carry ? "The relic goes along" : "The relic stays";
    case "offer_draw": return "Offer a draw";
    case "accept_draw": return "Accept the draw";
    case "decline_draw": return "Decline the draw";
    case "resign": return "Resign";
    default: return nice(a.type);
  }
}

/// An event in words (`ctx` = {view, seat}: the view after the update).
export function describeEvent(e, ctx = {}) {
  const t = eventWords(e, ctx);
  return t ? t[0].toUpperCase() + t.slice(1) : t;
}

function eventWords(e, ctx) {
  const me = ctx.seat;
  const who = (s) => seatName(s, me);
  const Who = (s) => { const w = who(s); return w[0].toUpperCase() + w.slice(1); };
  const u = (id) => unitName(id, ctx.view, me);
  switch (e.event) {
    case "creation_locked": return `${Who(e.seat)} locked in ${e.seat === me ? "your" : "its"} creation`;
    case "command_phase_begins": return `The Command Phase begins; ${who(e.first_player)} play${e.first_player === me ? "" : "s"} first`;
    case "turn_begins": return `Turn ${e.turn} begins: ${who(e.seat)} ${e.seat === me ? "are" : "is"} active`;
    case "marker_expired": return `A marker on ${u(e.unit)} expired`;
    case "di_cube_removed": return `A cube came off ${who(e.seat)}'s ${name(e.card)} (${e.cubes_left} left)`;
    case "di_expired": return `${Who(e.seat)}'s ${name(e.card)} expired`;
    case "regenerated": return `${alphaName(ctx.view, e.seat, e.alpha)} of ${who(e.seat)} regenerated ${e.amount} (life ${e.life})`;
    case "alpha_revealed": return `${Who(e.seat)} revealed Alpha ${e.alpha + 1}: ${(e.design?.cards ?? []).map(name).join(", ")} (cost ${e.cost}, life ${e.life})`;
    case "summoned": return `${Who(e.seat)} summoned unit ${e.unit} (${alphaName(ctx.view, e.seat, e.alpha).replace(/ \((.*)\)$/, " $1")}) at ${hexName(e.hex)} (${e.spent} points spent in all)`;
    case "activated": return `${u(e.unit)} activated`;
    case "moved": return `${u(e.unit)} moved ${hexName(e.from)} → ${hexName(e.to)}${e.relics ? ` carrying ${e.relics} relic${e.relics > 1 ? "s" : ""}` : ""}`;
    case "relic_moved": return `A relic moved ${hexName(e.from)} → ${hexName(e.to)}`;
    case "power_used": return `${u(e.unit)} used ${e.power} (${name(e.card)})`;
    case "attacked": return `${e.attacker != null ? u(e.attacker) : "An attack"} hit ${u(e.target)}: ${e.value} against armor ${e.armor}, ${e.damage} damage`;
    case "life_lost": return `${u(e.unit)} lost ${e.amount} life (${nice(e.cause)}); ${alphaName(ctx.view, e.seat, e.alpha)} has ${e.life} left`;
    case "healed": return `${alphaName(ctx.view, e.seat, e.alpha)} of ${who(e.seat)} healed ${e.amount} (life ${e.life})`;
    case "died": return `${who(e.seat) === "you" ? "Your" : `Seat ${e.seat}'s`} unit ${e.unit} died`;
    case "terrain_changed": return `${hexName(e.hex)} became ${e.terrain}`;
    case "marked": return `${u(e.unit)} was marked`;
    case "controlled": return `${u(e.unit)} is controlled by ${who(e.by)} this turn`;
    case "activation_ended": return `${u(e.unit)} ended its activation`;
    case "window_opened": return `${Who(e.seat)} may answer with a Divine Intervention`;
    case "di_cast": return `${Who(e.seat)} cast ${name(e.card)}`;
    case "di_resolved": return `${Who(e.seat)}'s ${name(e.card)} took effect`;
    case "di_fizzled": return `${Who(e.seat)}'s ${name(e.card)} fizzled (${nice(e.reason)})`;
    case "rewound": return `The game went back to moment ${e.checkpoint} of the activation`;
    case "di_discarded": return `${Who(e.seat)} discarded ${e.count} Divine Intervention card${e.count > 1 ? "s" : ""}`;
    case "di_discarded_cards": return `You discarded ${(e.cards ?? []).map(name).join(", ")}`;
    case "passed": return `${Who(e.seat)} passed`;
    case "casualty_chosen": return `${Who(e.seat)} chose ${u(e.unit)} as the casualty`;
    case "relic_choice_awaited": return `${Who(e.seat)} must say whether ${u(e.unit)} takes its relic along`;
    case "relic_carry_chosen": return `${u(e.unit)} ${e.carry ? "takes its relic along" : "leaves its relic"}`;
    case "draw_offered": return `${Who(e.seat)} offered a draw`;
    case "draw_declined": return `${Who(e.seat)} declined the draw`;
    case "game_over": {
      const o = e.outcome ?? {};
      return o.result === "draw" ? "The game is over: a draw" : `The game is over: ${who(o.seat)} won`;
    }
    default: {
      const rest = Object.entries(e).filter(([k]) => k !== "event" && k !== "only")
        .map(([k, v]) => `${nice(k)} ${typeof v === "object" ? JSON.stringify(v) : nice(v)}`);
      return `${nice(e.event)}${rest.length ? ": " + rest.join(", ") : ""}`;
    }
  }
}
