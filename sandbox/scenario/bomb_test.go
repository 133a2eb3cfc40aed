package scenario

import (
	"strconv"
	"strings"
	"testing"
)

// TestAliasBomb: aliases that repeat what they name exponentially are
// refused quickly, not expanded.
func TestAliasBomb(t *testing.T) {
	var b strings.Builder
	b.WriteString("legalEntities: [{id: le_x, name: X}]\naccounts: [{id: sa_x, legalEntityId: le_x, name: A}]\n")
	b.WriteString("cards:\n  - accountId: sa_x\n    name: C\n    userData:\n      a0: &a0 {x: 1}\n")
	for i := 1; i <= 30; i++ {
		b.WriteString("      a" + strconv.Itoa(i) + ": &a" + strconv.Itoa(i) + " {")
		for j := 0; j < 10; j++ {
			if j > 0 {
				b.WriteString(", ")
			}
			b.WriteString("k" + strconv.Itoa(j) + ": *a" + strconv.Itoa(i-1))
		}
		b.WriteString("}\n")
	}
	_, err := Parse("bomb.yaml", []byte(b.String()))
	if err == nil {
		t.Fatal("an alias bomb parsed")
	}
	if !strings.Contains(err.Error(), "the file expands to too many values (aliases repeat what they name)") {
		t.Fatalf("err = %v, want the expansion refused where it starts", err)
	}
}
