package mcp

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha1"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"math/big"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestDecodeArguments(t *testing.T) {
	for raw, want := range map[string]string{
		`{"method":"GET","path":"/account"}`:                  "",
		`{"method":"GET","path":"/card","query":{"a":["x"]}}`: "",
		`{"method":3,"path":"/account"}`:                      "/method must be string, not number",
		`{"method":"GET"}`:                                    `"path" is required`,
		`{"method":"","path":"/account"}`:                     `"method" is required`,
		``:                                                    `"method" is required`,
		`null`:                                                `"method" is required`,
		`{"method":"GET","path":"/account","verb":"GET"}`:       "/verb is not a known property",
		`{"method":"GET","path":"/account","query":"a=1"}`:      "/query must be map, not string",
		`["GET","/account"]`:                                    "must be a JSON object, not array",
		`{"method":"GET",`:                                      "malformed JSON: unexpected end of input",
		`{"method":"GET","path":"/account","body":{"x":[1]}}`:   "",
		`{"method":"GET","path":"/account","query":{"n":null}}`: "",
	} {
		var in CallArgs
		err := decodeArguments(json.RawMessage(raw), []string{"method", "path"}, &in)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != want {
			t.Errorf("%s: error %q, want %q", raw, got, want)
		}
	}
	var in CallArgs
	if err := decodeArguments(json.RawMessage(`{"method":"post","path":"/card","query":{"limit":5},"body":{"name":"A"}}`),
		nil, &in); err != nil {
		t.Fatal(err)
	}
	want := CallArgs{Method: "post", Path: "/card", Query: map[string]any{"limit": 5.0}, Body: map[string]any{"name": "A"}}
	if !reflect.DeepEqual(in, want) {
		t.Errorf("decoded %+v, want %+v", in, want)
	}
}

func TestQueryValues(t *testing.T) {
	for _, c := range []struct {
		in   any
		want []string
	}{
		{nil, nil},
		{"a", []string{"a"}},
		{5.0, []string{"5"}},
		{true, []string{"true"}},
		{[]any{"a", []any{"b", 2.5}}, []string{"a", "b", "2.5"}},
		{map[string]any{"k": "v"}, []string{`{"k":"v"}`}},
	} {
		if got := queryValues(c.in); !reflect.DeepEqual(got, c.want) {
			t.Errorf("queryValues(%#v) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestAPIRequest(t *testing.T) {
	s := &Server{}
	call := &mcp.CallToolRequest{Extra: &mcp.RequestExtra{Header: http.Header{
		"X-Api-Key": {"sk_key"}, "X-Legal-Entity": {"le_1"}, "X-Sandbox-Mcp-Host": {"sandbox.test:8080"}, "Cookie": {"c=1"},
	}}}
	req, err := s.apiRequest(context.Background(), call, CallArgs{Method: " patch ", Path: "/card/card_1?b=2&a=1",
		Query: map[string]any{"z": []any{"1", "2"}, "a": "0"}, Body: map[string]any{"name": "N"}})
	if err != nil {
		t.Fatal(err)
	}
	if req.Method != http.MethodPatch || req.URL.Path != "/card/card_1" || req.URL.RawQuery != "a=1&a=0&b=2&z=1&z=2" ||
		req.Host != "sandbox.test:8080" {
		t.Errorf("request %s %s?%s host %s", req.Method, req.URL.Path, req.URL.RawQuery, req.Host)
	}
	if req.Header.Get("X-API-Key") != "sk_key" || req.Header.Get("x-legal-entity") != "le_1" ||
		req.Header.Get("Content-Type") != "application/json" {
		t.Errorf("headers %v", req.Header)
	}
	if req.Header.Get("Cookie") != "" {
		t.Errorf("a header the API does not need was passed on: %v", req.Header)
	}
	for _, c := range []struct{ method, path, want string }{
		{"TRACE", "/account", "use GET, POST, PUT, PATCH or DELETE"},
		{"GET", "account", "give a path of the API"},
		{"GET", "/_sandbox/keys", "not the control API"},
		{"POST", "/mcp", "nor the MCP server"},
		{"GET", "/account?%zz", "invalid URL escape"},
	} {
		if _, err := s.apiRequest(context.Background(), call, CallArgs{Method: c.method, Path: c.path}); err == nil ||
			!strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %s: error %v, want one saying %q", c.method, c.path, err, c.want)
		}
	}
}

// TestAPIPath is every way a path argument may try to name another host
// or a control route: each is refused, or cleaned to the path the API's
// router will match.
func TestAPIPath(t *testing.T) {
	for raw, want := range map[string]string{
		"/card/card_1":               "/card/card_1",
		"/card/card_1/":              "/card/card_1",
		"/card/./card_1":             "/card/card_1",
		"/card//card_1":              "/card/card_1",
		"/card/card%5F1":             "/card/card_1",
		"/v2/contact/le_c_1":         "/v2/contact/le_c_1",
		"/x/../card":                 "/card",
		"/../../card":                "/card",
		"/mcpx":                      "/mcpx",
		"/card/a%3Fb":                "/card/a?b",
		"/_sandboxish":               "error: not the control API",
		"//x/_sandbox/keys":          "error: not a URL or a host",
		"///_sandbox/keys":           "error: not a URL or a host",
		"//127.0.0.1:8080/_sandbox":  "error: not a URL or a host",
		"http://127.0.0.1/_sandbox":  "error: not a URL or a host",
		"HTTP://x/card":              "error: not a URL or a host",
		"mailto:x@y":                 "error: starts with /",
		"/%2F_sandbox/keys":          "error: not the control API",
		"/%2f%2fx/_sandbox/keys":     "/x/_sandbox/keys",
		"/a/..//_sandbox/keys":       "error: not the control API",
		"/a/%2e%2e/_sandbox/keys":    "error: not the control API",
		"/_sandbox/../_sandbox/keys": "error: not the control API",
		"/_SANDBOX/keys":             "error: not the control API",
		"/mcp":                       "error: nor the MCP server",
		"/mcp/../mcp/":               "error: nor the MCP server",
		`\\x\_sandbox\keys`:          "error: not a backslash",
		`/\x/_sandbox/keys`:          "error: not a backslash",
		"/%5C_sandbox/keys":          "error: not a backslash",
		"/card#x":                    "error: no fragment",
		"/card/%zz":                  "error: invalid URL escape",
	} {
		got, err := apiPath(raw)
		if err != nil {
			got = "error: " + err.Error()
		}
		refusal, isRefusal := strings.CutPrefix(want, "error: ")
		if got != want && !(isRefusal && strings.Contains(got, refusal)) {
			t.Errorf("apiPath(%q) = %q, want %q", raw, got, want)
		}
	}
}

func TestCatalog(t *testing.T) {
	doc := map[string]any{
		"paths": map[string]any{
			"/card": map[string]any{
				"get":  map[string]any{"summary": "List cards"},
				"post": map[string]any{"summary": "Create a card"},
			},
			"/card/{cardId}": map[string]any{
				"get": map[string]any{
					"summary":   "Get a card",
					"responses": map[string]any{"200": map[string]any{"$ref": "#/components/schemas/Card"}},
				},
			},
			"/_sandbox/health":      map[string]any{"get": map[string]any{"summary": "Health"}},
			"/mcp":                  map[string]any{"post": map[string]any{"summary": "MCP"}},
			"/card/{cardId}/limits": map[string]any{"get": map[string]any{"summary": "Limits", "x-sandbox-extension": true}},
		},
		"components": map[string]any{"schemas": map[string]any{
			"Card": map[string]any{
				"type": "object",
				"properties": map[string]any{
					"group": map[string]any{"$ref": "#/components/schemas/Group"},
					"money": map[string]any{"$ref": "#/components/schemas/Money"},
					"limit": map[string]any{"$ref": "#/components/schemas/Money"},
				},
			},
			"Group": map[string]any{
				"type": "object",
				"properties": map[string]any{
					"cards": map[string]any{"type": "array", "items": map[string]any{"$ref": "#/components/schemas/Card"}},
				},
			},
			"Money": map[string]any{"type": "integer"},
		}},
	}
	c := newCatalog(doc)
	want := []Endpoint{{"GET", "/card", "List cards", false}, {"POST", "/card", "Create a card", false},
		{"GET", "/card/{cardId}", "Get a card", false}, {"GET", "/card/{cardId}/limits", "Limits", true}}
	if !reflect.DeepEqual(c.endpoints, want) {
		t.Errorf("endpoints %+v, want %+v", c.endpoints, want)
	}
	for path, tpl := range map[string]string{"/card/{cardId}": "/card/{cardId}", "/card/card_9": "/card/{cardId}",
		"/card/card_9?x=1": "/card/{cardId}"} {
		got, _, err := c.operation("get", path)
		if err != nil || got != tpl {
			t.Errorf("operation GET %s = %q, %v; want %q", path, got, err, tpl)
		}
	}
	for _, path := range []string{"/card//limits", "/_sandbox/health", "/mcp", "/cards"} {
		if _, _, err := c.operation("GET", path); err == nil {
			t.Errorf("operation GET %s found", path)
		}
	}
	if _, _, err := c.operation("DELETE", "/card"); err == nil {
		t.Errorf("DELETE /card found")
	}
	_, op, _ := c.operation("GET", "/card/card_9")
	resolved := c.resolve(op, map[string]bool{})
	card := resolved.(map[string]any)["responses"].(map[string]any)["200"].(map[string]any)
	props := card["properties"].(map[string]any)
	if props["money"].(map[string]any)["type"] != "integer" || props["limit"].(map[string]any)["type"] != "integer" {
		t.Errorf("a component used twice is not resolved at each use: %v", props)
	}
	back :=
		props["group"].(map[string]any)["properties"].(map[string]any)["cards"].(map[string]any)["items"].(map[string]any)
	if back["x-recursive"] != "Card" || back["$ref"] != nil {
		t.Errorf("the cycle Card → Group → Card is not cut: %v", back)
	}
}

func TestCardDataEncryption(t *testing.T) {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	spki, _ := x509.MarshalPKIXPublicKey(&key.PublicKey)
	for name, raw := range map[string]string{
		"SubjectPublicKeyInfo": base64.StdEncoding.EncodeToString(spki),
		"wrapped lines":        wrap(base64.StdEncoding.EncodeToString(spki), 64),
		"unpadded":             base64.RawStdEncoding.EncodeToString(spki),
		"PKCS #1":              base64.StdEncoding.EncodeToString(x509.MarshalPKCS1PublicKey(&key.PublicKey)),
	} {
		got, err := parsePublicKey(raw)
		if err != nil || !got.Equal(&key.PublicKey) {
			t.Errorf("%s: %v", name, err)
		}
	}
	for raw, want := range map[string]string{
		"-----BEGIN PUBLIC KEY-----\n" + base64.StdEncoding.EncodeToString(spki) +
			"\n-----END PUBLIC KEY-----": "without the markers",
		"not base64!": "not base64",
		base64.StdEncoding.EncodeToString([]byte("some bytes")): "not an RSA public key",
	} {
		if _, err := parsePublicKey(raw); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%.30q: error %v, want one saying %q", raw, err, want)
		}
	}

	var body any
	json.Unmarshal(
		[]byte(`{"items":[{"id":"card_1","pan":"4242424242424242","cvv":"123","last4":"4242"}],"cvv":7}`),
		&body,
	)
	enc, err := encryptCardData(body, &key.PublicKey)
	if err != nil {
		t.Fatal(err)
	}
	item := enc.(map[string]any)["items"].([]any)[0].(map[string]any)
	for field, clear := range map[string]string{"pan": "4242424242424242", "cvv": "123"} {
		ct, err := base64.StdEncoding.DecodeString(item[field].(string))
		if err != nil {
			t.Fatalf("%s is not base64: %v", field, err)
		}
		pt, err := rsa.DecryptOAEP(sha1.New(), nil, key, ct, nil)
		if err != nil || string(pt) != clear {
			t.Errorf("%s decrypts to %q, %v; want %q", field, pt, err, clear)
		}
	}
	if item["last4"] != "4242" || item["id"] != "card_1" || enc.(map[string]any)["cvv"] != 7.0 {
		t.Errorf("values that are not card data changed: %v", enc)
	}
}

// TestToolArguments drives a tool through an SDK session: the schema a
// client sees is inferred from the argument type, and arguments are
// refused as tool errors that name the problem.
func TestToolArguments(t *testing.T) {
	server := mcp.NewServer(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	var got EndpointArgs
	addTool(
		server,
		&mcp.Tool{Name: "echo"},
		func(_ context.Context, _ *mcp.CallToolRequest, in EndpointArgs) *mcp.CallToolResult {
			got = in
			return jsonResult(in, false)
		},
	)
	serverSide, clientSide := mcp.NewInMemoryTransports()
	if _, err := server.Connect(context.Background(), serverSide, nil); err != nil {
		t.Fatal(err)
	}
	session, err := mcp.NewClient(&mcp.Implementation{Name: "client", Version: "1"}, nil).
		Connect(context.Background(), clientSide, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer session.Close()
	tools, err := session.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	schema, _ := json.Marshal(tools.Tools[0].InputSchema)
	var s struct {
		Required             []string
		Properties           map[string]struct{ Type, Description string }
		AdditionalProperties any
	}
	json.Unmarshal(schema, &s)
	if !reflect.DeepEqual(s.Required, []string{"method", "path"}) || s.Properties["method"].Type != "string" ||
		!strings.Contains(s.Properties["path"].Description, "list_endpoints") || s.AdditionalProperties != false {
		t.Errorf("input schema %s", schema)
	}
	call := func(args any) (string, bool) {
		res, err := session.CallTool(context.Background(), &mcp.CallToolParams{Name: "echo", Arguments: args})
		if err != nil {
			t.Fatal(err)
		}
		return res.Content[0].(*mcp.TextContent).Text, res.IsError
	}
	if text, isErr := call(map[string]any{"method": "GET", "path": "/card"}); isErr ||
		got != (EndpointArgs{Method: "GET", Path: "/card"}) ||
		!strings.Contains(text, `"path": "/card"`) {
		t.Errorf("a good call: %s (error %v), handler saw %+v", text, isErr, got)
	}
	for args, want := range map[string]string{
		`{"method":"GET"}`:                      `arguments: "path" is required`,
		`{"method":"GET","path":"/card","x":1}`: "arguments: /x is not a known property",
		`{"method":["GET"],"path":"/card"}`:     "arguments: /method must be string, not array",
	} {
		if text, isErr := call(json.RawMessage(args)); !isErr || text != want {
			t.Errorf("%s: %q (error %v), want %q", args, text, isErr, want)
		}
	}
}

func wrap(s string, n int) string {
	var b strings.Builder
	for len(s) > n {
		b.WriteString(s[:n] + "\n")
		s = s[n:]
	}
	return b.String() + s
}

// publicKey is the base64 SubjectPublicKeyInfo of an RSA public key with
// an odd modulus of the given size (all ones: the checks and the
// encryption need no real key) and exponent e.
func publicKey(t *testing.T, bits, e int) string {
	t.Helper()
	n := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(bits)), big.NewInt(1))
	der, err := x509.MarshalPKIXPublicKey(&rsa.PublicKey{N: n, E: e})
	if err != nil {
		t.Fatal(err)
	}
	return base64.StdEncoding.EncodeToString(der)
}

// TestPublicKeyLimits: a 2048- to 4096-bit key with a sane exponent is
// accepted and encrypts; a smaller or larger modulus, an even one, and an
// exponent of 1, even or past 2^31 are refused, each with what is
// accepted.
func TestPublicKeyLimits(t *testing.T) {
	for _, c := range []struct {
		bits, e int
		want    string
	}{
		{2048, 65537, ""},
		{3072, 65537, ""},
		{4096, 65537, ""},
		{2048, 3, ""},
		{4096, 1<<31 - 1, ""},
		{512, 65537, "modulus has 512 bits"},
		{1024, 65537, "modulus has 1024 bits"},
		{2047, 65537, "modulus has 2047 bits"},
		{4097, 65537, "modulus has 4097 bits"},
		{8192, 65537, "modulus has 8192 bits"},
		{1 << 20, 65537, "modulus has 1048576 bits"},
		{2048, 1, "public exponent is 1"},
		{2048, 65536, "public exponent is 65536"},
		{2048, 2, "public exponent is 2"},
		{2048, 1<<31 + 1, "public exponent is 2147483649"},
		{2048, 1<<62 + 1, "public exponent is 4611686018427387905"},
	} {
		key, err := parsePublicKey(publicKey(t, c.bits, c.e))
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%d bits, e=%d: %v", c.bits, c.e, err)
		case c.want == "":
			if _, err := encryptCardData(map[string]any{"pan": "4242424242424242"}, key); err != nil {
				t.Errorf("%d bits, e=%d: accepted, but encrypting: %v", c.bits, c.e, err)
			}
		case err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "2048 to 4096 bits"):
			t.Errorf("%d bits, e=%d: error %v, want one saying %q and what is accepted", c.bits, c.e, err, c.want)
		}
	}
	even := new(big.Int).Lsh(big.NewInt(1), 2047)
	der, _ := x509.MarshalPKIXPublicKey(&rsa.PublicKey{N: even, E: 65537})
	_, err := parsePublicKey(base64.StdEncoding.EncodeToString(der))
	if err == nil || !strings.Contains(err.Error(), "even") {
		t.Errorf("an even modulus: %v", err)
	}
}
