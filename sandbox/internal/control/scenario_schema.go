package control

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"strings"
	"sync"

	"github.com/gorilla/mux"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/openapi"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/scenario"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/web"
)

// routesScenarioSchema serves the JSON Schema of scenario files on r,
// ahead of the admin token: editors fetch it without credentials, and it
// says nothing of any world.
func routesScenarioSchema(r *mux.Router, docs *openapi.Registry) {
	docs.Describe("sandbox.scenario_schema", openapi.Op{Summary: "The JSON Schema of scenario files",
		Description: "Draft 2020-12, for editors (yaml-language-server) to check and complete scenario YAML; needs no admin" +
			" token. The same document as docs/scenario.schema.json.",
		Security: openapi.Public, Extension: true,
		Content: openapi.Content{"application/schema+json": openapi.Schema{"type": "object"}},
		Extra:   map[int]any{http.StatusNotModified: openapi.Content{}}})
	web.Route(r, web.Gen2, http.MethodGet, scenario.SchemaID, "sandbox.scenario_schema", scenarioSchema)
}

// schemaFile is the schema and its validator, made once.
var schemaFile = sync.OnceValues(func() ([]byte, string) {
	body := scenario.JSONSchema()
	sum := sha256.Sum256(body)
	return body, `"` + hex.EncodeToString(sum[:8]) + `"`
})

func scenarioSchema(r *http.Request) (any, error) {
	body, etag := schemaFile()
	h := http.Header{"Etag": {etag}, "Cache-Control": {"no-cache"}, "X-Content-Type-Options": {"nosniff"}}
	if match := r.Header.Get("If-None-Match"); match != "" && strings.Contains(match, etag) {
		return &web.Response{Status: http.StatusNotModified, Header: h, Raw: []byte{}}, nil
	}
	return &web.Response{Status: http.StatusOK, Header: h, Raw: body, ContentType: "application/schema+json"}, nil
}
