// The service worker of Web Push (served at /sw.js so that its scope is the
// whole site). The server pushes only `{"type":"your_turn","match_id","url"}`
// for a correspondence match whose page is closed (server/src/push.rs):
// this shows it, and a click opens (or focuses) that match's page.

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

self.addEventListener("push", (event) => {
  let data = null;
  try { data = event.data?.json(); } catch { /* not ours */ }
  const id = typeof data?.match_id === "string" ? data.match_id : null;
  // Browsers require every push to show something (userVisibleOnly).
  const body = id ? `It is your turn in match ${id.slice(0, 8)}.` : "It is your turn.";
  const url = id && /^\/match\/[0-9a-f-]{36}$/.test(data.url ?? "") ? data.url : "/";
  event.waitUntil(self.registration.showNotification("Your move — Athlas", {
    body,
    // One notice per match: a newer turn replaces the older.
    tag: id ? `turn-${id}` : "turn",
    data: { url },
  }));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL(event.notification.data?.url ?? "/", self.location.origin).href;
  event.waitUntil((async () => {
    const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    const open = windows.find((w) => w.url === url);
    if (open) return open.focus();
    return self.clients.openWindow(url);
  })());
});
