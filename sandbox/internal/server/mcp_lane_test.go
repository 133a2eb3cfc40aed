package server_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/apitest"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/server"
)

// laneState is what an agent's tool calls must never change: the worlds,
// the default world's clock, every agent request that is no longer
// pending (seen through the control API), one agent request that must
// still be pending and the card it would rename.
func laneState(t *testing.T, e *apitest.Env, pending string) string {
	t.Helper()
	var b strings.Builder
	b.Write(e.Get("/_sandbox/worlds", "", "").Status(t, 200).Raw)
	b.Write(e.Get("/_sandbox/clock", "", "").Status(t, 200).Raw)
	for _, status := range []string{"approved", "rejected", "expired", "executed", "failed", "running"} {
		b.Write(e.Get("/_sandbox/agent-requests?status="+status, "", "").Status(t, 200).Raw)
	}
	var ar struct{ ID, Status string }
	e.Get("/_sandbox/agent-requests/"+pending, "", "").Status(t, 200).Decode(t, &ar)
	if ar.ID != pending || ar.Status != "pending" {
		t.Fatalf("agent request %s is %q, want pending", pending, ar.Status)
	}
	card := e.Get("/card/card_acmeaws", "sk_sandbox_acme", "").Status(t, 200).JSON(t)
	b.WriteString(ar.Status + " " + card["name"].(string))
	return b.String()
}

// deferredRename has a read-only key's session ask to rename a card and
// returns the agent request that now waits for a person.
func deferredRename(t *testing.T, s *mcp.ClientSession) string {
	t.Helper()
	c, _ := apitest.CallAPI(t, s, map[string]any{"method": "PATCH", "path": "/card/card_acmeaws",
		"body": map[string]any{"name": "x"}})
	if c.Status != 403 || c.AgentRequestID == "" {
		t.Fatalf("the read-only write was not deferred: %d %v", c.Status, c.Body)
	}
	return c.AgentRequestID
}

// spellings are the ways a path argument may be written to reach target
// (a path of the router) on another host, past a check of its prefix or
// through dot segments.
func spellings(host, target string) map[string]string {
	first, rest, _ := strings.Cut(strings.TrimPrefix(target, "/"), "/")
	if rest != "" {
		rest = "/" + rest
	}
	return map[string]string{
		"as sent":              target,
		"network path":         "//x" + target,
		"three slashes":        "//" + target,
		"loopback host":        "//" + host + target,
		"absolute URL":         "http://" + host + target,
		"https URL":            "https://" + host + target,
		"escaped slash":        "/%2F" + target[1:],
		"escaped first byte":   fmt.Sprintf("/%%%02X", target[1]) + target[2:],
		"escaped slashes":      "/" + first + strings.ReplaceAll(rest, "/", "%2F"),
		"dot dot then slashes": "/a/..//" + target[1:],
		"escaped dot dot":      "/a/%2E%2E" + target,
		"through itself":       "/" + first + "/.." + target,
		"dot segment":          "/." + target,
		"backslashes":          `\\x` + strings.ReplaceAll(target, "/", `\`),
		"slash backslash":      `/\x` + target,
		"escaped backslash":    "/%5C" + target[1:],
		"upper case":           "/" + strings.ToUpper(first) + rest,
		"through the MCP path": "/mcp/.." + target,
	}
}

// TestMCPToolCallsStayOutOfTheControlAPI is an agent with a read-only key
// trying to approve its own deferred write, create a world, move the clock
// and read every key, each through call_api_endpoint in every spelling of
// a control path: none reaches the control API, and what the user relies
// on afterwards holds.
func TestMCPToolCallsStayOutOfTheControlAPI(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	if u, err := url.Parse("//x/_sandbox"); err != nil || u.Host != "x" {
		t.Fatalf("the spelling this test relies on is not read as a host: %v", u)
	}
	host := strings.TrimPrefix(e.Server.URL, "http://")
	s := apitest.MustMCP(t, e, "?apiKey=sk_sandbox_acme_readonly", nil)
	id := deferredRename(t, s)
	before := laneState(t, e, id)
	attempts := []struct {
		method, target string
		body           any
	}{
		{http.MethodPost, "/_sandbox/agent-requests/" + id + "/approve", nil},
		{http.MethodPost, "/_sandbox/worlds", map[string]any{"id": "agent", "scenario": "demo"}},
		{http.MethodPost, "/_sandbox/clock/advance", map[string]any{"by": "30d"}},
		{http.MethodPost, "/_sandbox/worlds/default/clock/advance", map[string]any{"by": "30d"}},
		{http.MethodGet, "/_sandbox/keys", nil},
		{http.MethodGet, "/_sandbox/worlds", nil},
	}
	for _, a := range attempts {
		for name, path := range spellings(host, a.target) {
			args := map[string]any{"method": a.method, "path": path}
			if a.body != nil {
				args["body"] = a.body
			}
			text, isErr := apitest.CallTool(t, s, "call_api_endpoint", args)
			where := a.method + " " + a.target + " as " + name + " (" + path + ")"
			if !isErr {
				t.Errorf("%s: answered without an error: %.300s", where, text)
			}
			if strings.Contains(text, "sk_sandbox_globex") || strings.Contains(text, `"executed"`) ||
				strings.Contains(text, `"scenario"`) || strings.Contains(text, `"now"`) {
				t.Errorf("%s: a control answer came back: %.300s", where, text)
			}
		}
	}
	if after := laneState(t, e, id); after != before {
		t.Errorf("the tool calls changed the world:\nbefore %s\nafter  %s", before, after)
	}
	// The approval link of the deferred write still leads a person to it.
	apitest.Decide(e, id, "approve").Status(t, 200)
	if name := e.Get("/card/card_acmeaws", "sk_sandbox_acme", "").Status(t, 200).JSON(t)["name"]; name != "x" {
		t.Errorf("after the person's approval the card is named %v", name)
	}
}

// toolsHandler is the handler an MCP server over e's engine serves its
// tool calls through.
func toolsHandler(t *testing.T, e *apitest.Env) http.Handler {
	t.Helper()
	var h http.Handler
	server.Handler(e.Engine, server.Config{MCP: func(host server.MCPHost) { h = host.API }})
	if h == nil {
		t.Fatal("the MCP server was mounted without the API's handler")
	}
	return h
}

// hostileToolCalls sends every operation of the document, public and
// control, in every spelling of its path, through call_api_endpoint with a
// read-only key and a full key, and every control route straight to the
// handler the tools call. No control route answers (each spelling is a
// tool error or the public API's own 404 or 405), nothing answers 5xx,
// and the clock, the worlds and the agent requests stay as they were.
func hostileToolCalls(t *testing.T, e *apitest.Env, doc map[string]any) {
	host := strings.TrimPrefix(e.Server.URL, "http://")
	readOnly := apitest.MustMCP(t, e, "?apiKey=sk_sandbox_acme_readonly", nil)
	full := apitest.MustMCP(t, e, "?apiKey=sk_sandbox_acme", nil)
	pending := deferredRename(t, readOnly)
	before := laneState(t, e, pending)
	tools := toolsHandler(t, e)
	sent := 0
	for _, op := range append(apitest.SweepOperations(doc), apitest.SweepOp{ID: "mcp", Method: http.MethodPost,
		Path: "/mcp"}) {
		target := apitest.PathParam.ReplaceAllStringFunc(op.Path, func(p string) string {
			switch {
			case p == "{world}":
				return "default"
			case strings.Contains(op.Path, "agent-request"):
				return pending
			}
			return "card_acmeaws"
		})
		outside := strings.HasPrefix(op.Path, "/_sandbox") || op.Path == "/mcp"
		if outside {
			rec := httptest.NewRecorder()
			r := httptest.NewRequest(op.Method, target, nil)
			r.Host = host
			tools.ServeHTTP(rec, r)
			if rec.Code != http.StatusNotFound && rec.Code != http.StatusMethodNotAllowed {
				t.Errorf(
					"%s %s straight to the tools' handler answered %d: %.200s",
					op.Method,
					target,
					rec.Code,
					rec.Body,
				)
			}
		}
		for name, path := range spellings(host, target) {
			for _, s := range []*mcp.ClientSession{readOnly, full} {
				text, isErr := apitest.CallTool(
					t,
					s,
					"call_api_endpoint",
					map[string]any{"method": op.Method, "path": path},
				)
				sent++
				where := op.ID + " as " + name + ": " + op.Method + " " + shorten(path)
				var c apitest.MCPCall
				if json.Unmarshal([]byte(text), &c) != nil {
					if !isErr {
						t.Errorf("%s: neither an API answer nor a tool error: %.200s", where, text)
					}
					continue
				}
				msg, _ := c.Body["message"].(string)
				switch {
				case c.Status >= 500:
					t.Errorf("%s answered %d: %.300s", where, c.Status, text)
				case outside && !(c.Status == 404 && strings.Contains(msg, "no route")) && c.Status != 405:
					t.Errorf("%s: a control route answered %d: %.300s", where, c.Status, text)
				}
			}
		}
	}
	if after := laneState(t, e, pending); after != before {
		t.Errorf("the tool calls changed the world:\nbefore %s\nafter  %s", before, after)
	}
	t.Logf("sent %d hostile tool calls", sent)
}

// TestMCPToolsReadTheWholeDocument: GET /openapi.json through a tool is the
// document GET /openapi.json answers over HTTP.
func TestMCPToolsReadTheWholeDocument(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	s := apitest.MustMCP(t, e, "?apiKey=sk_sandbox_acme", nil)
	text, isErr := apitest.CallTool(t, s, "call_api_endpoint", map[string]any{"method": "GET", "path": "/openapi.json"})
	var c struct {
		Status int
		Body   json.RawMessage
	}
	if err := json.Unmarshal([]byte(text), &c); err != nil || isErr || c.Status != 200 {
		t.Fatalf("GET /openapi.json through a tool: %v %.200s", err, text)
	}
	var viaTool, viaHTTP any
	json.Unmarshal(c.Body, &viaTool)
	e.Get("/openapi.json", "", "").Status(t, 200).Decode(t, &viaHTTP)
	if !reflect.DeepEqual(viaTool, viaHTTP) {
		t.Errorf("the document a tool reads differs from GET /openapi.json's")
	}
}

// TestMCPToolsAnswerLikeHTTPOnLiteralPaths: a path that one route spells
// out and another's variable could stand for answers a tool call as it
// answers over HTTP (405 naming the methods the literal route allows).
func TestMCPToolsAnswerLikeHTTPOnLiteralPaths(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	s := apitest.MustMCP(t, e, "?apiKey=sk_sandbox_acme", nil)
	for _, path := range []string{"/expense-report/bulk-action", "/expense-report/receipt"} {
		overHTTP := e.Get(path, "sk_sandbox_acme", "")
		viaTool, _ := apitest.CallAPI(t, s, map[string]any{"method": "GET", "path": path})
		if viaTool.Status != overHTTP.StatusCode || viaTool.Status != http.StatusMethodNotAllowed {
			t.Errorf(
				"GET %s: %d through a tool, %d over HTTP, want 405 both",
				path,
				viaTool.Status,
				overHTTP.StatusCode,
			)
		}
	}
}
