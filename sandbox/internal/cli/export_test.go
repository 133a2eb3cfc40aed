package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/scenario"
)

func TestWorldsExport(t *testing.T) {
	s := startProgram(t, nil, "--addr", "127.0.0.1:0", "--log-level", "error")
	defer s.stop(t)
	server := "--server=http://" + s.addr
	dir := t.TempDir()
	t.Run("the default world to standard output", func(t *testing.T) {
		r := runProgram(t, nil, "worlds", "export", server)
		sc, err := scenario.Parse("stdout.yaml", []byte(r.stdout))
		if r.code != 0 || err != nil {
			t.Fatalf("worlds export = %d %q, parse: %v", r.code, r.stderr, err)
		}
		if sc.Name != "demo" || sc.ClockStart != "2026-06-15T14:00:00Z" || len(sc.Generate) != 0 ||
			len(sc.Transactions) < 100 {
			t.Fatalf("export: name %q, clock %q, %d generate entries, %d transactions", sc.Name, sc.ClockStart,
				len(sc.Generate), len(sc.Transactions))
		}
	})
	t.Run("a world by id to a file, which loads into a new world", func(t *testing.T) {
		if r := runProgram(t, nil, "worlds", "create", "empty", "--id", "small", server); r.code != 0 {
			t.Fatalf("worlds create = %d %q", r.code, r.stderr)
		}
		out := filepath.Join(dir, "small.yaml")
		r := runProgram(t, nil, "worlds", "export", "small", "--out", out, server)
		if r.code != 0 || r.stdout != "" || !strings.Contains(r.stderr, "wrote "+out) {
			t.Fatalf("worlds export small = %d %q %q", r.code, r.stdout, r.stderr)
		}
		data, err := os.ReadFile(out)
		if err != nil || !strings.Contains(string(data), "key: sk_test_empty_user\n") {
			t.Fatalf("the file (%v) lacks the key as the scenario declares it:\n%s", err, data)
		}
		if r := runProgram(t, nil, "worlds", "create", out, "--id", "again", server); r.code != 0 ||
			!strings.Contains(r.stdout, "sk_test_empty_user_again") {
			t.Fatalf("worlds create from the export = %d %q %q", r.code, r.stdout, r.stderr)
		}
	})
	t.Run("a failure leaves the file as it was", func(t *testing.T) {
		out := filepath.Join(dir, "kept.yaml")
		if err := os.WriteFile(out, []byte("before\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		r := runProgram(t, nil, "worlds", "export", "nowhere", "--out", out, server)
		if r.code != 1 || !strings.Contains(r.stderr, "nowhere") {
			t.Fatalf("worlds export nowhere = %d %q", r.code, r.stderr)
		}
		if data, _ := os.ReadFile(out); string(data) != "before\n" {
			t.Fatalf("the file now holds %q", data)
		}
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if strings.HasPrefix(e.Name(), ".") {
				t.Fatalf("a temporary file was left behind: %s", e.Name())
			}
		}
	})
	t.Run("a directory that is not there", func(t *testing.T) {
		out := filepath.Join(dir, "missing", "w.yaml")
		if r := runProgram(t, nil, "worlds", "export", "--out", out, server); r.code != 1 {
			t.Fatalf("worlds export into a missing directory = %d %q", r.code, r.stderr)
		}
		if _, err := os.Stat(out); !os.IsNotExist(err) {
			t.Fatalf("%s exists: %v", out, err)
		}
	})
}
