package scenario

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/pb33f/go-yaml"
	"github.com/slash-sandbox/slash-sandbox/scenarios"
)

var update = flag.Bool("update", false, "rewrite docs/scenario.schema.json and the key reference of docs/scenarios.md")

const schemaFile = "../../../docs/scenario.schema.json"

// TestSchemaFileIsCurrent: docs/scenario.schema.json is what JSONSchema
// makes (go test ./sandbox/internal/scenario -update rewrites it).
func TestSchemaFileIsCurrent(t *testing.T) {
	got := JSONSchema()
	if !bytes.Equal(got, JSONSchema()) {
		t.Fatal("JSONSchema differs from one call to the next")
	}
	if *update {
		if err := os.WriteFile(schemaFile, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(schemaFile)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s is stale: run go test ./sandbox/internal/scenario -update", schemaFile)
	}
}

// mustSchema resolves the scenario schema with a JSON Schema validator.
func mustSchema(t *testing.T) *jsonschema.Resolved {
	t.Helper()
	var s jsonschema.Schema
	if err := json.Unmarshal(JSONSchema(), &s); err != nil {
		t.Fatal(err)
	}
	rs, err := s.Resolve(&jsonschema.ResolveOptions{ValidateDefaults: true})
	if err != nil {
		t.Fatal(err)
	}
	return rs
}

// asJSON turns YAML into the JSON value an editor checks against the
// schema: dates stay the text they are written as.
func asJSON(t *testing.T, data []byte) any {
	t.Helper()
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		t.Fatal(err)
	}
	var conv func(n *yaml.Node) any
	conv = func(n *yaml.Node) any {
		n = resolve(n)
		switch n.Kind {
		case yaml.MappingNode:
			m := map[string]any{}
			for i := 0; i+1 < len(n.Content); i += 2 {
				m[n.Content[i].Value] = conv(n.Content[i+1])
			}
			return m
		case yaml.SequenceNode:
			l := []any{}
			for _, c := range n.Content {
				l = append(l, conv(c))
			}
			return l
		}
		if tag := n.ShortTag(); tag == "!!str" || tag == "!!timestamp" {
			return n.Value
		}
		var x any
		if err := n.Decode(&x); err != nil {
			t.Fatal(err)
		}
		raw, _ := json.Marshal(x)
		json.Unmarshal(raw, &x)
		return x
	}
	return conv(root.Content[0])
}

// TestEmbeddedScenariosMatchSchema: every embedded scenario names the
// schema on its first line, and the schema accepts it.
func TestEmbeddedScenariosMatchSchema(t *testing.T) {
	rs := mustSchema(t)
	for _, name := range scenarios.Names() {
		t.Run(name, func(t *testing.T) {
			data, _ := scenarios.Get(name)
			if first, _, _ := strings.Cut(string(data), "\n"); first != "# yaml-language-server:"+
				" $schema=../docs/scenario.schema.json" {
				t.Errorf("first line = %q, want the yaml-language-server schema comment", first)
			}
			if err := rs.Validate(asJSON(t, data)); err != nil {
				t.Fatalf("the schema refuses %s: %v", name, err)
			}
		})
	}
}

// TestSchemaRefusesMistakes: the schema catches what an editor should
// underline as it is typed.
func TestSchemaRefusesMistakes(t *testing.T) {
	rs := mustSchema(t)
	for name, src := range map[string]string{
		"unknown key":              minimal + "colour: blue\n",
		"misspelt nested key":      minimal + "accounts:\n  - {legalEntityId: le_one, name: A, balanceCent: 5}\n",
		"value outside its set":    minimal + "accounts:\n  - {legalEntityId: le_one, name: A, type: savings}\n",
		"wrong type":               minimal + "accounts:\n  - {legalEntityId: le_one, name: A, balanceCents: lots}\n",
		"missing required key":     minimal + "accounts:\n  - {legalEntityId: le_one}\n",
		"no legal entity":          "name: x\n",
		"event with a foreign key": minimal + "events:\n  - {kind: invoice.send, with: {transactionId: t}}\n",
		"event without its target": minimal + "events:\n  - {kind: transaction.settle}\n",
	} {
		t.Run(name, func(t *testing.T) {
			if err := rs.Validate(asJSON(t, []byte(src))); err == nil {
				t.Fatalf("the schema accepts %q", src)
			}
		})
	}
	ok := minimal + "events:\n  - {kind: transaction.settle, with: {transactionId: t, detailedStatus: failed}}\n  - " +
		"{kind: token_prices.tick}\n"
	if err := rs.Validate(asJSON(t, []byte(ok))); err != nil {
		t.Fatalf("the schema refuses a good scenario: %v", err)
	}
}
