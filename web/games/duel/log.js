// The duel's "What happened": the whole match in the server's words
// (engine/src/duel/words.rs). `welcome.log` ({seq, text}, oldest first:
// the match from its start) replaces it on every welcome, so a reload, a
// reconnect or a finished match reopened shows it all; each update adds
// its `log` lines (one per event it shows this reader) under its seq.
// Shown newest first, one numbered entry per record (its seq: never twice),
// and nothing is dropped.

import { h } from "../../dom.js";

export class DuelLog {
  constructor() {
    /// [{seq, lines: [{text, event?}]}], oldest first, one per record.
    this.records = [];
  }

  /// A welcome's log: the match up to the welcome's seq.
  welcome(list) {
    this.records = [];
    for (const l of list ?? []) if (typeof l?.text === "string") this.add(Number(l.seq), { text: l.text });
  }

  /// An update's lines, each beside its event (the two lists go together:
  /// a line for each event this reader may see).
  update(f) {
    if (f.taken_back != null) this.records = this.records.filter((r) => r.seq < f.taken_back);
    const events = f.events ?? [];
    (f.log ?? []).forEach((text, i) => { if (typeof text === "string" && text) this.add(Number(f.seq), { text, event: events[i]?.event }); });
  }

  /// The newest line told with an event of this kind (`di_cast`, ...), if
  /// an update brought one (a welcome's lines carry no event).
  latest(event) {
    for (let i = this.records.length - 1; i >= 0; i--) {
      const line = [...this.records[i].lines].reverse().find((l) => l.event === event);
      if (line) return line.text;
    }
    return null;
  }

  add(seq, line) {
    const last = this.records[this.records.length - 1];
    if (last && last.seq === seq) last.lines.push(line);
    else if (!last || last.seq < seq) this.records.push({ seq, lines: [line] });
  }

  render() {
    const items = [];
    for (let i = this.records.length - 1; i >= 0; i--) {
      const r = this.records[i];
      items.push(h("li", { value: r.seq, "data-test": "log-record", "data-seq": r.seq, "data-key": `log:${r.seq}` },
        ...r.lines.map((l, j) => h("div", { "data-test": "log-entry", "data-seq": r.seq, "data-event": l.event, "data-key": `log:${r.seq}:${j}` }, l.text))));
    }
    return h("div", { class: "card log-card" }, h("h3", {}, "What happened"),
      items.length ? null : h("p", { class: "hint" }, "Nothing yet."),
      h("ol", { class: "log", "data-test": "log", reversed: true, "aria-live": "polite" }, items));
  }
}
