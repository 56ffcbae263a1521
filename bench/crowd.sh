#!/usr/bin/env bash
# Many connections at human pace: one server on a fresh SQLite store and a
# crowd of live duels whose seats think before each action, plus
# spectators (docs/PERFORMANCE.md, "Many connections at human pace").
# Prints the generator's summary (actions/s, ack p50/p99, server CPU and
# memory per connection) and, when `perf` is installed, the server's
# context switches and system calls per accepted action, counted over
# 10 s in the middle of the run.
#
#   bench/crowd.sh                               # 3,000 duels + 4,000 spectators, 40 s
#   MATCHES=5820 SPECTATORS=7760 DUR=60 bench/crowd.sh
#
# Environment: SERVER and CLIENT (as `load_cost.sh`), MATCHES (3000),
# SPECTATORS (4000), THINK (2s-5s), DUR (40 s), PORT (18130). Extra
# arguments go to the server (`--commit-delay-ms 0`, say). Needs an
# open-file limit above the connections (docs/OPERATIONS.md, "Kernel and
# process limits for many connections").
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=bench/lib.sh
. "$ROOT/bench/lib.sh"
athlas_binaries
MATCHES=${MATCHES:-3000}
SPECTATORS=${SPECTATORS:-4000}
THINK=${THINK:-2s-5s}
DUR=${DUR:-40}
PORT=${PORT:-18130}
port_free "$PORT"
WORK=$(mktemp -d /tmp/athlas-crowd.XXXXXX)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$WORK"' EXIT

"$SERVER" --listen 127.0.0.1:$PORT --data-dir "$WORK" --log-level warn --max-connections 250000 \
  --max-connections-per-ip 0 --max-pending-per-ip 0 --lobby-per-min 0 "$@" >"$WORK/server.log" 2>&1 &
PID=$!
wait_healthy $PID $PORT "$WORK/server.log"
"$CLIENT" --server 127.0.0.1:$PORT --crowd --matches "$MATCHES" --spectators "$SPECTATORS" --think "$THINK" \
  --source-addrs 127.0.0.2-127.0.0.9 --ramp 1000 --duration "$DUR" >"$WORK/load.log" 2>&1 &
LOAD=$!

STAT=""
if command -v perf >/dev/null; then
  sleep $((DUR / 2))
  STAT=$(syscalls_per_action "$PID" "$PORT" 10 futex,writev,write,recvfrom,pwrite64,pread64,fsync,epoll_wait)
fi
wait $LOAD
cat "$WORK/load.log"
if [ -n "$STAT" ]; then
  echo
  echo "$STAT"
fi
