package api

import (
	"net/http"
	"sync"

	"github.com/gorilla/mux"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/ledger"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/openapi"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/parties"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/web"
)

// routesOpenAPI serves the sandbox's own OpenAPI document, built from the
// router and docs the first time it is asked for (every route is
// registered and described by then).
func (a *API) routesOpenAPI(r *mux.Router, docs *openapi.Registry) {
	var once sync.Once
	var doc []byte
	web.Route(r, web.Gen1, http.MethodGet, "/openapi.json", "openapi.document", func(*http.Request) (any, error) {
		once.Do(func() {
			doc, _ = web.Encode(openapi.Build(r, docs, openapi.Info{Title: "slash-sandbox", Version: a.Version}))
		})
		return &web.Response{Status: http.StatusOK, Raw: doc, ContentType: "application/json"}, nil
	})
	docs.Describe("openapi.document", openapi.Op{Summary: "This OpenAPI document", Security: openapi.Public,
		Extension: true, Response: openapi.Schema{"type": "object", "required": []string{"openapi", "paths"}}})
}

// cursorParam is the list cursor query parameter.
var cursorParam = openapi.Param{Name: "cursor", Description: "metadata.nextCursor of the previous page, unchanged."}

// legalEntityFilter is filter:legalEntityId.
var legalEntityFilter = openapi.Param{Name: "filter:legalEntityId",
	Description: "The legal entity to act for; it must be the one the request acts on. With a bearer token reaching" +
		" several legal entities, this (or x-legal-entity) is required."}

// listOf is the list envelope schema of items described by v.
func listOf(v any) openapi.Schema {
	return openapi.Schema{"type": "object", "additionalProperties": false, "required": []string{"items", "metadata"},
		"properties": openapi.Schema{"items": openapi.Schema{"type": "array", "items": openapi.Schema{"$go": v}},
			"metadata": openapi.Ref("PaginationResponse")}}
}

// Schema builders for the request bodies handlers decode by hand.
var (
	stringType  = openapi.Schema{"type": "string"}
	integerType = openapi.Schema{"type": "integer"}
	booleanType = openapi.Schema{"type": "boolean"}
	dateTime    = openapi.Schema{"type": "string", "format": "date-time"}
	binaryFile  = openapi.Schema{"type": "string", "format": "binary"}
)

// object is a closed object schema: props, of which required must be given.
func object(props openapi.Schema, required ...string) openapi.Schema {
	s := openapi.Schema{"type": "object", "properties": props, "additionalProperties": false}
	if len(required) > 0 {
		s["required"] = required
	}
	return s
}

// oneOfStrings is a string that is one of values.
func oneOfStrings(values ...string) openapi.Schema {
	enum := make([]any, len(values))
	for i, v := range values {
		enum[i] = v
	}
	return openapi.Schema{"type": "string", "enum": enum}
}

// arrayOf is an array of v (a Schema or a Go value to reflect).
func arrayOf(v any) openapi.Schema {
	if s, ok := v.(openapi.Schema); ok {
		return openapi.Schema{"type": "array", "items": s}
	}
	return openapi.Schema{"type": "array", "items": openapi.Schema{"$go": v}}
}

// described is s with a description.
func described(s openapi.Schema, text string) openapi.Schema {
	out := openapi.Schema{"description": text}
	for k, v := range s {
		out[k] = v
	}
	return out
}

// upload is a multipart/form-data body whose part named file is read;
// other parts are ignored.
var upload = openapi.Schema{"type": "object", "required": []string{"file"},
	"properties": openapi.Schema{"file": described(binaryFile, "The file.")}}

// multipartBody is the media type of uploads.
const multipartBody = "multipart/form-data"

// describeShared adds the components that the schemas of many resources
// name to docs.
func describeShared(docs *openapi.Registry) {
	docs.Component("Error", web.Gen1Error{})
	docs.Component("ErrorV2", web.Gen2Error{})
	docs.Component("PaginationResponse", metadata{})
	docs.Component("Money", money{})
	docs.Component("DeferredAction", deferredAction{})
	docs.Component("Address", parties.Address{})
}

// success is the {success: true} acknowledgement.
type success struct {
	Success bool `json:"success"`
}

func transactionQuery() []openapi.Param {
	millis := "Unix epoch milliseconds, inclusive."
	return []openapi.Param{cursorParam, legalEntityFilter,
		{Name: "accountId", Description: "Deprecated: use filter:accountId."},
		{Name: "filter:accountId"}, {Name: "filter:virtualAccountId"}, {Name: "filter:cardId"}, {Name: "filter:cardGroupId"},
		{Name: "filter:providerAuthorizationId"},
		{Name: "filter:from_date", Description: millis}, {Name: "filter:to_date", Description: millis},
		{Name: "filter:from_authorized_at", Description: millis}, {Name: "filter:to_authorized_at", Description: millis},
		{Name: "filter:status", Schema: openapi.Schema{"type": "string", "enum": []string{"pending", "posted", "failed"}}},
		{Name: "filter:detailed_status", Schema: openapi.Schema{"type": "string", "enum": ledger.DetailedStatuses}},
		{Name: "filter:category", Schema: openapi.Schema{"type": "string", "enum": ledger.Categories}},
	}
}
