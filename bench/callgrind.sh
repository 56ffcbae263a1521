#!/usr/bin/env bash
# Instructions per accepted action: the server under
# `valgrind --tool=callgrind` (it counts instructions, the same for the
# same binary however busy the machine), 20 duels from `athlas-load`, the
# counters zeroed after 15 s and dumped 45 s later, divided by how many
# actions `/metrics` says were accepted in between (docs/PERFORMANCE.md,
# "Instructions: callgrind").
#
#   bench/callgrind.sh                                # 20 duels
#   bench/callgrind.sh --game divinity                # any further athlas-load arguments
#
# Environment: SERVER and CLIENT (binaries; default the $PROFILE build,
# dist, built here), PORT (18115). Valgrind offers no SHA instructions:
# counts of builds that hash with SHA-256 include its portable code.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=bench/lib.sh
. "$ROOT/bench/lib.sh"
athlas_binaries
PORT=${PORT:-18115}
command -v valgrind >/dev/null || { echo "valgrind is not installed (apt install valgrind)" >&2; exit 1; }
port_free $PORT
WORK=$(mktemp -d /tmp/athlas-callgrind.XXXXXX)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$WORK"' EXIT

ATHLAS_RATE_PER_SEC=200 ATHLAS_RATE_BURST=400 valgrind --tool=callgrind --callgrind-out-file="$WORK/cg.out" \
  "$SERVER" --listen 127.0.0.1:$PORT --data-dir "$WORK/data" --max-connections-per-ip 0 --max-pending-per-ip 0 --lobby-per-min 0 \
  --log-level warn >"$WORK/server.log" 2>&1 &
PID=$!
wait_healthy $PID $PORT "$WORK/server.log"

"$CLIENT" --server 127.0.0.1:$PORT --matches 20 --duration 70 "$@" >"$WORK/load.log" 2>&1 &
sleep 15
a0=$(acked $PORT)
callgrind_control -z $PID >/dev/null 2>&1
sleep 45
a1=$(acked $PORT)
callgrind_control -d $PID >/dev/null 2>&1
sleep 2
# The dump after zeroing is the last file callgrind wrote.
instructions=$(grep -h '^summary:' "$WORK"/cg.out.* | tail -1 | awk '{ print $2 }')
A=$((a1 - a0))
[ "$A" -gt 0 ] || { echo "no action was accepted while counting" >&2; exit 1; }
echo "instructions per accepted action: $((instructions / A)) ($instructions over $A actions)"
grep -h "refused" "$WORK/load.log" | tail -3 || true
# Keep the profile for callgrind_annotate when asked: CG_KEEP=FILE.
[ -z "${CG_KEEP:-}" ] || cp "$(ls -t "$WORK"/cg.out.* | head -1)" "$CG_KEEP"
