package control

import (
	"crypto/subtle"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/gorilla/mux"
	"github.com/rs/zerolog"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/inforequests"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/openapi"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/scenario"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/traffic"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/web"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/webhooks"
)

// Control is the control API over an engine.
type Control struct {
	Engine     *kernel.Engine
	AdminToken string
	Version    string
	Agents     Agents
	// Traffic is the faults, rate limit and journal the control API sets
	// and reads.
	Traffic *traffic.Traffic
	// Webhooks sends webhook deliveries; settling waits for it.
	Webhooks *webhooks.Sender
	// Scenarios are the scenarios a new world may name: the embedded ones
	// and those of the directory given at start (nil: embedded only).
	Scenarios *scenario.Library
	// InfoView renders an information request in the public API's shape.
	InfoView func(*inforequests.Request) any
	// Log receives the progress and summary of long work (clock advances).
	Log zerolog.Logger
	// Wall reads the wall clock that paces progress lines (nil: time.Now).
	Wall func() time.Time
}

// worldScoped is the route of every control path under
// /_sandbox/worlds/{world}/, which it serves as the path after it in that
// world.
const worldScoped = "sandbox.world_scoped"

// Register adds every control route to r, under /_sandbox, and their
// descriptions, with the components they name, to docs. It returns the
// subrouter that holds the routes.
func (c *Control) Register(r *mux.Router, docs *openapi.Registry) *mux.Router {
	describe(docs)
	routesScenarioSchema(r, docs)
	s := r.PathPrefix("/_sandbox").Subrouter()
	s.Use(c.requireToken(r))
	route := func(method, path, name string, fn web.Func) { web.Route(s, web.Gen2, method, path, name, fn) }
	route(http.MethodGet, "/health", "sandbox.health", c.health)
	route(http.MethodPost, "/reset", "sandbox.reset", c.reset)
	route(http.MethodGet, "/keys", "sandbox.keys", c.keys)
	route(http.MethodGet, "/clock", "sandbox.clock", c.clock)
	route(http.MethodPost, "/clock/advance", "sandbox.clock.advance", c.advance)
	route(http.MethodGet, "/events", "sandbox.events", c.events)
	route(http.MethodGet, "/changes", "sandbox.changes", c.changes)
	c.routesAgents(s)
	c.routesSimulateCards(s)
	c.routesSimulateMoney(s)
	c.routesSimulateInvoices(s)
	c.routesOutbox(s)
	c.routesWorlds(s)
	c.routesFaults(s)
	c.routesRateLimit(s)
	c.routesJournal(s)
	c.routesInfoRequests(s)
	c.routesWebhooks(s)
	c.routesTrigger(s)
	s.Handle("/worlds/{world}/{rest:.+}", http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		c.forward(r, w, req)
	})).Name(worldScoped)
	return s
}

// requireToken enforces the admin token when one is configured. Two calls
// pass without it: the secure form's routes, opened from an emailed link
// by a contact who has no admin token (its unguessable token protects
// it), and GET /_sandbox/health, which a liveness probe calls and which
// then says only that the server is up (see health). A wrong token is
// refused everywhere. root is the whole router, which tells what a
// world-scoped path stands for.
func (c *Control) requireToken(root *mux.Router) mux.MiddlewareFunc {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			open := isForm(root, r) || (r.URL.Path == "/_sandbox/health" && presentedToken(r) == "")
			if !open && !c.authorized(r) {
				web.WriteError(w, r, web.Gen2, kernel.Errorf(kernel.CodeUnauthorized,
					"the control API needs the admin token (X-Admin-Token or Authorization: Bearer)"))
				return
			}
			next.ServeHTTP(w, r)
		})
	}
}

// formRoutes are the secure form's routes, which need no admin token.
var formRoutes = []string{"sandbox.form.information_request", "sandbox.form.information_request.submit"}

// isForm reports whether a request is for the secure form: its route is
// one of formRoutes, or it is a world-scoped path that stands for one.
func isForm(root *mux.Router, r *http.Request) bool {
	route := mux.CurrentRoute(r)
	if route == nil {
		return false
	}
	switch name := route.GetName(); {
	case slices.Contains(formRoutes, name):
		return true
	case name != worldScoped:
		return false
	}
	probe := r.Clone(r.Context())
	probe.URL.Path, probe.URL.RawPath = "/_sandbox/"+mux.Vars(r)["rest"], ""
	var m mux.RouteMatch
	return root.Match(probe, &m) && m.Route != nil && slices.Contains(formRoutes, m.Route.GetName())
}

// presentedToken is the admin token a request carries: X-Admin-Token, else
// Authorization: Bearer.
func presentedToken(r *http.Request) string {
	if got := r.Header.Get("X-Admin-Token"); got != "" {
		return got
	}
	b, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	return b
}

// authorized reports whether a request may see the whole control API: no
// admin token is configured, or the request carries it.
func (c *Control) authorized(r *http.Request) bool {
	return c.AdminToken == "" || subtle.ConstantTimeCompare([]byte(presentedToken(r)), []byte(c.AdminToken)) == 1
}

// world is the world a control call acts on: X-Sandbox-World, else the
// default one.
func (c *Control) world(r *http.Request) (*kernel.World, error) {
	id := r.Header.Get("X-Sandbox-World")
	w, ok := c.Engine.World(id)
	if !ok {
		return nil, kernel.NotFound("world", "X-Sandbox-World", id).With("field", "X-Sandbox-World")
	}
	info := web.InfoOf(r)
	info.World, info.Reference = w.ID, w.ReferenceID
	return w, nil
}

type clockView struct {
	Now         string  `json:"now"`
	Mode        string  `json:"mode"`
	Scale       float64 `json:"scale,omitempty"`
	Start       string  `json:"start"`
	NextEventAt *string `json:"nextEventAt"`
}

func clockOf(w *kernel.World) (clockView, error) {
	st := w.Clock()
	v := clockView{Now: ts(st.Now), Mode: string(st.Mode), Scale: st.Scale, Start: ts(w.Meta().Start)}
	next, ok, err := w.NextEventAt()
	if ok {
		s := ts(next)
		v.NextEventAt = &s
	}
	return v, err
}

func ts(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

type health struct {
	Status  string `json:"status"`
	Version string `json:"version"`
	// VaultURL is the base URL of the card vault, the only address that
	// reveals a card's PAN and CVV (production: https://vault.joinslash.com).
	VaultURL   string    `json:"vaultUrl"`
	World      string    `json:"world"`
	Scenario   string    `json:"scenario"`
	Seed       int64     `json:"seed"`
	Persistent bool      `json:"persistent"`
	Clock      clockView `json:"clock"`
	Worlds     int       `json:"worlds"`
	Memory     memoryUse `json:"memory"`
}

// memoryUse is what worlds and snapshots hold, as the memory budget counts
// it, and the budget (null: none), in bytes.
type memoryUse struct {
	Used   int64  `json:"used"`
	Budget *int64 `json:"budget"`
}

// liveness is the health answer to a caller without the admin token when
// one is configured: that the server is up, and nothing of its worlds.
type liveness struct {
	Status  string `json:"status"`
	Version string `json:"version"`
}

func (c *Control) health(r *http.Request) (any, error) {
	if !c.authorized(r) {
		return liveness{Status: "ok", Version: c.Version}, nil
	}
	w, err := c.world(r)
	if err != nil {
		return nil, err
	}
	cv, err := clockOf(w)
	m := w.Meta()
	mem := memoryUse{}
	var limit int64
	if mem.Used, limit = c.Engine.MemoryUse(); limit > 0 {
		mem.Budget = &limit
	}
	return health{Status: "ok", Version: c.Version, VaultURL: web.BaseURL(r) + web.VaultPath, World: w.ID,
		Scenario: m.Scenario, Seed: m.Seed, Persistent: w.Persistent(), Clock: cv, Worlds: len(c.Engine.Worlds()),
		Memory: mem}, err
}

func (c *Control) reset(r *http.Request) (any, error) {
	w, err := c.world(r)
	if err != nil {
		return nil, err
	}
	if err := c.Engine.Reset(w); err != nil {
		return nil, err
	}
	c.Traffic.ClearJournal(w)
	return c.health(r)
}

type keyView struct {
	Key            string   `json:"key"`
	Name           string   `json:"name,omitempty"`
	Kind           string   `json:"kind"`
	ReadOnly       bool     `json:"readOnly"`
	LegalEntityIDs []string `json:"legalEntityIds"`
	UserID         string   `json:"userId,omitempty"`
}

func keyViews(w *kernel.World) ([]keyView, error) {
	keys, err := w.Keys()
	if err != nil {
		return nil, err
	}
	items := make([]keyView, len(keys))
	for i, k := range keys {
		items[i] = keyView{Key: k.Key.Key, Name: k.Key.Name, Kind: k.Key.Kind, ReadOnly: k.Key.ReadOnly,
			LegalEntityIDs: k.LegalEntityIDs, UserID: k.Key.UserID}
	}
	return items, nil
}

func (c *Control) keys(r *http.Request) (any, error) {
	w, err := c.world(r)
	if err != nil {
		return nil, err
	}
	items, err := keyViews(w)
	if err != nil {
		return nil, err
	}
	return map[string]any{"items": items}, nil
}

func (c *Control) clock(r *http.Request) (any, error) {
	w, err := c.world(r)
	if err != nil {
		return nil, err
	}
	return clockOf(w)
}

// forward serves /_sandbox/worlds/{world}/… as the same control call with
// X-Sandbox-World set: the path form of choosing a world. World paths do
// not nest: /_sandbox/worlds/a/worlds/b/… is refused, so no request is
// forwarded more than once.
func (c *Control) forward(root http.Handler, w http.ResponseWriter, r *http.Request) {
	v := mux.Vars(r)
	if rest := v["rest"]; strings.HasPrefix(rest, "worlds/") &&
		strings.Contains(strings.TrimPrefix(rest, "worlds/"), "/") {
		web.WriteError(w, r, web.Gen2,
			kernel.InvalidField("path", "world paths do not nest: name one world, as /_sandbox/worlds/{id}/…"))
		return
	}
	if _, ok := c.Engine.World(v["world"]); !ok {
		web.WriteError(w, r, web.Gen2, kernel.NotFound("world", "world", v["world"]))
		return
	}
	fwd := r.Clone(r.Context())
	fwd.URL.Path = "/_sandbox/" + v["rest"]
	fwd.URL.RawPath = ""
	fwd.Header.Set("X-Sandbox-World", v["world"])
	root.ServeHTTP(w, fwd)
}
