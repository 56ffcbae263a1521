# syntax=docker/dockerfile:1
# Athlas server image: a release build in a full Rust image, run from a
# distroless, non-root runtime image that holds only the binary, the
# migrations and the content (both are also compiled into the binary; the
# copies are there for operators to read).

FROM rust:1.95-bookworm AS build
WORKDIR /src
COPY . .
# Cache mounts keep the registry and target dir between builds. The dist
# profile is the release build with whole-program optimisation (Cargo.toml):
# about a tenth less CPU per action (docs/PERFORMANCE.md).
RUN --mount=type=cache,target=/usr/local/cargo/registry \
    --mount=type=cache,target=/src/target \
    cargo build --profile dist --locked -p athlas-server \
 && cp target/dist/athlas-server /athlas-server

FROM gcr.io/distroless/cc-debian12:nonroot
WORKDIR /app
COPY --from=build /athlas-server /app/athlas-server
COPY migrations /app/migrations
COPY content /app/content
USER nonroot:nonroot
ENV ATHLAS_LISTEN=0.0.0.0:8080 \
    ATHLAS_DATA_DIR=/app/data \
    ATHLAS_LOG_FORMAT=json
EXPOSE 8080
# The image has no shell or curl: the binary probes its own /readyz.
HEALTHCHECK --interval=10s --timeout=5s --start-period=10s --retries=3 \
    CMD ["/app/athlas-server", "--healthcheck"]
ENTRYPOINT ["/app/athlas-server"]
