package api

import (
	"net/http"
	"regexp"
	"strings"

	"github.com/gorilla/mux"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/analytics"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/openapi"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/store"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/web"
)

// API is the public API over an engine.
type API struct {
	Engine *kernel.Engine
	// Version is the sandbox version the OpenAPI document shows.
	Version string
	// Analytics runs the SQL of POST /analytics; nil answers such a query
	// with analytics.ErrNoEngine.
	Analytics analytics.Engine
	// handlers are the public routes' handlers by route name: an approved
	// agent request runs its route's.
	handlers map[string]web.Handler
	// currents read, by route name, what an update would change, for the
	// old values of a deferred update's display.
	currents map[string]currentFunc
	// router matches a declared agent request's path to its route.
	router *mux.Router
}

// Register adds every public route to r and their descriptions, with the
// components they name, to docs.
func (a *API) Register(r *mux.Router, docs *openapi.Registry) {
	a.currents = map[string]currentFunc{}
	describeShared(docs)
	a.routesTokens(r, docs)
	a.routesLegalEntities(r, docs)
	a.routesAccounts(r, docs)
	a.routesTransactions(r, docs)
	a.routesVirtualAccounts(r, docs)
	a.routesTransfers(r, docs)
	a.routesPayments(r, docs)
	a.routesV2Contacts(r, docs)
	a.routesContacts(r, docs)
	a.routesCustomers(r, docs)
	a.routesInvoices(r, docs)
	a.routesExpenseReports(r, docs)
	a.routesTasks(r, docs)
	a.routesAgentRequests(r, docs)
	a.routesCards(r, docs)
	a.routesCardGroups(r, docs)
	a.routesCardProducts(r, docs)
	a.routesInformationRequests(r, docs)
	a.routesWebhooks(r, docs)
	a.routesAuthorizationWebhooks(r, docs)
	a.routesOpenAPI(r, docs)
	a.routesMerchants(r, docs)
	a.routesCrypto(r, docs)
	a.routesAnalytics(r, docs)
	a.routesDeveloperApps(r, docs)
	a.routesOAuth(r, docs)
	a.routesFDX(r, docs)
	a.handlers = handlersOf(r)
	a.router = r
}

// handlersOf maps the name of every route of r to its handler.
func handlersOf(r *mux.Router) map[string]web.Handler {
	m := map[string]web.Handler{}
	r.Walk(func(route *mux.Route, _ *mux.Router, _ []*mux.Route) error {
		if h, ok := route.GetHandler().(web.Handler); ok && route.GetName() != "" {
			m[route.GetName()] = h
		}
		return nil
	})
	return m
}

var legalEntityHeader = regexp.MustCompile(`^le_[a-zA-Z0-9]+$`)

// call is an authenticated request: its world, principal and, once a legal
// entity is selected, its actor.
type call struct {
	W     *kernel.World
	P     *kernel.Principal
	Actor *kernel.Actor
	// reads gathers what the request reads, when its answer may be kept.
	reads *store.Reads
}

// view runs fn in a read-only operation on the caller's world, recording
// what it reads for the request.
func (c *call) view(fn func(*kernel.Op) error) error { return c.W.ViewReads(c.reads, fn) }

// authOpts says what a route needs from the credentials.
type authOpts struct {
	gen web.Gen
	// headerOptional lets a user key omit x-legal-entity (GET /legal-entity).
	headerOptional bool
	// apiKeyOnly refuses OAuth bearer tokens (upstream's api_key-only
	// operations).
	apiKeyOnly bool
}

// auth authenticates a request and selects its legal entity, in the order
// the spec gives: 401, then second-generation key kind and header checks,
// then the legal-entity permission.
func (a *API) auth(r *http.Request, o authOpts) (*call, error) {
	info := web.InfoOf(r)
	key := strings.TrimSpace(r.Header.Get("X-API-Key"))
	if token, ok := bearerToken(r); ok && key == "" {
		return a.authBearer(r, o, token)
	}
	w, ok := a.Engine.WorldForKey(key)
	if !ok {
		return nil, kernel.Errorf(kernel.CodeUnauthorized, "the API key is missing or invalid")
	}
	info.World, info.Reference = w.ID, w.ReferenceID
	c := &call{W: w, reads: info.Reads}
	header := r.Header.Get("x-legal-entity")
	k := authKey{apiKey: key, header: header, gen: o.gen, headerOptional: o.headerOptional}
	cache, version := authCacheOf(w), w.Version()
	if actor, reads, ok := cache.get(w, k, version); ok {
		p := actor.Principal
		c.Actor, c.P = actor, &p
		info.Key = actor.Key.Name
		info.Reads.Add(reads)
	} else {
		reads := &store.Reads{}
		err := w.ViewReads(reads, func(op *kernel.Op) error {
			p, err := op.Authenticate(key)
			if err != nil {
				return err
			}
			c.P = p
			info.Key = p.Key.Name
			if o.gen == web.Gen2 {
				if err := checkGen2(p, header); err != nil {
					return err
				}
			}
			c.Actor, err = op.Act(p, header, o.headerOptional)
			return err
		})
		info.Reads.Add(reads)
		if err != nil {
			return nil, err
		}
		cache.put(k, c.Actor, reads, version)
	}
	if c.Actor != nil && c.Actor.LegalEntity.ID != "" {
		info.LegalEntity = c.Actor.LegalEntity.ID
		if o.gen == web.Gen2 && !c.Actor.LegalEntity.V2Enabled {
			return nil, kernel.Errorf(kernel.CodeNotFound, "API v2 is not enabled for this legal entity")
		}
	}
	return c, nil
}

// checkGen2 applies the second generation's rules: a user key, and an
// x-legal-entity header of the right form.
func checkGen2(p *kernel.Principal, header string) error {
	if p.Key.Kind != kernel.KeyUser {
		return kernel.Errorf(kernel.CodeUserAPIKeyRequired, "this operation requires a user-scoped API key")
	}
	switch {
	case header == "":
		return kernel.InvalidField("x-legal-entity", "required")
	case !legalEntityHeader.MatchString(header):
		return kernel.InvalidField("x-legal-entity", "must match ^le_[a-zA-Z0-9]+$")
	}
	return nil
}

// list is the list page envelope.
type list[T any] struct {
	Items    []T      `json:"items"`
	Metadata metadata `json:"metadata"`
}

type metadata struct {
	Count      int    `json:"count"`
	NextCursor string `json:"nextCursor,omitempty"`
}

func newList[T any](items []T, next string) list[T] {
	if items == nil {
		items = []T{}
	}
	return list[T]{Items: items, Metadata: metadata{Count: len(items), NextCursor: next}}
}

// money is the API's Money object.
type money struct {
	AmountCents int64 `json:"amountCents"`
}
