// Names for what the page shows beside the server's words: a unit, an
// Alpha, a hex, a DI's target, named as the engine's describer names them
// (engine/src/duel/words.rs: "Raider of the Deep 7", "Alpha 2 (Spell
// Binder)"), so the panels, the buttons and the log say the same. No
// action or event is described here: those words come from the server.

import { genusOf } from "./cards.js";

export const hexName = (h) => (Array.isArray(h) ? `[${h[0]},${h[1]}]` : "?");
const DIRS = ["east", "north-east", "north-west", "west", "south-west", "south-east"];

/// The players' display names by seat, as the server last sent them
/// (`welcome.names`, the `names` frame); one duel page shows at a time.
let names = [];

/// Take the server's names (absent while no seat has one).
export function setSeatNames(list) {
  names = Array.isArray(list) ? list : [];
}

/// A seat's name, the way the log says it: the player's display name, or
/// "Seat N" for a seat without one (the one place the page names a seat).
export const seatName = (s) => names[s] ?? `Seat ${s}`;

/// Whether seat `s` has a display name of its own.
export const hasName = (s) => names[s] != null;

/// "Raider of the Deep 7": its Alpha's genus and its id.
export function unitName(id, view) {
  const u = view?.units?.find((x) => x.id === id);
  const g = u ? genusOf(view.players?.[u.owner]?.alphas?.[u.alpha]?.design?.cards) : null;
  return g ? `${g.name} ${id}` : `unit ${id}`;
}

/// A unit as `me` reads it: "your Raider of the Deep 7 at [0,1]", "Seat 1's …".
export function unitFor(id, view, me) {
  const u = view?.units?.find((x) => x.id === id);
  if (!u) return unitName(id, view);
  const whose = u.owner === me ? "your" : `${seatName(u.owner)}'s`;
  return `${whose} ${unitName(id, view)} at ${hexName(u.hex)}`;
}

/// What a pending Divine Intervention is aimed at, as `me` reads it.
export function target(t, view, me) {
  if (!t) return "";
  const parts = [];
  if (t.unit !== undefined) parts.push(unitFor(t.unit, view, me));
  if (t.hex) parts.push(`hex ${hexName(t.hex)}`);
  if (t.hexes?.length) parts.push(`hex${t.hexes.length > 1 ? "es" : ""} ${t.hexes.map(hexName).join(" ")}`);
  if (t.terrain) parts.push(`into ${t.terrain}`);
  if (t.direction !== undefined) parts.push(`pushed ${DIRS[t.direction] ?? t.direction}`);
  if (t.distance !== undefined) parts.push(`${t.distance} hex${t.distance === 1 ? "" : "es"}`);
  if (t.dest) parts.push(`to ${hexName(t.dest)}`);
  if (t.carry_relic === false) parts.push("leaving the relic");
  return parts.length ? ` on ${parts.join(", ")}` : "";
}
