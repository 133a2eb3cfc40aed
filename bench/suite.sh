#!/usr/bin/env bash
# What a test suite does with the sandbox: 8 workers each create a demo
# world, make about twenty writes and reads across cards, transfers,
# invoices and webhooks (delivered to a hello-world server on loopback),
# advance its clock 3 days, check a few answers and delete it, for 10 s (at
# most 5,000 worlds). Reports worlds per second; any 5xx fails.
#   bash bench/suite.sh [-workers 8] [-duration 10s]
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p bench/out
go build -trimpath -ldflags='-s -w' -o bench/out/slash-sandbox ./cmd/slash-sandbox
go build -o bench/out/perf ./bench/perf
bench/out/perf suite -bin bench/out/slash-sandbox "$@"
