// Talking to the server: the HTTP lobby and one WebSocket per game page.
// Errors come back as Error objects carrying the server's stable `code`
// and human `message` (PROTOCOL.md, "Errors").

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

export async function api(method, path, body, token) {
  const headers = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers["Authorization"] = `Bearer ${token}`;
  let res;
  try {
    res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (e) {
    throw new ApiError(0, "network", `the server cannot be reached (${e.message})`);
  }
  const text = await res.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { /* not JSON */ }
  if (!res.ok) {
    throw new ApiError(res.status, data?.code ?? "http_" + res.status, data?.message ?? `${res.status} ${res.statusText}`);
  }
  return data;
}

/// One game connection: says hello (or watch), keeps the last seq seen,
/// and reconnects with backoff, asking for what it missed (`last_seq`).
export class Connection {
  constructor({ token, matchId, onFrame, onState }) {
    this.token = token;
    this.matchId = matchId;
    this.onFrame = onFrame;
    this.onState = onState;
    this.lastSeq = null;
    this.nextId = 1;
    this.pending = new Map();
    this.closed = false;
    this.delay = 500;
    this.open();
  }

  open() {
    this.onState("connecting");
    // The match named in the URL lets a front before several nodes send
    // every socket of a match to the node playing it (docs/CLUSTER.md).
    const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws?match=${encodeURIComponent(this.matchId)}`;
    const ws = new WebSocket(url);
    this.ws = ws;
    ws.onopen = () => {
      this.delay = 500;
      const hello = this.token
        ? { type: "hello", token: this.token, protocol: 1 }
        : { type: "watch", match_id: this.matchId, protocol: 1 };
      if (this.lastSeq !== null) hello.last_seq = this.lastSeq;
      ws.send(JSON.stringify(hello));
    };
    ws.onmessage = (ev) => {
      let frame;
      try { frame = JSON.parse(ev.data); } catch { return; }
      if (frame.type === "welcome") this.onState("open");
      if ((frame.type === "welcome" || frame.type === "update") && typeof frame.seq === "number") {
        this.lastSeq = frame.seq;
      }
      if ((frame.type === "ack" || frame.type === "error") && frame.id != null) {
        this.pending.delete(frame.id);
      }
      // A greeting another cluster node's room refused (its node out of
      // reach of this one): a page cannot follow the `at` address, so it
      // says hello again, through the front, after the usual backoff.
      if (frame.type === "error" && frame.id == null && frame.code === "room_elsewhere") {
        ws.close();
        return;
      }
      this.onFrame(frame);
    };
    ws.onclose = () => {
      if (this.closed) return;
      this.onState("closed");
      setTimeout(() => { if (!this.closed) this.open(); }, this.delay);
      this.delay = Math.min(this.delay * 2, 8000);
    };
  }

  /// Ask for an action; returns its id (the ack or error echoes it).
  act(action) {
    const id = this.nextId++;
    this.pending.set(id, action);
    if (this.ws?.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify({ type: "act", id, action }));
    } else {
      this.onFrame({ type: "error", id, code: "not_connected", message: "not connected; wait for the connection to come back" });
    }
    return id;
  }

  /// Send a frame that is no action (a chat line); returns its id (the
  /// server's answer echoes it), or null when not connected.
  send(msg) {
    if (this.ws?.readyState !== WebSocket.OPEN) return null;
    const id = this.nextId++;
    this.ws.send(JSON.stringify({ ...msg, id }));
    return id;
  }

  close() {
    this.closed = true;
    this.ws?.close();
  }
}
