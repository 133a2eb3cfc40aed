package cli

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// TestTheBinaryServesSQLAndMCP: the program always has the two parts an
// in-process sandbox adds on request, the SQL engine of POST /analytics
// and the MCP server.
func TestTheBinaryServesSQLAndMCP(t *testing.T) {
	s := startProgram(t, map[string]string{"SANDBOX_ADDR": "127.0.0.1:0"})
	defer s.stop(t)
	base := "http://" + s.addr
	send := func(path, body string) (int, map[string]any) {
		req, _ := http.NewRequest(http.MethodPost, base+path, strings.NewReader(body))
		req.Header.Set("X-API-Key", "sk_sandbox_acme")
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var m map[string]any
		if err := json.NewDecoder(res.Body).Decode(&m); err != nil {
			t.Fatalf("POST %s: %d, %v", path, res.StatusCode, err)
		}
		return res.StatusCode, m
	}
	status, body := send("/analytics", `{"query":"SELECT count(*) AS n, min(id) LIKE 'txn_%' AS named FROM transactions"}`)
	rows, _ := body["rows"].([]any)
	if status != http.StatusOK || len(rows) != 1 || rows[0].(map[string]any)["named"] != float64(1) ||
		rows[0].(map[string]any)["n"].(float64) < 1 {
		t.Fatalf("SELECT = %d %v", status, body)
	}
	status, body = send("/mcp", `{"jsonrpc":"2.0","id":7,"method":"initialize","params":{"protocolVersion":"2025-06-18",`+
		`"capabilities":{},"clientInfo":{"name":"cmd-test","version":"1"}}}`)
	result, _ := body["result"].(map[string]any)
	if info, _ := result["serverInfo"].(map[string]any); status != http.StatusOK || body["id"] != float64(7) ||
		info["name"] != "slash-sandbox" {
		t.Fatalf("initialize = %d %v", status, body)
	}
}
