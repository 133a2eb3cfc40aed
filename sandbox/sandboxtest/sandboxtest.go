// Package sandboxtest starts an in-process sandbox for a Go test: a real
// HTTP server on a random loopback port, loaded with a scenario, with its
// URL, its API keys and a typed control client, stopped when the test ends.
//
//	sb := sandboxtest.Start(t, sandboxtest.Options{Scenario: "demo"})
//	req, _ := http.NewRequest("GET", sb.URL+"/account", nil)
//	req.Header.Set("X-API-Key", sb.Key("sk_sandbox_acme"))
//	sb.Control.Advance(ctx, "36h")
//	msg := sb.WaitForEmail(sandboxtest.EmailFilter{To: "hello@pixelforge.test"})
//
// Key, WaitForEmail and WaitForDelivery fail the test given to Start. In a
// subtest, call them on sb.In(t), the same sandbox failing the subtest:
//
//	t.Run("bank details", func(t *testing.T) {
//		key := sb.In(t).Key("sk_sandbox_acme")
//		…
//	})
//
// The sandbox serves everything the binary does except two parts whose
// dependencies are heavy to compile, which a test adds when it uses them:
// the SQL engine of POST /analytics (Options.Analytics: sqlite.Engine from
// sandboxtest/sqlite) and the MCP server (Options.MCP: mcp.Server from
// sandboxtest/mcp).
package sandboxtest

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/slash-sandbox/slash-sandbox/sandbox/client"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/server"
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
	// Analytics is the SQL engine of POST /analytics: sqlite.Engine from
	// package sandboxtest/sqlite. Nil: SHOW TABLES and DESCRIBE answer,
	// other statements answer 501. Left out by default so that a test
	// that does not query analytics does not compile SQLite.
	Analytics Analytics
	// MCP is the MCP server at /mcp: mcp.Server from package
	// sandboxtest/mcp. Nil: /mcp answers 501. Left out by default for the
	// MCP SDK's sake.
	MCP MCP
	// MemoryBudget bounds the bytes the sandbox's worlds and snapshots
	// hold together, as the binary's --memory-budget does: 0 for the
	// default (2 GiB), NoMemoryBudget for none.
	MemoryBudget int64
}

// NoMemoryBudget is the Options.MemoryBudget of a sandbox whose worlds may
// grow without bound.
const NoMemoryBudget = server.NoMemoryBudget

// Analytics is an SQL engine for POST /analytics. The one there is,
// SQLite, is sqlite.Engine in package sandboxtest/sqlite; this package
// only names its type, so that a test that never queries analytics does
// not compile it.
type Analytics = server.Analytics

// MCP is an MCP server for /mcp. The one there is, the official Go SDK's,
// is mcp.Server in package sandboxtest/mcp; this package only names its
// type, so that a test that never speaks MCP does not compile the SDK.
type MCP = server.MCP

// Message is an email the sandbox sent, as its outbox shows it.
type Message = client.Message

// Delivery is a webhook delivery with its attempts.
type Delivery = client.Delivery

// EmailFilter chooses the email WaitForEmail waits for; empty fields match
// every email.
type EmailFilter = client.EmailFilter

// DeliveryFilter chooses the webhook delivery WaitForDelivery waits for;
// empty fields match every delivery.
type DeliveryFilter = client.DeliveryFilter

// Sandbox is a running sandbox.
type Sandbox struct {
	// URL is the base address, e.g. http://127.0.0.1:41234.
	URL string
	// VaultURL is the card vault's base URL, URL followed by /vault: the
	// sandbox's https://vault.joinslash.com, the only address whose
	// GET /card/{cardId}?include_pan=true&include_cvv=true reveals the PAN
	// and CVV (URL answers the card without them).
	VaultURL string
	// Keys are the world's API keys.
	Keys []client.Key
	// Control drives the control API: clock, reset, worlds, snapshots.
	Control *client.Client
	// Handler serves the sandbox's HTTP API in-process, for a test or a
	// benchmark that calls it without a connection.
	Handler http.Handler

	// t is the test the methods fail: the one Start or In was given,
	// noTest for a sandbox made by New.
	t     testing.TB
	close func()
}

// In returns a view of the sandbox whose methods fail t rather than the
// test the sandbox was started with: in a subtest, sb.In(t).Key(…),
// sb.In(t).WaitForEmail(…) and sb.In(t).WaitForDelivery(…) fail the
// subtest alone, where sb's own would fail its parent from the subtest's
// goroutine, which Go reports as a subtest calling FailNow on a parent
// test. The view shares everything else with sb (URL, Keys, Control,
// Handler); closing either stops the sandbox, once.
func (s *Sandbox) In(t testing.TB) *Sandbox {
	view := *s
	view.t = t
	return &view
}

// Start runs a sandbox until the test ends; it fails the test if the
// scenario does not load.
func Start(t testing.TB, o Options) *Sandbox {
	t.Helper()
	sb, err := New(o)
	if err != nil {
		t.Fatalf("sandboxtest: %v", err)
	}
	sb.t = t
	t.Cleanup(sb.Close)
	return sb
}

// New runs a sandbox outside a single test, for TestMain or an example;
// the caller stops it with Close. Its Key and Wait methods have no test to
// fail, so they panic where a started sandbox's would fail the test; a test
// sharing it calls them on sb.In(t).
func New(o Options) (*Sandbox, error) {
	if o.Scenario == "" {
		o.Scenario = "demo"
	}
	log := zerolog.Nop()
	if o.Log != nil {
		log = *o.Log
	}
	cfg := server.Config{Scenario: o.Scenario, Seed: o.Seed, AdminToken: o.AdminToken, Log: log,
		Analytics: o.Analytics, MCP: o.MCP, MemoryBudget: o.MemoryBudget}
	if !o.ClockStart.IsZero() {
		cfg.ClockStart = &o.ClockStart
	}
	srv, err := server.New(cfg)
	if err != nil {
		return nil, err
	}
	hs := httptest.NewServer(srv.Handler)
	stop := sync.OnceFunc(func() {
		hs.Close()
		srv.Engine.Close()
	})
	sb := &Sandbox{URL: hs.URL, VaultURL: hs.URL + server.VaultPath, Control: client.New(hs.URL), Handler: srv.Handler,
		t: noTest{}, close: stop}
	sb.Control.AdminToken = o.AdminToken
	if sb.Keys, err = sb.Control.Keys(context.Background()); err != nil {
		sb.Close()
		return nil, fmt.Errorf("read keys: %w", err)
	}
	return sb, nil
}

// Close stops the sandbox (a second call does nothing). Start's sandbox is
// closed when its test ends.
func (s *Sandbox) Close() { s.close() }

// noTest stands for the test of a sandbox made by New: failing it panics.
type noTest struct{ testing.TB }

func (noTest) Helper() {}

func (noTest) Fatalf(format string, args ...any) { panic(fmt.Sprintf(format, args...)) }

// Key returns the named key of the world. A name the world has no key for
// fails the test, listing the keys it has.
func (s *Sandbox) Key(name string) string {
	s.t.Helper()
	names := make([]string, len(s.Keys))
	for i, k := range s.Keys {
		if k.Key == name {
			return k.Key
		}
		names[i] = k.Key
	}
	s.t.Fatalf("sandboxtest: the world has no API key %q; its keys are %s", name, strings.Join(names, ", "))
	return ""
}

// WaitForEmail returns the first email, in the order they were sent, that
// f matches, waiting for the sandbox to send one (f.Timeout, 10 s by
// default, at most a minute). It fails the test when none comes.
func (s *Sandbox) WaitForEmail(f EmailFilter) Message {
	s.t.Helper()
	m, err := s.Control.WaitForEmail(context.Background(), f)
	if err != nil {
		s.t.Fatalf("sandboxtest: wait for an email matching %+v: %v", f, err)
	}
	return m
}

// WaitForDelivery returns the first webhook delivery, in the order they
// were made, that f matches, waiting for one to (with f.Status, for a
// delivery to reach that status). It fails the test when none does in
// f.Timeout (10 s by default, at most a minute).
func (s *Sandbox) WaitForDelivery(f DeliveryFilter) Delivery {
	s.t.Helper()
	d, err := s.Control.WaitForDelivery(context.Background(), f)
	if err != nil {
		s.t.Fatalf("sandboxtest: wait for a webhook delivery matching %+v: %v", f, err)
	}
	return d
}
