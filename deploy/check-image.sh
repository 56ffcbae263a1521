#!/bin/sh
# Build the Athlas image and check that it runs alone, keeping its SQLite
# store in /app/data across a restart: once with a named volume, once with
# a bind-mounted host directory. Each run creates a duel over HTTP, restarts
# the container and finds the duel again. Exits 0 when every check passed.
#
#   deploy/check-image.sh            # build from the work tree, then check
#   FROM_GIT=1 deploy/check-image.sh # build from the last commit (git archive HEAD)
#   NO_BUILD=1 deploy/check-image.sh # check an image already tagged $IMAGE
#
# Engine: docker when its daemon answers (`docker info`), else podman; with
# neither it says so and exits 2. Podman builds with `--format docker`: the
# OCI format has no HEALTHCHECK and Podman drops it.
#
# Where it was run (2026-11-28): Debian 12 as root, no Docker engine, no
# container registry reachable. Podman 4.3.1 and buildah from Debian
# (`apt-get install podman buildah debootstrap runc`), with
# /etc/containers/containers.conf saying
#     [containers]
#     default_ulimits = ["nofile=20000:20000", "nproc=16384:16384"]
#     [engine]
#     runtime = "runc"
# (without the two limits runc fails: "error setting rlimit ... operation
# not permitted", this sandbox refuses the defaults Podman asks for), and
# the two public base images replaced by local stand-ins made with
# debootstrap by deploy/standin-bases.sh (a bookworm minbase with gcc and
# the host's Rust 1.95 toolchain as rust:1.95-bookworm; the same minbase
# with the user nonroot 65532:65532 as gcr.io/distroless/cc-debian12:nonroot).
# With a registry, skip that: the engine pulls the real images.
set -eu

IMAGE=${IMAGE:-athlas:check}
PORT=${PORT:-18480}
here=$(cd "$(dirname "$0")/.." && pwd)
name=athlas-check-$$
volume=athlas-check-data-$$
bind=$(mktemp -d /tmp/athlas-check-bind.XXXXXX)

if docker info >/dev/null 2>&1; then
    engine=docker
    build_flags=""
elif command -v podman >/dev/null 2>&1; then
    engine=podman
    build_flags="--format docker"
else
    echo "check-image: no container engine: neither a docker daemon (docker info fails) nor podman is here" >&2
    exit 2
fi
echo "== engine: $engine ($($engine --version))"

cleanup() {
    $engine rm -f "$name" >/dev/null 2>&1 || true
    $engine volume rm -f "$volume" >/dev/null 2>&1 || true
    rm -rf "$bind" "${context:-}"
}
trap cleanup EXIT

fail() {
    echo "FAIL: $*" >&2
    $engine logs "$name" 2>&1 | tail -20 >&2 || true
    exit 1
}

if [ -z "${NO_BUILD:-}" ]; then
    context=""
    dir=$here
    if [ -n "${FROM_GIT:-}" ]; then
        context=$(mktemp -d /tmp/athlas-check-context.XXXXXX)
        git -C "$here" archive HEAD | tar -x -C "$context"
        dir=$context
        echo "== building $IMAGE from git HEAD $(git -C "$here" rev-parse --short HEAD)"
    else
        echo "== building $IMAGE from $here"
    fi
    start=$(date +%s)
    # shellcheck disable=SC2086
    $engine build $build_flags --network host -t "$IMAGE" "$dir"
    echo "== built in $(( $(date +%s) - start )) s"
fi

# Whether the HEALTHCHECK survived the build.
health=$($engine image inspect --format '{{json .Config.Healthcheck}}' "$IMAGE" 2>/dev/null || echo null)
case $health in
    *healthcheck*) echo "ok: the image keeps its HEALTHCHECK: $health" ;;
    *) fail "the image has no HEALTHCHECK ($health)" ;;
esac

# Wait until /readyz answers 200 (at most 60 s).
wait_ready() {
    i=0
    until curl -fsS "http://127.0.0.1:$PORT/readyz" >/dev/null 2>&1; do
        i=$((i + 1))
        [ $i -le 120 ] || fail "$1: /readyz not 200 after 60 s"
        if [ "$($engine inspect --format '{{.State.Running}}' "$name" 2>/dev/null)" = false ]; then
            fail "$1: the container exited"
        fi
        sleep 0.5
    done
}

# run LABEL [MOUNT]: start, create a duel, restart, find it.
run_with() {
    label=$1
    mount=${2:+-v $2}
    echo "== $label: $engine run $mount $IMAGE"
    # shellcheck disable=SC2086
    $engine run -d --name "$name" -p "127.0.0.1:$PORT:8080" $mount "$IMAGE" >/dev/null
    wait_ready "$label"
    echo "ok: $label: ready: $(curl -fsS "http://127.0.0.1:$PORT/readyz")"
    created=$(curl -fsS -X POST -H 'content-type: application/json' \
        -d '{"game":"duel","options":{}}' "http://127.0.0.1:$PORT/api/matches") || fail "$label: creating a duel"
    id=$(printf '%s' "$created" | sed -n 's/.*"match_id":"\([^"]*\)".*/\1/p')
    [ -n "$id" ] || fail "$label: no match_id in $created"
    echo "ok: $label: duel $id created"
    $engine restart "$name" >/dev/null
    wait_ready "$label after the restart"
    found=$(curl -fsS "http://127.0.0.1:$PORT/api/matches/$id") || fail "$label: duel $id not found after the restart"
    echo "ok: $label: duel found after the restart: $(printf '%s' "$found" | cut -c1-100)"
    $engine rm -f -v "$name" >/dev/null
}

# No -v at all: the image's VOLUME gives the container an anonymous one,
# kept across a restart (not across `rm`).
run_with "no volume given"

$engine volume create "$volume" >/dev/null
run_with "named volume" "$volume:/app/data"

# A bind-mounted directory keeps the host's owner: give it to the image's
# user (65532), as docs/OPERATIONS.md says.
chown 65532:65532 "$bind" 2>/dev/null || fail "chown 65532:65532 $bind (run as root, or with sudo)"
run_with "bind mount" "$bind:/app/data"
ls -ln "$bind" | sed 's/^/   /'

# An empty directory the image's user may not write: the server must stop
# at once, naming the path and the user.
rm -rf "$bind"
mkdir -m 755 "$bind"
echo "== bind mount of a directory owned by root: the server must refuse, naming the path and the user"
$engine run --name "$name" -v "$bind:/app/data" "$IMAGE" >/tmp/athlas-check-refused.log 2>&1 && fail "it started on a directory it cannot write"
grep -q "/app/data" /tmp/athlas-check-refused.log && grep -q "65532" /tmp/athlas-check-refused.log \
    || { cat /tmp/athlas-check-refused.log >&2; fail "the error does not name the path and the user"; }
echo "ok: refused: $(grep -i error /tmp/athlas-check-refused.log | tail -1 | cut -c1-300)"
$engine rm -f "$name" >/dev/null
echo "== all checks passed ($engine, $IMAGE)"
