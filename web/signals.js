// Your-turn signals, for every game's page: the tab's title and favicon
// say when the game waits for this seat; an optional sound; a browser
// notification while the page is open but hidden (opt-in); and Web Push
// for a correspondence match when the page is closed (opt-in per seat:
// the service worker /sw.js shows it). A page calls `turnSignals` once and
// hands it every welcome and update frame; whose turn it is comes from the
// frame's `status` (the seats the game waits for) and its `legal` list
// (seats handed to this player), never from a game's own view.
//
// Settings are kept in localStorage: the sound and the notification for
// every match (`athlas.sound`, `athlas.notify`), push per match
// (`athlas.push.<match id>`: the endpoint subscribed, to unsubscribe it).

import { api } from "./net.js";
import { h } from "./ui.js";

const YOUR_MOVE = "● Your move — Athlas";

// The favicons as SVG data (the CSP allows `img-src data:`): a hex, and the
// same with a red dot when the game waits for you.
const HEX = "<path d='M16 2 29 9.5v13L16 30 3 22.5v-13z' fill='%232f6db5'/>";
const icon = (dot) => "data:image/svg+xml," +
  `<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 32 32'>${HEX}` +
  (dot ? "<circle cx='24' cy='8' r='7' fill='%23d33' stroke='white' stroke-width='2'/>" : "") + "</svg>";
export const FAVICON = { idle: icon(false), turn: icon(true) };

const stored = (key) => { try { return localStorage.getItem(key); } catch { return null; } };
const store = (key, value) => {
  try { if (value === null) localStorage.removeItem(key); else localStorage.setItem(key, value); } catch { /* private mode */ }
};

/// Start the signals of seat `token` in match `matchId`, drawing its
/// settings into `root` (after the game's own section, which redraws
/// itself: this element is left alone). Returns `{ frame(f), close() }`;
/// a spectator (no token) gets signals that do nothing.
export function turnSignals(root, { matchId, token }) {
  if (!token) return { frame() {}, close() {} };
  const link = document.querySelector("link[rel~=icon]") ?? document.head.appendChild(h("link", { rel: "icon" }));
  const before = { title: document.title, icon: link.getAttribute("href") };
  const st = { seat: null, mine: null, live: null, pushing: !!stored(`athlas.push.${matchId}`), audio: null };
  const short = matchId.slice(0, 8);

  const panel = h("details", { class: "signals card", "data-test": "signals" });
  root.append(panel);
  api("GET", `/api/matches/${matchId}`).then((m) => { st.live = !!m.live; draw(); }, () => {});
  draw();

  function draw() {
    const sound = stored("athlas.sound") === "on";
    const notify = stored("athlas.notify") === "on" && "Notification" in window && Notification.permission === "granted";
    const pushable = st.live === false && "serviceWorker" in navigator && "PushManager" in window;
    panel.replaceChildren(
      h("summary", {}, "Turn alerts"),
      h("p", { class: "hint" }, "The tab's title and icon show when the game waits for you."),
      toggle("sound", "Play a sound when it becomes your move", sound, (on) => {
        store("athlas.sound", on ? "on" : null);
        if (on) beep(); // the click is the gesture that lets a page play sound
        draw();
      }),
      "Notification" in window
        ? toggle("notify", "Notify me while this tab is in the background", notify, async (on) => {
          if (on && Notification.permission !== "granted") await Notification.requestPermission();
          store("athlas.notify", on && Notification.permission === "granted" ? "on" : null);
          draw();
        })
        : null,
      pushable
        ? toggle("push", "Tell me when it is my turn here, even with this page closed", st.pushing, async (on) => {
          try { if (on) await subscribe(); else await unsubscribe(); } catch (e) {
            panel.querySelector("[data-test=signals-error]")?.remove();
            panel.append(h("p", { class: "hint", "data-test": "signals-error" }, `Push could not be ${on ? "turned on" : "turned off"}: ${e.message}`));
            return;
          }
          draw();
        })
        : null);
  }

  function toggle(name, label, on, change) {
    return h("label", { class: "signal" },
      h("input", { type: "checkbox", "data-test": `signal-${name}`, checked: on, onchange: (ev) => change(ev.target.checked) }),
      " ", label);
  }

  /// This browser's push subscription (the service worker's), sent to the
  /// server for this seat.
  async function subscribe() {
    if (Notification.permission !== "granted" && (await Notification.requestPermission()) !== "granted") {
      throw new Error("notifications are blocked for this site");
    }
    const reg = await navigator.serviceWorker.register("/sw.js");
    await navigator.serviceWorker.ready;
    let sub = await reg.pushManager.getSubscription();
    if (!sub) {
      const { key } = await api("GET", "/api/push/key");
      sub = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: fromBase64Url(key) });
    }
    await api("POST", `/api/matches/${matchId}/push`, sub.toJSON(), token);
    store(`athlas.push.${matchId}`, sub.endpoint);
    st.pushing = true;
  }

  /// Forget this seat's subscription on the server. The browser keeps its
  /// own: other matches may still use it.
  async function unsubscribe() {
    const endpoint = stored(`athlas.push.${matchId}`);
    if (endpoint) await api("DELETE", `/api/matches/${matchId}/push`, { endpoint }, token);
    store(`athlas.push.${matchId}`, null);
    st.pushing = false;
  }

  function beep() {
    try {
      st.audio ??= new AudioContext();
      const ctx = st.audio, osc = ctx.createOscillator(), gain = ctx.createGain();
      osc.frequency.value = 660;
      gain.gain.setValueAtTime(0.15, ctx.currentTime);
      gain.gain.exponentialRampToValueAtTime(0.001, ctx.currentTime + 0.3);
      osc.connect(gain).connect(ctx.destination);
      osc.start(); osc.stop(ctx.currentTime + 0.3);
    } catch { /* no audio here */ }
  }

  /// It became (or stopped being) this seat's move.
  function turned(mine) {
    document.title = mine ? YOUR_MOVE : before.title;
    link.setAttribute("href", mine ? FAVICON.turn : FAVICON.idle);
    document.documentElement.dataset.yourMove = mine ? "true" : "false";
    if (!mine || st.mine === null) return; // not on the page's first frame
    if (stored("athlas.sound") === "on") beep();
    if (document.hidden && stored("athlas.notify") === "on" && "Notification" in window && Notification.permission === "granted") {
      const n = new Notification("Your move — Athlas", { body: `It is your turn in match ${short}.`, tag: `turn-${matchId}` });
      n.onclick = () => { window.focus(); n.close(); };
    }
  }

  return {
    /// A welcome or update frame of the match.
    frame(f) {
      if (f.type === "welcome") st.seat = f.seat;
      if (f.type !== "welcome" && f.type !== "update") return;
      const waits = f.status?.status === "waiting" ? f.status.seats ?? [] : [];
      const handed = (f.legal ?? []).filter((l) => l.actions?.length).map((l) => l.seat);
      const mine = st.seat !== null && (waits.includes(st.seat) || handed.some((s) => waits.includes(s)));
      if (mine !== st.mine) { turned(mine); st.mine = mine; }
    },
    close() {
      document.title = before.title;
      link.setAttribute("href", before.icon ?? "data:,");
      delete document.documentElement.dataset.yourMove;
      panel.remove();
      st.audio?.close?.();
    },
  };
}

function fromBase64Url(s) {
  const b = atob(s.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (s.length % 4)) % 4));
  return Uint8Array.from(b, (c) => c.charCodeAt(0));
}
