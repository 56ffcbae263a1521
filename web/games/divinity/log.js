// The location's log in the server's words: `welcome.log` ({seq, text},
// oldest first) replaces it on every welcome; each update adds its `log`
// lines (one per event) under its seq; `taken_back: N` drops the lines of
// seq N and later. Shown newest first.

import { h } from "../../dom.js";
import { fallback } from "./names.js";

const MAX = 500;

export class Log {
  constructor() { this.lines = []; }

  /// A welcome: its history, or nothing when the server sends none.
  welcome(list) {
    this.lines = (list ?? []).filter((l) => typeof l?.text === "string").map((l) => ({ seq: Number(l.seq), text: l.text }));
  }

  /// An update's lines; an event without words (an older server) is
  /// named by its type in words, the last resort.
  update(f) {
    if (f.taken_back != null) this.lines = this.lines.filter((l) => l.seq < f.taken_back);
    const texts = Array.isArray(f.log) ? f.log
      : (f.events ?? []).map((ev) => fallback(ev.type ?? ev.kind ?? "something happened"));
    for (const text of texts) if (typeof text === "string" && text) this.lines.push({ seq: Number(f.seq), text });
    if (this.lines.length > MAX) this.lines = this.lines.slice(-MAX);
  }

  render() {
    const items = [];
    for (let i = this.lines.length - 1; i >= 0; i--) {
      const l = this.lines[i];
      items.push(h("li", { "data-test": "log-entry", "data-seq": l.seq, "data-key": `log:${i}:${l.seq}` }, l.text));
    }
    return h("div", { class: "card log-card" }, h("h3", {}, "What happened"),
      items.length ? null : h("p", { class: "hint" }, "Nothing yet."),
      h("ol", { class: "log", "data-test": "log" }, items));
  }
}
