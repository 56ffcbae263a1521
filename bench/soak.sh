#!/usr/bin/env bash
# A soak (issue 16): a release server on a scratch store, played for a long
# time by bots that think like people, with seats dropping and coming back,
# spectators checking for gaps and misbehaving clients around them; the
# server's memory and open files are sampled and must stay flat.
#
#   bench/soak.sh [SECONDS=3600] [MATCHES=20] [THINK_MS=100] [sqlite|postgres]
#
# Prints the load report (with its soak section) and the server's own RSS
# and open file descriptors read from /proc at the start and the end.
set -euo pipefail

SECONDS_RUN=${1:-3600}
MATCHES=${2:-20}
THINK_MS=${3:-100}
STORE=${4:-sqlite}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=bench/lib.sh
. "$ROOT/bench/lib.sh"
WORK=$(mktemp -d /tmp/athlas-soak.XXXXXX)
PORT=${ATHLAS_PORT:-18090}
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$WORK"' EXIT

fds_of() { ls "/proc/$1/fd" | wc -l; }

build_athlas

# One address plays every seat: lift the per-address limits, as for any
# load test from one machine. Wrong tokens stay under the default guess limit.
ARGS=(--listen 127.0.0.1:$PORT --data-dir "$WORK/data" --max-connections-per-ip 0 --max-pending-per-ip 0 --lobby-per-min 0 --idle-unload-secs 30)
if [ "$STORE" = postgres ]; then
  ARGS+=(--database-url "${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/test}")
fi
"$TARGET/$PROFILE/athlas-server" "${ARGS[@]}" >"$WORK/server.log" 2>&1 &
SERVER=$!
wait_port "$PORT"
echo "server at start: RSS $(rss_of $SERVER) kB, $(fds_of $SERVER) open fds" >&2
"$TARGET/$PROFILE/athlas-load" --server 127.0.0.1:$PORT --soak --matches "$MATCHES" --duration "$SECONDS_RUN" \
  --think-ms "$THINK_MS" --sample-secs 30 --max-actions 400 && STATUS=0 || STATUS=$?
echo "server at the end: RSS $(rss_of $SERVER) kB, $(fds_of $SERVER) open fds"
grep -cE ' (ERROR|WARN) ' "$WORK/server.log" | sed 's/^/server log warnings and errors: /' || true
exit $STATUS
