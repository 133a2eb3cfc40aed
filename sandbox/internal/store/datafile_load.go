package store

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/tidwall/buntdb"
)

// FileOptions say how to open a data file.
type FileOptions struct {
	Durability Durability
	// Discard starts the file afresh, empty, whatever it holds.
	Discard bool
	// OnRepair is told what loading the file mended, if anything.
	OnRepair func(Repair)
}

// A Repair is what loading a data file mended.
type Repair struct {
	Path string
	// Dropped bytes from offset DroppedAt, an incomplete write at the end
	// of the file (Why says what was wrong with it), were cut off.
	DroppedAt, Dropped int64
	Why                string
	// Upgraded: the file was in buntdb's format and was rewritten in the
	// current one.
	Upgraded bool
}

// String says what was mended, for the log.
func (r Repair) String() string {
	var said []string
	if r.Dropped > 0 {
		said = append(said, fmt.Sprintf("dropped %d bytes at byte %d, a write cut short by a crash or a power loss (%s);"+
			" the state is as it was before that write", r.Dropped, r.DroppedAt, r.Why))
	}
	if r.Upgraded {
		said = append(said, "upgraded from buntdb's format to the current one")
	}
	return "data file " + r.Path + ": " + strings.Join(said, "; ")
}

// ErrDamaged is wrapped by the error of a data file that cannot be loaded.
var ErrDamaged = errors.New("the data file is damaged")

// DamagedError says where a data file is damaged and how.
type DamagedError struct {
	Path    string
	Offset  int64
	Problem string
}

// Error says where the file is damaged and why it is not loaded.
func (e *DamagedError) Error() string {
	return fmt.Sprintf("data file %s is damaged at byte %d: %s. This is not a write cut short at the end of the file,"+
		" which loading drops by itself: the file was changed or broken, and what it holds cannot be trusted",
		e.Path, e.Offset, e.Problem)
}

// Unwrap makes the error match ErrDamaged.
func (e *DamagedError) Unwrap() error { return ErrDamaged }

// openFile opens or creates the data file at path and loads what it holds
// into db, an empty in-memory database.
func openFile(path string, o FileOptions, db *buntdb.DB) (*dataFile, error) {
	fh, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o666)
	if err != nil {
		return nil, fmt.Errorf("open data file: %w", err)
	}
	removeStaleTemps(path)
	f := &dataFile{path: path, durability: o.Durability, f: fh}
	if f.durability == "" {
		f.durability = Always
	}
	repair := Repair{Path: path}
	err = db.Update(func(tx *buntdb.Tx) error {
		// Emptying the (empty) database first makes buntdb keep it whole
		// for a rollback, rather than an entry for every key set.
		if err := tx.DeleteAll(); err != nil {
			return err
		}
		if o.Discard {
			return f.rewrite(tx)
		}
		return f.load(tx, &repair)
	})
	if err != nil {
		f.f.Close()
		return nil, err
	}
	if (repair.Dropped > 0 || repair.Upgraded) && o.OnRepair != nil {
		o.OnRepair(repair)
	}
	if f.durability == EverySecond {
		f.stop, f.stopped = make(chan struct{}), make(chan struct{})
		go f.syncEverySecond()
	}
	return f, nil
}

// load reads the file into tx: a new or empty file gets the format's first
// line, a file in buntdb's format is read and rewritten in this one.
func (f *dataFile) load(tx *buntdb.Tx, repair *Repair) error {
	st, err := f.f.Stat()
	if err != nil {
		return err
	}
	size := st.Size()
	head := make([]byte, min(size, int64(len(fileMagic))))
	if _, err := f.f.ReadAt(head, 0); err != nil {
		return fmt.Errorf("read data file %s: %w", f.path, err)
	}
	switch {
	case size < int64(len(fileMagic)) && string(head) == fileMagic[:size]:
		// New, or cut short while it was being created.
		return f.rewrite(tx)
	case string(head) == fileMagic:
		return f.replay(tx, size, repair)
	case head[0] == '*':
		if err := f.replayOld(tx, size, repair); err != nil {
			return err
		}
		repair.Upgraded = true
		return f.rewrite(tx)
	}
	return &DamagedError{
		Path:    f.path,
		Problem: fmt.Sprintf("it does not start with %q, the first line of a data file", fileMagic),
	}
}

// replay applies the file's frames to tx, and cuts off an incomplete last
// one.
func (f *dataFile) replay(tx *buntdb.Tx, size int64, repair *Repair) error {
	r := bufio.NewReaderSize(io.NewSectionReader(f.f, 0, size), 1<<20)
	r.Discard(len(fileMagic))
	var (
		hdr     [frameHeader]byte
		payload []byte
		keep    arena
	)
	off := int64(len(fileMagic))
	for off < size {
		torn := func(why string) error { return f.cut(off, size, why, repair) }
		damaged := func(problem string) error { return &DamagedError{Path: f.path, Offset: off, Problem: problem} }
		if size-off < frameHeader {
			return torn("a frame header cut short")
		}
		io.ReadFull(r, hdr[:])
		if crc32.Checksum(hdr[:8], castagnoli) != binary.LittleEndian.Uint32(hdr[8:]) {
			if zeros(hdr[:]) && onlyZeros(r) {
				return torn("zeros where a frame should be")
			}
			return damaged("a frame header fails its checksum")
		}
		n := int64(binary.LittleEndian.Uint32(hdr[:]))
		if n > maxFrame {
			return damaged(fmt.Sprintf("a frame header gives a length of %d bytes", n))
		}
		if end := off + frameHeader + n; end > size {
			return torn(fmt.Sprintf("a frame of %d bytes with %d of them in the file", n, size-off-frameHeader))
		}
		if int64(cap(payload)) < n {
			payload = make([]byte, n)
		}
		payload = payload[:n]
		if _, err := io.ReadFull(r, payload); err != nil {
			return fmt.Errorf("read data file %s: %w", f.path, err)
		}
		if crc32.Checksum(payload, castagnoli) != binary.LittleEndian.Uint32(hdr[4:]) {
			if onlyZeros(r) {
				return torn("a last frame that fails its checksum")
			}
			return damaged("a frame fails its checksum")
		}
		if err := f.apply(tx, payload, &keep); err != nil {
			return damaged("a frame holds " + err.Error())
		}
		off += frameHeader + n
	}
	f.size = off
	return nil
}

// apply runs a frame's commands on tx.
func (f *dataFile) apply(tx *buntdb.Tx, payload []byte, keep *arena) error {
	for len(payload) > 0 {
		c, n, err := parseCommand(payload)
		if errors.Is(err, errIncomplete) {
			return errors.New("a command cut short")
		}
		if err != nil {
			return err
		}
		payload = payload[n:]
		if err := f.run(tx, c, keep); err != nil {
			return err
		}
	}
	return nil
}

// run applies one command to tx.
func (f *dataFile) run(tx *buntdb.Tx, c command, keep *arena) error {
	switch c.op {
	case 's':
		_, _, err := tx.Set(keep.keep(c.key), keep.keep(c.val), nil)
		return err
	case 'd':
		if _, err := tx.Delete(string(c.key)); !errors.Is(err, buntdb.ErrNotFound) {
			return err
		}
		return nil
	}
	return tx.DeleteAll()
}

// replayOld applies the commands of a file in buntdb's format to tx; an
// incomplete last command is dropped, as buntdb did.
func (f *dataFile) replayOld(tx *buntdb.Tx, size int64, repair *Repair) error {
	r := io.NewSectionReader(f.f, 0, size)
	data := make([]byte, 1<<20)
	buf := data[:0]
	var keep arena
	off, eof := int64(0), false
	for {
		c, n, err := parseCommand(buf)
		switch {
		case err == nil:
			if err := f.run(tx, c, &keep); err != nil {
				return err
			}
			buf, off = buf[n:], off+int64(n)
			continue
		case !errors.Is(err, errIncomplete):
			return &DamagedError{Path: f.path, Offset: off, Problem: "buntdb's format, but " + err.Error()}
		case eof && len(buf) == 0:
			return nil
		case eof:
			repair.DroppedAt, repair.Dropped, repair.Why = off, int64(len(buf)), "a command cut short"
			return nil
		}
		// Move what is left to the front, in a larger buffer when it
		// fills this one, and read more.
		if len(buf) == len(data) {
			data = make([]byte, 2*len(data))
		}
		buf = data[:copy(data, buf)]
		m, rerr := io.ReadFull(r, data[len(buf):])
		buf = data[:len(buf)+m]
		if rerr == io.EOF || rerr == io.ErrUnexpectedEOF {
			eof = true
		} else if rerr != nil {
			return fmt.Errorf("read data file %s: %w", f.path, rerr)
		}
	}
}

// cut drops the end of the file from off, an incomplete write.
func (f *dataFile) cut(off, size int64, why string, repair *Repair) error {
	if err := f.f.Truncate(off); err != nil {
		return fmt.Errorf("data file %s: cut off the incomplete write at its end: %w", f.path, err)
	}
	if err := f.f.Sync(); err != nil {
		return fmt.Errorf("data file %s: %w", f.path, err)
	}
	f.size = off
	repair.DroppedAt, repair.Dropped, repair.Why = off, size-off, why
	return nil
}

func zeros(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}

// onlyZeros reports whether what is left of r is zeros, or nothing: the
// blocks a power loss left unwritten after a write's last one that made it.
func onlyZeros(r io.Reader) bool {
	buf := make([]byte, 64<<10)
	for {
		n, err := r.Read(buf)
		if !zeros(buf[:n]) {
			return false
		}
		if err != nil {
			return err == io.EOF
		}
	}
}

// removeStaleTemps removes what a rewrite a crash interrupted left.
func removeStaleTemps(path string) {
	matches, _ := filepath.Glob(path + ".*.tmp")
	for _, m := range matches {
		os.Remove(m)
	}
}
