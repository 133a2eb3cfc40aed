// Package sandboxtest starts an in-process sandbox for a Go test: a real
// HTTP server on a random loopback port, loaded with a scenario, with its
// URL, its API keys and a typed control client, stopped when the test ends.
//
//	sb := sandboxtest.Start(t, sandboxtest.Options{Scenario: "demo"})
//	req, _ := http.NewRequest("GET", sb.URL+"/account", nil)
//	req.Header.Set("X-API-Key", sb.Key("sk_sandbox_acme"))
//	sb.Control.Advance(ctx, "36h")
package sandboxtest

import (
	"context"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/slash-sandbox/slash-sandbox/sandbox/client"
	"github.com/slash-sandbox/slash-sandbox/sandbox/server"
)

// Options choose the sandbox's world.
type Options struct {
	// Scenario is an embedded scenario name or a YAML path (default "demo").
	Scenario string
	// Seed overrides the scenario's seed when not nil.
	Seed *int64
	// ClockStart overrides the scenario's clock start when not zero.
	ClockStart time.Time
	// AdminToken, when set, protects the control API.
	AdminToken string
	// Log receives the request log (default: none).
	Log *zerolog.Logger
}

// Sandbox is a running sandbox.
type Sandbox struct {
	// URL is the base address, e.g. http://127.0.0.1:41234.
	URL string
	// Keys are the world's API keys.
	Keys []client.Key
	// Control drives the control API: clock, reset, worlds, snapshots.
	Control *client.Client
	// Server is the running server, for tests that need the engine.
	Server *server.Server
}

// Start runs a sandbox until the test ends; it fails the test if the
// scenario does not load.
func Start(t testing.TB, o Options) *Sandbox {
	t.Helper()
	if o.Scenario == "" {
		o.Scenario = "demo"
	}
	log := zerolog.Nop()
	if o.Log != nil {
		log = *o.Log
	}
	cfg := server.Config{Scenario: o.Scenario, Seed: o.Seed, AdminToken: o.AdminToken, Log: log}
	if !o.ClockStart.IsZero() {
		cfg.ClockStart = &o.ClockStart
	}
	srv, err := server.New(cfg)
	if err != nil {
		t.Fatalf("sandboxtest: %v", err)
	}
	hs := httptest.NewServer(srv.Handler)
	t.Cleanup(func() {
		hs.Close()
		srv.Engine.Close()
	})
	sb := &Sandbox{URL: hs.URL, Control: client.New(hs.URL), Server: srv}
	sb.Control.AdminToken = o.AdminToken
	if sb.Keys, err = sb.Control.Keys(context.Background()); err != nil {
		t.Fatalf("sandboxtest: read keys: %v", err)
	}
	return sb
}

// Key returns the named key of the world, failing loudly when the scenario
// has no such key.
func (s *Sandbox) Key(name string) string {
	for _, k := range s.Keys {
		if k.Key == name {
			return k.Key
		}
	}
	panic("sandboxtest: no API key " + name)
}
