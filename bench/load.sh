#!/usr/bin/env bash
# Parallel worlds under load, against a binary built with the race detector:
# workers create a world each, read and write in it, delete it, and start
# again. Fails on any 5xx, on a data race the binary reports, or when
# resident memory grows across the create/delete cycles.
#   bash bench/load.sh                 # one minute
#   DURATION=10s bash bench/load.sh    # the short version CI runs
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p bench/out
go build -race -o bench/out/slash-sandbox-race ./cmd/slash-sandbox
go run ./bench/perf worlds -bin bench/out/slash-sandbox-race -duration "${DURATION:-60s}"
