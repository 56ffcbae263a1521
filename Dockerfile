# syntax=docker/dockerfile:1
# Athlas server image: a release build in a full Rust image, run from a
# distroless, non-root runtime image that holds only the binary, the
# migrations and the content (both are also compiled into the binary; the
# copies are there for operators to read), and the data directory
# /app/data, owned by the image's user `nonroot` (65532:65532) and declared
# a volume: the default SQLite store lives there (docs/OPERATIONS.md,
# "Run the image alone"). deploy/check-image.sh builds and runs it.
# Podman/buildah: build with `--format docker`, or the OCI format drops
# the HEALTHCHECK.

FROM rust:1.95-bookworm AS build
WORKDIR /src
COPY . .
# Cache mounts keep the registry and target dir between builds. The dist
# profile is the release build with whole-program optimisation (Cargo.toml):
# about a tenth less CPU per action (docs/PERFORMANCE.md).
RUN --mount=type=cache,target=/usr/local/cargo/registry \
    --mount=type=cache,target=/src/target \
    cargo build --profile dist --locked -p athlas-server \
 && cp target/dist/athlas-server /athlas-server \
 && mkdir -p /data

FROM gcr.io/distroless/cc-debian12:nonroot
WORKDIR /app
COPY --from=build /athlas-server /app/athlas-server
COPY migrations /app/migrations
COPY content /app/content
# The runtime image has no shell to `mkdir`: the empty directory comes from
# the build stage, owned by the user the server runs as. A named volume
# mounted here starts as a copy of it (owner included); a bind-mounted host
# directory keeps its own owner and must be writable by 65532.
COPY --from=build --chown=65532:65532 /data /app/data
VOLUME /app/data
USER nonroot:nonroot
ENV ATHLAS_LISTEN=0.0.0.0:8080 \
    ATHLAS_DATA_DIR=/app/data \
    ATHLAS_LOG_FORMAT=json
EXPOSE 8080
# The image has no shell or curl: the binary probes its own /readyz.
HEALTHCHECK --interval=10s --timeout=5s --start-period=10s --retries=3 \
    CMD ["/app/athlas-server", "--healthcheck"]
ENTRYPOINT ["/app/athlas-server"]
