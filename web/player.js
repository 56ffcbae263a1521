// The player at this browser: the display name other players read instead
// of "Seat 0" (PROTOCOL.md, `name` on `POST /api/matches` and
// `/api/join/{code}`). Kept in localStorage and sent when creating or
// joining; a seat's name is fixed once taken, so changing it here names the
// next games only. The server judges a name (`bad_name`); the check here
// only spares a round trip and says the same rules in the same words.

import { h } from "./ui.js";

const KEY = "athlas.name";
/// server/src/name.rs: at most this many characters (protocol MAX_NAME_CHARS).
export const MAX_NAME_CHARS = 24;
const PUNCTUATION = "-_.,'!?&()#+";

export function playerName() {
  try { return localStorage.getItem(KEY) ?? ""; } catch { return ""; }
}

function keep(name) {
  try {
    if (name) localStorage.setItem(KEY, name);
    else localStorage.removeItem(KEY);
  } catch { /* private mode: sent for this page only */ }
}

/// `raw` as the server keeps it (trimmed, runs of spaces made one), or
/// `{error}` saying what is wrong, as server/src/name.rs says it.
export function checkName(raw) {
  if (/\p{Cc}/u.test(raw)) return { error: "a name is one line of plain text: no line breaks, tabs or control characters" };
  const name = raw.split(/\s+/u).filter(Boolean).join(" ");
  const n = [...name].length;
  if (n === 0) return { name: "" }; // no name: allowed, the seat is "Seat N"
  if (n > MAX_NAME_CHARS) return { error: `a name has at most ${MAX_NAME_CHARS} characters (${n} sent)` };
  const bad = [...name].find((c) => !(/[\p{L}\p{N}]/u.test(c) || c === " " || PUNCTUATION.includes(c)));
  if (bad) return { error: `a name holds letters, digits, spaces and ${PUNCTUATION} only, not "${bad}"` };
  if (!/[\p{L}\p{N}]/u.test(name)) return { error: "a name needs at least one letter or digit" };
  return { name };
}

/// The body field for create and join: the kept name, or nothing.
export const nameField = () => (playerName() ? { name: playerName() } : {});

/// The lobby's name card: a form while no name is kept (the first visit
/// asks), else the name with a way to change it. `error` is a refusal to
/// show (the server's `bad_name` message after a create or join).
export function nameCard(error = null) {
  const card = h("div", { class: "card player-name", "data-test": "name-card" });
  const show = (editing, err) => {
    const name = playerName();
    if (!editing && name) {
      card.replaceChildren(
        h("p", {}, "You play as ", h("b", { "data-test": "name-shown", "data-name": name }, name), ". "),
        h("button", { type: "button", class: "small", "data-test": "name-change", onclick: () => show(true) }, "Change"),
        h("small", { class: "hint" }, " (a game keeps the name it started with)"));
      return;
    }
    const input = h("input", {
      id: "player-name", "data-test": "name-input", maxlength: String(MAX_NAME_CHARS * 2), autocomplete: "nickname",
      value: name, placeholder: "your name", "aria-describedby": "player-name-hint",
    });
    const save = (ev) => {
      ev.preventDefault();
      const c = checkName(input.value);
      if (c.error) { show(true, c.error); card.querySelector("[data-test=name-input]").value = input.value; return; }
      keep(c.name);
      show(false);
    };
    card.replaceChildren(h("form", { onsubmit: save },
      h("h2", {}, "Your name"),
      h("label", { for: "player-name" }, "Other players see it instead of \u201cSeat 0\u201d: "), input, " ",
      h("button", { type: "submit", class: "primary", "data-test": "name-save" }, "Save"),
      h("p", { class: "hint", id: "player-name-hint" }, `1 to ${MAX_NAME_CHARS} letters, digits, spaces and ${PUNCTUATION}; kept in this browser. Leave it empty to play as \u201cSeat N\u201d.`),
      err ? h("p", { class: "name-error", role: "alert", "data-test": "name-error" }, `That name cannot be used: ${err}.`) : null));
  };
  show(!!error || !playerName(), error);
  return card;
}
