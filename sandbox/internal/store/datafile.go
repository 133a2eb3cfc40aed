package store

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/tidwall/buntdb"
)

// A data file is a log of the database's write transactions: a first line
// naming the format, then one frame a transaction. A frame is a header of
// three little-endian 32-bit words (the payload's length, the payload's
// CRC-32C, the CRC-32C of those two words) and the payload, the commands
// that turn the state before the transaction into the state after it (see
// resp.go). A frame is written with one write, so a crash or a power loss
// can only leave the last one incomplete: loading drops it whole, and a
// transaction is in the file entirely or not at all. The file is rewritten
// (to a new file renamed over it) when it grows past twice what the state
// takes, and whenever a transaction replaces the whole state.

// fileMagic starts every data file of this format.
const fileMagic = "slash-sandbox data 1\n"

const (
	frameHeader = 12
	// maxFrame bounds a frame's payload.
	maxFrame = 1 << 30
	// rewriteChunk is the payload size of the frames of a rewritten file.
	rewriteChunk = 1 << 20
)

// compactMin is the size below which a file is never compacted (a
// variable for the tests).
var compactMin int64 = 32 << 20

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// OpenFile opens a database kept in the data file at path (created when
// missing), or an in-memory one when path is "" or ":memory:". A write cut
// short at the end of the file is dropped (and reported to o.OnRepair); a
// file damaged elsewhere is refused with a *DamagedError.
func OpenFile(path string, o FileOptions) (*DB, error) {
	if path == "" {
		path = ":memory:"
	}
	db, err := buntdb.Open(":memory:")
	if err != nil {
		return nil, err
	}
	d := &DB{db: db, path: path, cache: newDecodedCache()}
	if d.Persistent() {
		if d.file, err = openFile(path, o, db); err != nil {
			db.Close()
			return nil, err
		}
		if err := d.recount(); err != nil {
			d.Close()
			return nil, err
		}
	}
	return d, nil
}

// closeCompactMin is the size past which Close compacts a file that is
// more than twice what its state takes.
const closeCompactMin = 1 << 20

// Close compacts the data file when that is worth it, syncs and closes it,
// and closes the database.
func (d *DB) Close() error {
	if d.file == nil {
		return d.db.Close()
	}
	// A file a failed write left broken is made whole again.
	live := rewriteSize(d.Size())
	err := d.compact(func(f *dataFile) bool { return f.broken != nil || f.size > closeCompactMin && f.size > 2*live })
	return errors.Join(err, d.file.close(), d.db.Close())
}

// compact rewrites the data file from the state when worth says so, in a
// read-only transaction: reads go on, writes wait.
func (d *DB) compact(worth func(*dataFile) bool) error {
	d.compacting.Lock()
	defer d.compacting.Unlock()
	return d.db.View(func(tx *buntdb.Tx) error {
		if !worth(d.file) {
			return nil
		}
		err := d.file.rewrite(tx)
		if err != nil {
			d.file.retryAt = d.file.size + d.file.size/2
		}
		return err
	})
}

// always is a compaction's worth when it must run.
func always(*dataFile) bool { return true }

// rewrite replaces the data file, if any, with the state tx sees: a write
// that replaces the whole state.
func (d *DB) rewrite(tx *buntdb.Tx) error {
	if d.file == nil {
		return nil
	}
	return d.file.rewrite(tx)
}

// dataFile is a database's file. Frames are written inside the database's
// write transactions, which buntdb runs one at a time, and the file is
// rewritten inside one, or inside a read-only transaction (which no write
// runs alongside), so those fields need no lock of their own; mu guards
// f and dirty against the background syncer.
type dataFile struct {
	path       string
	durability Durability
	// size is where the next frame goes: the end of the last good one.
	size int64
	// frame is the frame being built: room for its header, then the
	// commands of the transaction.
	frame []byte
	// broken is set when a failed write could not be taken back.
	broken error
	// retryAt is the size at which a compaction that failed is tried again.
	retryAt int64

	mu    sync.Mutex
	f     *os.File
	dirty bool
	// stop ends the syncer, which closes stopped.
	stop, stopped chan struct{}
}

// begin starts a transaction's frame.
func (f *dataFile) begin() {
	if cap(f.frame) > 1<<20 {
		f.frame = nil
	}
	if f.frame == nil {
		f.frame = make([]byte, frameHeader, 4096)
	}
	f.frame = f.frame[:frameHeader]
}

// noteSet records a set of key to val.
func (f *dataFile) noteSet(key, val string) { f.frame = appendSet(f.frame, key, val) }

// noteDelete records the deletion of key.
func (f *dataFile) noteDelete(key string) { f.frame = appendDel(f.frame, key) }

// commit appends the transaction's frame, if it wrote anything, and syncs
// it as the durability says. On an error nothing of it stays in the file.
func (f *dataFile) commit() error {
	payload := len(f.frame) - frameHeader
	if payload == 0 {
		return nil
	}
	if f.broken != nil {
		return f.broken
	}
	if payload > maxFrame {
		return fmt.Errorf("data file %s: a write of %d bytes is more than a write may take (%d)", f.path, payload, maxFrame)
	}
	sealFrame(f.frame)
	f.mu.Lock()
	defer f.mu.Unlock()
	_, err := f.f.WriteAt(f.frame, f.size)
	if err == nil && f.durability == Always {
		err = f.f.Sync()
	}
	if err != nil {
		// The frame may be partly written: cut it off, or refuse every
		// later write, which would follow a torn frame.
		if terr := f.f.Truncate(f.size); terr != nil {
			f.broken = fmt.Errorf("data file %s: a failed write could not be taken back (%w); restart the sandbox", f.path, terr)
		}
		return fmt.Errorf("write data file %s: %w", f.path, err)
	}
	f.dirty = f.durability != Always
	f.size += int64(len(f.frame))
	return nil
}

// sealFrame writes the header of a frame whose payload follows it.
func sealFrame(frame []byte) {
	payload := frame[frameHeader:]
	binary.LittleEndian.PutUint32(frame[0:], uint32(len(payload)))
	binary.LittleEndian.PutUint32(frame[4:], crc32.Checksum(payload, castagnoli))
	binary.LittleEndian.PutUint32(frame[8:], crc32.Checksum(frame[:8], castagnoli))
}

// rewriteSize is about what a rewrite of a state of items keys, whose keys
// and values take bytes, writes.
func rewriteSize(items, bytes int64) int64 { return int64(len(fileMagic)) + bytes + items*setFraming }

// due reports whether the file is worth compacting: past compactMin and
// past twice live, what a rewrite of the state takes.
func (f *dataFile) due(live int64) bool {
	return f.size > compactMin && f.size > 2*live && f.size > f.retryAt
}

// rewrite replaces the file with one holding exactly the state tx sees:
// written beside it, synced, then renamed over it.
func (f *dataFile) rewrite(tx *buntdb.Tx) error {
	mode := os.FileMode(0o644)
	if st, err := f.f.Stat(); err == nil {
		mode = st.Mode().Perm()
	}
	tmp, err := os.CreateTemp(filepath.Dir(f.path), filepath.Base(f.path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("rewrite data file %s: %w", f.path, err)
	}
	size, err := writeState(tmp, tx)
	if err == nil {
		err = tmp.Chmod(mode)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if err = errors.Join(err, tmp.Close()); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("rewrite data file %s: %w", f.path, err)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.swap(tmp.Name(), size)
}

// swap renames the file written at tmp over the data file. Both are closed
// first (Windows renames no file that is open) and the data file is opened
// again; a failure that leaves no file open breaks the data file.
func (f *dataFile) swap(tmp string, size int64) error {
	f.f.Close()
	renamed := os.Rename(tmp, f.path)
	if renamed != nil {
		os.Remove(tmp)
	} else {
		// A failed sync of the directory could only lose the rename on a
		// power loss, which leaves the old file, whole.
		syncDir(filepath.Dir(f.path))
		f.size, f.dirty, f.retryAt, f.broken = size, false, 0, nil
	}
	var err error
	if f.f, err = os.OpenFile(f.path, os.O_RDWR, 0); err != nil {
		f.broken = fmt.Errorf("data file %s: it could not be opened again after a rewrite (%w); restart the sandbox",
			f.path, err)
		return f.broken
	}
	if renamed != nil {
		return fmt.Errorf("rewrite data file %s: %w", f.path, renamed)
	}
	return nil
}

// writeState writes the format's first line and frames holding every key
// tx sees; it returns the bytes written. The keys go in fillOrder's order,
// which a load sets them in.
func writeState(w *os.File, tx *buntdb.Tx) (size int64, err error) {
	if _, err := w.WriteString(fileMagic); err != nil {
		return 0, err
	}
	size = int64(len(fileMagic))
	frame := make([]byte, frameHeader, rewriteChunk+64<<10)
	flush := func() {
		if err == nil && len(frame) > frameHeader {
			sealFrame(frame)
			_, err = w.Write(frame)
			size += int64(len(frame))
			frame = frame[:frameHeader]
		}
	}
	var aerr error
	for _, first := range []bool{true, false} {
		i := 0
		aerr = errors.Join(aerr, tx.Ascend("", func(k, v string) bool {
			// fillOrder's first pass: the first half of each group of
			// 2*nodeHalf+1 keys, and its last key.
			g := i % (2*nodeHalf + 1)
			i++
			if (g < nodeHalf || g == 2*nodeHalf) != first {
				return true
			}
			frame = appendSet(frame, k, v)
			if len(frame) >= rewriteChunk {
				flush()
			}
			return err == nil
		}))
	}
	flush()
	return size, errors.Join(aerr, err)
}

// syncDir makes a rename in dir durable.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

// syncEverySecond syncs what was written, once a second, until stop.
func (f *dataFile) syncEverySecond() {
	defer close(f.stopped)
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		select {
		case <-f.stop:
			return
		case <-tick.C:
		}
		f.mu.Lock()
		file, dirty := f.f, f.dirty
		f.dirty = false
		f.mu.Unlock()
		if dirty {
			// A rewrite may close file meanwhile; it synced what it wrote.
			file.Sync()
		}
	}
}

// close stops the syncer, syncs and closes the file.
func (f *dataFile) close() error {
	if f.stop != nil {
		close(f.stop)
		<-f.stopped
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	return errors.Join(f.f.Sync(), f.f.Close())
}
