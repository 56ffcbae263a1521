#!/usr/bin/env bash
# Athlas and the boardgame.io peer, one after the other on this machine, with
# the same number of concurrent two-seat matches for the same time. Prints
# both figures and the ratio (issue 14). Durability stays on for Athlas.
#
#   bench/side_by_side.sh [MATCHES=200] [SECONDS=20] [sqlite|postgres]
#
# Needs: cargo, node + npm (the peer's dependencies are installed into a
# scratch copy, never into this repository), and for `postgres` a server at
# $DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test).
# SERVER and CLIENT: Athlas's binaries (default the $PROFILE build, dist,
# built here).
set -euo pipefail

MATCHES=${1:-200}
SECONDS_RUN=${2:-20}
STORE=${3:-sqlite}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=bench/lib.sh
. "$ROOT/bench/lib.sh"
PEER=${PEER:-$ROOT/../shared/peers/boardgameio}
WORK=$(mktemp -d /tmp/athlas-bench.XXXXXX)
BGIO_PORT=${BGIO_PORT:-18000}
ATHLAS_PORT=${ATHLAS_PORT:-18080}
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$WORK"' EXIT

# CPU seconds of a process, and of every local `postgres` process.
HZ=$(getconf CLK_TCK)
cpu_of() { ticks_of "$1" | awk -v hz="$HZ" '{ print ($1 + $2) / hz }'; }
pg_cpu() { awk -v t="$(postgres_ticks)" -v hz="$HZ" 'BEGIN { print t / hz }'; }

athlas_binaries

echo "== boardgame.io: $MATCHES matches, $SECONDS_RUN s" >&2
cp -r "$PEER" "$WORK/bgio"
(cd "$WORK/bgio" && npm install --no-audit --no-fund --silent >/dev/null)
(cd "$WORK/bgio" && PORT=$BGIO_PORT exec node server.js >/dev/null 2>&1) &
BGIO=$!
wait_port "$BGIO_PORT"
cpu0=$(cpu_of $BGIO)
BGIO_OUT=$(cd "$WORK/bgio" && SERVER=http://127.0.0.1:$BGIO_PORT node load.js "$MATCHES" "$SECONDS_RUN")
cpu1=$(cpu_of $BGIO)
BGIO_RSS=$(rss_of $BGIO)
kill $BGIO; wait $BGIO 2>/dev/null || true

echo "== Athlas ($STORE, durable): $MATCHES matches, $SECONDS_RUN s" >&2
ARGS=(--listen 127.0.0.1:$ATHLAS_PORT --data-dir "$WORK/data" --max-connections 30000 --max-connections-per-ip 0 --max-pending-per-ip 0 --lobby-per-min 0)
if [ "$STORE" = postgres ]; then
  DB=${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/test}
  ARGS+=(--database-url "$DB")
fi
# The per-connection frame rate limit (20/s, burst 40 by default) guards a
# public server against one client's flood; the peer has none, and these
# bots act faster than it allows, so it is raised as for every load run in
# docs/PERFORMANCE.md. Durability (fsync, group commit) is untouched.
ATHLAS_RATE_PER_SEC=${ATHLAS_RATE_PER_SEC:-200} ATHLAS_RATE_BURST=${ATHLAS_RATE_BURST:-400} \
  "$SERVER" "${ARGS[@]}" >"$WORK/athlas.log" 2>&1 &
ATHLAS=$!
wait_port "$ATHLAS_PORT"
pg0=$(pg_cpu)
ATHLAS_OUT=$("$CLIENT" --server 127.0.0.1:$ATHLAS_PORT --matches "$MATCHES" --duration "$SECONDS_RUN" 2>/dev/null)
pg1=$(pg_cpu)
kill $ATHLAS; wait $ATHLAS 2>/dev/null || true

BGIO_OUT="$BGIO_OUT" ATHLAS_OUT="$ATHLAS_OUT" CPU0=$cpu0 CPU1=$cpu1 PG0=$pg0 PG1=$pg1 BGIO_RSS=$BGIO_RSS STORE=$STORE python3 - <<'PY'
import json, os, re
b = json.loads(os.environ["BGIO_OUT"].strip().splitlines()[-1])
a = os.environ["ATHLAS_OUT"]
def grab(pat, cast=float):
    m = re.search(pat, a)
    return cast(m.group(1)) if m else None
a_rate = grab(r"actions/s:\s+([\d.]+)")
a_p50, a_p99 = grab(r"p50 ([\d.]+)"), grab(r"p99 ([\d.]+)")
a_cpu = grab(r"server CPU:\s+(\d+) µs per acked action")
a_rss = grab(r"server RSS:\s+([\d.]+) MB")
a_err = grab(r"errors:\s+(\d+)", int)
b_cpu_us = (float(os.environ["CPU1"]) - float(os.environ["CPU0"])) * 1e6 / max(b["moves"], 1)
b_rss = int(os.environ["BGIO_RSS"]) / 1000
rows = [
    ("boardgame.io 0.50.2, in memory", b["moves_per_s"], b["p50_ms"], b["p99_ms"], b_cpu_us, b_rss, b["errors"]),
    (f"Athlas, {os.environ['STORE']}, durable", a_rate, a_p50, a_p99, a_cpu, a_rss, a_err),
]
print("| server | moves/s | p50 ms | p99 ms | server CPU µs/move | server RSS MB | errors |")
print("|---|---|---|---|---|---|---|")
for r in rows:
    print("| " + " | ".join("-" if v is None else (f"{v:.1f}" if isinstance(v, float) else str(v)) for v in r) + " |")
if a_rate and b["moves_per_s"]:
    print(f"\nAthlas / boardgame.io: {a_rate / b['moves_per_s']:.2f}x the moves/s", end="")
    if a_cpu:
        print(f", {b_cpu_us / a_cpu:.2f}x less server CPU per move")
    else:
        print()
a_moves = grab(r"actions acked:\s+(\d+)", int)
pg_s = float(os.environ["PG1"]) - float(os.environ["PG0"])
if os.environ["STORE"] == "postgres" and a_moves and pg_s > 0:
    print(f"\n(Postgres' own CPU, local processes: {pg_s * 1e6 / a_moves:.0f} µs per move on top of the server's)")
print("\n(load generator's own cost, Athlas side)")
print("\n".join(l for l in a.splitlines() if l.startswith("load CPU")))
PY
