#!/bin/sh
# Stand-ins for the Dockerfile's two public base images, for machines that
# reach a Debian mirror but no container registry (deploy/check-image.sh's
# machine: Podman 4.3 and buildah from Debian bookworm, as root).
#
#   docker.io/library/rust:1.95-bookworm   a debootstrap'd bookworm (minbase)
#       with gcc, libc6-dev and ca-certificates, plus the host's Rust
#       toolchain (rustup's `1.95.0` toolchain, or $RUST_TOOLCHAIN_DIR)
#       copied to /usr/local/rust, on PATH, CARGO_HOME=/usr/local/cargo,
#       and the host's extra CA certificates (/usr/local/share/ca-certificates:
#       here a TLS-inspecting egress proxy's, without which cargo cannot
#       fetch crates inside the build).
#   gcr.io/distroless/cc-debian12:nonroot  the same minbase with the user
#       `nonroot` (65532:65532, home /home/nonroot) as distroless has it.
#       Unlike distroless it still holds a shell and dpkg: nothing in
#       the Dockerfile or in check-image.sh may rely on that.
#
# The images are tagged with the public names, so `podman build` uses them
# instead of pulling (its default pull policy pulls only what is missing).
# Run once (about five minutes, most of it debootstrap):
#
#   sudo deploy/standin-bases.sh
#
# Where a registry is reachable, none of this is needed: the engine pulls
# the real images.
set -eu

engine=${ENGINE:-podman}
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
toolchain=${RUST_TOOLCHAIN_DIR:-$(readlink -f "$HOME/.rustup/toolchains/1.95.0-x86_64-unknown-linux-gnu")}
work=${WORK:-/var/tmp/athlas-standin}

command -v debootstrap >/dev/null || { echo "debootstrap is missing: apt-get install debootstrap" >&2; exit 1; }
[ -x "$toolchain/bin/cargo" ] || { echo "no Rust toolchain at $toolchain (set RUST_TOOLCHAIN_DIR)" >&2; exit 1; }

mkdir -p "$work"
if [ ! -x "$work/minbase/bin/sh" ]; then
    echo "== debootstrap bookworm (minbase) from $mirror"
    rm -rf "$work/minbase"
    debootstrap --variant=minbase bookworm "$work/minbase" "$mirror"
fi

echo "== runtime stand-in: gcr.io/distroless/cc-debian12:nonroot"
rm -rf "$work/runtime"
cp -a "$work/minbase" "$work/runtime"
chroot "$work/runtime" sh -c 'groupadd -g 65532 nonroot && useradd -u 65532 -g 65532 -d /home/nonroot -m -s /sbin/nologin nonroot'
rm -rf "$work/runtime/var/cache/apt/archives/"*.deb "$work/runtime/var/lib/apt/lists/"*
tar -C "$work/runtime" -c . | $engine import \
    --change 'USER 65532:65532' --change 'WORKDIR /home/nonroot' \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    - gcr.io/distroless/cc-debian12:nonroot

echo "== build stand-in: docker.io/library/rust:1.95-bookworm"
rm -rf "$work/build"
cp -a "$work/minbase" "$work/build"
cp /etc/resolv.conf "$work/build/etc/resolv.conf"
chroot "$work/build" sh -c 'apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends gcc libc6-dev ca-certificates && apt-get clean && rm -rf /var/lib/apt/lists/*'
if ls /usr/local/share/ca-certificates/*.crt >/dev/null 2>&1; then
    cp /usr/local/share/ca-certificates/*.crt "$work/build/usr/local/share/ca-certificates/"
    chroot "$work/build" update-ca-certificates
fi
mkdir -p "$work/build/usr/local/rust" "$work/build/usr/local/cargo"
cp -a "$toolchain/bin" "$toolchain/lib" "$toolchain/libexec" "$work/build/usr/local/rust/"
tar -C "$work/build" -c . | $engine import \
    --change 'ENV PATH=/usr/local/cargo/bin:/usr/local/rust/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change 'ENV CARGO_HOME=/usr/local/cargo' \
    - docker.io/library/rust:1.95-bookworm

$engine images
