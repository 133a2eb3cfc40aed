package kernel_test

import (
	"strings"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
)

// TestNewEngineRefusesAKindOrPrefixDeclaredTwice checks that an engine is
// not made from a wiring in which two domains (or a domain and the kernel)
// claim the same kind of record or the same id prefix: their records would
// share keys, or their ids one counter.
func TestNewEngineRefusesAKindOrPrefixDeclaredTwice(t *testing.T) {
	cases := []struct {
		name  string
		kinds []kernel.Kind
		want  string
	}{
		{"a kind named twice", []kernel.Kind{{Name: "card", Prefix: "card_"}, {Name: "card", Prefix: "other_"}},
			`the kind "card" is declared twice`},
		{"a prefix declared twice", []kernel.Kind{{Name: "card", Prefix: "card_"}, {Prefix: "card_"}},
			`the id prefix "card_" is declared twice`},
		{"the kernel's own kind", []kernel.Kind{{Name: kernel.Users.Name}}, `the kind "user" is declared twice`},
		{"the kernel's own prefix", []kernel.Kind{{Name: "thing", Prefix: kernel.Events.Prefix}},
			`the id prefix "evt_" is declared twice`},
		{"neither a name nor a prefix", []kernel.Kind{{}}, "neither a name nor an id prefix"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e, err := kernel.NewEngine(nil, kernel.Wiring{Kinds: c.kinds})
			if err == nil || e != nil {
				t.Fatalf("NewEngine = %v, %v; want no engine and an error", e, err)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %q, want it to say %q", err, c.want)
			}
		})
	}
	t.Run("distinct kinds, one a prefix of another", func(t *testing.T) {
		kinds := []kernel.Kind{{Name: "card", Prefix: "card_"}, {Name: "card_group", Prefix: "card_group_"}}
		if _, err := kernel.NewEngine(nil, kernel.Wiring{Kinds: kinds}); err != nil {
			t.Fatal(err)
		}
	})
}
