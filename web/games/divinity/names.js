// Names for what the view names by id: Origins, skills, items, runes,
// talents and statuses from the catalogue; spaces from the view's board;
// enemies from the view. Only when the catalogue does not know an id is it
// spelled out as words (the last resort: a name is never built from an id
// when the content has one).

import { cat, STATUS_NAMES, ENVIRONMENTS, cap } from "./catalogue.js";

/// The last resort: "darkhans_lackey" → "Darkhans Lackey".
export function fallback(id) {
  return String(id ?? "").split("_").filter(Boolean).map(cap).join(" ");
}

export const originName = (id) => cat()?.origins.get(id)?.name ?? fallback(id);
export const skillName = (id) => cat()?.skills.get(id)?.name ?? fallback(id);
export const talentName = (id) => cat()?.talents.get(id)?.name ?? fallback(id);
export const statusName = (id) => STATUS_NAMES[id] ?? fallback(id);
export const envName = (id) => ENVIRONMENTS[id]?.name ?? fallback(id);

/// An item or a rune (both are carried and traded alike).
export const itemName = (id) => cat()?.items.get(id)?.name ?? cat()?.runes.get(id)?.name ?? fallback(id);

/// Any card id an Origin holds: a skill, an item, a rune or a talent.
export function cardName(id) {
  const c = cat();
  return c?.skills.get(id)?.name ?? c?.items.get(id)?.name ?? c?.runes.get(id)?.name ?? c?.talents.get(id)?.name ?? fallback(id);
}

/// The seat's Origin's name ("Ifan"), "you" when it is the receiver's if asked.
export function seatName(view, seat, you = null) {
  const o = view?.origins?.[seat];
  const name = o ? originName(o.origin) : "an Origin";
  return seat === you && you != null ? `${name} (you)` : name;
}

/// A seat as its table reads it: the Origin, with its player's display
/// name when the player chose one ("Ifan (Ada)"; the reader's own seat
/// stays "Ifan (you)"). `names` are the welcome's, by seat.
export function playerOf(view, seat, you, names) {
  const player = seat === you && you != null ? null : names?.[seat];
  return player ? `${seatName(view, seat)} (${player})` : seatName(view, seat, you);
}

/// An enemy's name: the view's own if it has one, else its card's; a
/// minion with its tray letter ("Darkhan's Lackey A").
export function enemyName(e) {
  if (!e) return "an enemy";
  const base = e.name ?? (e.kind?.kind === "boss" ? fallback(e.kind.boss) : fallback(e.kind?.card));
  return e.letter ? `${base} ${e.letter}` : base;
}

export const enemyById = (view, id) => (view?.enemies ?? []).find((e) => e.id === Number(id));

/// Someone an effect lands on (`{kind, id}`).
export function whoName(view, who, you = null) {
  if (!who) return "";
  if (who.kind === "origin") return seatName(view, who.id, you);
  if (who.kind === "enemy") return enemyName(enemyById(view, who.id));
  if (who.kind === "space") return spaceName(view, spaceIndex(view, who.id));
  return "";
}

/// A space's index in the board from its id ("2", "t1").
export function spaceIndex(view, id) {
  return (view?.board?.spaces ?? []).findIndex((s) => s.space === String(id));
}

/// "the Galley" (a printed name that has its own article keeps it).
export const the = (name) => (/^the\b/i.test(name) ? name : `the ${name}`);

/// A space's name from its index: its printed name ("the Galley" in a
/// sentence, with `article`); a tactical space (no name, no number) by the
/// spaces it lies between, as the server's words say it.
export function spaceName(view, ix, { long = true, article = false } = {}) {
  const spaces = view?.board?.spaces ?? [];
  const sp = spaces[ix];
  if (!sp) return "somewhere";
  if (sp.name) return article ? the(sp.name) : sp.name;
  if (!long) return "Tactical space";
  const next = (view.board.paths ?? [])
    .filter((p) => p.a === sp.space || p.b === sp.space)
    .map((p) => spaces.find((x) => x.space === (p.a === sp.space ? p.b : p.a)))
    .filter((x) => x?.name)
    .map((x) => the(x.name));
  return next.length >= 2 ? `the tactical space between ${next[0]} and ${next[1]}`
    : next.length === 1 ? `the tactical space by ${next[0]}` : "a tactical space";
}

/// The location's printed name: the view's `front` once the server sends
/// it, else its id in words.
export function locationName(view) {
  return view?.front?.name ?? fallback(view?.location);
}

export const PHASES = {
  choose_round: "the party chooses: explore or rest",
  travel: "each Origin travels",
  groups: "each group explores its space",
  resolve: "the party resolves the revealed cards",
  rest: "each Origin rests",
  combat: "combat",
  interlude: "interlude",
  finished: "the location is over",
};

export const ROUND_KINDS = { explore: "Explore round", rest: "Rest round", combat: "Combat round" };
