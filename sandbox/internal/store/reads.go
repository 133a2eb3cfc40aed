package store

import (
	"slices"
	"sync"

	"github.com/tidwall/buntdb"
)

// Reads is what a piece of work read from one database: the keys it looked
// up (found or not) and the key ranges its scans walked. Work whose result
// is a function of what it read can keep that result for as long as no
// write changes a key among its Reads (DB.ChangedSince). A Reads is filled
// by the read-only transactions it is handed to (DB.ViewReads), one at a
// time.
type Reads struct {
	keys   []string
	ranges []keyRange
	sealed bool
}

// keyRange is the keys from lo to hi, both included.
type keyRange struct{ lo, hi string }

// Key records a lookup of key.
func (r *Reads) Key(key string) {
	if r != nil {
		r.keys = append(r.keys, key)
	}
}

func (r *Reads) span(lo, hi string) {
	if r != nil && lo <= hi {
		r.ranges = append(r.ranges, keyRange{lo, hi})
	}
}

// Add records what other recorded as read too (r may be nil: nothing is
// recorded).
func (r *Reads) Add(other *Reads) {
	if r != nil && other != nil {
		r.keys = append(r.keys, other.keys...)
		r.ranges = append(r.ranges, other.ranges...)
	}
}

// Seal sorts what was read for the checks; nothing may be added after.
func (r *Reads) Seal() {
	slices.Sort(r.keys)
	r.keys = slices.Compact(r.keys)
	r.sealed = true
}

// covers reports whether a write of key could change what was read.
func (r *Reads) covers(key string) bool {
	if _, found := slices.BinarySearch(r.keys, key); found {
		return true
	}
	for _, s := range r.ranges {
		if s.lo <= key && key <= s.hi {
			return true
		}
	}
	return false
}

// A change is what one write transaction wrote: its keys, or every key.
type change struct {
	version uint64
	keys    []string
	all     bool
}

// changeLogSize is how many writes a database remembers the keys of.
const changeLogSize = 256

// changeLog is a ring of the last writes' keys, slot version%size.
type changeLog struct {
	mu   sync.RWMutex
	ring [changeLogSize]change
}

func (l *changeLog) add(c change) {
	l.mu.Lock()
	l.ring[c.version%changeLogSize] = c
	l.mu.Unlock()
}

// ChangedSince reports whether a write made after Version since, up to
// Version now, may have changed a key among reads (which must be sealed),
// and up to which Version it checked. A write it no longer remembers
// counts as a change. A write still running has not been logged yet, and
// its changes are not visible: the check stops before it, and checked
// says where (what was read then still holds, as of before that write).
func (d *DB) ChangedSince(since, now uint64, reads *Reads) (changed bool, checked uint64) {
	if now < since || now-since > changeLogSize || !reads.sealed {
		return true, since
	}
	l := &d.changes
	l.mu.RLock()
	defer l.mu.RUnlock()
	for v := since + 1; v <= now; v++ {
		c := &l.ring[v%changeLogSize]
		if c.version < v {
			return false, v - 1
		}
		if c.version > v || c.all {
			return true, since
		}
		for _, k := range c.keys {
			if reads.covers(k) {
				return true, since
			}
		}
	}
	return false, now
}

// Holds reports whether what was worked out from reads, known to hold at
// Version *valid, still holds at Version now, and moves *valid on to the
// Version up to which that is known (see ChangedSince: a write still
// running is not seen). Nil reads recorded nothing, and hold only at
// *valid itself.
func (d *DB) Holds(reads *Reads, valid *uint64, now uint64) bool {
	if *valid == now {
		return true
	}
	if reads == nil || *valid > now {
		return false
	}
	changed, checked := d.ChangedSince(*valid, now, reads)
	if changed {
		return false
	}
	*valid = checked
	return true
}

// ViewReads runs fn in a read-only transaction that records what it reads
// in reads (nil: records nothing).
func (d *DB) ViewReads(reads *Reads, fn func(*Tx) error) error {
	return d.db.View(func(tx *buntdb.Tx) error { return fn(&Tx{tx: tx, cache: d.cache, reads: reads}) })
}

// Empty reports whether nothing was recorded.
func (r *Reads) Empty() bool { return len(r.keys) == 0 && len(r.ranges) == 0 }
