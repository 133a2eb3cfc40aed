#!/usr/bin/env bash
# Memory: heap bytes per card and per transaction (5,000 of each, in
# process, after a collection), resident memory of bench/big.yaml (100,000
# transactions) after loading and of the demo with 100 more worlds created
# through the control API. Limits: 150 MB each.
#   bash bench/memory.sh
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p bench/out
go build -trimpath -ldflags='-s -w' -o bench/out/slash-sandbox ./cmd/slash-sandbox
go build -o bench/out/perf ./bench/perf
bench/out/perf memory -bin bench/out/slash-sandbox "$@"
