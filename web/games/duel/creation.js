// The Creation Phase: the card catalogue with a type filter, three Alpha
// slots with live cost, life and broken restrictions, the DI stack with its
// divine points, the book's presets (as they are, or loaded into the
// builder), and once locked in, the creation and its commitment.

import { h } from "../../dom.js";
import {
  cat, presetList, card, name, statLine, alphaStats, wouldBreak, diPoints, genusOf,
  KINDS, DI_MAX_CARDS, DI_MAX_POINTS,
} from "./cards.js";

export function newDraft(count = 3) {
  return {
    alphas: [...Array(count)].map(() => []), di: [], current: 0, filter: "all",
    // What a preset put in each slot and in the stack, to tell it from work
    // done by hand (a slot that differs from what was loaded into it).
    loaded: [...Array(count)].map(() => null), loadedDi: null,
    ask: null, // {preset, slot?, text, yes()}: a preset waiting to replace work
  };
}

/// A short name of the work a preset would replace in slot `i`, or null
/// when that slot is empty or holds what a preset put there.
function handWork(d, i) {
  const ids = d.alphas[i];
  if (!ids.length || JSON.stringify(ids) === d.loaded[i]) return null;
  const g = genusOf(ids);
  return `Alpha ${i + 1} (${g ? `${g.name}, ` : ""}${ids.length} card${ids.length === 1 ? "" : "s"})`;
}

function joinWords(xs) {
  return xs.length < 2 ? xs.join("") : `${xs.slice(0, -1).join(", ")} and ${xs[xs.length - 1]}`;
}

/// Run `load` at once, or first ask in the page when it would replace
/// Alphas (or a stack) built by hand; `at` says where the question shows.
function replacing(c, at, slots, withDi, what, load) {
  const d = c.st.draft;
  const work = slots.map((i) => handWork(d, i)).filter(Boolean);
  if (withDi && d.di.length && JSON.stringify(d.di) !== d.loadedDi) work.push(`your Divine Intervention stack (${d.di.length} card${d.di.length === 1 ? "" : "s"})`);
  if (!work.length) { d.ask = null; load(); c.render(); return; }
  d.ask = { ...at, text: `${what} replaces ${joinWords(work)}, built by hand. Replace ${work.length > 1 ? "them" : "it"}?`,
    yes: () => { d.ask = null; load(); c.render(); } };
  c.render();
  // "No" holds the focus: a second Enter keeps the work.
  document.querySelector("[data-test=preset-confirm] [data-test=confirm-no]")?.focus();
}

function askBox(c) {
  const d = c.st.draft;
  return h("div", { class: "card confirm", "data-test": "preset-confirm", role: "alertdialog", "aria-label": "confirm replacing your Alphas" },
    h("p", {}, d.ask.text),
    h("button", { class: "danger", "data-test": "confirm-yes", "data-focus": "preset-confirm-yes", onclick: () => d.ask?.yes() }, "Yes, replace"),
    " ",
    h("button", { "data-test": "confirm-no", "data-focus": "preset-confirm-no", onclick: () => { d.ask = null; c.render(); } }, "No, keep mine"));
}

/// The whole Creation Phase pane. `c` = {st, view, act, render, commitments}.
export function creationPane(c) {
  const { st, view: v } = c;
  const me = st.seat;
  if (me === null) {
    return h("div", { class: "card", "data-test": "creation-wait" },
      h("p", {}, "The players are building their Alphas in secret."),
      c.commitments());
  }
  const mine = v.players[me];
  if (mine?.locked) return lockedView(c, mine);
  if (!cat()) return h("p", { "data-test": "creation-loading" }, "Loading the cards…");
  return builder(c);
}

function lockedView(c, mine) {
  return h("div", { class: "card locked", "data-test": "creation-locked" },
    h("h2", {}, "Your creation is locked in"),
    h("p", {}, c.view.players.every((p) => p.locked) ? "Both creations are in." : "Waiting for your opponent to lock in theirs."),
    h("div", { class: "slots" }, ...mine.alphas.map((a) => h("div", { class: "slot", "data-test": "locked-alpha", "data-alpha": a.index },
      h("h3", {}, `Alpha ${a.index + 1}`),
      h("ul", {}, ...(a.design?.cards ?? []).map((id) => h("li", { "data-card": id }, name(id)))),
      h("p", { class: "stats" }, `cost ${a.cost} · life ${a.max_life}`)))),
    h("p", { "data-test": "locked-di" }, "Divine Intervention stack, top first: ",
      (mine.di_stack ?? []).map(name).join(" → ") || "empty"),
    c.commitments());
}

function builder(c) {
  const { st, view: v, render } = c;
  const d = st.draft;
  const others = (i) => new Set(d.alphas.filter((_, k) => k !== i).flat());
  const problems = [];
  d.alphas.forEach((ids, i) => {
    if (!ids.length) problems.push(`Alpha ${i + 1} has no cards`);
    for (const b of alphaStats(ids, others(i)).broken) problems.push(`Alpha ${i + 1}: ${b.text}`);
  });
  const dp = diPoints(d.di);
  if (dp > DI_MAX_POINTS) problems.push(`The DI stack totals ${dp} divine points; at most ${DI_MAX_POINTS}`);
  if (d.di.length > DI_MAX_CARDS) problems.push(`The DI stack has ${d.di.length} cards; at most ${DI_MAX_CARDS}`);

  const lock = () => {
    st.creationError = null;
    c.act({ type: "create", alphas: d.alphas.map((cards) => ({ cards: [...cards] })), di_stack: [...d.di] }, (err) => {
      st.creationError = err; render();
    });
  };

  return h("div", { class: "creation", "data-test": "builder" },
      h("div", { class: "card area-alphas" },
        h("h2", {}, "Your three Alphas"),
        h("p", { class: "hint" }, "Pick a slot, then add cards from the catalogue. Each Alpha needs exactly one genus card; its red hands may not exceed its green hands, nor its spells' cost its spell points. ",
          `Summoning an Alpha's unit costs the sum of its cards (you have ${v.max_points} summoning points for the game; your first turn summons one unit, or up to three costing 60 at most).`),
        h("div", { class: "slots" }, ...d.alphas.map((ids, i) => alphaSlot(c, ids, i, others(i))))),
      catalogueCard(c, others(d.current)),
      diBuilder(c),
      h("div", { class: "card area-lock" },
        h("h2", {}, "Lock in"),
        problems.length
          ? h("ul", { class: "problems", "data-test": "creation-problems" }, ...problems.map((p) => h("li", { class: "broken" }, p)))
          : h("p", { class: "ok", "data-test": "creation-ok" }, "Every Alpha keeps the creation rules."),
        st.creationError ? h("p", { class: "broken", "data-test": "creation-error", "data-code": st.creationError.code, role: "alert" },
          `The server refused: ${st.creationError.message}`) : null,
        h("button", { "data-test": "lock-creation", "data-focus": "lock", class: "primary", onclick: lock }, "Lock in my creation"),
        h("p", { class: "hint" }, "Once locked in, nothing can change; a hash of your creation is published and checked at the end.")),
      presetsCard(c));
}

function alphaSlot(c, ids, i, others) {
  const { st, render } = c;
  const d = st.draft;
  const s = alphaStats(ids, others);
  const g = genusOf(ids);
  const current = d.current === i;
  const loader = h("select", {
    "data-test": "preset-alpha", "data-alpha": i, "data-focus": `preset-alpha:${i}`, "aria-label": `fill Alpha ${i + 1} from a preset`,
    onchange: (ev) => {
      const [p, k] = ev.target.value.split(":");
      const preset = presetList().find((x) => x.id === p);
      ev.target.value = "";
      if (!preset) return;
      replacing(c, { slot: i }, [i], false, `Filling Alpha ${i + 1} from ${preset.name}`, () => {
        d.alphas[i] = [...preset.alphas[Number(k)]];
        d.loaded[i] = JSON.stringify(d.alphas[i]);
        d.current = i;
      });
    },
  }, h("option", { value: "" }, "Fill from a preset…"),
  ...presetList().flatMap((p) => p.alphas.map((a, k) => h("option", { value: `${p.id}:${k}` }, `${p.name}: ${a.map(name).join(", ")}`))));
  return h("div", {
    class: `slot${current ? " current" : ""}${s.broken.length ? " invalid" : ""}`, "data-test": "alpha", "data-alpha": i,
    "data-cost": s.cost, "data-life": s.life, "data-valid": String(ids.length > 0 && !s.broken.length), "data-current": String(current),
  },
  h("h3", {}, h("button", {
    class: "slot-pick", "data-test": "alpha-pick", "data-alpha": i, "data-focus": `alpha-pick:${i}`, "aria-pressed": String(current),
    onclick: () => { d.current = i; render(); },
  }, `Alpha ${i + 1}${g ? `: ${g.name}` : ""}`), current ? h("span", { class: "tag" }, "adding here") : null),
  h("p", { class: "stats", "data-test": "alpha-stats" },
    h("span", { "data-test": "alpha-cost" }, `cost ${s.cost}`), " · ",
    h("span", { "data-test": "alpha-life" }, `life ${s.life}`), " · ",
    `hands ${s.red} red / ${s.green} green · spells ${s.spells} / ${s.spellPoints} spell points`),
  ids.length ? h("ul", { class: "slot-cards" }, ...ids.map((id, k) => h("li", { "data-card": id },
    h("span", {}, name(id), h("small", {}, ` ${card(id)?.kind ?? ""}, ${card(id)?.cost ?? "?"}`)), " ",
    h("button", {
      class: "small", "data-test": "remove-card", "data-alpha": i, "data-card": id, "data-focus": `remove:${i}:${id}`,
      "aria-label": `remove ${name(id)} from Alpha ${i + 1}`, onclick: () => { ids.splice(k, 1); render(); },
    }, "×"))))
    : h("p", { class: "hint" }, "No cards yet."),
  ...s.broken.map((b) => h("p", { class: "broken", "data-test": "violation", "data-rule": b.rule }, b.text)),
  h("div", { class: "slot-tools" }, loader,
    ids.length ? h("button", { class: "small", "data-test": "clear-alpha", "data-alpha": i, "data-focus": `clear:${i}`, onclick: () => { d.alphas[i] = []; render(); } }, "Clear") : null),
  d.ask?.slot === i ? askBox(c) : null);
}

function catalogueCard(c, others) {
  const { st, render } = c;
  const d = st.draft;
  const ids = d.alphas[d.current];
  const used = new Map();
  d.alphas.forEach((a, i) => a.forEach((id) => used.set(id, i)));
  const cards = cat().ac_cards.filter((x) => d.filter === "all" || x.kind === d.filter);
  const filters = h("div", { class: "filters", role: "group", "aria-label": "card type" },
    ...["all", ...KINDS].map((k) => h("button", {
      class: `small${d.filter === k ? " on" : ""}`, "data-test": "card-filter", "data-kind": k, "data-focus": `filter:${k}`,
      "aria-pressed": String(d.filter === k), onclick: () => { d.filter = k; render(); },
    }, k === "all" ? `all (${cat().ac_cards.length})` : `${k} (${cat().ac_cards.filter((x) => x.kind === k).length})`)));
  return h("div", { class: "card catalogue-card area-cat" },
    h("h2", {}, `Cards — adding to Alpha ${d.current + 1}`),
    filters,
    h("ul", { class: "catalogue", "data-test": "catalogue", "data-filter": d.filter },
      ...cards.map((x) => {
        const inAlpha = used.get(x.id);
        const warn = inAlpha === undefined ? wouldBreak(ids, x.id, others) : [];
        return h("li", { class: `cat-card k-${x.kind}${inAlpha !== undefined ? " used" : ""}`, "data-test": "card", "data-card": x.id, "data-kind": x.kind },
          h("div", { class: "cat-head" },
            h("strong", {}, x.name), h("span", { class: `kind kind-${x.kind}` }, x.kind),
            inAlpha !== undefined
              ? h("span", { class: "tag" }, `in Alpha ${inAlpha + 1}`)
              : h("button", {
                class: "small add", "data-test": "add-card", "data-card": x.id, "data-focus": `add:${x.id}`,
                "aria-label": `add ${x.name} to Alpha ${d.current + 1}`,
                onclick: () => { d.alphas[d.current].push(x.id); render(); },
              }, `+ Alpha ${d.current + 1}`)),
          h("div", { class: "stats", "data-test": "card-stats" }, statLine(x)),
          h("div", { class: "text", "data-test": "card-text" }, x.text),
          ...warn.map((b) => h("div", { class: "warn", "data-test": "card-warning", "data-rule": b.rule }, `Adding it breaks ${b.text.replace(/^Restriction (\d)/, "restriction $1")}`)));
      })));
}

function diBuilder(c) {
  const { st, render } = c;
  const d = st.draft;
  const dp = diPoints(d.di);
  const full = d.di.length >= DI_MAX_CARDS;
  return h("div", { class: "card di-builder area-di", "data-test": "di-builder", "data-points": dp, "data-count": d.di.length },
    h("h2", {}, "Divine Intervention stack"),
    h("p", { class: dp > DI_MAX_POINTS ? "broken" : "stats", "data-test": "di-points" },
      `${d.di.length} of ${DI_MAX_CARDS} cards · ${dp} of ${DI_MAX_POINTS} divine points · cast from the top down`),
    d.di.length ? h("ol", { class: "di-stack", "data-test": "di-stack" }, ...d.di.map((id, k) => h("li", { "data-card": id },
      h("span", {}, `${name(id)} (${card(id)?.divine_points ?? "?"})`), " ",
      h("button", { class: "small", "data-test": "di-up", "data-card": id, "data-focus": `di-up:${id}`, disabled: k === 0, "aria-label": `move ${name(id)} up`,
        onclick: () => { [d.di[k - 1], d.di[k]] = [d.di[k], d.di[k - 1]]; render(); } }, "↑"),
      h("button", { class: "small", "data-test": "di-down", "data-card": id, "data-focus": `di-down:${id}`, disabled: k === d.di.length - 1, "aria-label": `move ${name(id)} down`,
        onclick: () => { [d.di[k + 1], d.di[k]] = [d.di[k], d.di[k + 1]]; render(); } }, "↓"),
      h("button", { class: "small", "data-test": "di-remove", "data-card": id, "data-focus": `di-remove:${id}`, "aria-label": `remove ${name(id)}`,
        onclick: () => { d.di.splice(k, 1); render(); } }, "×"))))
      : h("p", { class: "hint" }, "Empty: you may play without Divine Interventions."),
    h("ul", { class: "catalogue di-catalogue", "data-test": "di-catalogue" }, ...cat().divine_interventions.map((x) => {
      const inStack = d.di.includes(x.id);
      const over = !inStack && dp + x.divine_points > DI_MAX_POINTS;
      return h("li", { class: `cat-card${inStack ? " used" : ""}`, "data-test": "di-card-info", "data-card": x.id },
        h("div", { class: "cat-head" }, h("strong", {}, x.name), h("span", { class: "kind kind-di" }, `${x.divine_points} dp`),
          inStack ? h("span", { class: "tag" }, "in the stack") : h("button", {
            class: "small add", "data-test": "di-card", "data-card": x.id, "data-focus": `di-add:${x.id}`, disabled: full,
            "aria-label": `add ${x.name} to the DI stack`, onclick: () => { d.di.push(x.id); render(); },
          }, "+ stack")),
        h("div", { class: "stats" }, statLine(x)),
        h("div", { class: "text" }, x.text),
        over ? h("div", { class: "warn", "data-test": "card-warning", "data-rule": "divine_points" }, `Adding it makes ${dp + x.divine_points} divine points (at most ${DI_MAX_POINTS})`) : null);
    })));
}

function presetsCard(c) {
  const { st, view: v, render } = c;
  const legal = (v.legal ?? []).filter((a) => a.type === "use_preset");
  return h("div", { class: "card area-presets", "data-test": "presets" },
    h("h2", {}, "The book's presets"),
    ...presetList().map((p) => {
      const use = legal.find((a) => a.preset === p.id);
      return h("div", { class: "preset", "data-test": "preset", "data-preset": p.id },
        h("h3", {}, p.name),
        h("ol", {}, ...p.alphas.map((a) => { const s = alphaStats(a); return h("li", {}, `${a.map(name).join(", ")} — cost ${s.cost}, life ${s.life}`); })),
        h("p", { class: "stats" }, `DI stack: ${p.di_stack.map(name).join(" → ")} (${diPoints(p.di_stack)} divine points)`),
        use ? h("button", { "data-test": "use-preset", "data-preset": p.id, "data-focus": `use-preset:${p.id}`, onclick: () => replacing(c, { preset: p.id }, st.draft.alphas.map((_, i) => i), true, `Locking in ${p.name} as it is`,
          () => c.act(use, (err) => { st.creationError = err; render(); })) }, "Use as it is and lock in") : null,
        h("button", { "data-test": "load-preset", "data-preset": p.id, "data-focus": `load-preset:${p.id}`, onclick: () => {
          const d = st.draft;
          replacing(c, { preset: p.id }, d.alphas.map((_, i) => i), true, `Loading ${p.name}`, () => {
            d.alphas = p.alphas.map((a) => [...a]);
            d.loaded = d.alphas.map((a) => JSON.stringify(a));
            d.di = [...p.di_stack];
            d.loadedDi = JSON.stringify(d.di);
          });
        } }, "Load into the builder"),
        st.draft.ask?.preset === p.id ? askBox(c) : null);
    }));
}
