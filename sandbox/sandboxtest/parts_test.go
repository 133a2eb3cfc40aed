package sandboxtest_test

import (
	"encoding/json"
	"io"
	"net/http"
	"os/exec"
	"strings"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/sandboxtest"
	"github.com/slash-sandbox/slash-sandbox/sandbox/sandboxtest/mcp"
	"github.com/slash-sandbox/slash-sandbox/sandbox/sandboxtest/sqlite"
)

// deps lists the packages a package imports, directly or not.
func deps(t *testing.T, pkg string) []string {
	t.Helper()
	out, err := exec.Command("go", "list", "-deps", pkg).Output()
	if err != nil {
		t.Fatalf("go list -deps %s: %v", pkg, err)
	}
	return strings.Fields(string(out))
}

// heavy are the import paths the helper keeps out of a test's build: the
// SQL engine and the MCP SDK.
func heavy(pkgs []string) []string {
	var found []string
	for _, p := range pkgs {
		if strings.HasPrefix(p, "modernc.org/sqlite") || strings.HasPrefix(p, "github.com/modelcontextprotocol/go-sdk") {
			found = append(found, p)
		}
	}
	return found
}

// TestTheHelperCompilesWithoutSQLiteOrTheMCPSDK: importing sandboxtest
// does not compile the SQL engine or the MCP SDK; the packages that add
// them do.
func TestTheHelperCompilesWithoutSQLiteOrTheMCPSDK(t *testing.T) {
	const module = "github.com/slash-sandbox/slash-sandbox/sandbox/"
	if found := heavy(deps(t, module+"sandboxtest")); len(found) > 0 {
		t.Errorf("sandboxtest imports %s", strings.Join(found, ", "))
	}
	for _, part := range []struct{ pkg, want string }{{"sandboxtest/sqlite", "modernc.org/sqlite"},
		{"sandboxtest/mcp", "github.com/modelcontextprotocol/go-sdk/mcp"}} {
		found := heavy(deps(t, module+part.pkg))
		if !strings.Contains(strings.Join(found, " "), part.want) {
			t.Errorf("sandbox/%s does not import %s: %v", part.pkg, part.want, found)
		}
	}
}

// post sends a JSON body and returns the status and the decoded answer.
func post(t *testing.T, url, key, body string, headers ...string) (int, map[string]any) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-API-Key", key)
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	var out map[string]any
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatalf("POST %s: %d %q is not a JSON object", url, res.StatusCode, raw)
	}
	return res.StatusCode, out
}

const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18",` +
	`"capabilities":{},"clientInfo":{"name":"sandboxtest","version":"1"}}}`

// TestWithoutTheHeavyPartsTheirRoutesSayWhatToAdd: by default SHOW TABLES
// answers and a SELECT, like /mcp, answers 501 naming the package that
// adds the part.
func TestWithoutTheHeavyPartsTheirRoutesSayWhatToAdd(t *testing.T) {
	sb := sandboxtest.Start(t, sandboxtest.Options{})
	key := sb.Key("sk_sandbox_acme")
	status, tables := post(t, sb.URL+"/analytics", key, `{"query":"SHOW TABLES"}`)
	if rows, _ := tables["rows"].([]any); status != http.StatusOK || len(rows) == 0 {
		t.Fatalf("SHOW TABLES = %d %v", status, tables)
	}
	status, body := post(t, sb.URL+"/analytics", key, `{"query":"SELECT 1"}`)
	if msg, _ := body["message"].(string); status != http.StatusNotImplemented ||
		!strings.Contains(msg, "github.com/slash-sandbox/slash-sandbox/sandbox/sandboxtest/sqlite") {
		t.Fatalf("SELECT without the engine = %d %v", status, body)
	}
	status, body = post(t, sb.URL+"/mcp", key, initialize, "Accept", "application/json, text/event-stream")
	if msg, _ := body["message"].(string); status != http.StatusNotImplemented ||
		!strings.Contains(msg, "github.com/slash-sandbox/slash-sandbox/sandbox/sandboxtest/mcp") {
		t.Fatalf("/mcp without the server = %d %v", status, body)
	}
}

// TestTheHeavyPartsServeWhenGiven: with sqlite.Engine a SELECT runs
// over the world's rows; with mcp.Server /mcp speaks the protocol.
func TestTheHeavyPartsServeWhenGiven(t *testing.T) {
	sb := sandboxtest.Start(t, sandboxtest.Options{Analytics: sqlite.Engine, MCP: mcp.Server})
	key := sb.Key("sk_sandbox_acme")
	_, tables := post(t, sb.URL+"/analytics", key, `{"query":"SHOW TABLES"}`)
	counts := map[string]float64{}
	for _, row := range tables["rows"].([]any) {
		r := row.(map[string]any)
		counts[r["name"].(string)] = r["rows"].(float64)
	}
	status, body := post(t, sb.URL+"/analytics", key, `{"query":"SELECT count(*) AS n FROM transactions"}`)
	rows, _ := body["rows"].([]any)
	if status != http.StatusOK || len(rows) != 1 || rows[0].(map[string]any)["n"] != counts["transactions"] ||
		counts["transactions"] == 0 {
		t.Fatalf("SELECT count(*) = %d %v; SHOW TABLES counted %v", status, body, counts)
	}
	status, body = post(t, sb.URL+"/mcp", key, initialize, "Accept", "application/json, text/event-stream")
	result, _ := body["result"].(map[string]any)
	info, _ := result["serverInfo"].(map[string]any)
	if status != http.StatusOK || info["name"] != "slash-sandbox" {
		t.Fatalf("initialize = %d %v", status, body)
	}
}

// TestTheDocumentSaysWhatIsNotServed: the OpenAPI document of a sandbox
// without the two parts lists the 501 answers its routes give.
func TestTheDocumentSaysWhatIsNotServed(t *testing.T) {
	sb := sandboxtest.Start(t, sandboxtest.Options{Scenario: "empty"})
	res, err := http.Get(sb.URL + "/openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var doc struct {
		Paths map[string]map[string]struct {
			Responses map[string]any `json:"responses"`
		} `json:"paths"`
	}
	if err := json.NewDecoder(res.Body).Decode(&doc); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"/analytics", "/mcp"} {
		if _, ok := doc.Paths[path]["post"].Responses["501"]; !ok {
			t.Errorf("POST %s lists no 501: %v", path, doc.Paths[path]["post"].Responses)
		}
	}
}
