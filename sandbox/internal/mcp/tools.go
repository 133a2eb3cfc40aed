package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	pathpkg "path"
	"reflect"
	"sort"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/web"
)

// EndpointArgs names one operation.
type EndpointArgs struct {
	Method string `json:"method" jsonschema:"the HTTP method: GET, POST, PUT, PATCH or DELETE"`
	Path   string `json:"path" jsonschema:"the path, as list_endpoints shows it (/card/{cardId}) or concrete (/card/card_123)"`
}

// CallArgs is one API call.
type CallArgs struct {
	Method string         `json:"method" jsonschema:"the HTTP method: GET, POST, PUT, PATCH or DELETE"`
	Path   string         `json:"path" jsonschema:"the concrete path, such as /card or /card/card_123"`
	Query  map[string]any `json:"query,omitempty" jsonschema:"query parameters; an array value repeats the parameter"`
	Body   any            `json:"body,omitempty" jsonschema:"the JSON request body of a write"`
}

// CallResult is what call_api_endpoint returns: the API's status and body.
type CallResult struct {
	Status int `json:"status"`
	// AgentRequestID is the agent request a deferred write made
	// (x-deferred-action-id): GET /agent-request/{id} reads it.
	AgentRequestID string `json:"agentRequestId,omitempty"`
	Body           any    `json:"body"`
}

func (s *Server) addTools(server *mcp.Server) {
	addTool(server, &mcp.Tool{Name: "list_endpoints",
		Description: "Lists all Slash API endpoints with method, path, and description."}, s.listEndpoints)
	addTool(server, &mcp.Tool{Name: "get_endpoint_schema",
		Description: "Returns the full schema for a specific endpoint (parameters, request body, responses), with all $ref" +
			" references resolved."},
		s.endpointSchema)
	addTool(server, &mcp.Tool{Name: "call_api_endpoint",
		Description: "Calls a Slash API endpoint with the given method, path, query parameters, and body. The result" +
			" carries the HTTP status and the JSON body. A write with a read-only key is held for approval: the result says so" +
			" and gives the approval URL; read it later with GET /agent-request/{id}."},
		s.callEndpoint)
}

// addTool registers a tool whose arguments decode into In. Its input schema
// is inferred from In, as the SDK's typed tools do, but the arguments are
// checked by decoding them strictly (known keys, right types, required keys
// present) rather than by a general JSON Schema validator, which costs a
// tool call several times what serving the API call does.
func addTool[In any](
	server *mcp.Server,
	tool *mcp.Tool,
	handle func(context.Context, *mcp.CallToolRequest, In) *mcp.CallToolResult,
) {
	schema, err := jsonschema.For[In](nil)
	if err != nil {
		panic(fmt.Sprintf("mcp: the arguments of %s have no schema: %v", tool.Name, err))
	}
	tool.InputSchema = schema
	server.AddTool(tool, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var in In
		if err := decodeArguments(req.Params.Arguments, schema.Required, &in); err != nil {
			return errorResult(fmt.Errorf("arguments: %w", err)), nil
		}
		return handle(ctx, req, in), nil
	})
}

// decodeArguments decodes a tool's arguments into v as the API decodes a
// strict request body (unknown keys and values of the wrong type refused,
// each named), and refuses required keys that are missing or empty.
func decodeArguments(raw json.RawMessage, required []string, v any) error {
	if trimmed := bytes.TrimSpace(raw); len(trimmed) == 0 || bytes.Equal(trimmed, []byte("null")) {
		raw = []byte("{}")
	}
	if err := web.DecodeBytes(raw, v, true); err != nil {
		if e, ok := kernel.AsError(err); ok && len(e.Details) == 1 {
			for at, problem := range e.Details {
				if at == "body" {
					return errors.New(problem)
				}
				return fmt.Errorf("%s %s", at, problem)
			}
		}
		return err
	}
	fields := reflect.ValueOf(v).Elem()
	for _, name := range required {
		for i := range fields.NumField() {
			tag, _, _ := strings.Cut(fields.Type().Field(i).Tag.Get("json"), ",")
			if tag == name && fields.Field(i).IsZero() {
				return fmt.Errorf("%q is required", name)
			}
		}
	}
	return nil
}

func (s *Server) listEndpoints(context.Context, *mcp.CallToolRequest, struct{}) *mcp.CallToolResult {
	return jsonResult(s.catalog().endpoints, false)
}

func (s *Server) endpointSchema(_ context.Context, _ *mcp.CallToolRequest, in EndpointArgs) *mcp.CallToolResult {
	c := s.catalog()
	tpl, op, err := c.operation(in.Method, in.Path)
	if err != nil {
		return errorResult(err)
	}
	resolved := c.resolve(op, map[string]bool{}).(map[string]any)
	out := map[string]any{"method": strings.ToUpper(in.Method), "path": tpl}
	for _, k := range []string{"operationId", "summary", "description", "parameters", "requestBody", "responses",
		"security"} {
		if v, ok := resolved[k]; ok {
			out[k] = v
		}
	}
	return jsonResult(out, false)
}

// callEndpoint serves the call through the assembled public handler, with
// the connection's credentials, as if it had come over HTTP.
func (s *Server) callEndpoint(ctx context.Context, req *mcp.CallToolRequest, in CallArgs) *mcp.CallToolResult {
	httpReq, err := s.apiRequest(ctx, req, in)
	if err != nil {
		return errorResult(err)
	}
	rec := &recorder{header: http.Header{}}
	s.API.ServeHTTP(rec, httpReq)
	res := CallResult{Status: rec.status(), AgentRequestID: rec.header.Get("X-Deferred-Action-Id")}
	body := rec.body.Bytes()
	switch {
	case len(body) == 0:
	case !json.Valid(body):
		res.Body = string(body)
	case header(req, rsaHeader) == "":
		// The API's JSON goes into the result as it is.
		res.Body = json.RawMessage(body)
	default:
		key, err := parsePublicKey(header(req, rsaHeader))
		if err != nil {
			return errorResult(fmt.Errorf("rsaPublicKey: %w", err))
		}
		var decoded any
		if err := json.Unmarshal(body, &decoded); err != nil {
			return errorResult(fmt.Errorf("reading the answer: %w", err))
		}
		if res.Body, err = encryptCardData(decoded, key); err != nil {
			return errorResult(fmt.Errorf("encrypting card data: %w", err))
		}
	}
	return jsonResult(res, res.Status >= 400)
}

// apiRequest builds the HTTP request a call stands for.
func (s *Server) apiRequest(ctx context.Context, req *mcp.CallToolRequest, in CallArgs) (*http.Request, error) {
	method := strings.ToUpper(strings.TrimSpace(in.Method))
	switch method {
	case http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete:
	default:
		return nil, fmt.Errorf("method %q: use GET, POST, PUT, PATCH or DELETE", in.Method)
	}
	raw, rawQuery, _ := strings.Cut(in.Path, "?")
	path, err := apiPath(raw)
	if err != nil {
		return nil, fmt.Errorf("path %q: %w", in.Path, err)
	}
	q, err := url.ParseQuery(rawQuery)
	if err != nil {
		return nil, fmt.Errorf("path %q: %w", in.Path, err)
	}
	keys := make([]string, 0, len(in.Query))
	for k := range in.Query {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		for _, v := range queryValues(in.Query[k]) {
			q.Add(k, v)
		}
	}
	var body io.Reader = http.NoBody
	if in.Body != nil {
		raw, err := json.Marshal(in.Body)
		if err != nil {
			return nil, fmt.Errorf("body: %w", err)
		}
		body = bytes.NewReader(raw)
	}
	httpReq, err := http.NewRequestWithContext(web.WithVia(ctx, "mcp"), method, "/", body)
	if err != nil {
		return nil, err
	}
	// The URL is set field by field, never read back from a string, so
	// the path is the one the API's router matches.
	httpReq.URL = &url.URL{Path: viaVault(method, path), RawQuery: q.Encode()}
	httpReq.RequestURI = httpReq.URL.RequestURI()
	httpReq.Host = header(req, hostHeader)
	if in.Body != nil {
		httpReq.Header.Set("Content-Type", "application/json")
	}
	for _, h := range []string{keyHeader, legalEntityHeader, "X-Forwarded-Proto", "X-Sandbox-World"} {
		if v := header(req, h); v != "" {
			httpReq.Header.Set(h, v)
		}
	}
	return httpReq, nil
}

// apiPath is the path of a call as the API's router will match it: the
// escapes decoded and the dot segments and repeated slashes resolved. A
// URL, a host or a backslash is refused, and so is a path of the control
// API or of this server, with a message naming what the tools serve (the
// handler the calls go to holds no other route in any case).
func apiPath(raw string) (string, error) {
	switch {
	case strings.Contains(raw, "://") || strings.HasPrefix(raw, "//"):
		return "", errors.New("give only the path, such as /account, not a URL or a host")
	case strings.ContainsRune(raw, '\\'):
		return "", errors.New("a path's separator is /, not a backslash")
	case !strings.HasPrefix(raw, "/"):
		return "", errors.New("give a path of the API that starts with /, such as /account (list_endpoints lists them)")
	case strings.ContainsRune(raw, '#'):
		return "", errors.New("a path has no fragment (#)")
	}
	decoded, err := url.PathUnescape(raw)
	if err != nil {
		return "", err
	}
	if strings.ContainsRune(decoded, '\\') {
		return "", errors.New("a path's separator is /, not a backslash")
	}
	clean := pathpkg.Clean(decoded)
	if !callable(clean) || !callable(strings.ToLower(clean)) {
		return "", errors.New("the tools call the public API, not the control API nor the MCP server; " +
			"list_endpoints lists what they call")
	}
	return clean, nil
}

// viaVault sends the read of one card to the vault address, as the real
// MCP server answers a card with its PAN and CVV when asked for them (and
// encrypted when the client gave a key); the API's main address never
// reveals them.
func viaVault(method, path string) string {
	rest, ok := strings.CutPrefix(path, "/card/")
	if method != http.MethodGet || !ok || rest == "" || strings.Contains(rest, "/") {
		return path
	}
	return web.VaultPath + path
}

// queryValues turns a JSON query value into parameter values.
func queryValues(v any) []string {
	switch t := v.(type) {
	case nil:
		return nil
	case string:
		return []string{t}
	case []any:
		var out []string
		for _, e := range t {
			out = append(out, queryValues(e)...)
		}
		return out
	}
	raw, _ := json.Marshal(v)
	return []string{string(raw)}
}

func header(req *mcp.CallToolRequest, name string) string {
	if req == nil || req.Extra == nil || req.Extra.Header == nil {
		return ""
	}
	return req.Extra.Header.Get(name)
}

func jsonResult(v any, isError bool) *mcp.CallToolResult {
	raw, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return errorResult(err)
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(raw)}}, IsError: isError}
}

func errorResult(err error) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: err.Error()}}, IsError: true}
}

// recorder keeps what the public API answers a tool call: its status, its
// headers and its body.
type recorder struct {
	header http.Header
	code   int
	body   bytes.Buffer
}

// Header is the answer's header.
func (r *recorder) Header() http.Header { return r.header }

// WriteHeader keeps the first status written.
func (r *recorder) WriteHeader(code int) {
	if r.code == 0 {
		r.code = code
	}
}

// Write keeps the body; a body written without a status is a 200.
func (r *recorder) Write(p []byte) (int, error) {
	r.WriteHeader(http.StatusOK)
	return r.body.Write(p)
}

// status is the answer's status: 200 when the handler wrote none.
func (r *recorder) status() int {
	if r.code == 0 {
		return http.StatusOK
	}
	return r.code
}
