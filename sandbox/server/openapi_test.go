package server_test

import (
	"testing"
)

func TestOpenAPIDocument(t *testing.T) {
	e := newEnv(t, options{})
	doc := e.get("/openapi.json", "", "").status(t, 200).json(t)
	if got := doc["openapi"]; got != "3.1.0" {
		t.Fatalf("openapi = %v", got)
	}
	paths := doc["paths"].(map[string]any)
	for _, p := range []string{"/account", "/transaction/{transactionId}", "/_sandbox/health", "/v2/contacts", "/openapi.json"} {
		if paths[p] == nil {
			t.Errorf("path %s missing", p)
		}
	}
}
