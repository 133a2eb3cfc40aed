package kernel_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"
)

// domainWords are the words of the domains' vocabulary, one per domain
// package and the records it keeps: parties (contact, customer,
// destination, address), deliveries (webhook), ledger (ledger, account,
// transaction, totals, money, transfer, payment), cards (card, merchant),
// invoices (invoice, series, recurrence), expenses (expense) and the
// requests of agents and information requests (agent). A top-level name of
// the kernel made of one of them (or its plural) is a domain's type,
// constant or helper that belongs to that domain. The kernel's own words
// (world, record, index, event, key, user, legal entity, message, outbox)
// are mechanism and are not listed.
var domainWords = []string{
	"contact", "customer", "destination", "address",
	"webhook",
	"ledger", "account", "transaction", "totals", "money", "transfer", "payment",
	"card", "merchant",
	"invoice", "series", "recurrence",
	"expense",
	"agent",
}

// vocabularyPrefixes start the constants a domain declares for itself: its
// record kinds, id prefixes and webhook event types, which it hands the
// engine through Wiring.
var vocabularyPrefixes = []string{"Kind", "Prefix", "Event"}

// TestTheKernelNamesNoDomain fails when the kernel's non-test files declare
// a domain's vocabulary: an exported constant named Kind…, Prefix… or
// Event…, or a top-level type, constant, variable or function whose name
// has a word of domainWords. The kernel holds mechanism; each domain
// declares its own words.
func TestTheKernelNamesNoDomain(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var found []string
	parsed := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, name, src, 0)
		if err != nil {
			t.Fatalf("parse %s: %v", name, err)
		}
		parsed++
		for _, id := range domainNames(f) {
			found = append(found, fset.Position(id.Pos()).String()+": "+id.Name)
		}
	}
	if parsed == 0 {
		t.Fatal("no non-test file of the kernel was read")
	}
	if len(found) > 0 {
		t.Errorf("the kernel declares %d names of a domain's vocabulary; move each to its domain:\n%s",
			len(found), strings.Join(found, "\n"))
	}
}

// domainNames are the top-level names of f that belong to a domain.
func domainNames(f *ast.File) []*ast.Ident {
	var out []*ast.Ident
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil && hasDomainWord(d.Name.Name) {
				out = append(out, d.Name)
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					if hasDomainWord(s.Name.Name) {
						out = append(out, s.Name)
					}
				case *ast.ValueSpec:
					for _, n := range s.Names {
						if hasDomainWord(n.Name) || d.Tok == token.CONST && isVocabularyConstant(n) {
							out = append(out, n)
						}
					}
				}
			}
		}
	}
	return out
}

// isVocabularyConstant reports whether n is an exported constant named as a
// domain's kind, id prefix or event type.
func isVocabularyConstant(n *ast.Ident) bool {
	for _, p := range vocabularyPrefixes {
		if rest, ok := strings.CutPrefix(n.Name, p); ok && (rest == "" || unicode.IsUpper(rune(rest[0]))) {
			return true
		}
	}
	return false
}

// hasDomainWord reports whether one of the words of a camel-case name
// (indexOutbox: index, outbox) is a domain word or its plural.
func hasDomainWord(name string) bool {
	for _, w := range camelWords(name) {
		w = strings.ToLower(w)
		for _, d := range domainWords {
			if w == d || w == d+"s" || w == d+"es" {
				return true
			}
		}
	}
	return false
}

// camelWords splits a Go name into its words: "APIKey" is API and Key,
// "cardGroupModel" card, Group and Model.
func camelWords(name string) []string {
	var words []string
	r := []rune(name)
	start := 0
	for i := 1; i < len(r); i++ {
		lowerToUpper := unicode.IsLower(r[i-1]) && unicode.IsUpper(r[i])
		acronymEnd := i+1 < len(r) && unicode.IsUpper(r[i-1]) && unicode.IsUpper(r[i]) && unicode.IsLower(r[i+1])
		if lowerToUpper || acronymEnd || r[i] == '_' {
			words = append(words, string(r[start:i]))
			start = i
		}
		if r[start] == '_' {
			start++
		}
	}
	return append(words, string(r[start:]))
}

// TestCamelWords checks the split the vocabulary test relies on.
func TestCamelWords(t *testing.T) {
	for name, want := range map[string]string{
		"APIKey":            "API Key",
		"cardGroupModel":    "card Group Model",
		"KindCard":          "Kind Card",
		"EmailInvoice":      "Email Invoice",
		"retiredEmittedLog": "retired Emitted Log",
		"Discard":           "Discard",
	} {
		if got := strings.Join(camelWords(name), " "); got != want {
			t.Errorf("camelWords(%q) = %q, want %q", name, got, want)
		}
	}
	if hasDomainWord("Discard") || !hasDomainWord("Accounts") || !hasDomainWord("InvoiceZone") {
		t.Error("hasDomainWord matches words, not parts of words")
	}
}
