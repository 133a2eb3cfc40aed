package mcp

import (
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/mux"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/openapi"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/web"
)

// Path is where the MCP server answers.
const Path = "/mcp"

// Headers the connection's credentials travel in to the tools: the query
// parameters are copied into them, so a tool reads one place.
const (
	keyHeader         = "X-API-Key"
	legalEntityHeader = "x-legal-entity"
	rsaHeader         = "X-RSA-Public-Key"
	// hostHeader carries the Host the client used, so the links the API
	// writes (the approval URL) point where the client can reach.
	hostHeader = "X-Sandbox-Mcp-Host"
)

// The sessions the server keeps: at most maxSessions at once (opening
// another closes the least recently used idle one), each closed after
// sessionIdle without a request.
const (
	maxSessions = 1000
	sessionIdle = 30 * time.Minute
)

// Server is the MCP server over the sandbox.
type Server struct {
	Engine *kernel.Engine
	// Document is the sandbox's OpenAPI document (built once the router is
	// complete); the tools list and describe its operations.
	Document func() map[string]any
	// API is the handler a tool call is served through: the public API's
	// routes behind the server's middleware, and no other route.
	API http.Handler
	// Version is the sandbox's version, reported to clients.
	Version string

	once sync.Once
	ops  *catalog
}

// Register adds the MCP route to r and describes it in docs.
func (s *Server) Register(r *mux.Router, docs *openapi.Registry) {
	server := mcp.NewServer(&mcp.Implementation{Name: "slash-sandbox", Version: s.Version}, &mcp.ServerOptions{
		Instructions: "Tools over the Slash API as this sandbox serves it: list_endpoints, get_endpoint_schema," +
			" call_api_endpoint.",
	})
	s.addTools(server)
	batches := newBatches()
	server.AddReceivingMiddleware(batches.middleware)
	// A call is answered with one JSON body rather than an event stream:
	// the tools send nothing while they run, and one write is cheaper than
	// a stream's. Messages the server starts still go out on the GET stream.
	transport := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server },
		&mcp.StreamableHTTPOptions{JSONResponse: true, SessionTimeout: sessionIdle})
	r.Handle(Path, s.authenticate(newSessions(server, transport, maxSessions), batches)).
		Methods(http.MethodGet, http.MethodPost, http.MethodDelete).Name("mcp")
	docs.Describe(
		"mcp",
		openapi.Op{Summary: "The MCP server (Streamable HTTP)", Extension: true, Security: openapi.APIKeyOnly,
			Description: "Model Context Protocol over Streamable HTTP: JSON-RPC messages in, JSON or an event stream out. " +
				"A session answers only the API key that opened it (any other gets 404, as for an unknown session); " +
				"at most 1,000 live at once, and one idle for 30 minutes is closed. A batch holds at most 50 messages " +
				"and its answers at most 16 MiB. " +
				"The API key may also be sent as ?apiKey=, a user key's legal entity as ?legalEntity=, and an RSA public key " +
				"(base64 DER, 2048 to 4096 bits, exponent 65537) as ?rsaPublicKey= or X-RSA-Public-Key to have PAN and CVV" +
				" encrypted.",
			Query: []openapi.Param{{Name: "apiKey"}, {Name: "legalEntity"}, {Name: "rsaPublicKey"}},
			Body:  openapi.Schema{"type": "object"}, BodyOptional: true, Read: true,
			Content: openapi.Content{"application/json": openapi.Schema{"type": []any{"object", "array"}},
				"text/event-stream": openapi.Schema{"type": "string"}},
			// The refusals before the protocol starts are the control API's
			// envelope, which the origin guard in front writes too.
			Extra: map[int]any{
				http.StatusAccepted:              openapi.Content{},
				http.StatusNoContent:             openapi.Content{},
				http.StatusBadRequest:            openapi.Schema{"oneOf": []any{openapi.Ref("ErrorV2"), rpcErrorSchema}},
				http.StatusUnauthorized:          openapi.Ref("ErrorV2"),
				http.StatusForbidden:             openapi.Ref("ErrorV2"),
				http.StatusNotFound:              openapi.Content{"text/plain": openapi.Schema{"type": "string"}},
				http.StatusRequestEntityTooLarge: rpcErrorSchema,
				http.StatusServiceUnavailable:    rpcErrorSchema,
			}},
	)
}

// rpcErrorSchema is a JSON-RPC error object that answers no request in
// particular: a batch or a session refused.
var rpcErrorSchema = openapi.Schema{"type": "object", "required": []any{"jsonrpc", "id", "error"},
	"additionalProperties": false, "properties": openapi.Schema{
		"jsonrpc": openapi.Schema{"const": "2.0"},
		"id":      openapi.Schema{"type": "null"},
		"error": openapi.Schema{"type": "object", "required": []any{"code", "message"}, "properties": openapi.Schema{
			"code": openapi.Schema{"type": "integer"}, "message": openapi.Schema{"type": "string"}}},
	}}

// authenticate refuses a connection without a known API key or with a
// malformed or refused RSA key before the protocol sees it, copies the
// query's credentials into the headers the tools read, bounds a batch and
// serves the request in the key's own session.
func (s *Server) authenticate(next *sessions, batches *batches) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		fill := func(header, param string) {
			if v := q.Get(param); v != "" && r.Header.Get(header) == "" {
				r.Header.Set(header, v)
			}
		}
		fill(keyHeader, "apiKey")
		fill(legalEntityHeader, "legalEntity")
		fill(rsaHeader, "rsaPublicKey")
		key := strings.TrimSpace(r.Header.Get(keyHeader))
		if key == "" {
			web.WriteError(w, r, web.Gen2,
				kernel.Errorf(kernel.CodeUnauthorized, "the MCP server needs an API key: ?apiKey= or X-API-Key"))
			return
		}
		if _, ok := s.Engine.WorldForKey(key); !ok {
			web.WriteError(w, r, web.Gen2, kernel.Errorf(kernel.CodeUnauthorized, "the API key is not valid"))
			return
		}
		if raw := r.Header.Get(rsaHeader); raw != "" {
			if _, err := parsePublicKey(raw); err != nil {
				web.WriteError(w, r, web.Gen2, kernel.Errorf(kernel.CodeInvalidRequest, "rsaPublicKey: %v", err))
				return
			}
		}
		r.Header.Set(hostHeader, r.Host)
		if r.Method != http.MethodPost {
			next.serve(w, r, key)
			return
		}
		bw, r, done, ok := batches.limit(w, r)
		if !ok {
			return
		}
		defer done()
		next.serve(bw, r, key)
	})
}
