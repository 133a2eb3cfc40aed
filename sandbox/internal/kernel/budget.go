package kernel

import (
	"strconv"
	"sync"

	"github.com/dustin/go-humanize"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/scenario"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/store"
)

// The engine holds its worlds and snapshots in memory, up to a memory
// budget: work that takes memory in bulk (a world made, reset or restored,
// a snapshot taken or imported) first sets aside what it will need and is
// refused, with CodeInsufficientStorage, when that does not fit beside what
// worlds and snapshots already hold. Ordinary writes are never refused: a
// world may grow past the budget through use; the budget then refuses new
// bulk work until something is deleted.
//
// What a world holds is estimated from its store's Size: its keys' and
// values' bytes and store.ItemOverhead a key, kept as writes commit. A
// snapshot holds its bytes. Work under way holds what it set aside.

// DefaultMemoryBudget is an engine's budget until SetMemoryBudget: 2 GiB.
const DefaultMemoryBudget = 2 << 30

// GeneratedRecordCost is the memory a scenario's generated transaction
// takes in its world, with its index entries: bench/big.yaml's 100,000
// take 91 MB of keys and values in 490,000 keys, 138 MB as estimated. A
// world is checked against the budget with it before it is generated, and
// while its records are written. (A test lowers it, to watch a load
// stopped on the way.)
var GeneratedRecordCost int64 = 1400

// snapshotFraming is what buntdb's save format adds to a key and its value
// ("*3\r\n$3\r\nset\r\n$<len>\r\n…"): bench/big.yaml's world of 91 MB in
// 490,000 keys saves to 105 MB.
const snapshotFraming = 32

// memory is an engine's budget and what work under way has set aside.
type memory struct {
	mu sync.Mutex
	// limit is the budget in bytes; 0 for none.
	limit    int64
	reserved int64
}

// SetMemoryBudget sets how many bytes worlds and snapshots may hold
// together; 0 (or less) removes the limit.
func (e *Engine) SetMemoryBudget(limit int64) {
	e.memory.mu.Lock()
	defer e.memory.mu.Unlock()
	e.memory.limit = max(limit, 0)
}

// MemoryUse is what worlds, snapshots and the work under way hold, as
// estimated, and the budget (0: none).
func (e *Engine) MemoryUse() (used, limit int64) {
	e.memory.mu.Lock()
	defer e.memory.mu.Unlock()
	return e.held() + e.memory.reserved, e.memory.limit
}

// held is the estimate of what the worlds and snapshots hold.
func (e *Engine) held() int64 {
	e.mu.RLock()
	defer e.mu.RUnlock()
	var n int64
	for _, w := range e.worlds {
		n += w.MemoryCost()
	}
	for _, s := range e.snapshots {
		n += int64(len(s.Data))
	}
	return n
}

// MemoryCost estimates the memory a world's state takes: its keys and
// values, and store.ItemOverhead a key.
func (w *World) MemoryCost() int64 {
	items, n := w.Db.Size()
	return cost(items, n)
}

func cost(items, n int64) int64 { return n + items*store.ItemOverhead }

// itemsCost is the memory a world holding items takes.
func itemsCost(items []store.KV) int64 {
	var n int64
	for _, kv := range items {
		n += int64(len(kv.Key) + len(kv.Value))
	}
	return cost(int64(len(items)), n)
}

// Reservation is memory set aside for work under way, until Release.
type Reservation struct {
	e    *Engine
	what string
	n    int64
}

// Reserve sets aside need bytes for the work what names ("a world of
// scenario demo"); it is refused with CodeInsufficientStorage when that
// does not fit in the budget beside what is held. The caller releases it
// once the work is done, its result then held by a world or snapshot.
func (e *Engine) Reserve(what string, need int64) (*Reservation, error) {
	r := &Reservation{e: e, what: what}
	return r, r.Grow(need)
}

// Grow raises what the reservation sets aside to total bytes, when that
// fits; a smaller total changes nothing.
func (r *Reservation) Grow(total int64) error {
	m := &r.e.memory
	m.mu.Lock()
	defer m.mu.Unlock()
	more := total - r.n
	if more <= 0 {
		return nil
	}
	if m.limit > 0 {
		if used := r.e.held() + m.reserved - r.n; used+total > m.limit {
			return overBudget(r.what, used, total, m.limit)
		}
	}
	r.n = total
	m.reserved += more
	return nil
}

// Release gives back what the reservation set aside.
func (r *Reservation) Release() {
	m := &r.e.memory
	m.mu.Lock()
	defer m.mu.Unlock()
	m.reserved -= r.n
	r.n = 0
}

// overBudget is the refusal of work that does not fit: the budget, what is
// used, what the work needs and how to raise the budget.
func overBudget(what string, used, need, limit int64) *Error {
	return Errorf(CodeInsufficientStorage, "%s needs about %s of memory, but worlds and snapshots already hold %s of "+
		"the sandbox's %s memory budget: delete worlds or snapshots you no longer need, or start the sandbox with a "+
		"larger --memory-budget (SANDBOX_MEMORY_BUDGET)", what, size(need), size(used), size(limit)).
		With("budget", strconv.FormatInt(limit, 10)).With("used", strconv.FormatInt(used, 10)).
		With("needed", strconv.FormatInt(need, 10))
}

// size writes a number of bytes for a person: 1.5 GiB.
func size(n int64) string { return humanize.IBytes(uint64(max(n, 0))) }

// scenarioCost estimates, before loading it, the memory a scenario's world
// takes: its generated transactions. What it declares one by one is
// bounded by the file's size, and counted as it is written.
func scenarioCost(sc *scenario.Scenario) int64 {
	var n int64
	for _, g := range sc.Generate {
		n += int64(g.Count)
	}
	return n * GeneratedRecordCost
}

// loadBudget checks a load's writes against its reservation every
// loadCheckEvery records, raising it as they grow: a load too large for
// the budget stops on the way and its store is thrown away.
type loadBudget struct {
	r       *Reservation
	records int
}

const loadCheckEvery = 1024

func (b *loadBudget) created(op *Op) error {
	if b.records++; b.records%loadCheckEvery != 0 {
		return nil
	}
	items, n := op.Tx.Grown()
	return b.r.Grow(cost(items, n))
}
