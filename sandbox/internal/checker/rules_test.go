package checker_test

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/checker"
)

// TestUnknownBreaksAreReported: a breaks key that names no rule nor family
// is reported at its record; rules, families and list entries are not.
func TestUnknownBreaksAreReported(t *testing.T) {
	yaml := base + `cards:
  - {id: card_x1, accountId: sa_x, name: One, createdAt: -30d,
     breaks: [card.singleUseNotClosed, date, "spendingRule.utilizationLimitV2[2]"]}
  - {id: card_x2, accountId: sa_x, name: Two, createdAt: -30d, breaks: [card.statuss]} # planted
`
	found := findings(t, yaml)
	if len(found) != 1 {
		t.Fatalf("%d findings, want 1: %v", len(found), found)
	}
	if f := found[0]; f.Rule != "breaks" || f.Line != plantedLine(t, yaml) ||
		!strings.Contains(f.Message, "card.statuss") {
		t.Fatalf("finding = %s", f)
	}
}

// TestRulesAreTheDocumentedOnes: the rules docs/scenarios.md lists are the
// ones the checker knows.
func TestRulesAreTheDocumentedOnes(t *testing.T) {
	raw, err := os.ReadFile("../../../docs/scenarios.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(raw)
	start := strings.Index(doc, "The rules, by family:")
	end := strings.Index(doc, "### Breaking a rule on purpose")
	if start < 0 || end < start {
		t.Fatal("docs/scenarios.md has no rule table")
	}
	var documented []string
	for _, line := range strings.Split(doc[start:end], "\n") {
		cell, _, _ := strings.Cut(strings.TrimPrefix(line, "| "), " |")
		for _, m := range regexp.MustCompile("`([A-Za-z0-9_.]+)`").FindAllStringSubmatch(cell, -1) {
			documented = append(documented, m[1])
		}
	}
	got, want := slices.Sorted(slices.Values(documented)), slices.Sorted(slices.Values(checker.Rules))
	if !slices.Equal(got, want) {
		t.Errorf("documented rules:\n%v\nthe checker's:\n%v", got, want)
	}
}
