// Checking a commitment once the game is over (PROTOCOL.md, `reveal`):
// sha256(salt bytes ‖ canonical JSON of the secret) must equal the hash.

function canonical(v) {
  if (Array.isArray(v)) return `[${v.map(canonical).join(",")}]`;
  if (v && typeof v === "object") {
    const keys = Object.keys(v).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`).join(",")}}`;
  }
  return JSON.stringify(v);
}

export async function verifyReveal({ salt, secret, hash }) {
  if (!/^[0-9a-f]{64}$/.test(salt) || !/^[0-9a-f]{64}$/.test(hash)) return false;
  const saltBytes = new Uint8Array(salt.match(/../g).map((b) => parseInt(b, 16)));
  const body = new TextEncoder().encode(canonical(secret));
  const all = new Uint8Array(saltBytes.length + body.length);
  all.set(saltBytes);
  all.set(body, saltBytes.length);
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", all));
  const hex = [...digest].map((b) => b.toString(16).padStart(2, "0")).join("");
  return hex === hash;
}

/// The reveal checked against the hash committed before play (the
/// `commitment` frame), not only against the hash the reveal itself carries.
export async function verifyAgainstCommitment(reveal, committed) {
  if (committed !== undefined && committed !== reveal.hash) return false;
  return verifyReveal(reveal);
}
