package web

import (
	"strings"
	"testing"

	"github.com/agnivade/levenshtein"
)

var nearTemplates = []RouteTemplate{
	{Method: "GET", Path: "/card", Name: "card.list"},
	{Method: "POST", Path: "/card", Name: "card.create"},
	{Method: "GET", Path: "/card/{cardId}", Name: "card.get"},
	{Method: "GET", Path: "/v2/contacts", Name: "v2.contact.list"},
}

func TestNearMissSkipsLongPaths(t *testing.T) {
	if got, ok := NearMiss(nearTemplates, "GET", "/cards"); !ok || got.Name != "card.list" {
		t.Fatalf("NearMiss(/cards) = %v %v", got, ok)
	}
	long := "/card/" + strings.Repeat("x", MaxNearMissPath)
	if got, ok := NearMiss(nearTemplates, "GET", long); ok {
		t.Fatalf("NearMiss of a %d-byte path = %v", len(long), got)
	}
}

// TestNearestIsExact: skipping names whose length differs by more than
// the edits allowed changes no answer.
func TestNearestIsExact(t *testing.T) {
	names := []string{"card.create", "card.list", "card.get", "v2.contact.list", "a", "transaction.note.update"}
	for _, name := range []string{"card.creat", "card.lst", "cards", "v2.contacts.list", "b", "", "transaction.note",
		strings.Repeat("card.create", 1000)} {
		want, wantOK := "", false
		bestCost := -1
		for _, n := range names {
			if c := levenshtein.ComputeDistance(n, name); bestCost < 0 || c < bestCost {
				want, bestCost = n, c
			}
		}
		wantOK = bestCost <= max(2, len(name)/3)
		got, ok := Nearest(names, name)
		if ok != wantOK || ok && got != want {
			t.Errorf("Nearest(%.40q) = %q %v, want %q %v", name, got, ok, want, wantOK)
		}
	}
}

func BenchmarkNearMissLongPath(b *testing.B) {
	path := "/card/" + strings.Repeat("x", 500<<10)
	for b.Loop() {
		NearMiss(nearTemplates, "GET", path)
	}
}

func BenchmarkNearestLongName(b *testing.B) {
	names := []string{"card.create", "card.list", "card.get", "v2.contact.list"}
	name := strings.Repeat("card.create", 900<<10/len("card.create"))
	for b.Loop() {
		Nearest(names, name)
	}
}
