package server_test

import (
	"compress/gzip"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/server"
)

// A data file keeps the world it was seeded with: the same scenario and
// seed start from it, anything else is refused with what the file holds,
// and ResetData seeds it afresh.
func TestDataFileHoldsOneWorld(t *testing.T) {
	data := filepath.Join(t.TempDir(), "sandbox.db")
	wall := time.Date(2031, 3, 4, 5, 6, 7, 0, time.UTC)
	open := func(t *testing.T, cfg server.Config) (*server.Server, error) {
		t.Helper()
		cfg.DataPath, cfg.Log = data, zerolog.Nop()
		cfg.Wall = func() time.Time { return wall }
		srv, err := server.New(cfg)
		if err == nil {
			t.Cleanup(func() { srv.Engine.Close() })
		}
		return srv, err
	}
	mustOpen := func(t *testing.T, cfg server.Config) *server.Server {
		t.Helper()
		srv, err := open(t, cfg)
		if err != nil {
			t.Fatal(err)
		}
		return srv
	}
	seven, eight := int64(7), int64(8)
	clockStart := time.Date(2026, 1, 15, 9, 0, 0, 0, time.UTC)
	advanced := clockStart.Add(36 * time.Hour)

	srv := mustOpen(t, server.Config{Scenario: "empty", Seed: &seven})
	if _, err := srv.Engine.Default().Advance(advanced); err != nil {
		t.Fatal(err)
	}
	srv.Engine.Close()

	stored := `data file ` + data + ` holds another world (scenario "empty", seed 7, clock start 2026-01-15T09:00:00Z,` +
		` created 2031-03-04T05:06:07Z)`
	refused := []struct {
		name   string
		cfg    server.Config
		wanted string
	}{
		{"another scenario", server.Config{Scenario: "demo"}, `scenario "demo", seed 42`},
		{"another seed", server.Config{Scenario: "empty", Seed: &eight}, `scenario "empty", seed 8`},
		{"the scenario's own seed", server.Config{Scenario: "empty"}, `scenario "empty", seed 1`},
		{"another clock start", server.Config{Scenario: "empty", Seed: &seven, ClockStart: &advanced},
			`scenario "empty", seed 7, clock start 2026-01-16T21:00:00Z`},
	}
	for _, c := range refused {
		t.Run(c.name, func(t *testing.T) {
			_, err := open(t, c.cfg)
			if !errors.Is(err, server.ErrDataHoldsAnotherWorld) {
				t.Fatalf("err = %v, want ErrDataHoldsAnotherWorld", err)
			}
			if got, want := err.Error(), stored+`, not the one asked for (`+c.wanted+`)`; got != want {
				t.Fatalf("error:\n got %s\nwant %s", got, want)
			}
		})
	}

	t.Run("the same scenario and seed keep the stored world", func(t *testing.T) {
		for _, cfg := range []server.Config{{Scenario: "empty", Seed: &seven},
			{Scenario: "empty", Seed: &seven, ClockStart: &clockStart}} {
			srv := mustOpen(t, cfg)
			w := srv.Engine.Default()
			if !w.Now().Equal(advanced) || !w.Persistent() || !w.Meta().Created.Equal(wall) {
				t.Fatalf("clock %s, persistent %v, created %s: the stored world was not kept", w.Now(), w.Persistent(),
					w.Meta().Created)
			}
			srv.Engine.Close()
		}
	})

	t.Run("reset data seeds the file afresh", func(t *testing.T) {
		wall = wall.Add(time.Hour)
		srv := mustOpen(t, server.Config{Scenario: "demo", ResetData: true})
		w := srv.Engine.Default()
		if m := w.Meta(); m.Scenario != "demo" || m.Seed != 42 || !m.Created.Equal(wall) ||
			w.Now().Format(time.RFC3339) != "2026-06-15T14:00:00Z" {
			t.Fatalf("after ResetData: %+v at %s", m, w.Now())
		}
		srv.Engine.Close()
		if _, err := open(t, server.Config{Scenario: "empty", Seed: &seven}); !errors.Is(err,
			server.ErrDataHoldsAnotherWorld) {
			t.Fatalf("the old world came back: %v", err)
		}
		srv = mustOpen(t, server.Config{Scenario: "demo"})
		if m := srv.Engine.Default().Meta(); m.Scenario != "demo" || !m.Created.Equal(wall) {
			t.Fatalf("restart after ResetData: %+v", m)
		}
	})
}

// A data file written before records were stored with compacted names
// (testdata/demo-plain-json.db.gz: the demo seeded by that version, plus a
// card created through POST /card) reads as it did: its world answers as a
// world seeded and written now, before and after a write of its own.
func TestDataFileOfPlainJSONRecords(t *testing.T) {
	dir := t.TempDir()
	old := filepath.Join(dir, "old.db")
	mustGunzip(t, "testdata/demo-plain-json.db.gz", old)
	raw, err := os.ReadFile(old)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(raw), `{"id":"card_3y6yczyy4rqsj28","legalEntityId":"le_acme"`) {
		t.Fatal("the fixture does not hold the card as plain JSON")
	}
	serve := func(path string) http.Handler {
		t.Helper()
		srv, err := server.New(server.Config{Scenario: "demo", DataPath: path, Log: zerolog.Nop()})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { srv.Engine.Close() })
		return srv.Handler
	}
	call := func(h http.Handler, method, path, body string) string {
		t.Helper()
		r := httptest.NewRequest(method, path, strings.NewReader(body))
		r.Header.Set("X-API-Key", "sk_sandbox_acme")
		r.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code/100 != 2 {
			t.Fatalf("%s %s: %d %s", method, path, w.Code, w.Body)
		}
		return w.Body.String()
	}
	before, now := serve(old), serve(filepath.Join(dir, "new.db"))
	if upgraded, _ := os.ReadFile(old); !strings.HasPrefix(string(upgraded), "slash-sandbox data 1\n") {
		t.Fatalf("the file written before was not rewritten in the current format: %.40q", upgraded)
	}
	card := `{"accountId":"sa_group_acmeoperating","type":"virtual","name":"Written before"}`
	call(now, "POST", "/card", card)
	reads := []string{"/card/card_3y6yczyy4rqsj28", "/card", "/transaction", "/account", "/legal-entity"}
	for _, p := range reads {
		if got, want := call(before, "GET", p, ""), call(now, "GET", p, ""); got != want {
			t.Fatalf("GET %s from the old file:\n%s\nfrom a new one:\n%s", p, got, want)
		}
	}
	second := `{"accountId":"sa_group_acmeoperating","type":"virtual","name":"Written after"}`
	if got, want := call(before, "POST", "/card", second), call(now, "POST", "/card", second); got != want {
		t.Fatalf("POST /card to the old file:\n%s\nto a new one:\n%s", got, want)
	}
	if got, want := call(before, "GET", "/card", ""), call(now, "GET", "/card", ""); got != want {
		t.Fatalf("GET /card after a write, from the old file:\n%s\nfrom a new one:\n%s", got, want)
	}
}

func mustGunzip(t *testing.T, from, to string) {
	t.Helper()
	f, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(z)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}
