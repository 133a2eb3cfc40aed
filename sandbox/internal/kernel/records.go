package kernel

import (
	"slices"
	"strings"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/store"
)

func recordKey(kind, id string) string { return store.Key("r", kind, id) }

// RecordKey is where a record of a kind is stored: records of a kind sort
// by id, so ids that count up keep them in the order they were made.
func RecordKey(kind, id string) string { return recordKey(kind, id) }

// RecordPrefix is the prefix shared by every record of a kind.
func RecordPrefix(kind string) string { return store.Prefix("r", kind) }

// IndexSidecar remembers which index keys a record currently has.
func IndexSidecar(kind, id string) string { return store.Key("x", kind, id) }

// IndexKey builds the key of one index entry: its name, its ordered parts and
// finally the record id, which keeps every entry unique.
func IndexKey(name string, parts ...string) string { return indexKey(name, parts, false) }

// IndexPrefix is the prefix shared by an index's entries with these parts.
func IndexPrefix(name string, parts ...string) string { return indexKey(name, parts, true) }

// indexKey is "i", name and parts joined by store.Sep (and one more Sep
// for a prefix), built in one allocation.
func indexKey(name string, parts []string, prefix bool) string {
	n := 2 + len(name)
	for _, p := range parts {
		n += len(store.Sep) + len(p)
	}
	var b strings.Builder
	b.Grow(n + len(store.Sep))
	b.WriteString("i" + store.Sep)
	b.WriteString(name)
	for _, p := range parts {
		b.WriteString(store.Sep)
		b.WriteString(p)
	}
	if prefix {
		b.WriteString(store.Sep)
	}
	return b.String()
}

// Get loads a record; it reports whether it exists.
func (op *Op) Get(kind, id string, v any) (bool, error) {
	if id == "" {
		return false, nil
	}
	return op.Tx.Get(recordKey(kind, id), v)
}

// Save stores a record and makes its index entries exactly those given.
// The index keys a record had are remembered in its sidecar (none when it
// has no keys), except for kinds whose keys derive from the record itself
// (Kind.Derive): those are worked out from the record being replaced.
func (op *Op) Save(kind, id string, v any, index ...string) error {
	key := recordKey(kind, id)
	prev, existed, err := op.Tx.Swap(key, v)
	if err != nil {
		return err
	}
	if !existed && op.onRecord != nil {
		op.onRecord(kind)
	}
	if !existed && op.onOrigin != nil && op.origin != "" {
		op.onOrigin(kind, id, op.origin)
	}
	if !existed && op.budget != nil {
		if err := op.budget.created(op); err != nil {
			return err
		}
	}
	old, sidecar, err := op.oldIndexKeys(kind, id, key, prev, existed)
	if err != nil {
		return err
	}
	for old != "" {
		var k string
		k, old, _ = strings.Cut(old, "\n")
		if !slices.Contains(index, k) {
			if err := op.Tx.Delete(k); err != nil {
				return err
			}
		}
	}
	covered, facts := "", ""
	if c, ok := v.(Covering); ok {
		name, f := c.Covering()
		covered, facts = IndexPrefix(name), f
	}
	var also []string
	alsoFacts := ""
	if c, ok := v.(CoveringAlso); ok {
		also, alsoFacts = c.CoveringAlso()
	}
	for _, k := range index {
		val := id
		switch {
		case facts != "" && strings.HasPrefix(k, covered):
			val = id + FactsSep + facts
		case alsoFacts != "" && slices.ContainsFunc(also, func(name string) bool {
			return strings.HasPrefix(k, IndexPrefix(name))
		}):
			val = id + FactsSep + alsoFacts
		}
		if err := op.Tx.PutRaw(k, val); err != nil {
			return err
		}
	}
	switch {
	case op.W.wiring.derived[kind] != nil:
		return nil
	case len(index) > 0:
		return op.Tx.PutRaw(IndexSidecar(kind, id), strings.Join(index, "\n"))
	case sidecar:
		return op.Tx.Delete(IndexSidecar(kind, id))
	}
	return nil
}

// Covering is a record whose entries in one index keep, after its id,
// facts a list can filter on without loading the record: Covering names
// that index and encodes the facts ("" when they cannot be kept).
type Covering interface {
	Covering() (index, facts string)
}

// CoveringAlso is a record whose entries in further indexes keep, after
// its id, a fact of their own that a reader sums or checks without loading
// the record (a transaction's spend in its card's and group's entries):
// CoveringAlso names those indexes and encodes the fact ("" for none).
type CoveringAlso interface {
	CoveringAlso() (indexes []string, facts string)
}

// DeriveIndexes works out the index keys of a stored record of a kind
// whose keys are a function of the record (see Kind.Derive).
type DeriveIndexes func(op *Op, key, raw string) ([]string, error)

// Derived adapts a kind's index function to a stored record.
func Derived[T any](indexes func(*T) []string) DeriveIndexes {
	return func(op *Op, key, raw string) ([]string, error) {
		var v T
		if err := op.Tx.Decode(key, raw, &v); err != nil {
			return nil, err
		}
		return indexes(&v), nil
	}
}

// oldIndexKeys are the index keys a record had before its save, joined by
// newlines: its sidecar's, or for a derived kind those of the record it
// replaced, prev (a sidecar written before the kind was derived is used,
// and removed). It reports whether the record still has a sidecar.
func (op *Op) oldIndexKeys(kind, id, key, prev string, existed bool) (string, bool, error) {
	if !existed {
		return "", false, nil // a sidecar goes with its record
	}
	side := IndexSidecar(kind, id)
	old, ok, err := op.Tx.GetRaw(side)
	derive := op.W.wiring.derived[kind]
	if derive == nil || err != nil {
		return old, ok, err
	}
	if ok {
		return old, false, op.Tx.Delete(side)
	}
	keys, err := derive(op, key, prev)
	return strings.Join(keys, "\n"), false, err
}

// NextSeq returns the world's next global sequence number: the tie-breaker
// that keeps list order stable when many records share a virtual instant.
func (op *Op) NextSeq() (int64, error) { return op.Counter("global") }

// NewID returns the next deterministic ID with the given prefix.
func (op *Op) NewID(prefix string) (string, error) {
	n, err := op.Counter(prefix)
	if err != nil {
		return "", err
	}
	return DeriveID(op.W.Seed, prefix, n), nil
}
