package mcp_test

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	mathbig "math/big"
	"net/http"
	"runtime"
	"strings"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/apitest"
)

const initializeMessage = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"%s",` +
	`"capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`

// mcpPost sends one POST to /mcp with key, in session (if any).
func mcpPost(t *testing.T, e *apitest.Env, key, session, body string, header map[string]string) *apitest.Resp {
	t.Helper()
	h := map[string]string{"Accept": "application/json, text/event-stream"}
	if session != "" {
		h["Mcp-Session-Id"] = session
	}
	for k, v := range header {
		h[k] = v
	}
	return e.Do(apitest.Req{Method: http.MethodPost, Path: "/mcp?apiKey=" + key, Header: h, Body: body})
}

// rawSession opens a session with a protocol version that still has
// batches, as a client of that version does.
func rawSession(t *testing.T, e *apitest.Env, key string) string {
	t.Helper()
	r := mcpPost(t, e, key, "", fmt.Sprintf(initializeMessage, "2025-03-26"), nil).Status(t, 200)
	id := r.Header.Get("Mcp-Session-Id")
	if id == "" {
		t.Fatalf("initialize answered no session: %s", r.Raw)
	}
	mcpPost(t, e, key, id, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, nil).Status(t, http.StatusAccepted)
	return id
}

// batch is n tools/call messages with the arguments given.
func batch(n int, tool, args string) string {
	msgs := make([]string, n)
	for i := range msgs {
		msgs[i] = fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call",`+
			`"params":{"name":%q,"arguments":%s}}`, i+1, tool, args)
	}
	return "[" + strings.Join(msgs, ",") + "]"
}

// rpcError checks that r is a JSON-RPC error object for no request in
// particular (id null) whose message says want.
func rpcError(t *testing.T, r *apitest.Resp, status int, want string) {
	t.Helper()
	r.Status(t, status)
	var m map[string]any
	r.Decode(t, &m)
	e, _ := m["error"].(map[string]any)
	msg, _ := e["message"].(string)
	id, hasID := m["id"]
	if !hasID || id != nil || m["jsonrpc"] != "2.0" || e["code"] != -32600.0 || !strings.Contains(msg, want) {
		t.Fatalf("answer %s, want a JSON-RPC error with id null saying %q", r.Raw, want)
	}
}

// TestMCPBatchesAreBounded: the 1 MiB batch of 9,000 list_endpoints calls
// that answered 155 MB is refused with a small JSON-RPC error; a batch of
// 50 is answered; a batch whose answers come past 16 MiB is answered with
// an error, not the answers.
func TestMCPBatchesAreBounded(t *testing.T) {
	e := apitest.New(t, apitest.Options{})
	id := rawSession(t, e, "sk_sandbox_acme")
	flood := batch(9000, "list_endpoints", "{}")
	if len(flood) > 1<<20 {
		t.Fatalf("the flood is %d bytes, past the body limit", len(flood))
	}
	// Answering the flood held about 730 MiB; refusing it allocates a few
	// copies of the megabyte sent.
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	hr, _ := http.NewRequest(http.MethodPost, e.Server.URL+"/mcp?apiKey=sk_sandbox_acme", strings.NewReader(flood))
	hr.Header.Set("Content-Type", "application/json")
	hr.Header.Set("Accept", "application/json, text/event-stream")
	hr.Header.Set("Mcp-Session-Id", id)
	res, err := http.DefaultClient.Do(hr)
	if err != nil {
		t.Fatal(err)
	}
	answer, _ := io.ReadAll(res.Body)
	res.Body.Close()
	runtime.ReadMemStats(&after)
	if allocated := after.TotalAlloc - before.TotalAlloc; allocated > 32<<20 {
		t.Errorf("refusing the flood allocated %d MiB", allocated>>20)
	}
	if len(answer) > 1024 {
		t.Errorf("the refusal is %d bytes", len(answer))
	}
	r := mcpPost(t, e, "sk_sandbox_acme", id, flood, nil)
	rpcError(t, r, http.StatusBadRequest, "a batch holds at most 50 messages; this one holds 9000")

	r = mcpPost(t, e, "sk_sandbox_acme", id, batch(50, "list_endpoints", "{}"), nil).Status(t, 200)
	var answers []struct {
		ID     int
		Result struct{ IsError bool }
	}
	r.Decode(t, &answers)
	if len(answers) != 50 || answers[49].Result.IsError {
		t.Fatalf("a batch of 50 got %d answers", len(answers))
	}

	// Each answer carries the whole OpenAPI document: fifty of them come
	// past the limit.
	doc := e.Get("/openapi.json", "", "").Status(t, 200).Raw
	if 50*len(doc) < 16<<20 {
		t.Fatalf("the document is %d bytes: fifty of them stay under 16 MiB", len(doc))
	}
	documents := batch(50, "call_api_endpoint", `{"method":"GET","path":"/openapi.json"}`)
	r = mcpPost(t, e, "sk_sandbox_acme", id, documents, nil)
	rpcError(t, r, http.StatusBadRequest, "the answers to this batch come to more than 16 MiB")

	// The session still serves a single call.
	single := `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"list_endpoints"}}`
	r = mcpPost(t, e, "sk_sandbox_acme", id, single, nil)
	if r.Status(t, 200); !strings.Contains(string(r.Raw), `"id":3`) {
		t.Fatalf("a single call after the refused batches: %s", r.Raw)
	}
}

// handmadeKey is the base64 SubjectPublicKeyInfo of an RSA public key with
// a modulus of the given bits (all ones) and exponent e, which no key
// generator would make.
func handmadeKey(t *testing.T, bits, e int) string {
	t.Helper()
	n := new(mathbig.Int).Sub(new(mathbig.Int).Lsh(mathbig.NewInt(1), uint(bits)), mathbig.NewInt(1))
	der, err := x509.MarshalPKIXPublicKey(&rsa.PublicKey{N: n, E: e})
	if err != nil {
		t.Fatal(err)
	}
	return base64.StdEncoding.EncodeToString(der)
}

// TestMCPRSAKeyRules: a connection's RSA key must be 2048 to 4096 bits
// with a sane exponent; any other is the documented 400 before the
// protocol starts, saying what is accepted.
func TestMCPRSAKeyRules(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	small, err := rsa.GenerateKey(rand.Reader, 1024)
	if err != nil {
		t.Fatal(err)
	}
	der, _ := x509.MarshalPKIXPublicKey(&small.PublicKey)
	for name, c := range map[string]struct {
		key  string
		want string
	}{
		"generated 1024 bits": {base64.StdEncoding.EncodeToString(der), "modulus has 1024 bits"},
		"512 bits":            {handmadeKey(t, 512, 65537), "modulus has 512 bits"},
		"8192 bits":           {handmadeKey(t, 8192, 65537), "modulus has 8192 bits"},
		"1048576 bits":        {handmadeKey(t, 1<<20, 65537), "modulus has 1048576 bits"},
		"exponent 1":          {handmadeKey(t, 2048, 1), "public exponent is 1"},
		"even exponent":       {handmadeKey(t, 2048, 65536), "public exponent is 65536"},
		"huge exponent":       {handmadeKey(t, 2048, 1<<40+1), "public exponent is 1099511627777"},
		"2048 bits":           {handmadeKey(t, 2048, 65537), ""},
		"4096 bits":           {handmadeKey(t, 4096, 65537), ""},
		"exponent 3":          {handmadeKey(t, 2048, 3), ""},
	} {
		t.Run(name, func(t *testing.T) {
			r := mcpPost(t, e, "sk_sandbox_acme", "", fmt.Sprintf(initializeMessage, "2025-06-18"),
				map[string]string{"X-RSA-Public-Key": c.key})
			if c.want == "" {
				r.Status(t, 200)
				return
			}
			r.Gen2(t, http.StatusBadRequest, "invalid_request")
			msg, _ := r.JSON(t)["message"].(string)
			if !strings.Contains(msg, c.want) || !strings.Contains(msg, "2048 to 4096 bits with the public exponent 65537") {
				t.Errorf("message %q, want one saying %q and what is accepted", msg, c.want)
			}
		})
	}
}

// TestMCPSessionsBelongToTheirKey: another key gets the answer an unknown
// session gets, for a call, a stream and a DELETE, and the owner's session
// goes on.
func TestMCPSessionsBelongToTheirKey(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	s := apitest.MustMCP(t, e, "?apiKey=sk_sandbox_acme", nil)
	call := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"list_endpoints"}}`
	version := map[string]string{"Mcp-Protocol-Version": s.InitializeResult().ProtocolVersion}
	unknown := mcpPost(t, e, "sk_sandbox_globex", "mcp_nope", call, version)
	if unknown.StatusCode != http.StatusNotFound {
		t.Fatalf("an unknown session answers %d", unknown.StatusCode)
	}
	for _, method := range []string{http.MethodPost, http.MethodGet, http.MethodDelete} {
		h := map[string]string{"Mcp-Session-Id": s.ID(), "Accept": "application/json, text/event-stream"}
		for k, v := range version {
			h[k] = v
		}
		r := e.Do(apitest.Req{Method: method, Path: "/mcp?apiKey=sk_sandbox_globex", Header: h, Body: call})
		if r.StatusCode != unknown.StatusCode || string(r.Raw) != string(unknown.Raw) {
			t.Errorf("%s with another key: %d %q, want what an unknown session gets: %d %q",
				method, r.StatusCode, r.Raw, unknown.StatusCode, unknown.Raw)
		}
	}
	if text, isErr := apitest.CallTool(t, s, "list_endpoints", nil); isErr || !strings.Contains(text, "/card") {
		t.Fatalf("the owner's session after another key's DELETE: %.200s", text)
	}
}

// TestMCPSessionsAreCapped opens more sessions than the server keeps: the
// least recently used gives way, the newest and the ones in use work.
func TestMCPSessionsAreCapped(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	s := apitest.MustMCP(t, e, "?apiKey=sk_sandbox_acme", nil)
	open := func() string {
		hr, _ := http.NewRequest(http.MethodPost, e.Server.URL+"/mcp?apiKey=sk_sandbox_globex",
			strings.NewReader(fmt.Sprintf(initializeMessage, "2025-06-18")))
		hr.Header.Set("Content-Type", "application/json")
		hr.Header.Set("Accept", "application/json, text/event-stream")
		res, err := http.DefaultClient.Do(hr)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		if res.StatusCode != 200 {
			t.Fatalf("initialize answered %d", res.StatusCode)
		}
		return res.Header.Get("Mcp-Session-Id")
	}
	first := open()
	var last string
	for i := range 1100 {
		last = open()
		if i%100 == 0 {
			// The SDK client's session is in use all along.
			if err := s.Ping(context.Background(), nil); err != nil {
				t.Fatalf("a session in use, after %d others: %v", i, err)
			}
		}
	}
	ping := `{"jsonrpc":"2.0","id":9,"method":"ping"}`
	version := map[string]string{"Mcp-Protocol-Version": "2025-06-18"}
	if r := mcpPost(t, e, "sk_sandbox_globex", first, ping, version); r.StatusCode != http.StatusNotFound {
		t.Errorf("the least recently used session answers %d, want 404", r.StatusCode)
	}
	if r := mcpPost(t, e, "sk_sandbox_globex", last, ping, version); r.StatusCode != 200 || !json.Valid(r.Raw) {
		t.Errorf("the newest session answers %d: %s", r.StatusCode, r.Raw)
	}
}
