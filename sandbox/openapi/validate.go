package openapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"
)

// Validator checks JSON values against the schemas of one OpenAPI
// document. It understands what the sandbox's and upstream's documents use:
// type (a name or a list), nullable (the OpenAPI 3.0 keyword, also beside
// $ref), enum, const, properties, required, additionalProperties, items,
// prefixItems-free arrays, oneOf, anyOf, allOf, not, $ref to
// #/components/..., minimum, maximum, minLength, maxLength, pattern,
// minItems, maxItems, and the formats date-time, date and email (loosely).
// Annotations and x- keys are ignored.
type Validator struct {
	doc      map[string]any
	mu       sync.Mutex
	patterns map[string]*regexp.Regexp
}

// NewValidator returns a validator over a decoded document.
func NewValidator(doc map[string]any) *Validator {
	return &Validator{doc: doc, patterns: map[string]*regexp.Regexp{}}
}

// Decode parses JSON keeping numbers exact, as the validator expects.
func Decode(raw []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, fmt.Errorf("unexpected data after the JSON value")
	}
	return v, nil
}

// Validate returns every problem of value against schema, each prefixed
// with its JSON pointer. value must come from Decode.
func (v *Validator) Validate(schema any, value any) []string {
	var problems []string
	v.check(schema, value, "", &problems, 0)
	sort.Strings(problems)
	return problems
}

func (v *Validator) check(schema any, value any, at string, out *[]string, depth int) {
	s, ok := schema.(map[string]any)
	if !ok || depth > 64 {
		return // true, {} or a schema too deep to matter
	}
	if value == nil && s["nullable"] == true {
		return
	}
	if ref, ok := s["$ref"].(string); ok {
		target, err := v.resolve(ref)
		if err != nil {
			*out = append(*out, at+": "+err.Error())
			return
		}
		v.check(target, value, at, out, depth+1)
	}
	if !v.checkType(s, value, at, out) {
		return
	}
	v.checkEnum(s, value, at, out)
	v.checkCombinators(s, value, at, out, depth)
	switch x := value.(type) {
	case map[string]any:
		v.checkObject(s, x, at, out, depth)
	case []any:
		v.checkArray(s, x, at, out, depth)
	case string:
		v.checkString(s, x, at, out)
	case json.Number:
		v.checkNumber(s, x, at, out)
	}
}

func (v *Validator) resolve(ref string) (any, error) {
	if !strings.HasPrefix(ref, "#/") {
		return nil, fmt.Errorf("unsupported $ref %q", ref)
	}
	var cur any = v.doc
	for _, part := range strings.Split(ref[2:], "/") {
		part = strings.ReplaceAll(strings.ReplaceAll(part, "~1", "/"), "~0", "~")
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("$ref %q does not resolve", ref)
		}
		if cur, ok = m[part]; !ok {
			return nil, fmt.Errorf("$ref %q does not resolve", ref)
		}
	}
	return cur, nil
}

// typeName is a JSON value's type in JSON Schema's words.
func typeName(value any) string {
	switch x := value.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	case json.Number:
		if isInteger(x) {
			return "integer"
		}
		return "number"
	case float64:
		if x == math.Trunc(x) {
			return "integer"
		}
		return "number"
	}
	return fmt.Sprintf("%T", value)
}

func isInteger(n json.Number) bool {
	if _, err := n.Int64(); err == nil {
		return true
	}
	f, err := n.Float64()
	return err == nil && f == math.Trunc(f) && !strings.ContainsAny(string(n), ".")
}

func (v *Validator) checkType(s map[string]any, value any, at string, out *[]string) bool {
	var allowed []string
	switch t := s["type"].(type) {
	case string:
		allowed = []string{t}
	case []any:
		for _, x := range t {
			if name, ok := x.(string); ok {
				allowed = append(allowed, name)
			}
		}
	default:
		return true
	}
	got := typeName(value)
	for _, a := range allowed {
		if a == got || (a == "number" && got == "integer") {
			return true
		}
	}
	*out = append(*out, fmt.Sprintf("%s: is %s, want %s", pointer(at), got, strings.Join(allowed, " or ")))
	return false
}

func (v *Validator) checkEnum(s map[string]any, value any, at string, out *[]string) {
	if c, ok := s["const"]; ok && !equal(c, value) {
		*out = append(*out, fmt.Sprintf("%s: is %s, want %s", pointer(at), show(value), show(c)))
	}
	enum, ok := s["enum"].([]any)
	if !ok {
		return
	}
	for _, e := range enum {
		if equal(e, value) {
			return
		}
	}
	*out = append(*out, fmt.Sprintf("%s: %s is not one of %s", pointer(at), show(value), show(enum)))
}

func (v *Validator) checkCombinators(s map[string]any, value any, at string, out *[]string, depth int) {
	if all, ok := s["allOf"].([]any); ok {
		for _, sub := range all {
			v.check(sub, value, at, out, depth+1)
		}
	}
	if any_, ok := s["anyOf"].([]any); ok && v.matching(any_, value, depth) == 0 {
		*out = append(*out, fmt.Sprintf("%s: matches none of anyOf (%s)", pointer(at), v.firstProblems(any_, value, depth)))
	}
	if one, ok := s["oneOf"].([]any); ok {
		switch n := v.matching(one, value, depth); {
		case n == 0:
			*out = append(*out, fmt.Sprintf("%s: matches none of oneOf (%s)", pointer(at), v.firstProblems(one, value, depth)))
		case n > 1:
			*out = append(*out, fmt.Sprintf("%s: matches %d of oneOf, want exactly 1", pointer(at), n))
		}
	}
	if not, ok := s["not"]; ok {
		var p []string
		v.check(not, value, at, &p, depth+1)
		if len(p) == 0 {
			*out = append(*out, pointer(at)+": matches the schema under not")
		}
	}
}

func (v *Validator) matching(schemas []any, value any, depth int) int {
	n := 0
	for _, sub := range schemas {
		var p []string
		v.check(sub, value, "", &p, depth+1)
		if len(p) == 0 {
			n++
		}
	}
	return n
}

func (v *Validator) firstProblems(schemas []any, value any, depth int) string {
	var parts []string
	for i, sub := range schemas {
		var p []string
		v.check(sub, value, "", &p, depth+1)
		if len(p) > 0 {
			parts = append(parts, fmt.Sprintf("#%d %s", i, p[0]))
		}
	}
	return strings.Join(parts, "; ")
}

func (v *Validator) checkObject(s map[string]any, obj map[string]any, at string, out *[]string, depth int) {
	props, _ := s["properties"].(map[string]any)
	if req, ok := s["required"].([]any); ok {
		for _, r := range req {
			name, _ := r.(string)
			if _, present := obj[name]; !present {
				*out = append(*out, fmt.Sprintf("%s: lacks required property %q", pointer(at), name))
			}
		}
	}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		child := at + "/" + strings.ReplaceAll(strings.ReplaceAll(k, "~", "~0"), "/", "~1")
		if sub, ok := props[k]; ok {
			v.check(sub, obj[k], child, out, depth+1)
			continue
		}
		switch ap := s["additionalProperties"].(type) {
		case bool:
			if !ap {
				*out = append(*out, fmt.Sprintf("%s: property %q is not allowed", pointer(at), k))
			}
		case map[string]any:
			v.check(ap, obj[k], child, out, depth+1)
		}
	}
}

func (v *Validator) checkArray(s map[string]any, arr []any, at string, out *[]string, depth int) {
	if n, ok := number(s["minItems"]); ok && float64(len(arr)) < n {
		*out = append(*out, fmt.Sprintf("%s: has %d items, want at least %v", pointer(at), len(arr), n))
	}
	if n, ok := number(s["maxItems"]); ok && float64(len(arr)) > n {
		*out = append(*out, fmt.Sprintf("%s: has %d items, want at most %v", pointer(at), len(arr), n))
	}
	if items, ok := s["items"]; ok {
		for i, x := range arr {
			v.check(items, x, fmt.Sprintf("%s/%d", at, i), out, depth+1)
		}
	}
}

func (v *Validator) checkString(s map[string]any, str string, at string, out *[]string) {
	n := float64(len([]rune(str)))
	if min, ok := number(s["minLength"]); ok && n < min {
		*out = append(*out, fmt.Sprintf("%s: is shorter than %v", pointer(at), min))
	}
	if max, ok := number(s["maxLength"]); ok && n > max {
		*out = append(*out, fmt.Sprintf("%s: is longer than %v", pointer(at), max))
	}
	if p, ok := s["pattern"].(string); ok {
		if re := v.pattern(p); re != nil && !re.MatchString(str) {
			*out = append(*out, fmt.Sprintf("%s: %q does not match %s", pointer(at), str, p))
		}
	}
	if f, ok := s["format"].(string); ok && !formatOK(f, str) {
		*out = append(*out, fmt.Sprintf("%s: %q is not a %s", pointer(at), str, f))
	}
}

func (v *Validator) pattern(p string) *regexp.Regexp {
	v.mu.Lock()
	defer v.mu.Unlock()
	re, ok := v.patterns[p]
	if !ok {
		re, _ = regexp.Compile(p)
		v.patterns[p] = re
	}
	return re
}

// formatOK checks the formats the documents use, loosely: any RFC 3339
// instant, a YYYY-MM-DD day, something@something.
func formatOK(format, s string) bool {
	switch format {
	case "date-time":
		_, err := time.Parse(time.RFC3339Nano, s)
		return err == nil
	case "date":
		_, err := time.Parse("2006-01-02", s)
		return err == nil
	case "email":
		at := strings.Index(s, "@")
		return at > 0 && at < len(s)-1
	}
	return true
}

func (v *Validator) checkNumber(s map[string]any, n json.Number, at string, out *[]string) {
	f, err := n.Float64()
	if err != nil {
		return
	}
	if min, ok := number(s["minimum"]); ok && f < min {
		*out = append(*out, fmt.Sprintf("%s: %v is below the minimum %v", pointer(at), n, min))
	}
	if max, ok := number(s["maximum"]); ok && f > max {
		*out = append(*out, fmt.Sprintf("%s: %v is above the maximum %v", pointer(at), n, max))
	}
}

func number(x any) (float64, bool) {
	switch n := x.(type) {
	case float64:
		return n, true
	case json.Number:
		f, err := n.Float64()
		return f, err == nil
	case int:
		return float64(n), true
	}
	return 0, false
}

// equal compares two JSON values, numbers by value.
func equal(a, b any) bool {
	if fa, ok := number(a); ok {
		fb, ok := number(b)
		return ok && fa == fb
	}
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return bytes.Equal(ja, jb)
}

func show(x any) string {
	raw, _ := json.Marshal(x)
	if len(raw) > 120 {
		return string(raw[:120]) + "…"
	}
	return string(raw)
}

func pointer(at string) string {
	if at == "" {
		return "/"
	}
	return at
}
