package scenario

import (
	"os"
	"testing"
	"time"
)

// FuzzParse: any bytes parse into a scenario or into problems with lines;
// nothing panics.
func FuzzParse(f *testing.F) {
	for _, name := range []string{"../../../scenarios/demo.yaml", "../../../scenarios/empty.yaml"} {
		if data, err := os.ReadFile(name); err == nil {
			f.Add(data)
		}
	}
	for _, seed := range []string{"name: x\n", "legalEntities: [{id: le_a}]\n", "name: [\n", "clockStart: -3x\n",
		"keys: {a: 1}\n",
		"accounts:\n  - id: a\n    balanceCents: 1e99\n", "&a [*a, *a]\n", "seed: 99999999999999999999\n"} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		type result struct {
			sc  *Scenario
			err error
		}
		done := make(chan result, 1)
		go func() {
			sc, err := Parse("fuzz.yaml", data)
			done <- result{sc, err}
		}()
		var res result
		select {
		case res = <-done:
		case <-time.After(5 * time.Second):
			t.Fatalf("Parse did not return within 5 s for %q", data)
		}
		sc, err := res.sc, res.err
		if err == nil {
			if sc == nil {
				t.Fatal("no scenario and no error")
			}
			return
		}
		if ps, ok := AsProblems(err); ok {
			for _, p := range ps {
				if p.Message == "" {
					t.Fatalf("a problem without a message: %+v", p)
				}
			}
		}
	})
}
