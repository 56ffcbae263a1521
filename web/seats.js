// The player's games, remembered in this browser. Seat tokens live here
// only: never in a URL, which gets shared and logged.

const KEY = "athlas.games";

export function games() {
  try { return JSON.parse(localStorage.getItem(KEY)) ?? {}; } catch { return {}; }
}

export function remember(matchId, entry) {
  const all = games();
  all[matchId] = { ...(all[matchId] ?? {}), ...entry, saved_at: Date.now() };
  localStorage.setItem(KEY, JSON.stringify(all));
}

export function seatOf(matchId) {
  return games()[matchId] ?? null;
}

export function forget(matchId) {
  const all = games();
  delete all[matchId];
  localStorage.setItem(KEY, JSON.stringify(all));
}
