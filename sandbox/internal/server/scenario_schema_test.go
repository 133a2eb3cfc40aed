package server_test

import (
	"bytes"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/scenario"
)

// The scenario schema is served to editors without the admin token, as
// docs/scenario.schema.json holds it.
func TestScenarioSchemaIsServed(t *testing.T) {
	e := newEnv(t, options{adminToken: "s3cret"})
	r := e.get("/_sandbox/scenario.schema.json", "", "").status(t, http.StatusOK)
	if got := r.Header.Get("Content-Type"); got != "application/schema+json" {
		t.Errorf("Content-Type = %q, want application/schema+json", got)
	}
	committed, err := os.ReadFile(filepath.Join("..", "..", "..", "docs", "scenario.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(r.body, scenario.JSONSchema()) || !bytes.Equal(r.body, committed) {
		t.Fatal("the served schema is not scenario.JSONSchema(), or docs/scenario.schema.json is stale")
	}
	if got := r.json(t)["$schema"]; got != "https://json-schema.org/draft/2020-12/schema" {
		t.Errorf("$schema = %v", got)
	}
	etag := r.Header.Get("Etag")
	again := e.do(req{path: "/_sandbox/scenario.schema.json", header: map[string]string{"If-None-Match": etag}}).
		status(t, http.StatusNotModified)
	if etag == "" || len(again.body) != 0 {
		t.Fatalf("a request holding Etag %q got %d bytes", etag, len(again.body))
	}
	e.do(req{method: http.MethodPost, path: "/_sandbox/scenario.schema.json"}).
		gen2(t, http.StatusMethodNotAllowed, "method_not_allowed")
	e.get("/_sandbox/keys", "", "").gen2(t, http.StatusUnauthorized, "unauthorized")
}

// An inline scenario's problems are all reported, each with its line and
// column.
func TestInlineScenarioProblems(t *testing.T) {
	e := newEnv(t, options{})
	body := `{"yaml":"legalEntities:\n  - {id: le_t, name: T}\naccounts:\n  - {legalEntityId: le_tt, name: A, typ:` +
		` debit}\n"}`
	d := e.do(req{method: http.MethodPost, path: "/_sandbox/worlds", body: body}).gen2(t, 400, "invalid_request")
	want := map[string]string{
		"problem1": `inline.yaml:4:21: accounts[0].legalEntityId: no legal entity "le_tt"; did you mean "le_t"?`,
		"problem2": `inline.yaml:4:37: accounts[0].typ: unknown key; did you mean "type"?`,
	}
	for k, v := range want {
		if d[k] != v {
			t.Errorf("%s = %q, want %q (details %v)", k, d[k], v, d)
		}
	}
}
