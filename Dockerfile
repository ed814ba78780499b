# syntax=docker/dockerfile:1
#
# arbiter serve in a container: built from this repository in a first stage, run as a user of
# its own in a small Debian image, its live games in the volume /var/lib/arbiter (or in
# PostgreSQL: deploy/compose.yaml). docs/deploy.md ("In a container") says how to build and run it:
#
#   docker build -t arbiter .
#   docker run -d -p 127.0.0.1:8080:8080 -v arbiter-games:/var/lib/arbiter arbiter \
#       --host 0.0.0.0 --port 8080 --data-dir /var/lib/arbiter --public-url https://arbiter.example

# The build: the workspace as it is, only the command-line program built (in release, locked to
# Cargo.lock).
FROM rust:1.95-bookworm AS build
WORKDIR /src
COPY . .
RUN cargo build --release --locked -p arbiter-cli \
    && install -m 755 target/release/arbiter /usr/local/bin/arbiter

# The image: the program, CA certificates (for PostgreSQL over TLS with sslmode=verify-full)
# and curl for the health check; no compiler, no sources.
FROM debian:bookworm-slim
RUN apt-get update \
    && apt-get install -y --no-install-recommends ca-certificates curl \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --uid 10001 --user-group --home-dir /var/lib/arbiter \
        --shell /usr/sbin/nologin arbiter \
    && install -d -m 700 -o arbiter -g arbiter /var/lib/arbiter
COPY --from=build /usr/local/bin/arbiter /usr/local/bin/arbiter
USER arbiter
WORKDIR /var/lib/arbiter
# The store (arbiter.sqlite3) and its lock: one container at a time on a volume.
VOLUME ["/var/lib/arbiter"]
EXPOSE 8080
# /healthz answers while the process does; it is served to loopback, which this is.
HEALTHCHECK --interval=30s --timeout=5s --start-period=15s --retries=3 \
    CMD ["curl", "--fail", "--silent", "--show-error", "--max-time", "4", "http://127.0.0.1:8080/healthz"]
# SIGTERM (docker stop) ends the server cleanly within 2 s.
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/local/bin/arbiter", "serve"]
# Listening on every address of the container (its port is published by Docker); give
# --public-url (and --trusted-proxy for the proxy in front) when you run it.
CMD ["--host", "0.0.0.0", "--port", "8080", "--data-dir", "/var/lib/arbiter"]
