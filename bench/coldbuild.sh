#!/usr/bin/env bash
# Cold compile of a one-file Go test that uses sandboxtest: an empty build
# cache each time (the module cache is kept), wall and CPU seconds of
# `go test -c`. Twice: the helper as imported by default, and with the two
# parts a test adds on request (the SQL engine and the MCP server).
#   bash bench/coldbuild.sh
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'chmod -R u+w "$work"; rm -rf "$work"' EXIT

module() { # module DIR OPTIONS IMPORTS
	mkdir -p "$1"
	cat > "$1/go.mod" <<MOD
module example.test/coldbuild

go 1.26.0

require github.com/slash-sandbox/slash-sandbox v0.0.0

replace github.com/slash-sandbox/slash-sandbox => $repo
MOD
	cat > "$1/a_test.go" <<TEST
package coldbuild

import (
	"testing"
$3
	"github.com/slash-sandbox/slash-sandbox/sandbox/sandboxtest"
)

func TestAccount(t *testing.T) {
	sb := sandboxtest.Start(t, sandboxtest.Options{$2})
	_ = sb.Key("sk_sandbox_acme")
}
TEST
	cp "$repo/go.sum" "$1/go.sum"
	(cd "$1" && GOFLAGS=-mod=mod go mod tidy >/dev/null 2>&1)
}

module "$work/plain" "" ""
module "$work/full" "Analytics: sqlite.Engine, MCP: mcp.Server" \
	$'\t"github.com/slash-sandbox/slash-sandbox/sandbox/sandboxtest/sqlite"\n\t"github.com/slash-sandbox/slash-sandbox/sandbox/sandboxtest/mcp"'

for variant in plain full; do
	export GOCACHE="$work/cache-$variant"
	TIMEFORMAT="$variant: wall %1R s, CPU %1U s user + %1S s system"
	time (cd "$work/$variant" && go test -c -o /dev/null .)
done
