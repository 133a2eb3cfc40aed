package openapi

import (
	"net/http"
	"regexp"
	"sort"
	"strings"

	"github.com/gorilla/mux"
)

// Info identifies the document.
type Info struct {
	Title   string
	Version string
}

var pathVar = regexp.MustCompile(`\{([^}:]+)(:[^}]*)?\}`)

// TemplatePath turns a router path template into an OpenAPI path:
// "/x/{id:[0-9]+}" becomes "/x/{id}".
func TemplatePath(tpl string) string { return pathVar.ReplaceAllString(tpl, "{$1}") }

// Build makes the OpenAPI document of every named route of r, as reg
// describes them.
func Build(r *mux.Router, reg *Registry, info Info) map[string]any {
	g := newGenerator(reg)
	paths := map[string]map[string]any{}
	tags := map[string]bool{}
	_ = r.Walk(func(route *mux.Route, _ *mux.Router, _ []*mux.Route) error {
		name := route.GetName()
		tpl, err := route.GetPathTemplate()
		methods, merr := route.GetMethods()
		if merr != nil {
			methods = []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete}
		}
		if name == "" || err != nil {
			return nil
		}
		path := TemplatePath(tpl)
		if paths[path] == nil {
			paths[path] = map[string]any{}
		}
		for _, m := range methods {
			op := g.operation(name, m, tpl)
			paths[path][strings.ToLower(m)] = op
			tags[op["tags"].([]string)[0]] = true
		}
		return nil
	})
	tagList := []any{}
	for _, t := range sortedKeys(tags) {
		tagList = append(tagList, Schema{"name": t})
	}
	g.component("Error")
	g.component("ErrorV2")
	return map[string]any{
		"openapi": "3.1.0",
		"info": Schema{"title": info.Title, "version": info.Version,
			"description": "The operations this slash-sandbox serves. Operations and properties marked x-sandbox-extension are" +
				" the sandbox's own. Any operation outside /_sandbox answers the error status a Prefer: code=NNN request" +
				" header asks for (400, 401, 403, 404, 409, 422, 429, 500, 502, 503 or 504), in its error envelope, without" +
				" doing anything else; another code= value is refused with 400."},
		"paths":      paths,
		"tags":       tagList,
		"components": Schema{"schemas": g.components, "securitySchemes": securitySchemes()},
	}
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func securitySchemes() Schema {
	return Schema{
		"api_key": Schema{"type": "apiKey", "in": "header", "name": "X-API-Key",
			"description": "A legal-entity or user-scoped API key. A user key sends x-legal-entity on every request but GET" +
				" /legal-entity."},
		"bearer": Schema{"type": "http", "scheme": "bearer",
			"description": "An OAuth access token from POST /oauth2/token; it acts for its user. When the user can reach" +
				" several legal entities, send x-legal-entity or filter:legalEntityId."},
		"developer_application": Schema{
			"type":        "http",
			"scheme":      "basic",
			"description": "A developer application's oauthClientId and oauthClientSecret.",
		},
		"admin_token": Schema{"type": "apiKey", "in": "header", "name": "X-Admin-Token",
			"description":         "Needed by the control API only when the server was started with an admin token.",
			"x-sandbox-extension": true},
	}
}

// kind is the part of the API a path belongs to.
type kind int

const (
	gen1 kind = iota
	gen2
	control
)

func kindOf(path string) kind {
	switch {
	case strings.HasPrefix(path, "/_sandbox"):
		return control
	case path == "/v2" || strings.HasPrefix(path, "/v2/"):
		return gen2
	}
	return gen1
}

// operation is the document's entry for one route and method.
func (g *generator) operation(name, method, tpl string) Schema {
	d, ok := g.reg.ops[name]
	if !ok {
		d = Op{Summary: summary(name), Response: Schema{}}
	}
	k := kindOf(tpl)
	out := Schema{"operationId": name, "summary": d.Summary, "tags": []string{tag(name)}}
	if d.Description != "" {
		out["description"] = d.Description
	}
	if !ok {
		out["x-undescribed"] = true
	}
	if d.Extension || k == control {
		out["x-sandbox-extension"] = true
	}
	out["security"] = security(d.Security, k)
	if params := g.parameters(d, k, tpl); len(params) > 0 {
		out["parameters"] = params
	}
	if d.Body != nil {
		bt := d.BodyType
		if bt == "" {
			bt = "application/json"
		}
		out["requestBody"] = Schema{"required": !d.BodyOptional, "content": Schema{bt: Schema{"schema": g.schemaOf(d.Body)}}}
	}
	out["responses"] = g.responses(d, k, method, ok)
	return out
}

// summary turns a route name into a title: "card.spending_constraint.replace"
// becomes "Replace card spending constraint".
func summary(route string) string {
	parts := strings.Split(route, ".")
	verb := parts[len(parts)-1]
	subject := strings.ReplaceAll(strings.Join(parts[:len(parts)-1], " "), "_", " ")
	title := strings.ToUpper(verb[:1]) + verb[1:]
	if subject != "" {
		title += " " + subject
	}
	return strings.ReplaceAll(title, "_", " ")
}

func tag(route string) string {
	parts := strings.Split(route, ".")
	if parts[0] == "v2" || parts[0] == "sandbox" {
		if len(parts) > 2 {
			return parts[0] + "." + parts[1]
		}
	}
	return parts[0]
}

func security(s Security, k kind) []any {
	req := func(names ...string) []any {
		out := []any{}
		for _, n := range names {
			if n == "" {
				out = append(out, Schema{})
			} else {
				out = append(out, Schema{n: []any{}})
			}
		}
		return out
	}
	switch {
	case s == Public:
		return []any{}
	case s == APIKeyOnly:
		return req("api_key")
	case s == BearerOnly:
		return req("bearer")
	case s == ClientBasic:
		return req("developer_application")
	case k == control:
		return req("", "admin_token")
	case k == gen2:
		return req("api_key")
	}
	return req("api_key", "bearer")
}

func (g *generator) parameters(d Op, k kind, tpl string) []any {
	var out []any
	for _, m := range pathVar.FindAllStringSubmatch(tpl, -1) {
		p := Schema{"name": m[1], "in": "path", "required": true, "schema": Schema{"type": "string"}}
		if m[2] != "" {
			p["x-sandbox-extension"] = true
			p["description"] = "May contain slashes: the rest of the path."
		}
		out = append(out, p)
	}
	for _, q := range d.Query {
		out = append(out, g.param(q, "query"))
	}
	headers := d.Headers
	if (d.Security == Default || d.Security == BearerOnly) && k != control {
		headers = append([]Param{{Name: "x-legal-entity", Required: k == gen2,
			Description: "The legal entity to act for; required with a user-scoped key (second generation: always).",
			Schema:      Schema{"type": "string", "pattern": "^le_[a-zA-Z0-9]+$"}}}, headers...)
	}
	for _, h := range headers {
		out = append(out, g.param(h, "header"))
	}
	return out
}

func (g *generator) param(p Param, in string) Schema {
	s := p.Schema
	if s == nil {
		s = Schema{"type": "string"}
	}
	out := Schema{"name": p.Name, "in": in, "required": p.Required, "schema": g.expand(s)}
	if p.Description != "" {
		out["description"] = p.Description
	}
	return out
}

func (g *generator) responses(d Op, k kind, method string, describedOp bool) Schema {
	errRef := Ref("Error")
	if k != gen1 {
		errRef = Ref("ErrorV2")
	}
	out := Schema{
		"default": Schema{
			"description": "An error, in this generation's envelope.",
			"content":     Schema{"application/json": Schema{"schema": errRef}},
		},
		"429": Schema{
			"description": "Rate limited; the body is plain text.",
			"content":     Schema{"text/plain": Schema{"schema": Schema{"type": "string"}}},
		},
	}
	status := "200"
	if d.Status != 0 {
		status = itoa(d.Status)
	}
	if !describedOp {
		status = "2XX"
	}
	ok := Schema{"description": "Success."}
	if d.Content != nil {
		ok["content"] = g.content(d.Content)
	} else if d.Response != nil {
		rt := d.ResponseType
		if rt == "" {
			rt = "application/json"
		}
		ok["content"] = Schema{rt: Schema{"schema": g.schemaOf(d.Response)}}
	}
	out[status] = ok
	for code, v := range d.Extra {
		content := Schema{"application/json": Schema{"schema": g.schemaOf(v)}}
		if c, ok := v.(Content); ok {
			content = g.content(c)
		}
		out[itoa(code)] = Schema{"description": http.StatusText(code), "content": content}
	}
	if k != control && method != http.MethodGet && (d.Security == Default || d.Security == APIKeyOnly) && describedOp &&
		!d.Read {
		g.component("DeferredAction")
		out["403"] = Schema{
			"description": "Forbidden. A read-only key's write is deferred for a person to approve: x-deferred-action-id names" +
				" the agent request and error holds the URL of its approval page. Any other refusal is this generation's error" +
				" envelope.",
			"headers": Schema{"x-deferred-action-id": Schema{"description": "The agent request's id, on a deferred write only.",
				"schema": Schema{"type": "string", "pattern": "^dfa_[a-z0-9]+$"}}},
			"content": Schema{"application/json": Schema{"schema": Schema{"oneOf": []any{Ref("DeferredAction"), errRef}}}},
		}
	}
	return out
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for n > 0 {
		b = append([]byte{byte('0' + n%10)}, b...)
		n /= 10
	}
	return string(b)
}

// content renders a Content: each media type with its schema.
func (g *generator) content(c Content) Schema {
	out := Schema{}
	for mt, v := range c {
		out[mt] = Schema{"schema": g.schemaOf(v)}
	}
	return out
}
