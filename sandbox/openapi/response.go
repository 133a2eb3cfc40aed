package openapi

import (
	"fmt"
	"mime"
	"net/http"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// Operation finds the operation of a document that serves method and a
// concrete path: the path template that matches with the fewest
// parameters ("/invoice/settings" before "/invoice/{invoiceId}").
func (v *Validator) Operation(method, path string) (template string, op map[string]any, ok bool) {
	paths, _ := v.doc["paths"].(map[string]any)
	var candidates []string
	for tpl, item := range paths {
		ops, _ := item.(map[string]any)
		if _, has := ops[strings.ToLower(method)]; has && v.templateMatch(tpl, path) {
			candidates = append(candidates, tpl)
		}
	}
	if len(candidates) == 0 {
		return "", nil, false
	}
	sort.Slice(candidates, func(i, j int) bool {
		ci, cj := strings.Count(candidates[i], "{"), strings.Count(candidates[j], "{")
		if ci != cj {
			return ci < cj
		}
		return candidates[i] < candidates[j]
	})
	tpl := candidates[0]
	op, _ = paths[tpl].(map[string]any)[strings.ToLower(method)].(map[string]any)
	return tpl, op, true
}

func (v *Validator) templateMatch(tpl, path string) bool {
	key := "tpl:" + tpl
	v.mu.Lock()
	re, ok := v.patterns[key]
	if !ok {
		parts := pathVar.Split(tpl, -1)
		for i := range parts {
			parts[i] = regexp.QuoteMeta(parts[i])
		}
		re = regexp.MustCompile("^" + strings.Join(parts, "[^/]+") + "$")
		v.patterns[key] = re
	}
	v.mu.Unlock()
	return re.MatchString(path)
}

// ResponseSchema finds the declared response of an operation for a status:
// the exact code, else its range ("2XX"), else default.
func ResponseSchema(op map[string]any, status int) (map[string]any, bool) {
	responses, _ := op["responses"].(map[string]any)
	code := strconv.Itoa(status)
	for _, k := range []string{code, code[:1] + "XX", "default"} {
		if r, ok := responses[k].(map[string]any); ok {
			return r, true
		}
	}
	return nil, false
}

// CheckResponse validates a response body against the operation that
// serves method and path. With strict, an operation or status the document
// does not declare, and a media type it does not list, are problems too;
// without, they are skipped (the upstream document declares few statuses).
func (v *Validator) CheckResponse(method, path string, status int, contentType string, body []byte, strict bool) []string {
	tpl, op, ok := v.Operation(method, path)
	if !ok {
		if strict {
			return []string{fmt.Sprintf("%s %s is not in the document", method, path)}
		}
		return nil
	}
	return v.CheckOperation(op, fmt.Sprintf("%s %s", method, tpl), status, contentType, body, strict)
}

// OperationByID finds an operation by its operationId.
func (v *Validator) OperationByID(id string) (map[string]any, bool) {
	paths, _ := v.doc["paths"].(map[string]any)
	for _, item := range paths {
		ops, _ := item.(map[string]any)
		for _, op := range ops {
			if m, ok := op.(map[string]any); ok && m["operationId"] == id {
				return m, true
			}
		}
	}
	return nil, false
}

// CheckOperation validates a response of one operation; where names it in
// the problems.
func (v *Validator) CheckOperation(op map[string]any, where string, status int, contentType string, body []byte, strict bool) []string {
	where = fmt.Sprintf("%s (%v) %d", where, op["operationId"], status)
	resp, ok := ResponseSchema(op, status)
	if !ok {
		if strict {
			return []string{where + ": status not declared"}
		}
		return nil
	}
	content, _ := resp["content"].(map[string]any)
	if len(content) == 0 {
		if strict && len(body) > 0 && status != http.StatusNoContent {
			return []string{where + ": a body is not declared"}
		}
		return nil
	}
	mt, _, _ := mime.ParseMediaType(contentType)
	media, ok := content[mt].(map[string]any)
	if !ok {
		if strict {
			return []string{fmt.Sprintf("%s: media type %q not declared", where, mt)}
		}
		return nil
	}
	if mt != "application/json" {
		return nil
	}
	value, err := Decode(body)
	if err != nil {
		return []string{fmt.Sprintf("%s: body is not JSON: %v", where, err)}
	}
	problems := v.Validate(media["schema"], value)
	for i := range problems {
		problems[i] = where + ": " + problems[i]
	}
	return problems
}
