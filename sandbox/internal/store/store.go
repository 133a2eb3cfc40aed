package store

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tidwall/buntdb"
)

// Sep separates the parts of a key. It sorts below every printable
// character, so a prefix followed by Sep groups exactly its own keys.
const Sep = "\x1f"

// end is greater than any byte of a UTF-8 string.
const end = "\xff"

// Durability says when a write reaches the disk.
type Durability string

const (
	// Always fsyncs every committed write before it is acknowledged.
	Always Durability = "always"
	// EverySecond fsyncs in the background once a second.
	EverySecond Durability = "everysecond"
	// Never leaves syncing to the operating system.
	Never Durability = "never"
)

// ParseDurability checks a durability name.
func ParseDurability(s string) (Durability, error) {
	switch Durability(s) {
	case Always, EverySecond, Never:
		return Durability(s), nil
	}
	return "", fmt.Errorf("unknown durability %q (want always, everysecond or never)", s)
}

// DB is one world's database: buntdb in memory, and the data file that
// keeps it, if any (see datafile.go).
type DB struct {
	db    *buntdb.DB
	path  string
	file  *dataFile
	cache *decodedCache
	// version changes with every write transaction, inside it, before
	// its changes become visible.
	version atomic.Uint64
	// changes are the keys the last writes wrote (see ChangedSince).
	changes changeLog
	// compacting is held by the compaction that runs.
	compacting sync.Mutex
	// items and bytes are how many keys the database holds and the bytes
	// of their keys and values (see Size).
	items, bytes atomic.Int64
}

// Open opens a database file, or an in-memory one when path is "" or
// ":memory:".
func Open(path string, d Durability) (*DB, error) {
	return OpenFile(path, FileOptions{Durability: d})
}

// Size is how many keys the database holds and how many bytes their keys
// and values take: what it keeps in memory, less the overhead of each
// item (see ItemOverhead). It is kept as writes commit, at the cost of an
// addition each.
func (d *DB) Size() (items, bytes int64) { return d.items.Load(), d.bytes.Load() }

// ItemOverhead is the memory a key takes beyond its key's and value's
// bytes: buntdb's item (48 bytes), its place in the tree, the rounding of
// each string to an allocation size. BenchmarkItemOverhead measures 97
// bytes for keys written one by one (a world's writes) and 65 for a Bulk
// fill (a scenario's load, whose strings share large blocks); a world
// copied from a loaded one shares its strings and takes about 93 a key.
const ItemOverhead = 96

// recount sets Size from what the database holds, after a change that
// did not keep it (a load, a fill).
func (d *DB) recount() error {
	var items, n int64
	err := d.db.View(func(tx *buntdb.Tx) error {
		return tx.Ascend("", func(k, v string) bool {
			items++
			n += int64(len(k) + len(v))
			return true
		})
	})
	d.items.Store(items)
	d.bytes.Store(n)
	return err
}

// Persistent reports whether the database lives in a file.
func (d *DB) Persistent() bool { return d.path != ":memory:" }

// Update runs fn in a read-write transaction; an error rolls it back whole.
// With a data file, the transaction's changes are appended to it as one
// frame before the commit, and synced as the durability says; a failed
// write rolls the transaction back.
func (d *DB) Update(fn func(*Tx) error) error {
	due := false
	var t *Tx
	err := d.db.Update(func(tx *buntdb.Tx) error {
		// Room for the keys most writes write (a new card: 17).
		t = &Tx{tx: tx, cache: d.cache, version: d.version.Add(1), wrote: make([]string, 0, 24), file: d.file}
		// Logged before the commit makes the write visible; a write that
		// rolls back is logged too, which only costs kept reads.
		defer func() { d.changes.add(change{version: t.version, keys: t.wrote}) }()
		if d.file == nil {
			return fn(t)
		}
		d.file.begin()
		if err := fn(t); err != nil {
			return err
		}
		if err := d.file.commit(); err != nil {
			return err
		}
		items, bytes := d.Size()
		due = d.file.due(rewriteSize(items+t.items, bytes+t.bytes))
		return nil
	})
	if err == nil && t != nil {
		d.items.Add(t.items)
		d.bytes.Add(t.bytes)
	}
	if err == nil && due {
		// The write is in the file already: a compaction that fails is
		// tried again later.
		d.compact(func(f *dataFile) bool { return f.due(rewriteSize(d.Size())) })
	}
	return err
}

// changedAll logs a write that may have changed any key.
func (d *DB) changedAll(v uint64) { d.changes.add(change{version: v, all: true}) }

// Bulk runs fn in a read-write transaction that keeps no record of each key
// it replaces: for filling a new database, which the caller throws away
// when fn fails. It starts by emptying the database, which makes buntdb keep
// the old (empty) tree whole for a rollback instead of an entry per write.
// Puts of keys under the deferred prefixes are gathered and written in key
// order, before anything reads one of them and at the end (see
// deferred.go); reads see what they would have seen without it.
func (d *DB) Bulk(deferPrefixes []string, fn func(*Tx) error) error {
	err := d.db.Update(func(tx *buntdb.Tx) error {
		v := d.version.Add(1)
		defer d.changedAll(v)
		if err := tx.DeleteAll(); err != nil {
			return err
		}
		t := &Tx{tx: tx, cache: d.cache, later: newDeferred(deferPrefixes), version: v}
		if err := fn(t); err != nil {
			return err
		}
		if err := t.settle(); err != nil {
			return err
		}
		return d.rewrite(tx)
	})
	if err != nil {
		return err
	}
	return d.recount()
}

// Version is a number that changes whenever a write transaction runs. Its
// change happens before the write becomes visible, so a reader that reads
// the same Version before and after reading data read one unchanged state.
func (d *DB) Version() uint64 { return d.version.Load() }

// View runs fn in a read-only transaction.
func (d *DB) View(fn func(*Tx) error) error { return d.ViewReads(nil, fn) }

// Save writes every key to w in buntdb's append-only format.
func (d *DB) Save(w io.Writer) error { return d.db.Save(w) }

// Load reads keys written by Save; a data file is rewritten to hold them.
func (d *DB) Load(r io.Reader) error {
	defer d.changedAll(d.version.Add(1))
	if err := d.db.Load(r); err != nil {
		return err
	}
	if err := d.recount(); err != nil || d.file == nil {
		return err
	}
	return d.compact(always)
}

// Replace makes the database hold exactly the keys of a snapshot written by
// Save, in one transaction: readers see the old state or the new one, and a
// data file is rewritten to hold the new one.
func (d *DB) Replace(r io.Reader) error {
	staging, err := buntdb.Open(":memory:")
	if err != nil {
		return err
	}
	defer staging.Close()
	if err := staging.Load(r); err != nil {
		return fmt.Errorf("read snapshot: %w", err)
	}
	var items []KV
	err = staging.View(func(tx *buntdb.Tx) error {
		return tx.Ascend("", func(k, v string) bool {
			items = append(items, KV{k, v})
			return true
		})
	})
	if err != nil {
		return err
	}
	return d.ReplaceItems(items)
}

// ReplaceItems makes the database hold exactly items, in one transaction
// (and a data file, rewritten).
func (d *DB) ReplaceItems(items []KV) error {
	var n int64
	err := d.db.Update(func(tx *buntdb.Tx) error {
		defer d.changedAll(d.version.Add(1))
		if err := tx.DeleteAll(); err != nil {
			return err
		}
		for _, kv := range items {
			if _, _, err := tx.Set(kv.Key, kv.Value, nil); err != nil {
				return err
			}
			n += int64(len(kv.Key) + len(kv.Value))
		}
		return d.rewrite(tx)
	})
	if err == nil {
		d.items.Store(int64(len(items)))
		d.bytes.Store(n)
	}
	return err
}

// Tx is a transaction.
type Tx struct {
	tx    *buntdb.Tx
	cache *decodedCache
	// later is set inside Bulk: its deferred puts and stored keys (buntdb's
	// Set does not report replaced values there).
	later *deferred
	// version is the database's Version this write made; 0 in a read-only
	// transaction.
	version uint64
	// wrote gathers the keys a write transaction writes, for the change
	// log; reads, the keys and ranges a read-only one reads (nil: none).
	wrote []string
	reads *Reads
	// file, in a write transaction of a database with a data file, is
	// told every write.
	file *dataFile
	// items and bytes are what the write added to the database's Size
	// (negative when it removed more); inside Bulk, what it put.
	items, bytes int64
}

// Grown is what the transaction has added to the database's Size so far:
// keys and their bytes. Inside Bulk it counts every put, replaced or not.
func (t *Tx) Grown() (items, bytes int64) { return t.items, t.bytes }

// stored counts a key set to val, which replaced prev when replaced.
func (t *Tx) stored(key, val, prev string, replaced bool) {
	t.bytes += int64(len(val))
	if replaced {
		t.bytes -= int64(len(prev))
		return
	}
	t.items++
	t.bytes += int64(len(key))
}

// Version is the database Version a write transaction made (its
// predecessor's plus one), or 0 when the transaction only reads.
func (t *Tx) Version() uint64 { return t.version }

// ErrNotFound is returned by MustGet for a missing key.
var ErrNotFound = errors.New("not found")

// Get decodes the JSON at key into v; it reports whether the key existed.
func (t *Tx) Get(key string, v any) (bool, error) {
	t.reads.Key(key)
	raw, ok := t.gathered(key)
	if ok {
		return true, t.cache.decode(key, raw, v)
	}
	raw, err := t.tx.Get(key)
	if errors.Is(err, buntdb.ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if err := t.cache.decode(key, raw, v); err != nil {
		return false, err
	}
	return true, nil
}

// Decode decodes raw, the JSON stored at key (as GetRaw or Scan gave it),
// into v: the same as json.Unmarshal, but a record read before and
// unchanged since is copied rather than parsed again.
func (t *Tx) Decode(key, raw string, v any) error { return t.cache.decode(key, raw, v) }

// GetRaw returns the string at key.
func (t *Tx) GetRaw(key string) (string, bool, error) {
	t.reads.Key(key)
	if raw, ok := t.gathered(key); ok {
		return raw, true, nil
	}
	raw, err := t.tx.Get(key)
	if errors.Is(err, buntdb.ErrNotFound) {
		return "", false, nil
	}
	return raw, err == nil, err
}

// Put stores v as JSON at key.
func (t *Tx) Put(key string, v any) error {
	s, err := encode(key, v, t.keeper(key))
	if err != nil {
		return err
	}
	if t.later != nil {
		return t.bulkPutRaw(key, s, true)
	}
	return t.PutRaw(key, s)
}

// encoders are buffers for encode; one that grew past 64 KiB is dropped.
var encoders = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// StoredAppender is a value that writes its own stored form, exactly as
// encode makes it from json.Marshal, faster: a record stored many times a
// second. It writes its JSON with each object name as AppendName writes
// it, or reports false when it cannot (a value it leaves to json.Marshal).
type StoredAppender interface {
	AppendStored(dst []byte) ([]byte, bool)
}

// encode is json.Marshal(v) in the stored form (see names.go), made a
// string by keep: the encoder's buffer is reused, so keep copies it.
func encode(key string, v any, keep func([]byte) string) (string, error) {
	buf := encoders.Get().(*bytes.Buffer)
	defer func() {
		if buf.Cap() <= 64<<10 {
			buf.Reset()
			encoders.Put(buf)
		}
	}()
	if a, ok := v.(StoredAppender); ok {
		if b, ok := a.AppendStored(buf.AvailableBuffer()); ok {
			buf.Write(b)
			return keep(buf.Bytes()), nil
		}
	}
	if err := json.NewEncoder(buf).Encode(v); err != nil {
		return "", fmt.Errorf("encode %q: %w", key, err)
	}
	return keep(compactNames(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))), nil
}

// keepString copies bytes into a string of their own.
func keepString(b []byte) string { return string(b) }

// Swap stores v as JSON at key and returns the string it replaced, if any:
// a Put that also tells what was there, for the cost of one lookup.
func (t *Tx) Swap(key string, v any) (prev string, existed bool, err error) {
	s, err := encode(key, v, t.keeper(key))
	if err != nil {
		return "", false, err
	}
	if t.later != nil {
		return t.bulkSwap(key, s)
	}
	return t.set(key, s)
}

// set stores val at key, recording the write.
func (t *Tx) set(key, val string) (prev string, replaced bool, err error) {
	t.wrote = append(t.wrote, key)
	prev, replaced, err = t.tx.Set(key, val, nil)
	t.stored(key, val, prev, replaced)
	if err == nil && t.file != nil {
		t.file.noteSet(key, val)
	}
	return prev, replaced, err
}

// PutRaw stores a string at key.
func (t *Tx) PutRaw(key, val string) error {
	if t.later != nil {
		return t.bulkPutRaw(key, val, false)
	}
	_, _, err := t.set(key, val)
	return err
}

// Delete removes key; a missing key is not an error.
func (t *Tx) Delete(key string) error {
	if err := t.settleKey(key); err != nil {
		return err
	}
	if t.later != nil {
		delete(t.later.stored, key)
	}
	t.wrote = append(t.wrote, key)
	prev, err := t.tx.Delete(key)
	if errors.Is(err, buntdb.ErrNotFound) {
		return nil
	}
	if err == nil {
		t.items--
		t.bytes -= int64(len(key) + len(prev))
	}
	if err == nil && t.file != nil {
		t.file.noteDelete(key)
	}
	return err
}

// DeletePrefix deletes every key under prefix.
func (t *Tx) DeletePrefix(prefix string) error {
	var keys []string
	err := t.Scan(prefix, "", false, func(k, _ string) bool {
		keys = append(keys, k)
		return true
	})
	for _, k := range keys {
		if err != nil {
			break
		}
		err = t.Delete(k)
	}
	return err
}

// Scan visits the keys that start with prefix, in key order (reverse order
// when desc), starting strictly after the key after when it is not empty,
// until fn returns false.
func (t *Tx) Scan(prefix, after string, desc bool, fn func(key, val string) bool) error {
	if err := t.settleRange(prefix); err != nil {
		return err
	}
	if !desc {
		from := prefix
		if after != "" && after >= prefix {
			from = after + "\x00"
		}
		last := prefix + end
		err := t.tx.AscendRange("", from, prefix+end, func(k, v string) bool {
			if !fn(k, v) {
				last = k
				return false
			}
			return true
		})
		t.reads.span(from, last)
		return err
	}
	upTo := prefix + end
	if after != "" && after < upTo {
		upTo = after
	}
	last := prefix
	err := t.tx.DescendRange("", upTo, prefix, func(k, v string) bool {
		if k == after {
			return true
		}
		if !fn(k, v) {
			last = k
			return false
		}
		return true
	})
	t.reads.span(last, upTo)
	return err
}

// Key joins parts with Sep.
func Key(parts ...string) string { return strings.Join(parts, Sep) }

// Prefix is Key(parts...) followed by Sep: the prefix of every key below it.
func Prefix(parts ...string) string { return Key(parts...) + Sep }

// Millis encodes a time so that string order is time order.
func Millis(t time.Time) string { return padded(max(t.UnixMilli(), 0), 15) }

// Seq encodes a sequence number so that string order is numeric order.
func Seq(n int64) string { return padded(n, 12) }

// padded is fmt.Sprintf("%0*d", width, n) without fmt.
func padded(n int64, width int) string {
	if n < 0 {
		return fmt.Sprintf("%0*d", width, n)
	}
	var b [24]byte
	i := len(b)
	for ; n > 0 || i == len(b); n /= 10 {
		i--
		b[i] = byte('0' + n%10)
	}
	for len(b)-i < width {
		i--
		b[i] = '0'
	}
	return string(b[i:])
}

// Int encodes a signed amount so that string order is numeric order.
func Int(n int64) string {
	const bias = int64(1) << 62
	return strconv.FormatUint(uint64(n+bias), 10)
}

// KV is one key and its value.
type KV struct{ Key, Value string }

// Items copies every key of the database, in key order.
func (d *DB) Items() ([]KV, error) {
	var out []KV
	err := d.db.View(func(tx *buntdb.Tx) error {
		n, err := tx.Len()
		if err != nil {
			return err
		}
		out = make([]KV, 0, n)
		return tx.Ascend("", func(k, v string) bool {
			out = append(out, KV{k, v})
			return true
		})
	})
	return out, err
}

// OpenWith makes an in-memory database holding items, written in one
// transaction: the fast way to copy a loaded state.
func OpenWith(items []KV) (*DB, error) {
	d, err := Open("", Never)
	if err != nil {
		return nil, err
	}
	if err := d.ReplaceItems(items); err != nil {
		d.Close()
		return nil, err
	}
	return d, nil
}
