package api

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strings"
	"unicode"

	"github.com/gorilla/mux"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/agentrequests"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/openapi"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/web"
)

func (a *API) routesAgentRequests(r *mux.Router, docs *openapi.Registry) {
	describeAgentRequests(docs)
	web.Route(r, web.Gen1, http.MethodGet, "/agent-request", "agent_request.list", a.listAgentRequests)
	web.Route(r, web.Gen1, http.MethodGet, "/agent-request/{agentRequestId}", "agent_request.get", a.getAgentRequest)
}

// describeAgentRequests adds the descriptions of these routes, and the
// components they name, to docs.
func describeAgentRequests(docs *openapi.Registry) {
	docs.Component("AgentRequest", agentRequest{})
	docs.Describe(
		"agent_request.list",
		openapi.Op{Summary: "List the calling key's agent requests", Security: openapi.APIKeyOnly,
			Query: []openapi.Param{
				cursorParam,
				{Name: "filter:status", Schema: openapi.Schema{"type": "string", "enum": agentrequests.Statuses}},
			},
			Response: listOf(agentRequest{})},
	)
	docs.Describe("agent_request.get",
		openapi.Op{Summary: "Get an agent request", Security: openapi.APIKeyOnly, Response: agentRequest{}})
}

type agentRequest struct {
	ID        string                `json:"id"`
	Status    string                `json:"status" enum:"pending,approved,rejected,expired,executed,failed,running"`
	Display   agentrequests.Display `json:"display"`
	Result    json.RawMessage       `json:"result,omitempty"`
	CreatedAt string                `json:"createdAt" format:"date-time"`
}

func agentRequestView(ar *agentrequests.Request) agentRequest {
	v := agentRequest{ID: ar.ID, Status: ar.Status, Display: ar.Display, CreatedAt: timestamp(ar.CreatedAt)}
	if ar.Status == agentrequests.Executed {
		v.Result = ar.Result
	}
	return v
}

// deferredAction is the body of a deferred write's answer, as the real
// service writes it: the approval URL inside error.
type deferredAction struct {
	Error string `json:"error"`
}

// deferWrite holds a read-only key's write for a human: nothing changes, an
// agent request is created in pending, and the answer is 403 Forbidden with
// its id in x-deferred-action-id and the page that approves it in the body.
func (a *API) deferWrite(r *http.Request, c *call, body []byte) (any, error) {
	ar := &agentrequests.Request{
		LegalEntityID: c.Actor.LegalEntityID(),
		APIKey:        c.P.Key.Key,
		Route:         web.InfoOf(r).Route,
		Method:        r.Method,
		Path:          r.URL.Path,
		Vars:          mux.Vars(r),
		Query:         r.URL.RawQuery,
		Body:          body,
		Header:        map[string]string{},
	}
	for _, h := range []string{"x-legal-entity", "X-Idempotency-Key", "Content-Type"} {
		if v := r.Header.Get(h); v != "" {
			ar.Header[h] = v
		}
	}
	ar.Display = a.display(c, ar)
	err := c.W.Update(func(op *kernel.Op) error { return agentrequests.Create(op, ar) })
	if err != nil {
		return nil, err
	}
	resp := web.Status(http.StatusForbidden,
		deferredAction{Error: "Action requires approval: " + approvalURL(r, c.W.ID, ar.ID)})
	resp.Header = http.Header{"X-Deferred-Action-Id": {ar.ID}}
	return resp, nil
}

// approvalURL is where a person approves or rejects an agent request: the
// real service's home?modal=/deferred-action/{id}, here the dashboard at
// the address the caller used, opened on the caller's world.
func approvalURL(r *http.Request, world, id string) string {
	return web.BaseURL(r) + "/_sandbox/ui?world=" + url.QueryEscape(world) + "&modal=/deferred-action/" +
		url.PathEscape(id)
}

// display describes a deferred write the way the published example does
// ("Create Virtual Card", "Card Name", "Virtual"): a title from the
// operation, and one section per property of the body, with the old value
// for updates.
func (a *API) display(c *call, ar *agentrequests.Request) agentrequests.Display {
	d := agentrequests.Display{
		Title:       title(ar.Route),
		Description: ar.Method + " " + ar.Path,
		Sections:    []agentrequests.Section{},
	}
	var fields map[string]json.RawMessage
	if json.Unmarshal(ar.Body, &fields) != nil {
		return d
	}
	var current map[string]json.RawMessage
	if ar.Method == http.MethodPatch || ar.Method == http.MethodPut {
		current = a.current(c, ar)
	}
	keys := make([]string, 0, len(fields))
	for k := range fields {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	subject := subjectOf(ar.Route)
	for _, k := range keys {
		name := label(k)
		if k == "name" && subject != "" {
			name = subject + " Name"
		}
		newValue := shown(k, fields[k])
		if current == nil {
			d.Sections = append(d.Sections, agentrequests.Section{Label: name, Value: newValue})
			continue
		}
		ch := agentrequests.Change{NewValue: newValue}
		if old, ok := currentValue(current, k); ok {
			o := shown(k, old)
			ch.OldValue = &o
		}
		d.Sections = append(d.Sections, agentrequests.Section{Label: name, Value: ch})
	}
	return d
}

// shown is a body value as a person reads it; a type is a word of the
// interface ("virtual" reads "Virtual").
func shown(key string, raw json.RawMessage) string {
	v := text(raw)
	if key == "type" && v != "" && v != "none" {
		return strings.ToUpper(v[:1]) + v[1:]
	}
	return v
}

// currentFunc reads what an update would change, in domain terms: the
// view its route's resource has now (a card as GET /card/{id} shows it, a
// card's spending constraint, a transaction with its note). vars are the
// update's path variables.
type currentFunc func(op *kernel.Op, c *call, vars map[string]string) (any, error)

// shows registers the current view of an update route.
func (a *API) shows(route string, fn currentFunc) { a.currents[route] = fn }

// noCurrent is the view of a resource the API does not show by itself (a
// contact destination, a bulk action): its updates show new values as
// changes, without old ones.
func noCurrent(*kernel.Op, *call, map[string]string) (any, error) { return struct{}{}, nil }

// listed is the current view of an item its route's parent path lists
// (/card/{cardId} of /card): when the item cannot be found, the update
// shows its new values as changes, without old ones.
func listed(fn currentFunc) currentFunc {
	return func(op *kernel.Op, c *call, vars map[string]string) (any, error) {
		v, err := fn(op, c, vars)
		if e, ok := kernel.AsError(err); ok && e.Code == kernel.CodeNotFound {
			return noCurrent(op, c, vars)
		}
		return v, err
	}
}

// currentValue is a property's value in the current view: a property of
// the view itself, else of the one object in it that has it, for views that
// wrap their record ({"customer": {…}}, {"virtualAccount": {…}, "balance": …}).
func currentValue(current map[string]json.RawMessage, k string) (json.RawMessage, bool) {
	if v, ok := current[k]; ok {
		return v, true
	}
	var found json.RawMessage
	for _, raw := range current {
		var inner map[string]json.RawMessage
		if json.Unmarshal(raw, &inner) != nil {
			continue
		}
		if v, ok := inner[k]; ok {
			if found != nil {
				return nil, false // two objects have it: no guess
			}
			found = v
		}
	}
	return found, found != nil
}

// current reads the resource an update would change, as the caller sees
// it; nil when the route has no current view or the resource cannot be
// read.
func (a *API) current(c *call, ar *agentrequests.Request) map[string]json.RawMessage {
	fn, ok := a.currents[ar.Route]
	if !ok {
		return nil
	}
	var v any
	err := c.view(func(op *kernel.Op) (err error) {
		v, err = fn(op, c, ar.Vars)
		return err
	})
	if err != nil {
		return nil
	}
	raw, err := web.Encode(v)
	var out map[string]json.RawMessage
	if err != nil || json.Unmarshal(raw, &out) != nil {
		return nil
	}
	return out
}

// text shows a JSON value to a person: strings bare, null (a removal) as
// "none", the rest compact.
func text(raw json.RawMessage) string {
	if string(bytes.TrimSpace(raw)) == "null" {
		return "none"
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var buf bytes.Buffer
	if json.Compact(&buf, raw) == nil {
		return buf.String()
	}
	return string(raw)
}

// titles name the operations whose generic title would read badly, or say
// less than the real service's: a card made through the API is virtual.
var titles = map[string]string{
	"card.create":                     "Create Virtual Card",
	"transfer.virtual_account.create": "Transfer Between Virtual Accounts",
	"task.act":                        "Act on Task",
}

// title turns a route name ("card.spending_constraint.replace") into a
// title ("Replace Card Spending Constraint").
func title(route string) string {
	if t, ok := titles[route]; ok {
		return t
	}
	parts := strings.Split(route, ".")
	verb := words(parts[len(parts)-1])
	if subject := subjectOf(route); subject != "" {
		return verb + " " + subject
	}
	return verb
}

// subjectOf is the resource a route acts on, in words ("card.create":
// "Card"; "card.spending_constraint.replace": "Card Spending Constraint").
func subjectOf(route string) string {
	parts := strings.Split(route, ".")
	return words(strings.Join(parts[:len(parts)-1], "_"))
}

// words turns a snake_case name into capitalized words.
func words(name string) string {
	ws := strings.FieldsFunc(name, func(r rune) bool { return r == '_' })
	for i, w := range ws {
		ws[i] = upperFirst(w)
	}
	return strings.Join(ws, " ")
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// label turns a property name ("spendingConstraint") into a label
// ("Spending Constraint").
func label(name string) string {
	var b strings.Builder
	for i, r := range name {
		if i > 0 && unicode.IsUpper(r) {
			b.WriteByte(' ')
		}
		if i == 0 {
			r = unicode.ToUpper(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

func (a *API) listAgentRequests(r *http.Request) (any, error) {
	c, err := a.auth(r, authOpts{gen: web.Gen1, apiKeyOnly: true})
	if err != nil {
		return nil, err
	}
	status := r.URL.Query().Get("filter:status")
	if status != "" && !slices.Contains(agentrequests.Statuses, status) {
		return nil, kernel.InvalidField("filter:status", "must be one of "+strings.Join(agentrequests.Statuses, ", "))
	}
	if err := a.CompleteDeclared(c.W); err != nil {
		return nil, err
	}
	after, err := decodeCursor(r, c)
	if err != nil {
		return nil, err
	}
	var page kernel.Page[agentrequests.Request]
	err = c.view(func(op *kernel.Op) error {
		page, err = agentrequests.ListOfKey(op, c.P.Key.Key, status, kernel.PageRequest{After: after})
		return err
	})
	if err != nil {
		return nil, err
	}
	items := make([]agentRequest, len(page.Items))
	for i := range page.Items {
		items[i] = agentRequestView(&page.Items[i])
	}
	return newList(items, encodeCursor(r, c, page.Next)), nil
}

func (a *API) getAgentRequest(r *http.Request) (any, error) {
	c, err := a.auth(r, authOpts{gen: web.Gen1, apiKeyOnly: true})
	if err != nil {
		return nil, err
	}
	id := mux.Vars(r)["agentRequestId"]
	if err := a.CompleteDeclared(c.W); err != nil {
		return nil, err
	}
	var ar *agentrequests.Request
	err = c.view(func(op *kernel.Op) error {
		var ok bool
		ar, ok, err = agentrequests.Find(op, id)
		if err == nil && (!ok || ar.APIKey != c.P.Key.Key) {
			err = kernel.NotFound("agent request", "", id)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return agentRequestView(ar), nil
}
