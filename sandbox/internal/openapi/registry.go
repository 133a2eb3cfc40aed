package openapi

import (
	"fmt"
	"reflect"
	"sort"
)

// Schema is a JSON Schema object as it appears in the document.
type Schema = map[string]any

// Security names who may call an operation.
type Security int

// Security requirements of operations.
const (
	// Default: an API key or an OAuth bearer token on the first generation,
	// a user API key on the second, the admin token on the control API.
	Default Security = iota
	// APIKeyOnly: X-API-Key and nothing else.
	APIKeyOnly
	// BearerOnly: an OAuth access token and nothing else.
	BearerOnly
	// ClientBasic: a developer application's client id and secret (HTTP Basic).
	ClientBasic
	// Public: no credentials.
	Public
)

// Param is a query or header parameter.
type Param struct {
	Name        string
	Description string
	Required    bool
	// Schema defaults to a string.
	Schema Schema
}

// Content maps media types to schemas (or Go values to reflect). Used as an
// Extra value it declares a status answered in those media types.
type Content map[string]any

// Op describes one operation. Body and Response are Go values whose types
// give the schema, or a Schema.
type Op struct {
	Summary     string
	Description string
	Security    Security
	Query       []Param
	Headers     []Param
	Body        any
	// BodyType is the request media type (default application/json).
	BodyType string
	// BodyOptional marks a body the caller may leave out.
	BodyOptional bool
	// Status is the success status (default 200).
	Status   int
	Response any
	// ResponseType is the success media type (default application/json).
	ResponseType string
	// Content, when set, lists every media type the success response may
	// have, each with its schema; it replaces Response and ResponseType.
	Content Content
	// Extra are further responses by status, for example an operation's
	// own 400 body.
	Extra map[int]any
	// Extension marks an operation the real service does not have.
	Extension bool
	// Read marks a POST that only reads: a read-only key's call is served,
	// never deferred. Every other first-generation write declares the 403
	// of a deferred write, extensions too.
	Read bool
}

// Registry holds what the document says of a router: the description of
// each named route and the named schemas they refer to. The code that
// assembles the router owns one; each package that registers routes adds
// their descriptions to it beside them, and Build reads it once the router
// is complete. It is not safe to add to while a document is built.
type Registry struct {
	ops        map[string]Op
	components map[reflect.Type]string
	named      map[string]any
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry {
	return &Registry{ops: map[string]Op{}, components: map[reflect.Type]string{}, named: map[string]any{}}
}

// Describe documents the route with this name. Call it beside the route's
// registration.
func (reg *Registry) Describe(route string, op Op) {
	if _, dup := reg.ops[route]; dup {
		panic(fmt.Sprintf("openapi: route %q described twice", route))
	}
	reg.ops[route] = op
}

// Component names the schema of v's type: wherever the type appears it is
// a $ref to components/schemas/name. v may also be a hand-written Schema.
func (reg *Registry) Component(name string, v any) {
	if _, dup := reg.named[name]; dup {
		panic(fmt.Sprintf("openapi: component %q declared twice", name))
	}
	reg.named[name] = v
	if _, ok := v.(Schema); !ok {
		reg.components[reflect.TypeOf(v)] = name
	}
}

// Ref is a reference to a named component.
func Ref(name string) Schema { return Schema{"$ref": "#/components/schemas/" + name} }

// DescribedRoutes lists the names of every route described, sorted.
func (reg *Registry) DescribedRoutes() []string {
	out := make([]string, 0, len(reg.ops))
	for name := range reg.ops {
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}
