package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sandboxserver "github.com/slash-sandbox/slash-sandbox/sandbox/internal/server"
)

func TestControlCommands(t *testing.T) {
	s := startProgram(t, nil, "--addr", "127.0.0.1:0", "--log-level", "error")
	defer s.stop(t)
	server := "--server=http://" + s.addr
	t.Run("clock advance says what ran", func(t *testing.T) {
		r := runProgram(t, nil, "clock", "advance", "2h", server)
		if r.code != 0 || !strings.Contains(r.stdout, "2026-06-15T14:00:00Z → 2026-06-15T16:00:00Z") ||
			!strings.Contains(r.stdout, "token_prices.tick") {
			t.Fatalf("clock advance = %d %q %q", r.code, r.stdout, r.stderr)
		}
	})
	t.Run("a long advance counts the events by kind", func(t *testing.T) {
		r := runProgram(t, nil, "clock", "advance", "2d", server)
		// The demo's failing endpoint retries twice in these two days.
		if r.code != 0 ||
			!strings.Contains(
				r.stdout,
				"webhooks    2 delivery attempts (2 retrying)\nran         82 events\n  48  token_prices.tick\n  31 "+
					" transaction.settle\n   2  webhook.retry\n   1  expense_report.payout\n",
			) ||
			strings.Count(r.stdout, "\n") != 8 {
			t.Fatalf("clock advance 2d = %d %q %q", r.code, r.stdout, r.stderr)
		}
	})
	t.Run("clock as JSON", func(t *testing.T) {
		r := runProgram(t, nil, "clock", server, "--json")
		var c map[string]any
		if r.code != 0 || json.Unmarshal([]byte(r.stdout), &c) != nil || c["now"] != "2026-06-17T16:00:00Z" {
			t.Fatalf("clock --json = %d %q", r.code, r.stdout)
		}
	})
	t.Run("worlds create, list and delete", func(t *testing.T) {
		r := runProgram(t, nil, "worlds", "create", "empty", "--id", "cli", server)
		if r.code != 0 || !strings.Contains(r.stdout, "sk_test_empty_user_cli") {
			t.Fatalf("worlds create = %d %q %q", r.code, r.stdout, r.stderr)
		}
		if r := runProgram(t, nil, "worlds", server); !strings.Contains(r.stdout, "cli") ||
			!strings.Contains(r.stdout, "default") {
			t.Fatalf("worlds = %q", r.stdout)
		}
		if r := runProgram(t, map[string]string{"SANDBOX_SERVER": "http://" + s.addr, "SANDBOX_WORLD": "cli"}, "clock",
			"advance", "1d"); r.code != 0 ||
			!strings.Contains(r.stdout, "2026-01-16T09:00:00Z") {
			t.Fatalf("clock in world cli = %d %q %q", r.code, r.stdout, r.stderr)
		}
		if r := runProgram(t, nil, "worlds", "delete", "cli", server); r.code != 0 {
			t.Fatalf("delete = %d %q", r.code, r.stderr)
		}
	})
	t.Run("worlds create from a file on this machine", func(t *testing.T) {
		file := filepath.Join(t.TempDir(), "mine.yaml")
		yaml := "name: mine\nlegalEntities:\n  - {id: le_mine, name: Mine Inc.}\nkeys:\n  - {key: sk_mine, kind:" +
			" legal_entity, legalEntityId: le_mine}\n"
		if err := os.WriteFile(file, []byte(yaml), 0o600); err != nil {
			t.Fatal(err)
		}
		r := runProgram(t, nil, "worlds", "create", file, "--id=file", server)
		if r.code != 0 || !strings.Contains(r.stdout, "sk_mine_file") || !strings.Contains(r.stdout, "mine") {
			t.Fatalf("worlds create FILE = %d %q %q", r.code, r.stdout, r.stderr)
		}
		if r := runProgram(t, nil, "worlds", "create", "/etc/passwd.yaml", server); r.code != 1 {
			t.Fatalf("worlds create of a missing file = %d %q", r.code, r.stderr)
		}
	})
	t.Run("reset and keys", func(t *testing.T) {
		if r := runProgram(t, nil, "reset", server); r.code != 0 {
			t.Fatalf("reset = %d %q", r.code, r.stderr)
		}
		r := runProgram(t, nil, "keys", server)
		if r.code != 0 || !strings.Contains(r.stdout, "sk_sandbox_alice") ||
			!strings.Contains(r.stdout, "le_acme,le_globex") {
			t.Fatalf("keys = %q", r.stdout)
		}
	})
	t.Run("snapshots, outbox and deliveries", func(t *testing.T) {
		r := runProgram(t, nil, "snapshots", "create", "before", "lunch", server)
		if r.code != 0 || !strings.Contains(r.stdout, "label     before lunch") {
			t.Fatalf("snapshots create = %d %q %q", r.code, r.stdout, r.stderr)
		}
		id := strings.Fields(r.stdout)[1]
		if r := runProgram(t, nil, "snapshots", server); r.code != 0 || !strings.Contains(r.stdout, id) ||
			!strings.Contains(r.stdout, "before lunch") {
			t.Fatalf("snapshots = %d %q", r.code, r.stdout)
		}
		if r := runProgram(t, nil, "snapshots", "restore", id, server); r.code != 0 || r.stdout != "restored "+id+"\n" {
			t.Fatalf("snapshots restore = %d %q %q", r.code, r.stdout, r.stderr)
		}
		if r := runProgram(t, nil, "outbox", server); r.code != 0 || !strings.HasPrefix(r.stdout, "ID") {
			t.Fatalf("outbox = %d %q %q", r.code, r.stdout, r.stderr)
		}
		if r := runProgram(t, nil, "outbox", "msg_missing", server); r.code != 1 || !strings.Contains(r.stderr, "not_found") {
			t.Fatalf("outbox of a missing message = %d %q", r.code, r.stderr)
		}
		r = runProgram(t, nil, "deliveries", server, "--json")
		var v map[string]any
		if r.code != 0 || json.Unmarshal([]byte(r.stdout), &v) != nil || v["items"] == nil {
			t.Fatalf("deliveries --json = %d %q %q", r.code, r.stdout, r.stderr)
		}
	})
	t.Run("errors", func(t *testing.T) {
		if r := runProgram(t, nil, "clock", "advance", "soon", server); r.code != 1 ||
			!strings.Contains(r.stderr, "invalid_request") {
			t.Fatalf("bad duration = %d %q", r.code, r.stderr)
		}
		if r := runProgram(t, nil, "clock", "sideways", server); r.code != 2 ||
			!strings.Contains(r.stderr, `unknown command "sideways" for "slash-sandbox clock"`) {
			t.Fatalf("usage error = %d %q", r.code, r.stderr)
		}
		if r := runProgram(t, nil, "worlds", "create", "empty", "ttl=10m", server); r.code != 2 ||
			!strings.Contains(r.stderr, "give it as --ttl 10m") {
			t.Fatalf("an option the older way = %d %q", r.code, r.stderr)
		}
		if r := runProgram(t, nil, "clock", "advance", server); r.code != 2 ||
			!strings.Contains(r.stderr, "advance: name a duration") {
			t.Fatalf("advance without a target = %d %q", r.code, r.stderr)
		}
		if r := runProgram(t, nil, "health", "--server=http://127.0.0.1:1"); r.code != 1 {
			t.Fatalf("unreachable server = %d", r.code)
		}
	})
}

// health needs no admin token: without it the server says only that it is
// up, which is what a container's health check asks.
func TestHealthCommandWithoutTheAdminToken(t *testing.T) {
	s := startProgram(t, nil, "--addr", "127.0.0.1:0", "--log-level", "error", "--admin-token", "s3cret")
	defer s.stop(t)
	server := "--server=http://" + s.addr
	if r := runProgram(t, nil, "health", server); r.code != 0 ||
		r.stdout != "status   ok\nversion  "+sandboxserver.Version+"\n" {
		t.Fatalf("health without the token = %d %q %q", r.code, r.stdout, r.stderr)
	}
	r := runProgram(t, map[string]string{"SANDBOX_ADMIN_TOKEN": "s3cret"}, "health", server)
	if r.code != 0 || !strings.Contains(r.stdout, "world     default\nscenario  demo\nseed      42\n") {
		t.Fatalf("health with the token = %d %q %q", r.code, r.stdout, r.stderr)
	}
	if r := runProgram(t, nil, "health", server, "--admin-token", "wrong"); r.code != 1 ||
		!strings.Contains(r.stderr, "unauthorized") {
		t.Fatalf("health with a wrong token = %d %q %q", r.code, r.stdout, r.stderr)
	}
}
