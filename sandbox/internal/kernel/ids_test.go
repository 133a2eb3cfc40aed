package kernel_test

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
)

// The ids are stored and shown: they must stay what their definitions
// give, written here the plain way (big.Int, string concatenation).
func TestIDsFollowTheirDefinitions(t *testing.T) {
	digest := func(seed int64, label string, n int64) [32]byte {
		b := binary.BigEndian.AppendUint64(nil, uint64(seed))
		b = binary.BigEndian.AppendUint64(b, uint64(n))
		return sha256.Sum256(append(b, label...))
	}
	base36 := func(b []byte) string {
		s := new(big.Int).SetBytes(b).Text(36)
		return (strings.Repeat("0", max(0, 15-len(s))) + s)[:15]
	}
	labels := []string{"card_", "whdel_", "evt_", "", "x", strings.Repeat("long-label/", 12), "ünïcode_"}
	for _, seed := range []int64{0, 42, -7, 1 << 62} {
		for _, label := range labels {
			for _, n := range []int64{0, 1, 35, 36, 1295, 1 << 20, 36 * 36 * 36 * 36 * 36 * 36 * 36 * 36, 1<<62 + 12345, -3} {
				name := fmt.Sprintf("seed %d, %q, %d", seed, label, n)
				sum := digest(seed, label, n)
				if got := kernel.Digest(seed, label, n); got != sum {
					t.Errorf("%s: Digest = %x, want %x", name, got, sum)
				}
				if got, want := kernel.DeriveID(seed, label, n), label+base36(sum[:10]); got != want {
					t.Errorf("%s: DeriveID = %q, want %q", name, got, want)
				}
				count := strconv.FormatInt(n, 36)
				if len(count) < 8 {
					count = strings.Repeat("0", 8-len(count)) + count
				}
				if got, want := kernel.OrderedID(seed, label, n), label+count+base36(sum[:10])[:7]; got != want {
					t.Errorf("%s: OrderedID = %q, want %q", name, got, want)
				}
			}
		}
	}
}
