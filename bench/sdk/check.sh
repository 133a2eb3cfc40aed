#!/usr/bin/env bash
# Runs the official SDKs against a fresh demo sandbox: the Python SDK with
# strict response validation over every resource (check.py) and the
# TypeScript SDK's view of a deferred write (check.mjs).
#
# The SDKs are not on the package registries this project's CI reaches, so
# name local copies:
#
#   SDK_PYTHON=~/src/slash-sdk-python \
#   SDK_TYPESCRIPT_DIST=~/src/slash-sdk-typescript/dist \
#   bash bench/sdk/check.sh
#
# SDK_TYPESCRIPT_DIST is a CommonJS build of the TypeScript SDK (its
# ./scripts/build, or `tsc --module commonjs --outDir <dir>` over its src).
# PYTHONPATH may add what the Python SDK imports (httpx, pydantic,
# typing_extensions >= 4.10). SHAPES=1 also rewrites
# fixtures/sdk/response-shapes.json, which the Go tests check every response
# against, from the Python SDK's types.
set -euo pipefail
cd "$(dirname "$0")/../.."
: "${SDK_PYTHON:?set SDK_PYTHON to a slash-sdk-python checkout}"
port=${PORT:-18090}
bin=$(mktemp -d)/slash-sandbox
go build -o "$bin" ./cmd/slash-sandbox
"$bin" --addr "127.0.0.1:$port" >"$bin.log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do
  curl -fsS "http://127.0.0.1:$port/_sandbox/health" >/dev/null 2>&1 && break
  sleep 0.1
done
export PYTHONPATH="${PYTHONPATH:+$PYTHONPATH:}$SDK_PYTHON/src"
PYTHON=${PYTHON:-python3}
if [ "${SHAPES:-}" = 1 ]; then
  "$PYTHON" bench/sdk/shapes.py "$SDK_PYTHON" >fixtures/sdk/response-shapes.json
fi
status=0
"$PYTHON" bench/sdk/check.py "http://127.0.0.1:$port" || status=1
if [ -n "${SDK_TYPESCRIPT_DIST:-}" ]; then
  node bench/sdk/check.mjs "$SDK_TYPESCRIPT_DIST" "http://127.0.0.1:$port" || status=1
fi
exit $status
