package drift

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
)

// operation is a GET operation of the contract.
type operation struct {
	id, template string
	// params are the path parameters, in order.
	params []string
	// required are the query parameters the operation requires.
	required []string
	// filters are the filter:… query parameters with a closed set of values.
	filters []string
	// bearer: the operation takes an OAuth access token only, never a key.
	bearer    bool
	responses map[string]any
}

// contract is what production's answers are held to: the sandbox's GET
// operations that the real service has, and the schemas they name.
type contract struct {
	ops []operation
	checker
}

var pathParam = regexp.MustCompile(`\{([^}]+)\}`)

// parseContract reads an OpenAPI document (the sandbox's own) into the GET
// operations that are not sandbox extensions, fewest path parameters first:
// the lists whose ids the others need come before them.
func parseContract(raw []byte) (*contract, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var doc map[string]any
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("the OpenAPI document: %w", err)
	}
	paths := asSchema(doc["paths"])
	if len(paths) == 0 {
		return nil, fmt.Errorf("the OpenAPI document has no paths")
	}
	c := &contract{checker: checker{schemas: asSchema(asSchema(doc["components"])["schemas"])}}
	for tpl, item := range paths {
		get := asSchema(asSchema(item)["get"])
		if get == nil || get["x-sandbox-extension"] == true {
			continue
		}
		op := operation{id: fmt.Sprint(get["operationId"]), template: tpl, responses: asSchema(get["responses"])}
		for _, m := range pathParam.FindAllStringSubmatch(tpl, -1) {
			op.params = append(op.params, m[1])
		}
		for _, p := range list(get["parameters"]) {
			p := asSchema(p)
			name, _ := p["name"].(string)
			switch {
			case p["in"] != "query":
			case p["required"] == true:
				op.required = append(op.required, name)
			case strings.HasPrefix(name, "filter:") && asSchema(p["schema"])["enum"] != nil:
				op.filters = append(op.filters, name)
			}
		}
		op.bearer = bearerOnly(list(get["security"]))
		c.ops = append(c.ops, op)
	}
	sort.Slice(c.ops, func(i, j int) bool {
		a, b := c.ops[i], c.ops[j]
		if len(a.params) != len(b.params) {
			return len(a.params) < len(b.params)
		}
		return a.template < b.template
	})
	return c, nil
}

// bearerOnly reports security requirements that no API key meets.
func bearerOnly(security []any) bool {
	if len(security) == 0 {
		return false
	}
	for _, req := range security {
		r := asSchema(req)
		if len(r) == 0 || r["api_key"] != nil {
			return false
		}
	}
	return true
}

// response is the schema of the answer an operation declares for a status
// (the exact code, its range, else default) and whether one is declared.
func (op operation) response(status int) (schema map[string]any, declared bool) {
	code := fmt.Sprint(status)
	for _, key := range []string{code, code[:1] + "XX", "default"} {
		r := asSchema(op.responses[key])
		if r == nil {
			continue
		}
		if key == "default" && status < 300 {
			return nil, false
		}
		return asSchema(asSchema(asSchema(r["content"])["application/json"])["schema"]), true
	}
	return nil, false
}

// successStatus is the 2XX status an operation declares.
func (op operation) successStatus() string {
	var codes []string
	for code := range op.responses {
		if strings.HasPrefix(code, "2") {
			codes = append(codes, code)
		}
	}
	slices.Sort(codes)
	if len(codes) == 0 {
		return "200"
	}
	return codes[0]
}
