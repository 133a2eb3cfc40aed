#!/usr/bin/env bash
# bench/big.yaml, 100,000 transactions: start to healthy (the load, median of
# 3 starts), page 500 of GET /transaction against page 1 (both fresh), the
# aggregation over all of it, and resident memory. Limits: load under 2 s,
# page 500 within 1.5x of page 1, aggregation under 250 ms, RSS under 300 MB.
#   bash bench/big.sh
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p bench/out
go build -trimpath -ldflags='-s -w' -o bench/out/slash-sandbox ./cmd/slash-sandbox
go run ./bench/perf big -bin bench/out/slash-sandbox "$@"
