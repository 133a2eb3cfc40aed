package control_test

import (
	"bytes"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/apitest"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/scenario"
)

// The scenario schema is served to editors without the admin token, as
// docs/scenario.schema.json holds it.
func TestScenarioSchemaIsServed(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{AdminToken: "s3cret"})
	r := e.Get("/_sandbox/scenario.schema.json", "", "").Status(t, http.StatusOK)
	if got := r.Header.Get("Content-Type"); got != "application/schema+json" {
		t.Errorf("Content-Type = %q, want application/schema+json", got)
	}
	committed, err := os.ReadFile(filepath.Join("..", "..", "..", "docs", "scenario.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(r.Raw, scenario.JSONSchema()) || !bytes.Equal(r.Raw, committed) {
		t.Fatal("the served schema is not scenario.JSONSchema(), or docs/scenario.schema.json is stale")
	}
	if got := r.JSON(t)["$schema"]; got != "https://json-schema.org/draft/2020-12/schema" {
		t.Errorf("$schema = %v", got)
	}
	etag := r.Header.Get("Etag")
	again := e.Do(apitest.Req{Path: "/_sandbox/scenario.schema.json", Header: map[string]string{"If-None-Match": etag}}).
		Status(t, http.StatusNotModified)
	if etag == "" || len(again.Raw) != 0 {
		t.Fatalf("a request holding Etag %q got %d bytes", etag, len(again.Raw))
	}
	e.Do(apitest.Req{Method: http.MethodPost, Path: "/_sandbox/scenario.schema.json"}).
		Gen2(t, http.StatusMethodNotAllowed, "method_not_allowed")
	e.Get("/_sandbox/keys", "", "").Gen2(t, http.StatusUnauthorized, "unauthorized")
}

// An inline scenario's problems are all reported, each with its line and
// column.
func TestInlineScenarioProblems(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	body := `{"yaml":"legalEntities:\n  - {id: le_t, name: T}\naccounts:\n  - {legalEntityId: le_tt, name: A, typ:` +
		` debit}\n"}`
	d := e.Do(apitest.Req{Method: http.MethodPost, Path: "/_sandbox/worlds", Body: body}).Gen2(t, 400, "invalid_request")
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
