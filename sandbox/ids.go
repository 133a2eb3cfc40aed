package sandbox

import (
	"crypto/sha256"
	"encoding/binary"
	"math/big"
	"strconv"

	"github.com/slash-sandbox/slash-sandbox/sandbox/store"
)

// ID prefixes, following the real service where it shows one.
const (
	PrefixLegalEntity    = "le_"
	PrefixUser           = "u_"
	PrefixAccount        = "sa_group_"
	PrefixVirtualAccount = "subaccount_"
	PrefixContact        = "le_c_"
	PrefixInfoRequest    = "le_c_info_req_"
	PrefixCustomer       = "le_cust_"
	PrefixCard           = "card_"
	PrefixCardGroup      = "card_group_"
	PrefixTransaction    = "txn_"
	PrefixTransfer       = "transfer_"
	PrefixWebhook        = "webhook_"
	PrefixInvoice        = "invoice_"
	PrefixInvoiceDetails = "invoice_details_"
	PrefixEvent          = "evt_"
	PrefixReference      = "ref_"
	PrefixHandle         = "handle_"
)

// seqKey holds a world's sequence counters.
func seqKey(name string) string { return store.Key("m", "seq", name) }

// nextSeq increments and returns the named counter.
func nextSeq(tx *store.Tx, name string) (int64, error) {
	raw, _, err := tx.GetRaw(seqKey(name))
	if err != nil {
		return 0, err
	}
	n, _ := strconv.ParseInt(raw, 10, 64)
	n++
	return n, tx.PutRaw(seqKey(name), strconv.FormatInt(n, 10))
}

// digest hashes (seed, label, n): the root of every deterministic value.
func digest(seed int64, label string, n int64) [sha256.Size]byte {
	var buf [16]byte
	binary.BigEndian.PutUint64(buf[:8], uint64(seed))
	binary.BigEndian.PutUint64(buf[8:], uint64(n))
	return sha256.Sum256(append(buf[:], label...))
}

// deriveID turns (seed, prefix, n) into an opaque, lower-case alphanumeric ID:
// the same inputs give the same ID on every machine.
func deriveID(seed int64, prefix string, n int64) string {
	sum := digest(seed, prefix, n)
	s := new(big.Int).SetBytes(sum[:10]).Text(36)
	for len(s) < 15 {
		s = "0" + s
	}
	return prefix + s[:15]
}

// derive returns a deterministic 64-bit value for (seed, label, n): the seed
// of every small random choice the engine makes at run time.
func derive(seed int64, label string, n int64) uint64 {
	sum := digest(seed, label, n)
	return binary.BigEndian.Uint64(sum[:8])
}
