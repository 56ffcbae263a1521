// Small DOM helpers (no innerHTML with data: the CSP and safety both say so).

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") el.className = v;
    else if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "dataset") Object.assign(el.dataset, v);
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

const SVG = "http://www.w3.org/2000/svg";
export function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v);
  }
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

/// Show an error in words in the page's error area (each with its code).
export function showError(code, message) {
  const box = document.querySelector("[data-test=errors]");
  const item = h("div", { class: "error", "data-test": "error", "data-code": code },
    h("span", {}, message || code), " ",
    h("button", { class: "dismiss", "aria-label": "dismiss", onclick: () => item.remove() }, "×"));
  box.append(item);
  setTimeout(() => item.remove(), 15000);
}

export function setConn(state) {
  const el = document.querySelector("[data-test=conn]");
  el.dataset.state = state;
  el.textContent = { idle: "", connecting: "connecting…", open: "connected", closed: "disconnected — reconnecting" }[state] ?? state;
}

/// Replace `root`'s children without losing the keyboard's place: the
/// focused element's `data-focus` key is focused again in what replaced it;
/// if it is gone (an action taken is no longer listed), the first element
/// of its `data-focus-group` is.
export function redrawKeepingFocus(root, ...children) {
  const was = document.activeElement?.closest?.("[data-focus]");
  const key = was && root.contains(was) ? was.dataset.focus : null;
  const group = key ? was.dataset.focusGroup : null;
  root.replaceChildren(...children);
  if (!key) return;
  const el = root.querySelector(`[data-focus="${CSS.escape(key)}"]`)
    ?? (group ? root.querySelector(`[data-focus-group="${CSS.escape(group)}"]`) : null);
  el?.focus({ preventScroll: true });
}
