package server

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/mux"
	"github.com/rs/zerolog"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/analytics"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/api"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/checker"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/clock"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/control"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/engine"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/openapi"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/scenario"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/store"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/traffic"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/ui"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/web"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/webhooks"
)

// Config is everything the server needs.
type Config struct {
	Addr       string
	Scenario   string
	Seed       *int64
	ClockStart *time.Time
	ClockMode  clock.Mode
	ClockScale float64
	// DataPath keeps the default world in a file. A file that holds
	// another scenario's world (or another seed, or another clock start
	// when ClockStart is given) is refused with an error that wraps
	// ErrDataHoldsAnotherWorld; ResetData discards what the file holds and
	// seeds it afresh.
	DataPath   string
	Durability store.Durability
	ResetData  bool
	AdminToken string
	// Scenarios are what a request may name when it creates a world: the
	// embedded scenarios and the files of a directory (ScenariosDir, which
	// New opens). Nil: the embedded ones.
	Scenarios    *scenario.Library
	ScenariosDir string
	// AllowedHosts and AllowedOrigins widen who reaches the control API
	// and the dashboard (see web.Origins).
	AllowedHosts   []string
	AllowedOrigins []string
	Log            zerolog.Logger
	// Wall is the wall clock for real and scaled modes and the pace of
	// progress lines (nil: the machine's).
	Wall clock.Wall
	// Webhooks tunes the webhook sender (zero: the real service's timeouts);
	// its Log is always Log.
	Webhooks webhooks.Options
	// Analytics runs the SQL of POST /analytics: parts.SQLite from
	// package internal/parts, which the binary always passes. Nil: SHOW
	// TABLES and DESCRIBE still answer, other statements answer 501 naming
	// that package. It is passed in rather than imported so that a program
	// that never queries analytics (a test using sandboxtest) does not
	// compile SQLite.
	Analytics Analytics
	// IdleTimeout closes a keep-alive connection that has carried no
	// request for this long (0: DefaultIdleTimeout).
	IdleTimeout time.Duration
	// BodyReadTimeout is how long a request body may take to arrive, each
	// further MiB of it given as long again (0: web.DefaultBodyReadTimeout,
	// 60 s); a body too slow is answered 408 and its connection closed.
	BodyReadTimeout time.Duration
	// MCP serves the MCP server at /mcp: parts.MCP from package
	// internal/parts, which the binary always passes. Nil: /mcp answers 501
	// naming that package. Passed in for the same reason, the MCP SDK.
	MCP MCP
	// MemoryBudget is how many bytes the worlds and snapshots may hold
	// together: work that would take more (a world, a reset, a restore, a
	// snapshot taken or imported) is refused with 507. 0: DefaultMemoryBudget;
	// NoMemoryBudget: no limit.
	MemoryBudget int64
	// VerifyReads makes every answer the read cache replays also run its
	// handler, and panic when the fresh answer differs from the kept one:
	// the behaviour tests turn it on, so that every test checks the cache.
	VerifyReads bool
}

// DefaultIdleTimeout is how long an idle keep-alive connection stays open
// unless Config.IdleTimeout says otherwise.
const DefaultIdleTimeout = 2 * time.Minute

// DefaultBodyReadTimeout is how long a request body may take to arrive,
// per MiB, unless Config.BodyReadTimeout says otherwise.
const DefaultBodyReadTimeout = web.DefaultBodyReadTimeout

// DefaultMemoryBudget is the memory budget of a sandbox that sets none:
// 2 GiB.
const DefaultMemoryBudget = kernel.DefaultMemoryBudget

// NoMemoryBudget, as Config.MemoryBudget, removes the memory budget.
const NoMemoryBudget = -1

// Analytics is an SQL engine for POST /analytics; internal/parts has
// the one there is.
type Analytics = analytics.Engine

// MCP mounts an MCP server on the router; internal/parts has the one there
// is.
type MCP func(MCPHost)

// MCPHost is what an MCP server is mounted with: the router and the
// registry of descriptions it adds its route to, the engine, the version
// it reports, the OpenAPI document, made once on first use after the
// router is complete, and the handler of the public API alone its tools
// call: it holds none of the control API's routes, the dashboard's or its
// own.
type MCPHost struct {
	Router   *mux.Router
	Docs     *openapi.Registry
	Engine   *kernel.Engine
	Version  string
	Document func() map[string]any
	API      http.Handler
}

// SenderHeader marks every request the sandbox and its command line send
// themselves (webhook deliveries, authorization-webhook calls, the listen
// command's forwards); the sandbox refuses any request that carries it.
const SenderHeader = web.SenderHeader

// VaultPath is where the card vault answers on the sandbox's address: the
// sandbox's address followed by it is the base URL that stands for
// https://vault.joinslash.com, the only one that reveals PANs and CVVs.
const VaultPath = web.VaultPath

// SentByListen is SenderHeader's value on the listen command's forwards.
const SentByListen = web.SentByListen

// ErrDataHoldsAnotherWorld is wrapped by New's error when Config.DataPath
// holds a world other than the one the configuration asks for; the error
// says what the file holds.
var ErrDataHoldsAnotherWorld = kernel.ErrAnotherWorld

// Server is a running sandbox.
type Server struct {
	Engine    *kernel.Engine
	Handler   http.Handler
	log       zerolog.Logger
	srv       *http.Server
	ln        net.Listener
	scenarios *scenario.Library
	idle      time.Duration
	// self learns the listener's address, which webhooks never reach.
	self *webhooks.Self
}

// New loads the scenario and builds the handler; it does not listen yet.
func New(cfg Config) (*Server, error) {
	sc, err := scenario.Load(cfg.Scenario)
	if err != nil {
		return nil, err
	}
	eng, err := newEngine(cfg)
	if err != nil {
		return nil, err
	}
	loading := newLoadLog(cfg.Log, sc.Name, cfg.Wall)
	_, err = eng.CreateWorld(kernel.WorldSpec{ID: "default", Scenario: sc, Seed: cfg.Seed, ClockStart: cfg.ClockStart,
		ClockMode: cfg.ClockMode, ClockScale: cfg.ClockScale, DataPath: cfg.DataPath, Durability: cfg.Durability,
		ResetData: cfg.ResetData, OnRecord: loading.record, OnDataRepair: loading.repaired})
	if err != nil {
		eng.Close()
		return nil, err
	}
	loading.done("default")
	if cfg.Scenarios == nil {
		if cfg.Scenarios, err = scenario.OpenLibrary(cfg.ScenariosDir); err != nil {
			eng.Close()
			return nil, err
		}
	}
	s := &Server{Engine: eng, log: cfg.Log, scenarios: cfg.Scenarios, idle: cfg.IdleTimeout}
	if cfg.Webhooks.Self == nil {
		cfg.Webhooks.Self = &webhooks.Self{}
	}
	s.self = cfg.Webhooks.Self
	if s.idle <= 0 {
		s.idle = DefaultIdleTimeout
	}
	s.Handler = Handler(eng, cfg)
	return s, nil
}

// newEngine makes the engine of a configuration, under its memory budget.
func newEngine(cfg Config) (*kernel.Engine, error) {
	eng, err := engine.New(cfg.Wall)
	if err != nil {
		return nil, err
	}
	if cfg.MemoryBudget != 0 {
		eng.SetMemoryBudget(max(cfg.MemoryBudget, 0))
	}
	return eng, nil
}

// LoadScratch loads a scenario as start-up would (the engine and memory
// budget of cfg, the scenario's seed and clock start), into a world in
// memory that it then drops: nothing is written anywhere. The error is the
// one start-up would stop with.
func LoadScratch(cfg Config, sc *scenario.Scenario) error {
	eng, err := newEngine(cfg)
	if err != nil {
		return err
	}
	defer eng.Close()
	_, err = eng.CreateWorld(kernel.WorldSpec{ID: "default", Scenario: sc})
	return err
}

// CheckScratch loads a scenario as LoadScratch does, at cfg's seed and
// clock start when given, and returns every record of the world that
// contradicts its rules (see package checker). The error is the one
// start-up would stop with.
func CheckScratch(cfg Config, sc *scenario.Scenario) ([]checker.Finding, error) {
	eng, err := newEngine(cfg)
	if err != nil {
		return nil, err
	}
	defer eng.Close()
	return checker.Scratch(eng, sc, cfg.Seed, cfg.ClockStart)
}

// Handler builds the whole HTTP handler over an engine.
func Handler(eng *kernel.Engine, cfg Config) http.Handler {
	r, _ := Router(eng, cfg)
	return wrap(eng, cfg, r)
}

// wrap puts the outer middleware around the router.
func wrap(eng *kernel.Engine, cfg Config, r *mux.Router) http.Handler {
	return middleware(eng, cfg).Wrap(dashboardRedirects(newStaticRoutes(r)))
}

// middleware is the outer middleware: request ids, the origin guard, CORS,
// body limits, the log.
func middleware(eng *kernel.Engine, cfg Config) *web.Middleware {
	origins := &web.Origins{Addr: cfg.Addr, Hosts: cfg.AllowedHosts, Origins: cfg.AllowedOrigins}
	mw := &web.Middleware{Log: cfg.Log, Origins: origins, BodyReadTimeout: cfg.BodyReadTimeout}
	if w := eng.Default(); w != nil {
		mw.Reference = w.ReferenceID
	}
	return mw
}

// Router is every route of the sandbox, without the outer middleware, and
// the descriptions the OpenAPI document is built from: tests walk the
// router to enumerate the operations.
func Router(eng *kernel.Engine, cfg Config) (*mux.Router, *openapi.Registry) {
	// SkipClean: a path with "..", "." or "//" is answered as sent (404 in
	// its generation's envelope), not redirected to a cleaned path.
	r := mux.NewRouter().SkipClean(true)
	docs := openapi.NewRegistry()
	pub := &api.API{Engine: eng, Version: Version, Analytics: cfg.Analytics}
	shaping := traffic.New(eng)
	hooks := cfg.Webhooks
	hooks.Log = cfg.Log
	ctl := &control.Control{Engine: eng, AdminToken: cfg.AdminToken, Version: Version, Agents: pub, Traffic: shaping,
		Webhooks: webhooks.Attach(eng, hooks), Scenarios: cfg.Scenarios, InfoView: api.InformationRequestView,
		Log: cfg.Log, Wall: cfg.Wall}
	reads := &readCache{engine: eng, verify: cfg.VerifyReads}
	// Every routed request is journaled; public ones meet the world's rate
	// limit and injected faults before the read cache and the handler.
	r.Use(web.NameRoutes, shaping.Middleware, reads.middleware)
	if cfg.MCP != nil {
		// The MCP server's tools call a router of their own that holds the
		// public API and nothing else, so that no path a tool is given can
		// reach the control API: the same handlers, traffic shaping and
		// read cache as r. It is registered first, so that what the API
		// keeps of its router (the routes an approved agent request runs
		// through) is r's, as without it.
		public := mux.NewRouter().SkipClean(true)
		public.Use(web.NameRoutes, shaping.Middleware, reads.middleware)
		pub.Register(public, openapi.NewRegistry())
		unmatched(public, nil, shaping)
		pub.Register(r, docs)
		// The document a tool reads is the sandbox's whole one, the one
		// GET /openapi.json answers over HTTP.
		const document = "openapi.document"
		public.Get(document).Handler(r.Get(document).GetHandler())
		web.LiteralsWin(public)
		cfg.MCP(MCPHost{Router: r, Docs: docs, Engine: eng, Version: Version,
			Document: sync.OnceValue(func() map[string]any {
				return openapi.Build(r, docs, openapi.Info{Title: "slash-sandbox", Version: Version})
			}),
			API: middleware(eng, cfg).Wrap(newStaticRoutes(public))})
	} else {
		pub.Register(r, docs)
		mcpNotServed(r, docs)
	}
	ui.Register(r, docs) // ahead of the control API, whose admin token it does not need
	controls := ctl.Register(r, docs)
	web.LiteralsWin(r)
	unmatched(r, controls, shaping)
	return r, docs
}

// mcpNotServed answers /mcp in a sandbox assembled without an MCP server
// with 501 and the package that adds one, rather than a 404 that would
// say the route does not exist.
func mcpNotServed(r *mux.Router, docs *openapi.Registry) {
	notServed := kernel.NotServed("the MCP server", "", "MCP: mcp.Server", "mcp")
	r.Handle("/mcp", http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		web.WriteError(w, req, web.Gen2, notServed)
	})).Methods(http.MethodGet, http.MethodPost, http.MethodDelete).Name("mcp")
	docs.Describe(
		"mcp",
		openapi.Op{Summary: "The MCP server (not served by this sandbox)", Extension: true, Security: openapi.APIKeyOnly,
			Description: "This sandbox was assembled without the MCP server: every request answers 501 with the package that" +
				" adds it.",
			Body: openapi.Schema{"type": "object"}, BodyOptional: true, Read: true,
			Extra: map[int]any{http.StatusNotImplemented: openapi.Ref("ErrorV2")}},
	)
}

// unmatched answers the requests that match no route of r (nor of its
// subrouter controls, when there is one): 405 when another method would
// match, else 404 with the route the request most likely
// meant (computed from the router's own templates) in the message, the
// log and the journal, which records them all.
func unmatched(r, controls *mux.Router, shaping *traffic.Traffic) {
	templates := web.Templates(r)
	for _, t := range templates {
		if !strings.HasPrefix(t.Path, "/_sandbox") && t.Path != "/mcp" && !slices.Contains(shaping.Routes, t.Name) {
			shaping.Routes = append(shaping.Routes, t.Name)
		}
	}
	notAllowed := func(w http.ResponseWriter, req *http.Request, allow []string) {
		info := web.InfoOf(req)
		info.Route, info.Allow = traffic.RouteMethodNotAllowed, allow
		web.WriteError(w, req, web.GenOf(req.URL.Path),
			kernel.Errorf(kernel.CodeMethodNotAllowed, "%s is not allowed on %s", req.Method, req.URL.Path))
	}
	r.MethodNotAllowedHandler = shaping.JournalOnly(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		notAllowed(w, req, allowed(r, req))
	}))
	// The control routes live on a subrouter under /_sandbox, and mux
	// reports a subrouter's method mismatch as not found: a path that
	// another method would match is answered 405 here instead.
	notFound := shaping.JournalOnly(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if allow := allowed(r, req); len(allow) > 0 {
			notAllowed(w, req, allow)
			return
		}
		info := web.InfoOf(req)
		info.Route = traffic.RouteNotFound
		msg := fmt.Sprintf("no route for %s %s", req.Method, req.URL.Path)
		if near, ok := web.NearMiss(templates, req.Method, req.URL.Path); ok {
			info.Hint = near.String()
			msg += "; did you mean " + info.Hint + "?"
		}
		web.WriteError(w, req, web.GenOf(req.URL.Path), kernel.Errorf(kernel.CodeNotFound, "%s", msg))
	}))
	r.NotFoundHandler = notFound
	if controls != nil {
		controls.NotFoundHandler = notFound
	}
}

// allowed lists the methods the router accepts for a request's path.
func allowed(r *mux.Router, req *http.Request) []string {
	var out []string
	for _, m := range []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete} {
		probe := req.Clone(req.Context())
		probe.Method = m
		var match mux.RouteMatch
		if r.Match(probe, &match) && match.MatchErr == nil {
			out = append(out, m)
		}
	}
	return out
}

// Listen binds the address; Addr reports the bound address afterwards.
func (s *Server) Listen(addr string) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", addr, err)
	}
	s.ln = ln
	s.self.Listening(ln.Addr())
	return nil
}

// Addr is the address the server listens on.
func (s *Server) Addr() string { return s.ln.Addr().String() }

// Serve serves until ctx ends, then shuts down gracefully: in-flight
// requests finish (up to 10 s; long control work stops early) and every
// world's store is flushed and closed.
func (s *Server) Serve(ctx context.Context) error {
	// Requests' contexts end when shutdown begins: long control work (a
	// clock advance) stops between two steps instead of holding the
	// shutdown, while ordinary writes, which never look, finish.
	base, stopRequests := context.WithCancel(context.Background())
	defer stopRequests()
	// No ReadTimeout: one that ran out while a long poll waits would end
	// its context. The middleware bounds each request body instead.
	s.srv = &http.Server{Handler: s.Handler, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: s.idle,
		BaseContext: func(net.Listener) context.Context { return base }}
	errc := make(chan error, 1)
	go func() { errc <- s.srv.Serve(s.ln) }()
	reaping, stopReaping := context.WithCancel(ctx)
	defer stopReaping()
	go s.reap(reaping)
	var err error
	select {
	case err = <-errc:
	case <-ctx.Done():
		stopRequests()
		shutdownCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		err = s.srv.Shutdown(shutdownCtx)
		cancel()
	}
	if errors.Is(err, http.ErrServerClosed) {
		err = nil
	}
	if cerr := s.Engine.Close(); err == nil {
		err = cerr
	}
	s.scenarios.Close()
	return err
}

// reap deletes worlds whose time to live has run out, once a second of wall
// time, until ctx ends.
func (s *Server) reap(ctx context.Context) {
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-tick.C:
			s.Engine.Reap(now)
		}
	}
}
