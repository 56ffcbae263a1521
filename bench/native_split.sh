#!/usr/bin/env bash
# Where the server's native CPU goes under load, by thread and by what the
# kernel was doing: one `load_cost.sh` run, and while it runs, first the
# server's system calls and context switches counted per accepted action
# (`perf stat` on the syscall tracepoints), then its CPU sampled (`perf
# record`, kernel stacks) and split into the runtime's workers and
# SQLite's thread, each into its own code and the system calls it waited
# in (docs/PERFORMANCE.md, "Native time: perf and strace").
#
#   bench/native_split.sh                      # 200 duels
#   MATCHES=50 bench/native_split.sh --game divinity
#
# Environment: as `load_cost.sh` (SERVER, CLIENT, MATCHES, PORT), and
# SECONDS_EACH (6): how long each of the two measurements lasts. The run
# lasts 2 × SECONDS_EACH + 10 s. Needs `perf` (Debian's linux-perf); the
# software clock is enough, no hardware counters.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=bench/lib.sh
. "$ROOT/bench/lib.sh"
command -v perf >/dev/null || { echo "perf is not installed (apt install linux-perf)" >&2; exit 1; }
EACH=${SECONDS_EACH:-6}
PORT=${PORT:-18114}
WORK=$(mktemp -d /tmp/athlas-split.XXXXXX)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$WORK"' EXIT

DUR=$((2 * EACH + 10)) PORT=$PORT "$ROOT/bench/load_cost.sh" sqlite "$@" >"$WORK/load.log" 2>&1 &
LOAD=$!
for _ in $(seq 100); do
  PID=$(pgrep -f -- "--listen 127.0.0.1:$PORT " | head -n 1 || true)
  [ -n "$PID" ] && break
  sleep 0.1
done
[ -n "${PID:-}" ] || { echo "no server on port $PORT" >&2; cat "$WORK/load.log" >&2; exit 1; }
sleep 4

# System calls per accepted action.
CALLS=futex,writev,write,sendto,recvfrom,read,pwrite64,pread64,fsync,fdatasync,epoll_wait,fcntl,madvise,munmap,mmap
STAT=$(syscalls_per_action "$PID" "$PORT" "$EACH" "$CALLS")
# Samples of the server's CPU.
perf record -q -e cpu-clock -F 1999 -g -o "$WORK/perf.data" -p "$PID" -- sleep "$EACH" 2>/dev/null
wait $LOAD || true
cat "$WORK/load.log"

echo
echo "$STAT"

echo
echo "== the server's CPU samples, by thread and what it was doing"
perf script -i "$WORK/perf.data" -F comm,ip,sym 2>/dev/null | python3 -c '
import collections, sys
# The first kernel function on a stack that names a path tells what the
# sample was spent in; a stack with none is the thread'"'"'s own code.
PATHS = [("futex", "futex (wake-ups)"), ("writev", "writev (sockets)"), ("sendto", "writev (sockets)"),
         ("fsync", "fsync"), ("fdatasync", "fsync"), ("pwrite64", "pwrite (store)"), ("pread64", "pread (store)"),
         ("epoll_wait", "epoll_wait"), ("recvfrom", "recv (sockets)"), ("page_fault", "page faults"),
         ("fcntl", "fcntl (SQLite locks)"), ("madvise", "madvise/munmap"), ("munmap", "madvise/munmap"),
         ("exit_to_user_mode", "preempted"), ("irqentry", "interrupts"), ("sysvec", "interrupts"),
         ("common_interrupt", "interrupts")]
counts, total = collections.Counter(), 0
for sample in sys.stdin.read().split("\n\n"):
    lines = [l.split() for l in sample.strip().splitlines() if l.strip()]
    if not lines:
        continue
    total += 1
    thread = lines[0][0]
    thread = {"tokio-rt-worker": "runtime workers", "sqlx-sqlite-wor": "SQLite thread"}.get(thread, thread)
    what = None
    for frame in lines[1:]:
        name = " ".join(frame[1:])
        what = next((label for key, label in PATHS if key in name), None)
        if what:
            break
    if what is None:
        what = "kernel, other" if len(lines) > 1 and lines[1][0].startswith("ffffffff") else "own code"
    counts[(thread, what)] += 1
for (thread, what), n in counts.most_common(16):
    print(f"{thread:16s} {what:22s} {100 * n / total:5.1f} %")
print(f"({total} samples)")
'
