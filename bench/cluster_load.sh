#!/usr/bin/env bash
# The same duel load on one node and on NODES cluster nodes (issue 17), one
# after the other on this machine, on one Postgres; prints each run's
# actions/s, p99 and server CPU per action (every node's CPU summed over
# every node's actions; Postgres' own CPU not counted).
#
#   bench/cluster_load.sh [MATCHES=200] [SECONDS=20] [NODES=3]
#
# In the cluster run the matches are split over the nodes: one load
# generator per node creates its share of the matches in that node's lobby
# and plays them through that node, which then holds their leases (a front
# would send each match's sockets to one node the same way). Needs a
# Postgres at $DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test);
# each run gets a fresh database of its own beside it.
set -euo pipefail

MATCHES=${1:-200}
SECONDS_RUN=${2:-20}
NODES=${3:-3}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=bench/lib.sh
. "$ROOT/bench/lib.sh"
BASE_URL=${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/test}
PORT0=${ATHLAS_PORT:-18200}
WORK=$(mktemp -d /tmp/athlas-cluster.XXXXXX)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$WORK"' EXIT

fresh_db() {
  local name=$1
  PGOPTIONS=--client-min-messages=warning psql "$BASE_URL" -qc "DROP DATABASE IF EXISTS $name" -c "CREATE DATABASE $name" >/dev/null
  echo "${BASE_URL%/*}/$name"
}

build_athlas

# run NAME N [--cluster]: N nodes, MATCHES split over them.
run() {
  local name=$1 n=$2 cluster=${3:-}
  local db; db=$(fresh_db "athlas_bench_$name")
  local pids=() outs=()
  for i in $(seq 0 $((n - 1))); do
    local port=$((PORT0 + i))
    local args=(--listen 127.0.0.1:$port --database-url "$db" --max-connections 30000 --max-connections-per-ip 0 --max-pending-per-ip 0
      --lobby-per-min 0 --log-level warn)
    [ -n "$cluster" ] && args+=(--cluster --node-id "n$i" --public-url "ws://127.0.0.1:$port/ws")
    # The bots act faster than the default per-connection rate allows
    # (docs/PERFORMANCE.md raises it the same way); durability as always.
    ATHLAS_RATE_PER_SEC=200 ATHLAS_RATE_BURST=400 \
      "$TARGET/$PROFILE/athlas-server" "${args[@]}" >"$WORK/$name-$i.log" 2>&1 &
    pids+=($!)
  done
  for i in $(seq 0 $((n - 1))); do wait_port $((PORT0 + i)); done
  local gens=()
  for i in $(seq 0 $((n - 1))); do
    local share=$(( MATCHES / n + (i < MATCHES % n ? 1 : 0) ))
    "$TARGET/$PROFILE/athlas-load" --server 127.0.0.1:$((PORT0 + i)) --matches "$share" --duration "$SECONDS_RUN" \
      >"$WORK/$name-load-$i.txt" 2>/dev/null &
    gens+=($!)
  done
  for g in "${gens[@]}"; do wait "$g"; done
  kill "${pids[@]}" 2>/dev/null || true
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  for i in $(seq 0 $((n - 1))); do outs+=("$WORK/$name-load-$i.txt"); done
  NAME="$name" NODES_RUN=$n python3 - "${outs[@]}" <<'PY'
import os, re, sys
tot = dict(acked=0, rate=0.0, cpu=0.0, err=0, p99=0.0)
for path in sys.argv[1:]:
    t = open(path).read()
    g = lambda pat: float(re.search(pat, t).group(1))
    acked = g(r"actions acked:\s+(\d+)")
    cpu_us = g(r"server CPU:\s+(\d+) µs per acked action")
    tot["acked"] += acked
    tot["rate"] += g(r"actions/s:\s+([\d.]+)")
    tot["cpu"] += cpu_us * acked
    tot["err"] += int(g(r"errors:\s+(\d+)"))
    tot["p99"] = max(tot["p99"], g(r"p99 ([\d.]+)"))
    print(f"   {path.rsplit('/', 1)[-1]}: {acked:.0f} acked, {cpu_us:.0f} µs server CPU per action", file=sys.stderr)
cpu = tot["cpu"] / max(tot["acked"], 1)
print(f"| {os.environ['NAME']} | {os.environ['NODES_RUN']} | {tot['rate']:,.0f} | {tot['p99']:.1f} | {cpu:.0f} | {tot['err']} |")
PY
  psql "$BASE_URL" -qc "DROP DATABASE IF EXISTS athlas_bench_$name" >/dev/null || true
}

echo "| run | nodes | actions/s | worst p99 ms | server CPU µs per action (all nodes) | errors |"
echo "|---|---|---|---|---|---|"
run single 1
run cluster "$NODES" --cluster
