package scenario

import (
	"os"
	"path/filepath"
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

// aliasBomb is a scenario whose card's userData names one value of size
// bytes (line 7) and repeats it n times through aliases (aN on line 7+N).
func aliasBomb(size, n int) string {
	var b strings.Builder
	b.WriteString("legalEntities: [{id: le_x, name: X}]\naccounts: [{id: sa_x, legalEntityId: le_x, name: A}]\n")
	b.WriteString("cards:\n  - accountId: sa_x\n    name: C\n    userData:\n")
	b.WriteString("      a0: &big \"" + strings.Repeat("x", size) + "\"\n")
	for i := 1; i <= n; i++ {
		b.WriteString("      a" + strconv.Itoa(i) + ": *big\n")
	}
	return b.String()
}

// TestAliasOfLargeValue: few aliases of one large value, a file of 120 KB
// that would hold 120 MB once loaded, are refused at the alias that takes
// the file past the limit, which the message names.
func TestAliasOfLargeValue(t *testing.T) {
	const size, n = 40_000, 3000
	ps := mustProblems(t, aliasBomb(size, n))
	if len(ps) != 1 {
		t.Fatalf("problems = %v, want the one expansion problem", ps)
	}
	p := ps[0]
	if want := "the file expands past 32 MiB of text, its limit (this alias repeats what it names"; !strings.Contains(
		p.Message,
		want,
	) {
		t.Fatalf("problem = %v, want %q", p, want)
	}
	// The alias that goes past the limit: each repeats size bytes and a
	// path of about 20 (cards[0].userData.aN).
	crossing := MaxExpandedBytes / (size + 20)
	if p.Line < 7+crossing-2 || p.Line > 7+crossing+2 {
		t.Fatalf("problem at line %d, want the alias near line %d", p.Line, 7+crossing)
	}
	if at := strings.Split(aliasBomb(size, n), "\n")[p.Line-1][p.Column-1:]; at != "*big" {
		t.Fatalf("problem at %d:%d, which is %q, want the alias", p.Line, p.Column, at)
	}
}

// TestMergedLargeValue: a merge key repeating a mapping of large values
// is counted as its aliases, and refused at the merge key's alias.
func TestMergedLargeValue(t *testing.T) {
	var b strings.Builder
	b.WriteString("legalEntities: [{id: le_x, name: X}]\naccounts: [{id: sa_x, legalEntityId: le_x, name: A}]\n")
	b.WriteString("cards:\n  - accountId: sa_x\n    name: C\n    userData:\n")
	b.WriteString("      a0: &big {note: \"" + strings.Repeat("x", 100_000) + "\"}\n")
	for i := 1; i <= 400; i++ {
		b.WriteString("      a" + strconv.Itoa(i) + ": {<<: *big}\n")
	}
	ps := mustProblems(t, b.String())
	if len(ps) != 1 || !strings.Contains(ps[0].Message, "this alias repeats what it names") {
		t.Fatalf("problems = %v, want the expansion refused at a merge key's alias", ps)
	}
	if at := strings.Split(b.String(), "\n")[ps[0].Line-1][ps[0].Column-1:]; at != "*big}" {
		t.Fatalf("problem at %d:%d, which is %q, want the merge key's alias", ps[0].Line, ps[0].Column, at)
	}
}

// TestDeepNesting: nesting repeats each key in the path of everything
// below it, which grows with the square of the depth; a small file nested
// deep is refused rather than recorded path by path.
func TestDeepNesting(t *testing.T) {
	var b strings.Builder
	b.WriteString("legalEntities: [{id: le_x, name: X}]\naccounts: [{id: sa_x, legalEntityId: le_x, name: A}]\n")
	b.WriteString("cards:\n  - accountId: sa_x\n    name: C\n    userData: ")
	key := strings.Repeat("k", 100)
	for range 2000 {
		b.WriteString("{" + key + ": ")
	}
	b.WriteString("1" + strings.Repeat("}", 2000) + "\n")
	ps := mustProblems(t, b.String())
	if len(ps) != 1 ||
		!strings.Contains(ps[0].Message, "the file expands past 32 MiB of text, its limit (nesting repeats each key") {
		t.Fatalf("problems = %v, want the nesting refused", ps)
	}
}

// TestLargeFileExpandsInProportion: a file larger than an ExpansionRatio-th
// of the limit may expand to ExpansionRatio times its size.
func TestLargeFileExpandsInProportion(t *testing.T) {
	const size = 6 << 20 // six aliases: 42 MiB, over 32 MiB and under 8 × 6 MiB
	if _, err := Parse("large.yaml", []byte(aliasBomb(size, 6))); err != nil {
		t.Fatalf("a 6 MiB file expanding to 42 MiB was refused: %v", err)
	}
	ps := mustProblems(t, aliasBomb(size, 8))
	if want := "the file expands past 48.0 MiB of text"; len(ps) != 1 || !strings.Contains(ps[0].Message, want) {
		t.Fatalf("problems = %v, want %q", ps, want)
	}
}

// TestAliasOfLargeValueInFiles: a file named on the command line and one
// a request names from the scenarios directory are decoded alike.
func TestAliasOfLargeValueInFiles(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "bomb.yaml"), []byte(aliasBomb(40_000, 3000)), 0o600); err != nil {
		t.Fatal(err)
	}
	lib, err := OpenLibrary(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	for name, load := range map[string]func() (*Scenario, error){
		"--scenario FILE": func() (*Scenario, error) { return Load(filepath.Join(dir, "bomb.yaml")) },
		"--scenarios-dir": func() (*Scenario, error) { return lib.Load("bomb") },
	} {
		t.Run(name, func(t *testing.T) {
			sc, err := load()
			ps, ok := AsProblems(err)
			if sc != nil || !ok || len(ps) != 1 || !strings.Contains(ps[0].Message, "expands past 32 MiB of text") {
				t.Fatalf("load = %v, %v; want the expansion refused", sc, err)
			}
			if !strings.HasSuffix(ps[0].File, "bomb.yaml") || ps[0].Line < 7 || ps[0].Column < 11 {
				t.Fatalf("problem at %s:%d:%d, want at an alias of bomb.yaml", ps[0].File, ps[0].Line, ps[0].Column)
			}
		})
	}
}
