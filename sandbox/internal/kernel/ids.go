package kernel

import (
	"crypto/sha256"
	"encoding/binary"
	"math/big"
	"math/bits"
	"strconv"
)

// Digest hashes (seed, label, n): the root of every deterministic value.
func Digest(seed int64, label string, n int64) [sha256.Size]byte {
	// Room for the labels ids are made with, so that hashing one needs no
	// allocation.
	var buf [80]byte
	binary.BigEndian.PutUint64(buf[:8], uint64(seed))
	binary.BigEndian.PutUint64(buf[8:16], uint64(n))
	return sha256.Sum256(append(buf[:16], label...))
}

// DeriveID turns (seed, prefix, n) into an opaque, lower-case alphanumeric ID:
// the same inputs give the same ID on every machine.
func DeriveID(seed int64, prefix string, n int64) string {
	sum := Digest(seed, prefix, n)
	var b [64]byte
	return string(base36of80(append(b[:0], prefix...), sum[:10]))
}

// OrderedID is deriveID for records made in a stream and looked up by id
// (webhook deliveries): its first eight digits are n in base 36, so a new
// record's key sorts after the one before and the store appends it at the
// end of its kind, not at a random place in its tree, which costs several
// times as much. The last seven digits come from the seed as deriveID's do.
func OrderedID(seed int64, prefix string, n int64) string {
	sum := Digest(seed, prefix, n)
	var b [64]byte
	var c [16]byte
	count := strconv.AppendInt(c[:0], n, 36)
	id := append(b[:0], prefix...)
	for range 8 - len(count) {
		id = append(id, '0')
	}
	id = base36of80(append(id, count...), sum[:10])
	return string(id[:len(id)-8]) // the first seven of the 15 digits
}

// base36of80 appends the 80-bit big-endian number b in base 36, lower
// case, left-padded with zeros to 15 digits, keeping its first 15 digits,
// to dst: what big.Int.Text(36) padded and cut gives, without big.Int.
func base36of80(dst, b []byte) []byte {
	hi := uint64(binary.BigEndian.Uint16(b[:2]))
	lo := binary.BigEndian.Uint64(b[2:])
	var digits [17]byte
	i := len(digits)
	for hi != 0 || lo != 0 {
		var r uint64
		hi, r = bits.Div64(0, hi, 36)
		lo, r = bits.Div64(r, lo, 36)
		i--
		digits[i] = "0123456789abcdefghijklmnopqrstuvwxyz"[r]
	}
	for len(digits)-i < 15 {
		i--
		digits[i] = '0'
	}
	return append(dst, digits[i:i+15]...)
}

// Derive returns a deterministic 64-bit value for (seed, label, n): the seed
// of every small random choice the engine makes at run time.
func Derive(seed int64, label string, n int64) uint64 {
	sum := Digest(seed, label, n)
	return binary.BigEndian.Uint64(sum[:8])
}

// Token36 is a deterministic lower-case alphanumeric string.
func Token36(seed int64, label string, n int) string {
	var s string
	for i := int64(0); len(s) < n; i++ {
		sum := Digest(seed, label, i)
		s += new(big.Int).SetBytes(sum[:16]).Text(36)
	}
	return s[:n]
}
