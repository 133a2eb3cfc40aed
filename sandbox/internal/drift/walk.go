package drift

import (
	"context"
	"encoding/json"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"strings"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/jsonshape"
)

// Probes: what a request asks of production.
const (
	// ProbeRead reads what the account holds.
	ProbeRead = "read"
	// ProbeUnknownID names an id that does not exist.
	ProbeUnknownID = "unknown_id"
	// ProbeBadFilter sends a filter value outside the filter's set.
	ProbeBadFilter = "bad_filter"
)

// operation probes one operation: a read of each path the lists answered
// ids for, then the refusals the sandbox makes.
func (r *run) operation(ctx context.Context, op operation) error {
	switch {
	case op.bearer:
		r.report.skip(op.id, "takes an OAuth access token, not an API key")
		return nil
	case len(op.required) > 0:
		r.report.skip(op.id, "needs the query parameter "+strings.Join(op.required, ", "))
		return nil
	}
	paths, prefix, ok := r.fill(op)
	var statuses []string
	forbidden := 0
	for _, path := range paths {
		a, err := r.get(ctx, path)
		if err != nil {
			return err
		}
		r.read(op, path, a)
		if a.status/100 != 2 {
			statuses = append(statuses, fmt.Sprint(a.status))
		}
		if a.status == http.StatusUnauthorized || a.status == http.StatusForbidden {
			forbidden++
		}
	}
	switch {
	case !ok:
		r.report.skip(op.id, fmt.Sprintf("no list answered a %s to follow", op.params[len(op.params)-1]))
	case len(paths) == 0:
		r.report.skip(op.id, "the list it reads from was empty")
	case len(statuses) == len(paths):
		r.report.skip(op.id, "answered "+strings.Join(statuses, ", ")+"; its error envelope was checked")
	default:
		r.report.Checked = append(r.report.Checked, op.id)
	}
	if forbidden > 0 && forbidden == len(paths) {
		// The key may not call it: a refusal says nothing of the
		// operation.
		return nil
	}
	if len(op.params) > 0 && prefix != "" {
		unknown := prefix + "/" + url.PathEscape(unknownID(r.bodies[prefix], op.params[len(op.params)-1])) +
			suffix(op.template)
		if err := r.refused(ctx, op, ProbeUnknownID, unknown, unknownIDStatus); err != nil {
			return err
		}
	}
	if len(op.filters) > 0 && len(paths) > 0 {
		bad := paths[0] + "?" + url.QueryEscape(op.filters[0]) + "=" + badFilterValue
		return r.refused(ctx, op, ProbeBadFilter, bad, badFilterStatus)
	}
	return nil
}

// get sends GET path, acting for the run's legal entity on every path but
// /legal-entity.
func (r *run) get(ctx context.Context, path string) (*answer, error) {
	if a, ok := r.cache[path]; ok {
		return a, nil
	}
	return r.req.get(ctx, path, path != "/legal-entity")
}

// fill is the concrete paths of an operation, a list's ids in its last path
// parameter (at most maxIDs of each), and one concrete path of the list
// they come from ("" when the operation has no parameter). ok is false
// when no list answered, so there is nothing to follow.
func (r *run) fill(op operation) (paths []string, prefix string, ok bool) {
	if len(op.params) == 0 {
		return []string{op.template}, "", true
	}
	last := op.params[len(op.params)-1]
	prefixTpl := op.template[:strings.LastIndex(op.template, "/{"+last+"}")]
	lists := r.answered[prefixTpl]
	if len(lists) == 0 {
		if len(op.params) > 1 {
			return nil, "", false
		}
		lists = []string{prefixTpl}
	}
	for _, list := range lists {
		for _, id := range idsIn(r.bodies[list], last, r.maxIDs) {
			paths = append(paths, list+"/"+url.PathEscape(id)+suffix(op.template))
		}
	}
	return paths, lists[0], r.answered[prefixTpl] != nil
}

// suffix is what follows a template's last path parameter.
func suffix(tpl string) string { return tpl[strings.LastIndex(tpl, "}")+1:] }

// read checks the answer to a read: a 2XX against the operation's success
// schema (and its ids kept for the operations that follow), an error
// against its error envelope; any other status (a redirect, a 2XX the
// operation does not declare) is a difference of status.
func (r *run) read(op operation, path string, a *answer) {
	schema, declared := op.response(a.status)
	if !declared || a.status < 200 || a.status/100 == 3 {
		r.add(op.id, ProbeRead, path, finding{"", KindStatus, fmt.Sprint(a.status), op.successStatus()})
		return
	}
	v, ok := r.body(op.id, ProbeRead, path, schema, a)
	if ok && a.status/100 == 2 {
		r.answered[op.template] = append(r.answered[op.template], path)
		r.bodies[path] = v
	}
}

// refused sends a request the sandbox refuses with status want and checks
// production refuses it alike, in the same envelope.
func (r *run) refused(ctx context.Context, op operation, probe, path string, want int) error {
	a, err := r.req.get(ctx, path, true)
	if err != nil {
		return err
	}
	if a.status != want {
		r.add(op.id, probe, path, finding{"", KindStatus, fmt.Sprint(a.status), fmt.Sprint(want)})
	}
	if a.status >= 400 {
		schema, _ := op.response(a.status)
		r.body(op.id, probe, path, schema, a)
	}
	return nil
}

// body checks an answer's body against schema (nil: nothing to check) and
// returns it decoded.
func (r *run) body(opID, probe, path string, schema map[string]any, a *answer) (any, bool) {
	if schema == nil {
		return nil, true
	}
	if mt, _, _ := mime.ParseMediaType(a.contentType); mt != "application/json" {
		r.add(opID, probe, path, finding{"", KindBody, "Content-Type " + show(a.contentType), "application/json"})
		return nil, false
	}
	v, err := jsonshape.Decode(a.body)
	if err != nil {
		r.add(opID, probe, path, finding{"", KindBody, "not JSON: " + err.Error(), "a JSON body"})
		return nil, false
	}
	for _, f := range r.contract.check(schema, v, "") {
		r.add(opID, probe, path, f)
	}
	return v, true
}

// idsIn finds up to n ids in a list's answer: in each element of its
// arrays, the property named param, else id, else the same in an object the
// element holds (FDX and some lists wrap each resource in its kind).
func idsIn(v any, param string, n int) []string {
	var out []string
	for _, arr := range arrays(v) {
		for _, e := range arr {
			if len(out) >= n {
				return out
			}
			if id := idOf(asSchema(e), param); id != "" {
				out = append(out, id)
			}
		}
	}
	return out
}

// arrays are the arrays among a value's properties, in name order (or the
// value itself when it is one).
func arrays(v any) [][]any {
	if a, ok := v.([]any); ok {
		return [][]any{a}
	}
	obj := asSchema(v)
	var out [][]any
	for _, name := range sortedNames(obj) {
		if a, ok := obj[name].([]any); ok {
			out = append(out, a)
		}
	}
	return out
}

func idOf(e map[string]any, param string) string {
	for _, key := range []string{param, "id"} {
		if s, ok := e[key].(string); ok && s != "" {
			return s
		}
	}
	// An element that wraps the resource in its kind ({"invoice": {...}}),
	// as some lists do: the object named for the parameter first.
	names := append([]string{strings.TrimSuffix(param, "Id")}, sortedNames(e)...)
	for _, key := range []string{param, "id"} {
		for _, name := range names {
			if s, ok := asSchema(e[name])[key].(string); ok && s != "" {
				return s
			}
		}
	}
	return ""
}

// unknownID is an id shaped like the list's first (its prefix kept, each
// letter and digit after it a zero), which names nothing.
func unknownID(list any, param string) string {
	ids := idsIn(list, param, 1)
	if len(ids) == 0 {
		return "drift_0000000000000000"
	}
	id := ids[0]
	cut := strings.LastIndex(id, "_") + 1
	var b strings.Builder
	b.WriteString(id[:cut])
	for _, c := range id[cut:] {
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' {
			c = '0'
		}
		b.WriteRune(c)
	}
	return b.String()
}

// errorMessage is an error body's message, for a one-line explanation.
func errorMessage(body []byte) string {
	var e struct {
		Message string `json:"message"`
	}
	if json.Unmarshal(body, &e) != nil || e.Message == "" {
		return ""
	}
	return ": " + e.Message
}
