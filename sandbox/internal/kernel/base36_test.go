package kernel

import (
	"math/big"
	"strings"
	"testing"
)

// base36of80 writes what big.Int.Text(36) gives, padded to 15 digits and
// cut to them, at the edges (zero, a small number, all ones) and for
// digests.
func TestBase36MatchesBigInt(t *testing.T) {
	cases := [][]byte{make([]byte, 10), {0, 0, 0, 0, 0, 0, 0, 0, 0, 7}, {255, 255, 255, 255, 255, 255, 255, 255, 255, 255}}
	for n := int64(0); n < 2000; n++ {
		sum := Digest(42, "txn_", n)
		cases = append(cases, sum[:10])
	}
	for _, b := range cases {
		s := new(big.Int).SetBytes(b).Text(36)
		want := (strings.Repeat("0", max(0, 15-len(s))) + s)[:15]
		if got := string(base36of80(nil, b)); got != want {
			t.Fatalf("base36of80(%x) = %q, want %q", b, got, want)
		}
	}
}
