package mcp

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/web"
)

// Endpoint is one operation as list_endpoints shows it.
type Endpoint struct {
	Method    string `json:"method"`
	Path      string `json:"path"`
	Summary   string `json:"summary"`
	Extension bool   `json:"sandboxExtension,omitempty"`
}

// catalog is the public operations of the OpenAPI document, read once.
type catalog struct {
	endpoints  []Endpoint
	paths      map[string]map[string]any // path → method (lower case) → operation
	components map[string]any
}

var methods = []string{"get", "post", "put", "patch", "delete"}

// catalog reads the document the first time a tool needs it: by then every
// route is registered.
func (s *Server) catalog() *catalog {
	s.once.Do(func() { s.ops = newCatalog(s.Document()) })
	return s.ops
}

// newCatalog keeps the operations a tool may call: the public API's, not
// the control API's nor this server's own.
func newCatalog(doc map[string]any) *catalog {
	// A JSON round trip turns the document's typed maps and slices into
	// plain JSON values.
	raw, _ := json.Marshal(doc)
	var plain struct {
		Paths      map[string]map[string]any `json:"paths"`
		Components struct {
			Schemas map[string]any `json:"schemas"`
		} `json:"components"`
	}
	_ = json.Unmarshal(raw, &plain)
	c := &catalog{paths: map[string]map[string]any{}, components: plain.Components.Schemas}
	for path, item := range plain.Paths {
		// The vault's read of a card is reached as GET /card/{cardId}
		// (viaVault), as on the real MCP server, which lists no vault.
		if !callable(path) || strings.HasPrefix(path, web.VaultPath+"/") {
			continue
		}
		c.paths[path] = item
		for _, m := range methods {
			op, ok := item[m].(map[string]any)
			if !ok {
				continue
			}
			summary, _ := op["summary"].(string)
			ext, _ := op["x-sandbox-extension"].(bool)
			c.endpoints = append(c.endpoints, Endpoint{Method: strings.ToUpper(m), Path: path, Summary: summary, Extension: ext})
		}
	}
	sort.Slice(c.endpoints, func(i, j int) bool {
		a, b := c.endpoints[i], c.endpoints[j]
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		return a.Method < b.Method
	})
	return c
}

// callable reports whether a path is the public API's.
func callable(path string) bool {
	return !strings.HasPrefix(path, "/_sandbox") && path != Path && !strings.HasPrefix(path, Path+"/")
}

// operation finds the operation of a method and a path, given as the
// document's template ("/card/{cardId}") or as a concrete path
// ("/card/card_123").
func (c *catalog) operation(method, path string) (string, map[string]any, error) {
	m := strings.ToLower(method)
	path, _, _ = strings.Cut(path, "?")
	if item, ok := c.paths[path]; ok {
		if op, ok := item[m].(map[string]any); ok {
			return path, op, nil
		}
	}
	for tpl, item := range c.paths {
		if op, ok := item[m].(map[string]any); ok && matches(tpl, path) {
			return tpl, op, nil
		}
	}
	return "", nil, fmt.Errorf("no operation %s %s: list_endpoints lists them", strings.ToUpper(method), path)
}

// matches reports whether a concrete path fits a template.
func matches(tpl, path string) bool {
	ts, ps := strings.Split(tpl, "/"), strings.Split(path, "/")
	if len(ts) != len(ps) {
		return false
	}
	for i := range ts {
		if strings.HasPrefix(ts[i], "{") && strings.HasSuffix(ts[i], "}") && ps[i] != "" {
			continue
		}
		if ts[i] != ps[i] {
			return false
		}
	}
	return true
}

// resolve copies v with every $ref to a component replaced by the
// component, itself resolved; a reference back to a component being
// resolved (a cycle) is cut, left as a note.
func (c *catalog) resolve(v any, open map[string]bool) any {
	switch t := v.(type) {
	case map[string]any:
		if ref, ok := t["$ref"].(string); ok {
			name := strings.TrimPrefix(ref, "#/components/schemas/")
			target, found := c.components[name]
			if !found {
				return t
			}
			if open[name] {
				return map[string]any{"description": "a " + name + " (recursive: see the enclosing schema)", "x-recursive": name}
			}
			open[name] = true
			out := c.resolve(target, open)
			delete(open, name)
			return out
		}
		out := make(map[string]any, len(t))
		for k, val := range t {
			out[k] = c.resolve(val, open)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i := range t {
			out[i] = c.resolve(t[i], open)
		}
		return out
	}
	return v
}
