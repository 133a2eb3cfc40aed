#!/usr/bin/env bash
# Requests per second with 16 connections on GET /card, GET /transaction and
# POST /card (the world reset after each POST run), each paired with a bare
# net/http hello-world run just before it; the figure is the median ratio of
# ROUNDS rounds (default 5). Request log on, at info level. Limits: 40% for
# the GETs, 30% for POST /card.
#   bash bench/throughput.sh
#   bash bench/throughput.sh -only "POST /card"    # one target alone
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p bench/out
go build -trimpath -ldflags='-s -w' -o bench/out/slash-sandbox ./cmd/slash-sandbox
go build -o bench/out/perf ./bench/perf
bench/out/perf throughput -bin bench/out/slash-sandbox -rounds "${ROUNDS:-5}" "$@"
