package mcp_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha1"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/apitest"
)

func TestMCPToolsOverStreamableHTTP(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	s := apitest.MustMCP(t, e, "?apiKey=sk_sandbox_acme", nil)
	tools, err := s.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range tools.Tools {
		names = append(names, tool.Name)
	}
	if got, want := strings.Join(names, ","), "call_api_endpoint,get_endpoint_schema,list_endpoints"; got != want {
		t.Fatalf("tools = %s, want %s", got, want)
	}

	t.Run("list_endpoints", func(t *testing.T) {
		text, isErr := apitest.CallTool(t, s, "list_endpoints", nil)
		var eps []struct{ Method, Path, Summary string }
		if err := json.Unmarshal([]byte(text), &eps); err != nil || isErr {
			t.Fatalf("list_endpoints: %v %v", err, isErr)
		}
		seen := map[string]bool{}
		for _, ep := range eps {
			seen[ep.Method+" "+ep.Path] = true
			// The real MCP server lists no vault: GET /card/{cardId} reads through it.
			if strings.HasPrefix(ep.Path, "/_sandbox") || ep.Path == "/mcp" || strings.HasPrefix(ep.Path, "/vault/") {
				t.Errorf("list_endpoints lists %s %s", ep.Method, ep.Path)
			}
		}
		for _, want := range []string{"GET /account", "POST /card", "GET /card/{cardId}",
			"GET /agent-request/{agentRequestId}"} {
			if !seen[want] {
				t.Errorf("list_endpoints lacks %s (%d endpoints)", want, len(eps))
			}
		}
	})

	t.Run("get_endpoint_schema resolves every ref", func(t *testing.T) {
		for _, path := range []string{"/card/{cardId}", "/card/card_acmeaws"} {
			text, isErr := apitest.CallTool(t, s, "get_endpoint_schema", map[string]any{"method": "get", "path": path})
			if isErr || strings.Contains(text, `"$ref"`) || !strings.Contains(text, `"/card/{cardId}"`) ||
				!strings.Contains(text, "include_pan") {
				t.Fatalf("get_endpoint_schema %s (error %v): %.400s", path, isErr, text)
			}
		}
		if text, isErr := apitest.CallTool(t, s, "get_endpoint_schema", map[string]any{"method": "GET",
			"path": "/nowhere"}); !isErr {
			t.Fatalf("unknown operation: %s", text)
		}
	})

	t.Run("call_api_endpoint", func(t *testing.T) {
		c, isErr := apitest.CallAPI(
			t,
			s,
			map[string]any{
				"method": "GET",
				"path":   "/account",
				"query":  map[string]any{"filter:legalEntityId": "le_acme"},
			},
		)
		if isErr || c.Status != 200 || c.Body["items"] == nil {
			t.Fatalf("GET /account = %d %v", c.Status, c.Body)
		}
		c, isErr = apitest.CallAPI(t, s, map[string]any{"method": "GET", "path": "/card/card_nope"})
		if !isErr || c.Status != 404 {
			t.Fatalf("GET /card/card_nope = %d (error %v)", c.Status, isErr)
		}
		c, isErr = apitest.CallAPI(t, s,
			map[string]any{"method": "PATCH", "path": "/card/card_acmeaws", "body": map[string]any{"name": 5}})
		if !isErr || c.Status != 400 {
			t.Fatalf("invalid body = %d (error %v) %v", c.Status, isErr, c.Body)
		}
	})

	t.Run("bad arguments", func(t *testing.T) {
		for name, args := range map[string]map[string]any{
			"control API":  {"method": "GET", "path": "/_sandbox/worlds"},
			"itself":       {"method": "POST", "path": "/mcp"},
			"bad method":   {"method": "TRACE", "path": "/account"},
			"not absolute": {"method": "GET", "path": "account"},
		} {
			if text, isErr := apitest.CallTool(t, s, "call_api_endpoint", args); !isErr {
				t.Errorf("%s: not an error: %s", name, text)
			}
		}
		res, err := s.CallTool(context.Background(),
			&mcp.CallToolParams{Name: "call_api_endpoint", Arguments: map[string]any{"method": 3}})
		if err == nil && !res.IsError {
			t.Errorf("a method that is not a string was accepted")
		}
	})

	t.Run("journal marks the calls", func(t *testing.T) {
		var journal struct {
			Items []struct{ Path, Route, Via string }
		}
		e.Do(apitest.Req{Path: "/_sandbox/requests"}).Status(t, 200).Decode(t, &journal)
		var mcpCalls int
		for _, j := range journal.Items {
			if j.Path == "/mcp" {
				t.Errorf("the MCP exchange itself is journaled")
			}
			if j.Via == "mcp" {
				mcpCalls++
			}
		}
		if mcpCalls == 0 {
			t.Errorf("no journal entry is marked via mcp: %+v", journal.Items)
		}
	})
}

func TestMCPAuthentication(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	for name, c := range map[string]struct {
		query  string
		header map[string]string
		status int
	}{
		"no key":            {status: 401},
		"unknown key":       {query: "?apiKey=sk_nope", status: 401},
		"malformed rsa key": {query: "?apiKey=sk_sandbox_acme&rsaPublicKey=bm90IGEga2V5", status: 400},
		"foreign origin": {query: "?apiKey=sk_sandbox_acme",
			header: map[string]string{"Origin": "https://evil.example"},
			status: 403},
		"rebinding host": {query: "?apiKey=sk_sandbox_acme", header: map[string]string{"Host": "evil.example"},
			status: 403},
	} {
		t.Run(name, func(t *testing.T) {
			hdr := map[string]string{"Accept": "application/json, text/event-stream"}
			var host string
			for k, v := range c.header {
				if k == "Host" {
					host = v
					continue
				}
				hdr[k] = v
			}
			r := e.Do(apitest.Req{Method: http.MethodPost, Path: "/mcp" + c.query, Header: hdr, Host: host,
				Body: `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},` +
					`"clientInfo":{"name":"t","version":"1"}}}`})
			if r.StatusCode != c.status {
				t.Fatalf("status %d, want %d: %s", r.StatusCode, c.status, r.Raw)
			}
		})
	}
	t.Run("key in a header", func(t *testing.T) {
		s := apitest.MustMCP(t, e, "", map[string]string{"X-API-Key": "sk_sandbox_alice", "x-legal-entity": "le_acme"})
		c, isErr := apitest.CallAPI(t, s, map[string]any{"method": "GET", "path": "/legal-entity"})
		if isErr || c.Status != 200 {
			t.Fatalf("GET /legal-entity = %d %v", c.Status, c.Body)
		}
	})
	t.Run("user key's legal entity as a query parameter", func(t *testing.T) {
		s := apitest.MustMCP(t, e, "?apiKey=sk_sandbox_alice&legalEntity=le_globex", nil)
		c, isErr := apitest.CallAPI(t, s, map[string]any{"method": "GET", "path": "/account"})
		if isErr || c.Status != 200 {
			t.Fatalf("GET /account = %d %v", c.Status, c.Body)
		}
	})
}

func TestMCPDeferredWriteApprovedEndToEnd(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	s := apitest.MustMCP(t, e, "?apiKey=sk_sandbox_acme_readonly", nil)
	c, isErr := apitest.CallAPI(
		t,
		s,
		map[string]any{
			"method": "PATCH",
			"path":   "/card/card_acmeaws",
			"body":   map[string]any{"name": "Renamed by agent"},
		},
	)
	msg, _ := c.Body["error"].(string)
	if !isErr || c.Status != 403 || c.AgentRequestID == "" || !strings.Contains(msg, "/_sandbox/ui?world=") {
		t.Fatalf("read-only write = %d (error %v) %q %v", c.Status, isErr, c.AgentRequestID, c.Body)
	}
	apitest.Decide(e, c.AgentRequestID, "approve").Status(t, 200)
	ar, isErr := apitest.CallAPI(t, s, map[string]any{"method": "GET", "path": "/agent-request/" + c.AgentRequestID})
	if isErr || ar.Status != 200 || ar.Body["status"] != "executed" {
		t.Fatalf("agent request after approval = %d %v", ar.Status, ar.Body)
	}
	card, _ := apitest.CallAPI(t, s, map[string]any{"method": "GET", "path": "/card/card_acmeaws"})
	if card.Body["name"] != "Renamed by agent" {
		t.Fatalf("card after approval: %v", card.Body)
	}
}

// encryptedCard reads a card's PAN and CVV through a session whose RSA
// public key is pub.
func encryptedCard(t *testing.T, e *apitest.Env, pub []byte, viaHeader bool) (pan, cvv string) {
	t.Helper()
	b64 := base64.StdEncoding.EncodeToString(pub)
	var s *mcp.ClientSession
	if viaHeader {
		s = apitest.MustMCP(t, e, "?apiKey=sk_sandbox_acme", map[string]string{"X-RSA-Public-Key": b64})
	} else {
		s = apitest.MustMCP(t, e, "?apiKey=sk_sandbox_acme&rsaPublicKey="+strings.NewReplacer("+", "%2B", "/", "%2F",
			"=",
			"%3D").Replace(b64), nil)
	}
	c, isErr := apitest.CallAPI(
		t,
		s,
		map[string]any{
			"method": "GET",
			"path":   "/card/card_acmeaws",
			"query":  map[string]any{"include_pan": true, "include_cvv": "true"},
		},
	)
	if isErr || c.Status != 200 {
		t.Fatalf("GET card = %d %v", c.Status, c.Body)
	}
	pan, _ = c.Body["pan"].(string)
	cvv, _ = c.Body["cvv"].(string)
	return pan, cvv
}

func TestMCPEncryptsCardData(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	pub, _ := x509.MarshalPKIXPublicKey(&key.PublicKey)
	clear := apitest.MustMCP(t, e, "?apiKey=sk_sandbox_acme", nil)
	plain, _ := apitest.CallAPI(
		t,
		clear,
		map[string]any{
			"method": "GET",
			"path":   "/card/card_acmeaws",
			"query":  map[string]any{"include_pan": "true", "include_cvv": "true"},
		},
	)
	wantPAN, _ := plain.Body["pan"].(string)
	wantCVV, _ := plain.Body["cvv"].(string)
	if len(wantPAN) < 12 || len(wantCVV) < 3 {
		t.Fatalf("without a key: pan %q cvv %q", wantPAN, wantCVV)
	}
	for _, viaHeader := range []bool{false, true} {
		pan, cvv := encryptedCard(t, e, pub, viaHeader)
		for field, c := range map[string][2]string{"pan": {pan, wantPAN}, "cvv": {cvv, wantCVV}} {
			ct, err := base64.StdEncoding.DecodeString(c[0])
			if err != nil {
				t.Fatalf("%s %q is not base64", field, c[0])
			}
			got, err := rsa.DecryptOAEP(sha1.New(), nil, key, ct, nil)
			if err != nil || string(got) != c[1] {
				t.Fatalf("%s decrypts to %q (%v), want %q", field, got, err, c[1])
			}
		}
	}

	t.Run("openssl decrypts with the docs' command", func(t *testing.T) {
		openssl, err := exec.LookPath("openssl")
		if err != nil {
			t.Skip("openssl is absent")
		}
		dir := t.TempDir()
		priv := filepath.Join(dir, "private.pem")
		der, _ := x509.MarshalPKCS8PrivateKey(key)
		if err := os.WriteFile(priv, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}),
			0o600); err != nil {
			t.Fatal(err)
		}
		pan, _ := encryptedCard(t, e, pub, false)
		ct, _ := base64.StdEncoding.DecodeString(pan)
		cmd := exec.Command(openssl, "pkeyutl", "-decrypt", "-inkey", priv, "-pkeyopt", "rsa_padding_mode:oaep")
		cmd.Stdin = bytes.NewReader(ct)
		out, err := cmd.CombinedOutput()
		if err != nil || string(out) != wantPAN {
			t.Fatalf("openssl: %q (%v), want %q", out, err, wantPAN)
		}
	})
}

// TestMCPRequestsAreLoggedWithTheirStatus: the MCP SDK writes its answers
// itself, and the request log still names each one's status.
func TestMCPRequestsAreLoggedWithTheirStatus(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	s := apitest.MustMCP(t, e, "?apiKey=sk_sandbox_acme", nil)
	if _, err := s.ListTools(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	lines := apitest.Where(apitest.LogLines(t, e.Log.String()), "POST /mcp")
	if len(lines) < 2 {
		t.Fatalf("%d log lines for POST /mcp", len(lines))
	}
	for _, l := range lines {
		if status, _ := l["status"].(float64); status < 200 || status > 299 {
			t.Fatalf("POST /mcp logged with status %v: %v", l["status"], l)
		}
	}
}
