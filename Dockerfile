# Multi-stage build: a static Go binary on an empty (scratch) base.
# Exec-form RUN is used throughout so the builder stage needs no shell.

FROM golang:1.26-bookworm AS build
# WORKDIR makes the empty /data of the final stage (scratch has no mkdir).
WORKDIR /out/data
WORKDIR /src
# Static binary: no libc needed in the final image.
ENV CGO_ENABLED=0

# Dependencies first, so this layer is cached while only sources change.
COPY go.mod go.sum ./
RUN ["go", "mod", "download"]

COPY . .
RUN ["go", "build", "-trimpath", "-ldflags=-s -w", "-o", "/out/slash-sandbox", "./cmd/slash-sandbox"]

FROM scratch
# CA bundle for outbound HTTPS (webhooks).
COPY --from=build /etc/ssl/certs/ca-certificates.crt /etc/ssl/certs/ca-certificates.crt
COPY --from=build /out/slash-sandbox /slash-sandbox
# /data belongs to the user the server runs as, so a volume mounted there
# (docs/compose.yaml) is writable for SANDBOX_DATA.
COPY --from=build --chown=65532:65532 /out/data /data
# Non-root (the conventional "nonroot" uid/gid; no /etc/passwd needed).
USER 65532:65532
ENV SANDBOX_ADDR=0.0.0.0:8080
EXPOSE 8080
# Exec form: scratch has no shell. The health command asks the server in
# this container; it needs no admin token.
HEALTHCHECK --interval=10s --timeout=3s --start-period=5s --retries=3 CMD ["/slash-sandbox", "health"]
ENTRYPOINT ["/slash-sandbox"]
