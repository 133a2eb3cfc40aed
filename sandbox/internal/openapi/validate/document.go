package validate

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/pb33f/libopenapi"
	"github.com/pb33f/libopenapi-validator/config"
	"github.com/pb33f/libopenapi-validator/paths"
	"github.com/pb33f/libopenapi-validator/radix"
	"github.com/pb33f/libopenapi-validator/responses"
	"github.com/pb33f/libopenapi-validator/schema_validation"
	v3 "github.com/pb33f/libopenapi/datamodel/high/v3"
)

// Document checks responses against one OpenAPI document. Load it once and
// share it: a schema is compiled the first time a response needs it, then
// kept.
type Document struct {
	model   *v3.Document
	options *config.ValidationOptions
	bodies  responses.ResponseBodyValidator
	schemas schema_validation.SchemaValidator
	version float32
	byID    map[string]operation
}

// operation is where an operationId lives.
type operation struct {
	path, method string
}

// Load reads an OpenAPI 3.0 or 3.1 document. A document whose schemas use
// the OpenAPI 3.0 keyword nullable (the real service's 3.1 document does)
// is read as OpenAPI 3.0, which is what its schemas are written in: the
// validator refuses nullable in 3.1 and turns it into a type list in 3.0.
func Load(raw []byte) (*Document, error) {
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		return nil, err
	}
	if usesNullable(doc) {
		doc["openapi"] = "3.0.3"
		spellRefs30(doc)
		var err error
		if raw, err = json.Marshal(doc); err != nil {
			return nil, err
		}
	}
	parsed, err := libopenapi.NewDocument(raw)
	if err != nil {
		return nil, err
	}
	built, err := parsed.BuildV3Model()
	if err != nil {
		return nil, err
	}
	return newDocument(&built.Model), nil
}

// LoadShapes reads a response-shapes file, {"operations": {"GET
// /path/{param}": schema}, "components": {"schemas": …}}, as an OpenAPI 3.0
// document (the shapes use nullable) in which each operation answers any 2XX
// status with that schema as JSON. An operation's id is the name of the
// component its schema refers to, if it does.
func LoadShapes(raw []byte) (*Document, error) {
	var shapes struct {
		Operations map[string]any `json:"operations"`
		Components map[string]any `json:"components"`
	}
	if err := json.Unmarshal(raw, &shapes); err != nil {
		return nil, err
	}
	if len(shapes.Operations) == 0 {
		return nil, fmt.Errorf("the response shapes declare no operations")
	}
	items := map[string]map[string]any{}
	for key, schema := range shapes.Operations {
		method, path, ok := strings.Cut(key, " ")
		if !ok {
			return nil, fmt.Errorf("response shape %q is not METHOD /path", key)
		}
		if items[path] == nil {
			items[path] = map[string]any{}
		}
		asMap, _ := schema.(map[string]any)
		ref, _ := asMap["$ref"].(string)
		items[path][strings.ToLower(method)] = map[string]any{
			"operationId": strings.TrimPrefix(ref, "#/components/schemas/"),
			"responses": map[string]any{"2XX": map[string]any{
				"description": "what the SDKs parse",
				"content":     map[string]any{"application/json": map[string]any{"schema": schema}},
			}},
		}
	}
	wrapped, err := json.Marshal(map[string]any{
		"openapi":    "3.0.3",
		"info":       map[string]any{"title": "response shapes", "version": "1"},
		"paths":      items,
		"components": shapes.Components,
	})
	if err != nil {
		return nil, err
	}
	return Load(wrapped)
}

func newDocument(model *v3.Document) *Document {
	opts := []config.Option{config.WithFormatAssertions()}
	d := &Document{
		model:   model,
		options: config.NewValidationOptions(append(opts, config.WithPathTree(radix.BuildPathTree(model)))...),
		bodies:  responses.NewResponseBodyValidator(model, opts...),
		schemas: schema_validation.NewSchemaValidator(opts...),
		version: 3.1,
		byID:    map[string]operation{},
	}
	if strings.HasPrefix(model.Version, "3.0") {
		d.version = 3.0
	}
	for pair := model.Paths.PathItems.First(); pair != nil; pair = pair.Next() {
		for op := pair.Value().GetOperations().First(); op != nil; op = op.Next() {
			if id := op.Value().OperationId; id != "" {
				d.byID[id] = operation{path: pair.Key(), method: strings.ToUpper(op.Key())}
			}
		}
	}
	return d
}

// Operation finds the path template of the operation that serves method
// and a concrete path; a literal segment wins over a parameter
// ("/invoice/settings" before "/invoice/{invoiceId}").
func (d *Document) Operation(method, path string) (template string, ok bool) {
	req, err := http.NewRequest(method, path, nil)
	if err != nil {
		return "", false
	}
	item, errs, tpl := paths.FindPath(req, d.model, d.options)
	if item == nil || len(errs) > 0 {
		return "", false
	}
	return tpl, true
}

// OperationByID finds the method and path template of an operationId.
func (d *Document) OperationByID(id string) (method, template string, ok bool) {
	op, ok := d.byID[id]
	return op.method, op.path, ok
}

// usesNullable reports whether a document's schemas use nullable.
func usesNullable(doc any) bool {
	switch x := doc.(type) {
	case map[string]any:
		if _, ok := x["nullable"]; ok {
			return true
		}
		for _, v := range x {
			if usesNullable(v) {
				return true
			}
		}
	case []any:
		for _, v := range x {
			if usesNullable(v) {
				return true
			}
		}
	}
	return false
}

// spellRefs30 rewrites, in place, every $ref of a document read as OpenAPI
// 3.0 the way 3.0 means it: the keys beside a $ref are ignored (and the
// validator cannot place such a schema), and a nullable $ref is spelled
// allOf of the $ref beside nullable.
func spellRefs30(doc any) {
	switch x := doc.(type) {
	case map[string]any:
		if ref, ok := x["$ref"].(string); ok {
			nullable := x["nullable"] == true
			clear(x)
			x["$ref"] = ref
			if nullable {
				delete(x, "$ref")
				x["allOf"] = []any{map[string]any{"$ref": ref}}
				x["nullable"] = true
			}
			return
		}
		for _, v := range x {
			spellRefs30(v)
		}
	case []any:
		for _, v := range x {
			spellRefs30(v)
		}
	}
}

// valueAt finds the JSON value at a path of property names and indexes.
func valueAt(body []byte, path []string) (any, bool) {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var cur any
	if dec.Decode(&cur) != nil {
		return nil, false
	}
	for _, seg := range path {
		switch x := cur.(type) {
		case map[string]any:
			v, ok := x[seg]
			if !ok {
				return nil, false
			}
			cur = v
		case []any:
			var i int
			if _, err := fmt.Sscan(seg, &i); err != nil || i < 0 || i >= len(x) {
				return nil, false
			}
			cur = x[i]
		default:
			return nil, false
		}
	}
	return cur, true
}
