#!/usr/bin/env bash
# Start to first successful GET /_sandbox/health with the demo scenario: the
# median of N runs (default 30), and resident memory right after start and
# after serving 5,000 requests. Limits: median under 100 ms, RSS under 50 MB.
#   bash bench/startup.sh        # 30 runs
#   bash bench/startup.sh 10
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p bench/out
go build -trimpath -ldflags='-s -w' -o bench/out/slash-sandbox ./cmd/slash-sandbox
go run ./bench/perf startup -bin bench/out/slash-sandbox -n "${1:-30}"
