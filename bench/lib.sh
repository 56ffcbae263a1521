# Helpers the bench scripts share; sourced, never run. Expects ROOT (the
# repository) to be set.

# The dist profile (whole-program optimisation) is what the Docker image
# ships; PROFILE=release measures the quicker build.
PROFILE=${PROFILE:-dist}
TARGET=${CARGO_TARGET_DIR:-$ROOT/target}

# Build the server and the load generator (`athlas-load`) in $PROFILE.
build_athlas() {
  echo "== building Athlas ($PROFILE)" >&2
  (cd "$ROOT" && cargo build --profile "$PROFILE" -q -p athlas-server -p athlas-load)
}

# SERVER and CLIENT (the load generator): the binaries to measure, given
# (to compare builds) or else the $PROFILE build, built here.
athlas_binaries() {
  if [ -z "${SERVER:-}" ] || [ -z "${CLIENT:-}" ]; then
    build_athlas
  fi
  SERVER=${SERVER:-$TARGET/$PROFILE/athlas-server}
  CLIENT=${CLIENT:-$TARGET/$PROFILE/athlas-load}
}

# Refuse to measure when a server already answers on port $1: that one
# would be measured instead of ours.
port_free() {
  if curl -sf "127.0.0.1:$1/healthz" >/dev/null; then
    echo "port $1 already answers: stop that server or set PORT" >&2
    exit 1
  fi
}
# Wait until the server of pid $1 answers on port $2; if it dies first,
# show its log ($3) and stop.
# Ready, not only alive: /healthz answers while start-up still opens the
# store (--db-wait-secs), /readyz once matches can be created.
wait_healthy() {
  until curl -sf "127.0.0.1:$2/readyz" >/dev/null; do
    kill -0 "$1" 2>/dev/null || { echo "the server did not start:" >&2; cat "$3" >&2; exit 1; }
    sleep 0.1
  done
}
# Actions the server on port $1 has accepted so far.
acked() { curl -s "127.0.0.1:$1/metrics" | awk '/^athlas_actions_accepted_total/ { s += $2 } END { print s + 0 }'; }

wait_port() { for _ in $(seq 100); do (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0; sleep 0.1; done; echo "port $1 never opened" >&2; return 1; }
# Resident memory of a process, kB.
rss_of() { awk '/^VmRSS:/ { print $2 }' "/proc/$1/status"; }
# User and system CPU of a process, in clock ticks (`getconf CLK_TCK` a second).
ticks_of() { awk '{ sub(/^.*\) /, ""); print $12, $13 }' "/proc/$1/stat"; }
# CPU ticks of every local `postgres` process (the durable write's own cost
# when the store is Postgres on this machine; 0 when there is none).
postgres_ticks() {
  local t=0 p
  for p in $(pgrep -x postgres 2>/dev/null); do
    t=$((t + $(awk '{ sub(/^.*\) /, ""); print $12 + $13 }' "/proc/$p/stat" 2>/dev/null || echo 0)))
  done
  echo "$t"
}

# The system calls `$4` (comma-separated names) and the context switches
# and migrations of the server of pid $1, counted for $3 s with perf's
# syscall tracepoints, per action the server on port $2 accepted meanwhile:
# a heading, then one line a kind, most first. Named calls, not
# `sys_enter_*`: attaching every tracepoint takes perf longer than a run.
syscalls_per_action() {
  local pid=$1 port=$2 secs=$3 events a0 a1 out
  events=$(echo "$4" | sed 's/[^,]*/syscalls:sys_enter_&/g')
  out=$(mktemp)
  a0=$(acked "$port")
  perf stat -x, -e "$events,context-switches,cpu-migrations" -p "$pid" -- sleep "$secs" 2>"$out"
  a1=$(acked "$port")
  echo "== the server's system calls and context switches per accepted action ($((a1 - a0)) actions in $secs s)"
  awk -F, -v A=$((a1 - a0)) '$1 + 0 > 0 && A > 0 { sub(/^syscalls:sys_enter_/, "", $3); printf "%-22s %8.2f\n", $3, $1 / A }' "$out" \
    | sort -k2 -n -r | head -n 15
  rm -f "$out"
}
