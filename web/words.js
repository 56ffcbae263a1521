// Actions and events in words, for buttons and the log.

const nice = (id) => String(id ?? "").replaceAll("_", " ");
const hex = (h) => (Array.isArray(h) ? `(${h[0]}, ${h[1]})` : "?");

function target(t) {
  if (!t) return "";
  const parts = [];
  if (t.unit !== undefined) parts.push(`unit ${t.unit}`);
  if (t.hex) parts.push(`hex ${hex(t.hex)}`);
  if (t.hexes) parts.push(`hexes ${t.hexes.map(hex).join(" ")}`);
  if (t.direction !== undefined) parts.push(`direction ${t.direction}`);
  if (t.distance !== undefined) parts.push(`${t.distance} hex${t.distance === 1 ? "" : "es"}`);
  if (t.terrain) parts.push(`to ${t.terrain}`);
  if (t.dest) parts.push(`to ${hex(t.dest)}`);
  if (t.carry_relic === false) parts.push("leaving the relic");
  return parts.length ? ` → ${parts.join(", ")}` : "";
}

export function describeAction(a) {
  switch (a.type) {
    case "use_preset": return `Use preset “${nice(a.preset)}”`;
    case "summon": return `Summon Alpha ${a.alpha + 1} at ${hex(a.hex)}`;
    case "activate": return `Activate unit ${a.unit}`;
    case "move": return `Move to ${hex(a.to)}${a.carry_relic === false ? " without the relic" : ""}`;
    case "pass_relic": return `Pass the relic to unit ${a.to}`;
    case "use_power": return `${nice(a.card)}${a.power ? ` (power ${a.power + 1})` : ""}${target(a.target)}`;
    case "end_activation": return "End this activation";
    case "end_activations": return "End activations";
    case "end_turn": return "End turn";
    case "cast_di": return `Cast a Divine Intervention${target(a.target)}${a.at ? ` at moment ${a.at}` : ""}`;
    case "discard_di": return `Discard ${a.count ?? 1} DI card${(a.count ?? 1) > 1 ? "s" : ""}`;
    case "pass": return "Pass (no DI)";
    case "choose_casualty": return `Unit ${a.unit} dies`;
    case "carry_relic": return a.carry ? "Take the relic along" : "Leave the relic";
    case "offer_draw": return "Offer a draw";
    case "accept_draw": return "Accept the draw";
    case "decline_draw": return "Decline the draw";
    case "resign": return "Resign";
    default: return nice(a.type);
  }
}

export function describeEvent(e) {
  const who = (s) => (s === undefined ? "" : `seat ${s}`);
  switch (e.event) {
    case "creation_locked": return `${who(e.seat)} locked in its creation`;
    case "command_phase_begins": return "The Command Phase begins";
    case "turn_begins": return `Turn ${e.turn ?? ""} begins for ${who(e.seat ?? e.active)}`;
    case "summoned": return `Unit ${e.unit} summoned at ${hex(e.hex)}`;
    case "alpha_revealed": return `Alpha ${(e.alpha ?? 0) + 1} of ${who(e.seat)} revealed: ${(e.design?.cards ?? e.cards ?? []).map(nice).join(", ")}`;
    case "activated": return `Unit ${e.unit} activated`;
    case "moved": return `Unit ${e.unit} moved to ${hex(e.to)}${e.relics ? ` with ${e.relics} relic(s)` : ""}`;
    case "attacked": return `Unit ${e.attacker ?? "?"} attacked unit ${e.target}: ${e.value} against armor ${e.armor}, ${e.damage} damage`;
    case "life_lost": return `Unit ${e.unit ?? ""} lost ${e.amount ?? ""} life (${nice(e.cause)}), ${e.life ?? "?"} left`;
    case "died": return `Unit ${e.unit} died`;
    case "di_cast": return `${who(e.seat)} cast ${nice(e.card)}`;
    case "game_over": return "The game is over";
    case "draw_offered": return `${who(e.seat)} offers a draw`;
    case "draw_declined": return `${who(e.seat)} declined the draw`;
    default: {
      const rest = Object.entries(e).filter(([k]) => k !== "event" && k !== "only")
        .map(([k, v]) => `${nice(k)} ${typeof v === "object" ? JSON.stringify(v) : nice(v)}`);
      return `${nice(e.event)}${rest.length ? ": " + rest.join(", ") : ""}`;
    }
  }
}
