#!/usr/bin/env bash
# Crash safety with --data: kill -9 during a stream of writes, restart on the
# same file, and check that every acknowledged write is there and that every
# balance equals its entries. Loopback only; bounded in rounds and time.
#   bash bench/crash.sh            # 3 rounds
#   ROUNDS=2 bash bench/crash.sh   # the shorter version CI runs
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p bench/out
go build -o bench/out/slash-sandbox ./cmd/slash-sandbox
go run ./bench/perf crash -bin bench/out/slash-sandbox -rounds "${ROUNDS:-3}"
