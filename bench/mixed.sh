#!/usr/bin/env bash
# The load a test suite makes, with 16 connections: 60% GET /card, 20% GET
# /transaction, 20% POST /card with the demo's Acme key, each run paired
# with a bare net/http hello-world run just before it; the figure is the
# median ratio of ROUNDS rounds (default 5) of 3 s. Request log on, at info
# level. WORLDS=50 spreads the mix over 50 demo worlds the benchmark creates
# through the control API. Limits: 30% (25% over many worlds), p99 under 5 ms.
#   bash bench/mixed.sh
#   WORLDS=50 bash bench/mixed.sh
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p bench/out
go build -trimpath -ldflags='-s -w' -o bench/out/slash-sandbox ./cmd/slash-sandbox
go build -o bench/out/perf ./bench/perf
bench/out/perf mixed -bin bench/out/slash-sandbox -rounds "${ROUNDS:-5}" -worlds "${WORLDS:-0}" "$@"
