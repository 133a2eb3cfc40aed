package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// A data file damaged in its middle is refused with where it is damaged
// and how to start over; --reset-data does start over.
func TestDamagedDataFileIsRefused(t *testing.T) {
	data := filepath.Join(t.TempDir(), "sandbox.db")
	empty := []string{"--addr", "127.0.0.1:0", "--scenario", "empty", "--data", data, "--log-level", "warn"}
	s := startProgram(t, nil, empty...)
	getJSON(t, "POST", "http://"+s.addr+"/_sandbox/clock/advance", `{"by":"36h"}`)
	s.stop(t)
	raw, err := os.ReadFile(data)
	if err != nil {
		t.Fatal(err)
	}
	raw[len(raw)/3] ^= 0x01
	if err := os.WriteFile(data, raw, 0o644); err != nil {
		t.Fatal(err)
	}

	r := runProgram(t, nil, empty...)
	if r.code != 1 {
		t.Fatalf("exit %d, want 1: %s", r.code, r.stderr)
	}
	if !regexp.MustCompile(`data file \S+ is damaged at byte \d+: a frame fails its checksum`).MatchString(r.stderr) ||
		!strings.Contains(r.stderr, "To start over, run with --reset-data (SANDBOX_RESET_DATA=true)") ||
		!strings.Contains(r.stderr, "or restore a copy of "+data) {
		t.Fatalf("stderr: %s", r.stderr)
	}

	s = startProgram(t, nil, append(empty, "--reset-data")...)
	if h := getJSON(t, "GET", "http://"+s.addr+"/_sandbox/health",
		""); h["clock"].(map[string]any)["now"] != "2026-01-15T09:00:00Z" {
		t.Fatalf("after --reset-data: %v", h)
	}
	s.stop(t)
}
