#!/usr/bin/env bash
# One 200-duel load run against a fresh store, with the server's own cost
# per acknowledged action read from /proc: user and system CPU, bytes
# written (sockets and store), and for Postgres the CPU of every local
# `postgres` process (docs/PERFORMANCE.md, "How to measure").
#
#   bench/load_cost.sh [sqlite|postgres] [extra `athlas-load` arguments]
#
# Environment: SERVER and CLIENT (binaries; default the $PROFILE build, dist, built
# here), MATCHES (200), DUR (20 s), PORT (18114), and for postgres
# ADMIN_URL (postgres://postgres@127.0.0.1:5432/postgres): the database
# `loadbench` there is dropped and made anew. Idle memory instead:
# MATCHES=0 DUR=5 bench/load_cost.sh sqlite --idle-matches 1000 --idle 8000
set -euo pipefail

STORE=${1:-sqlite}
shift || true
ROOT=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=bench/lib.sh
. "$ROOT/bench/lib.sh"
athlas_binaries
MATCHES=${MATCHES:-200}
DUR=${DUR:-20}
PORT=${PORT:-18114}
WORK=$(mktemp -d /tmp/athlas-load.XXXXXX)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$WORK"' EXIT

ARGS=(--listen 127.0.0.1:$PORT --data-dir "$WORK" --max-connections 30000 --max-connections-per-ip 0 --max-pending-per-ip 0 --lobby-per-min 0 --log-level warn)
case "$STORE" in
  sqlite) ;;
  postgres)
    ADMIN_URL=${ADMIN_URL:-postgres://postgres@127.0.0.1:5432/postgres}
    psql "$ADMIN_URL" -q -c "DROP DATABASE IF EXISTS loadbench" -c "CREATE DATABASE loadbench"
    ARGS+=(--database-url "${ADMIN_URL%/*}/loadbench")
    ;;
  *) echo "usage: bench/load_cost.sh [sqlite|postgres] [load arguments]" >&2; exit 2 ;;
esac

# The per-connection frame limit is raised as for every load run (these
# bots act faster than a person); durability is untouched.
port_free $PORT
ATHLAS_RATE_PER_SEC=200 ATHLAS_RATE_BURST=400 "$SERVER" "${ARGS[@]}" >"$WORK/server.log" 2>&1 &
PID=$!
wait_healthy $PID $PORT "$WORK/server.log"

# The server's user and system ticks, bytes written, Postgres' ticks and
# acknowledged actions, on one line.
sample() { echo "$(ticks_of $PID) $(awk '/^wchar/ { print $2 }' /proc/$PID/io) $(postgres_ticks) $(acked $PORT)"; }

read -r u0 s0 w0 g0 a0 < <(sample)
"$CLIENT" --server 127.0.0.1:$PORT --matches "$MATCHES" --duration "$DUR" "$@"
read -r u1 s1 w1 g1 a1 < <(sample)

A=$((a1 - a0))
if [ "$A" -gt 0 ]; then
  HZ=$(getconf CLK_TCK)
  line="server per action: user $(((u1 - u0) * 1000000 / HZ / A)) µs, system $(((s1 - s0) * 1000000 / HZ / A)) µs, written $(((w1 - w0) / A)) B"
  [ "$STORE" = postgres ] && line+=", postgres $(((g1 - g0) * 1000000 / HZ / A)) µs"
  echo "$line ($A actions)"
fi
