// DOM building for the duel pages, and `morph`: a redraw patches the page
// in place instead of replacing it, so an element that still means the
// same thing stays the same element (keyboard focus, an open <details>,
// a test's element reference all survive an update). Children are matched
// by `data-key` or `data-focus` when they have one, else by position.
// Handlers are kept in `el._on` so a patched element takes the new ones.

const SVG = "http://www.w3.org/2000/svg";

function setHandler(el, type, fn) {
  if (!el._on) el._on = {};
  if (!(type in el._on)) el.addEventListener(type, (ev) => el._on[type]?.(ev));
  el._on[type] = fn;
}

function make(ns, tag, attrs, children) {
  const el = ns ? document.createElementNS(ns, tag) : document.createElement(tag);
  for (const [k, v] of Object.entries(attrs ?? {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") setHandler(el, k.slice(2), v);
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  if (tag === "input" && el.hasAttribute("checked")) el.checked = true;
  return el;
}

export const h = (tag, attrs, ...children) => make(null, tag, attrs, children);
export const s = (tag, attrs, ...children) => make(SVG, tag, attrs, children);

/// What a child is, for matching: its data-key, data-focus, or its
/// data-test with the card, unit, seat, Alpha or preset it is about.
function keyOf(n) {
  if (n.nodeType !== 1) return null;
  const k = n.getAttribute("data-key") ?? n.getAttribute("data-focus");
  if (k !== null) return k;
  const t = n.getAttribute("data-test");
  if (t === null) return null;
  const about = ["data-card", "data-unit", "data-seat", "data-alpha", "data-preset", "data-kind", "data-type"]
    .map((a) => n.getAttribute(a)).filter((x) => x !== null).join("/");
  return `${t}:${about}`;
}

/// Make `old`'s children look like `fresh`'s (both elements).
export function morphChildren(old, fresh) {
  const want = [...fresh.childNodes];
  const have = [...old.childNodes];
  const byKey = new Map();
  for (const n of have) { const k = keyOf(n); if (k !== null && !byKey.has(k)) byKey.set(k, n); }
  const used = new Set();
  let cursor = 0; // next unkeyed old child to consider
  want.forEach((n, i) => {
    const k = keyOf(n);
    let match = null;
    if (k !== null) {
      match = byKey.get(k) ?? null;
    } else {
      while (cursor < have.length && (keyOf(have[cursor]) !== null || used.has(have[cursor]))) cursor++;
      const c = have[cursor];
      if (c && c.nodeType === n.nodeType && c.nodeName === n.nodeName) { match = c; cursor++; }
    }
    if (match && used.has(match)) match = null;
    const at = old.childNodes[i] ?? null;
    if (match) {
      used.add(match);
      if (match !== at) old.insertBefore(match, at);
      morph(match, n);
    } else {
      old.insertBefore(n, at);
      used.add(n);
    }
  });
  for (const n of [...old.childNodes]) if (!used.has(n)) n.remove();
}

function morph(old, fresh) {
  if (old.nodeType === 3) { if (old.data !== fresh.data) old.data = fresh.data; return; }
  if (old.nodeType !== 1) return;
  for (const a of [...old.attributes]) {
    if (a.name === "open" && old.nodeName === "DETAILS") continue; // the reader's choice
    if (!fresh.hasAttribute(a.name)) old.removeAttribute(a.name);
  }
  for (const a of fresh.attributes) if (old.getAttribute(a.name) !== a.value) old.setAttribute(a.name, a.value);
  if (old._on) for (const t of Object.keys(old._on)) old._on[t] = fresh._on?.[t] ?? null;
  if (fresh._on) for (const [t, fn] of Object.entries(fresh._on)) setHandler(old, t, fn);
  if (old.nodeName === "INPUT" && old.type === "checkbox") old.checked = fresh.hasAttribute("checked");
  if (old.nodeName === "SELECT") { morphChildren(old, fresh); return; }
  morphChildren(old, fresh);
}
