package apitest

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// headerTransport sends fixed headers with every request.
type headerTransport struct{ header map[string]string }

func (h headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	for k, v := range h.header {
		r.Header.Set(k, v)
	}
	return http.DefaultTransport.RoundTrip(r)
}

// mcpSession connects the official SDK's client to the sandbox's /mcp
// with a query string and headers.
func mcpSession(t *testing.T, e *Env, query string, header map[string]string) (*mcp.ClientSession, error) {
	t.Helper()
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	transport := &mcp.StreamableClientTransport{Endpoint: e.Server.URL + "/mcp" + query,
		HTTPClient: &http.Client{Transport: headerTransport{header}}}
	s, err := client.Connect(context.Background(), transport, nil)
	if err == nil {
		t.Cleanup(func() { s.Close() })
	}
	return s, err
}

// MustMCP connects an MCP client to the sandbox's /mcp with query and
// header, failing the test when it cannot.
func MustMCP(t *testing.T, e *Env, query string, header map[string]string) *mcp.ClientSession {
	t.Helper()
	s, err := mcpSession(t, e, query, header)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	return s
}

// CallTool calls a tool and returns its text and whether it is an error.
func CallTool(t *testing.T, s *mcp.ClientSession, name string, args map[string]any) (string, bool) {
	t.Helper()
	res, err := s.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if len(res.Content) != 1 {
		t.Fatalf("%s: %d contents", name, len(res.Content))
	}
	return res.Content[0].(*mcp.TextContent).Text, res.IsError
}

// MCPCall is what call_api_endpoint answers: the API's status and body,
// or the agent request a deferred write made.
type MCPCall struct {
	Status         int            `json:"status"`
	AgentRequestID string         `json:"agentRequestId"`
	Body           map[string]any `json:"body"`
}

// CallAPI calls the call_api_endpoint tool and decodes its answer; the
// second result reports a tool error.
func CallAPI(t *testing.T, s *mcp.ClientSession, args map[string]any) (MCPCall, bool) {
	t.Helper()
	text, isErr := CallTool(t, s, "call_api_endpoint", args)
	var c MCPCall
	if err := json.Unmarshal([]byte(text), &c); err != nil {
		t.Fatalf("call_api_endpoint: %v: %s", err, text)
	}
	return c, isErr
}
