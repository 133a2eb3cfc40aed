package checker_test

import (
	"strings"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/checker"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/scenario"
)

// base is a small world the family tests plant one violation in.
const base = `clockStart: 2026-06-15T14:00:00Z
legalEntities: [{id: le_x, name: X, createdAt: -400d}]
accounts:
  - {id: sa_x, legalEntityId: le_x, name: Operating, balanceCents: 1000000, createdAt: -300d}
customers: [{id: le_cust_y, legalEntityId: le_x, name: Y, email: y@y.test, createdAt: -100d}]
contacts: [{id: le_c_v, legalEntityId: le_x, name: V, recipientEmail: v@v.test, createdAt: -100d}]
`

// planted marks the first line of the record that breaks a rule, a flow
// mapping ("- {…").
const planted = " # planted"

// plantedLine is the line of s that carries the planted mark.
func plantedLine(t *testing.T, s string) int {
	t.Helper()
	for i, line := range strings.Split(s, "\n") {
		if strings.HasSuffix(line, planted) {
			return i + 1
		}
	}
	t.Fatal("no planted line")
	return 0
}

// findings parses and checks a scenario.
func findings(t *testing.T, yaml string) []checker.Finding {
	t.Helper()
	sc, err := scenario.Parse("s.yaml", []byte(yaml))
	if err != nil {
		t.Fatalf("the scenario does not parse: %v", err)
	}
	return checkScenario(t, sc, nil, nil)
}

// expectPlanted checks that yaml (base followed by extra) has exactly one
// finding, of rule at the planted line whose message contains want, and
// none once the planted record says it breaks marker on purpose.
func expectPlanted(t *testing.T, extra, rule, marker, want string) {
	t.Helper()
	yaml := base + extra
	found := findings(t, yaml)
	if len(found) != 1 {
		t.Fatalf("%d findings, want 1 (%s): %v", len(found), rule, found)
	}
	f := found[0]
	if got, wantLine := f.Line, plantedLine(t, yaml); f.Rule != rule || got != wantLine || f.File != "s.yaml" ||
		!strings.Contains(f.Message, want) {
		t.Fatalf("finding = %s, want s.yaml:%d, rule %s, a message with %q", f, wantLine, rule, want)
	}
	if s := f.String(); !strings.HasPrefix(s, "s.yaml:") || !strings.Contains(s, ": warning: "+rule+": ") {
		t.Fatalf("finding prints as %q", s)
	}
	line := plantedLine(t, yaml)
	lines := strings.Split(yaml, "\n")
	lines[line-1] = strings.Replace(lines[line-1], "- {", "- {breaks: ["+marker+"], ", 1)
	onPurpose := strings.Join(lines, "\n")
	if found := findings(t, onPurpose); len(found) != 0 {
		t.Fatalf("with breaks: [%s], %d findings, want none: %v", marker, len(found), found)
	}
}

// TestBaseObeysTheRules: the world the family tests start from has no
// finding, so each finding they expect is the planted one.
func TestBaseObeysTheRules(t *testing.T) {
	if found := findings(t, base); len(found) != 0 {
		t.Fatalf("the base scenario has findings: %v", found)
	}
}
