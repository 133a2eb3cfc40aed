package scenario

import (
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"
)

const (
	referenceFile  = "../../../docs/scenarios.md"
	referenceStart = "<!-- reference: generated from sandbox/internal/scenario's types by " +
		"`go test ./sandbox/internal/scenario -update`;" +
		" do not edit. -->\n"
	referenceEnd = "<!-- end of reference -->\n"
)

// reference is the key reference of docs/scenarios.md: a table per
// scenario type, in the order the file meets them, then the event kinds.
func reference() string {
	var b strings.Builder
	seen := map[reflect.Type]bool{}
	queue := []reflect.Type{reflect.TypeFor[Scenario]()}
	for len(queue) > 0 {
		t := queue[0]
		queue = queue[1:]
		if seen[t] {
			continue
		}
		seen[t] = true
		title := t.Name()
		if t == reflect.TypeFor[Scenario]() {
			title = "The top level"
		}
		fmt.Fprintf(&b, "### %s\n\n| key | type | default | meaning |\n|---|---|---|---|\n", title)
		for _, f := range shapeOf(t).fields {
			def := f.unset
			if f.def != "" {
				def = "`" + f.def + "`"
			}
			if f.required {
				def = "required"
			}
			fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", f.key, typeText(f), def, f.doc)
			inner := deref(f.typ)
			if inner.Kind() == reflect.Slice {
				inner = deref(inner.Elem())
			}
			if inner.Kind() == reflect.Struct {
				queue = append(queue, inner)
			}
		}
		b.WriteString("\n")
	}
	b.WriteString(
		"### Event kinds\n\nWhat `events[].kind` may be, and the keys of its `with`.\n\n| kind | with | what happens |" +
			"\n|---|---|---|\n",
	)
	for _, k := range eventKinds {
		var keys []string
		for _, key := range k.with {
			s := "`" + key.key + "`"
			if key.required {
				s += " (required)"
			}
			keys = append(keys, s+": "+key.doc)
		}
		if len(keys) == 0 {
			keys = []string{"nothing"}
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s |\n", k.kind, strings.Join(keys, "<br>"), k.doc)
	}
	return b.String()
}

// typeText says what a key holds, for the reference.
func typeText(f field) string {
	t := deref(f.typ)
	var s string
	switch {
	case f.ref != "" && t.Kind() == reflect.Slice:
		s = "list of " + refKinds[f.ref] + " ids"
	case f.ref == "key":
		s = "a declared API key"
	case f.ref != "":
		s = refKinds[f.ref] + " id"
	case len(f.enum) > 0 && t.Kind() == reflect.Slice:
		s = "list, each one of `" + strings.Join(f.enum, "`, `") + "`"
	case len(f.enum) > 0:
		s = "one of `" + strings.Join(f.enum, "`, `") + "`"
	case len(f.types) > 0:
		s = strings.Join(f.types, " or ")
	case t.Kind() == reflect.Slice && deref(t.Elem()).Kind() == reflect.Struct:
		s = "list of [" + deref(t.Elem()).Name() + "](#" + strings.ToLower(deref(t.Elem()).Name()) + ")"
	case t.Kind() == reflect.Struct:
		s = "[" + t.Name() + "](#" + strings.ToLower(t.Name()) + ")"
	case t.Kind() == reflect.Map:
		s = "mapping"
	default:
		s = kindName(t)
	}
	return s
}

// TestReferenceIsCurrent: docs/scenarios.md documents every key of the
// scenario types, as they describe themselves (go test ./sandbox/internal/scenario
// -update rewrites the reference).
func TestReferenceIsCurrent(t *testing.T) {
	raw, err := os.ReadFile(referenceFile)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(raw)
	head, rest, ok1 := strings.Cut(doc, referenceStart)
	old, tail, ok2 := strings.Cut(rest, referenceEnd)
	if !ok1 || !ok2 {
		t.Fatalf("%s lacks the reference markers", referenceFile)
	}
	want := reference()
	if *update {
		if err := os.WriteFile(referenceFile, []byte(head+referenceStart+want+referenceEnd+tail), 0o644); err != nil {
			t.Fatal(err)
		}
		old = want
	}
	for _, section := range strings.Split(want, "### ")[1:] {
		title, _, _ := strings.Cut(section, "\n")
		_, documented, _ := strings.Cut(old, "### "+title+"\n")
		documented, _, _ = strings.Cut(documented, "### ")
		for _, line := range strings.Split(section, "\n") {
			if key, _, ok := strings.Cut(strings.TrimPrefix(line, "| `"), "`"); ok && strings.HasPrefix(line, "| `") &&
				!strings.Contains(documented, "| `"+key+"` |") {
				t.Errorf("%s: %s: key %s is missing from the reference", referenceFile, title, key)
			}
		}
	}
	if old != want {
		t.Fatalf("the key reference of %s is stale: run go test ./sandbox/internal/scenario -update", referenceFile)
	}
}

// TestEveryReferenceIsChecked: every key that names something by id says
// what it names (its ref tag), so the validator checks it (a record's own
// id, generated when absent, names nothing); and every
// kind a ref tag names is one the validator knows.
func TestEveryReferenceIsChecked(t *testing.T) {
	lists := map[string]bool{"cards": true, "assignees": true}
	seen := map[reflect.Type]bool{}
	var walk func(reflect.Type)
	walk = func(t0 reflect.Type) {
		if seen[t0] {
			return
		}
		seen[t0] = true
		for _, f := range shapeOf(t0).fields {
			inner := deref(f.typ)
			if inner.Kind() == reflect.Slice {
				inner = deref(inner.Elem())
			}
			// A key generated when absent is the id of the record it
			// belongs to (a report's reviewId), not a reference.
			own := f.unset == "generated"
			names := strings.HasSuffix(f.key, "Id") && !own || lists[f.key] && inner.Kind() == reflect.String
			if names && f.ref == "" {
				t.Errorf("%s.%s names something by id but has no ref tag", t0.Name(), f.key)
			}
			if _, ok := refKinds[f.ref]; f.ref != "" && !ok {
				t.Errorf("%s.%s: ref %q is not a kind the validator knows", t0.Name(), f.key, f.ref)
			}
			if inner.Kind() == reflect.Struct {
				walk(inner)
			}
		}
	}
	walk(reflect.TypeFor[Scenario]())
	for _, k := range eventKinds {
		for _, key := range k.with {
			if _, ok := refKinds[key.ref]; strings.HasSuffix(key.key, "Id") && !ok {
				t.Errorf("%s: with.%s names something by id but no kind the validator knows", k.kind, key.key)
			}
		}
	}
}
