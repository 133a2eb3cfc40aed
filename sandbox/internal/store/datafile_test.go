package store

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tidwall/buntdb"
)

// openFileT opens path and returns what opening it mended.
func openFileT(t *testing.T, path string, o FileOptions) (*DB, []Repair) {
	t.Helper()
	var repairs []Repair
	o.OnRepair = func(r Repair) { repairs = append(repairs, r) }
	db, err := OpenFile(path, o)
	if err != nil {
		t.Fatal(err)
	}
	return db, repairs
}

func putAll(t *testing.T, db *DB, kv ...string) {
	t.Helper()
	err := db.Update(func(tx *Tx) error {
		for i := 0; i < len(kv); i += 2 {
			if err := tx.PutRaw(kv[i], kv[i+1]); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// contents is every key=value of db, in key order.
func contents(t *testing.T, db *DB) string {
	t.Helper()
	items, err := db.Items()
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, kv := range items {
		b.WriteString(kv.Key + "=" + kv.Value + " ")
	}
	return b.String()
}

// A data file written by buntdb itself (the format of older versions)
// loads as buntdb loaded it, its incomplete last command dropped, and is
// rewritten in the current format, which loads the same.
func TestBuntdbFileLoadsAndIsUpgraded(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.db")
	old, err := buntdb.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	old.Update(func(tx *buntdb.Tx) error {
		tx.Set("a", "1", nil)
		tx.Set("b", "two\r\nlines", nil)
		tx.Set("gone", "x", nil)
		return nil
	})
	old.Update(func(tx *buntdb.Tx) error { _, err := tx.Delete("gone"); return err })
	old.Close()
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	const partial = "*3\r\n$3\r\nset\r\n$1\r\nc\r\n$4\r\nhal"
	f.WriteString(partial)
	f.Close()
	oldSize := fileSizeT(t, path)

	db, repairs := openFileT(t, path, FileOptions{Durability: Always})
	if got := contents(t, db); got != "a=1 b=two\r\nlines " {
		t.Fatalf("loaded %q", got)
	}
	if len(repairs) != 1 || !repairs[0].Upgraded || repairs[0].Dropped != int64(len(partial)) ||
		repairs[0].DroppedAt != oldSize-int64(len(partial)) {
		t.Fatalf("repairs %+v", repairs)
	}
	if msg := repairs[0].String(); !strings.Contains(msg, "dropped 27 bytes at byte") ||
		!strings.Contains(msg, "upgraded") {
		t.Fatalf("repair says %q", msg)
	}
	putAll(t, db, "c", "3")
	db.Close()
	if raw, _ := os.ReadFile(path); !bytes.HasPrefix(raw, []byte(fileMagic)) {
		t.Fatalf("not upgraded: %q", raw)
	}
	db, repairs = openFileT(t, path, FileOptions{Durability: Always})
	defer db.Close()
	if got := contents(t, db); got != "a=1 b=two\r\nlines c=3 " || len(repairs) != 0 {
		t.Fatalf("reopened: %q, repairs %+v", got, repairs)
	}
}

// A buntdb file with a bad byte before its end is refused, with where.
func TestDamagedBuntdbFileIsRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.db")
	raw := "*3\r\n$3\r\nset\r\n$1\r\na\r\n$1\r\n1\r\n*3\r\n$3\r\nset\r\n$1\r\nb\r\n#1\r\n2\r\n*2\r\n$3\r\ndel\r\n$1\r\na" +
		"\r\n"
	os.WriteFile(path, []byte(raw), 0o644)
	_, err := OpenFile(path, FileOptions{})
	var damaged *DamagedError
	if !errors.As(err, &damaged) || damaged.Offset != 27 || !strings.Contains(err.Error(), "is damaged at byte 27") {
		t.Fatalf("err = %v", err)
	}
	if got, _ := os.ReadFile(path); string(got) != raw {
		t.Fatal("the refusal changed the file")
	}
}

// A power loss can leave zeros where the last write's blocks should be:
// they are dropped as a write cut short, and what came before loads.
func TestZerosAtTheEndAreATornWrite(t *testing.T) {
	path := filepath.Join(t.TempDir(), "w.db")
	db, _ := openFileT(t, path, FileOptions{Durability: Never})
	putAll(t, db, "a", "1", "b", "2")
	putAll(t, db, "a", "3")
	db.Close()
	good := fileSizeT(t, path)
	for _, tail := range []int{3, 4096} {
		f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
		f.Write(make([]byte, tail))
		f.Close()
		db, repairs := openFileT(t, path, FileOptions{Durability: Never})
		if got := contents(t, db); got != "a=3 b=2 " {
			t.Fatalf("loaded %q", got)
		}
		db.Close()
		if len(repairs) != 1 || repairs[0].Dropped != int64(tail) || repairs[0].DroppedAt != good ||
			fileSizeT(t, path) != good {
			t.Fatalf("%d zeros: repairs %+v, file %d bytes", tail, repairs, fileSizeT(t, path))
		}
	}
	// Zeros in place of a frame's header, with a frame after them, are
	// not a torn write.
	raw, _ := os.ReadFile(path)
	bad := append(append(raw[:len(fileMagic):len(fileMagic)], make([]byte, frameHeader)...), raw[len(fileMagic):]...)
	os.WriteFile(path, bad, 0o644)
	var damaged *DamagedError
	if _, err := OpenFile(path, FileOptions{}); !errors.As(err, &damaged) || damaged.Offset != int64(len(fileMagic)) {
		t.Fatalf("err = %v", err)
	}
	// Discard starts it afresh.
	db, _ = openFileT(t, path, FileOptions{Discard: true})
	defer db.Close()
	if got := contents(t, db); got != "" {
		t.Fatalf("after Discard: %q", got)
	}
}

// A file that grows past twice its state is rewritten to hold just the
// state, which loads the same; so is one whose state is replaced whole.
func TestDataFileCompacts(t *testing.T) {
	defer func(old int64) { compactMin = old }(compactMin)
	compactMin = 64 << 10
	path := filepath.Join(t.TempDir(), "w.db")
	db, _ := openFileT(t, path, FileOptions{Durability: EverySecond})
	value := strings.Repeat("v", 1000)
	for i := range 300 {
		putAll(t, db, "k", value+string(rune('a'+i%26)), "other", "x")
	}
	if size := fileSizeT(t, path); size > 2*compactMin {
		t.Fatalf("the file is %d bytes: not compacted", size)
	}
	if err := db.Update(func(tx *Tx) error { return tx.DeletePrefix("oth") }); err != nil {
		t.Fatal(err)
	}
	want := contents(t, db)
	db.Close()
	db, _ = openFileT(t, path, FileOptions{Durability: EverySecond})
	if got := contents(t, db); got != want {
		t.Fatalf("reopened: %.40q, want %.40q", got, want)
	}
	if err := db.ReplaceItems([]KV{{"only", "1"}}); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if size := fileSizeT(t, path); size > 100 {
		t.Fatalf("replacing the state left a file of %d bytes", size)
	}
	db, _ = openFileT(t, path, FileOptions{})
	if got := contents(t, db); got != "only=1 " {
		t.Fatalf("after ReplaceItems: %q", got)
	}
	var snapshot bytes.Buffer
	src := mustOpen(t)
	putAll(t, src, "loaded", "2")
	src.Save(&snapshot)
	if err := db.Load(&snapshot); err != nil {
		t.Fatal(err)
	}
	db.Close()
	db, _ = openFileT(t, path, FileOptions{})
	defer db.Close()
	if got := contents(t, db); got != "loaded=2 only=1 " {
		t.Fatalf("after Load: %q", got)
	}
}

// A write the file does not take is rolled back, and no later write
// follows what it may have left.
func TestFailedFileWriteRollsBack(t *testing.T) {
	path := filepath.Join(t.TempDir(), "w.db")
	db, _ := openFileT(t, path, FileOptions{})
	putAll(t, db, "a", "1")
	db.file.f.Close()
	err := db.Update(func(tx *Tx) error { return tx.PutRaw("a", "2") })
	if err == nil || !strings.Contains(err.Error(), "write data file") {
		t.Fatalf("err = %v", err)
	}
	if got := contents(t, db); got != "a=1 " {
		t.Fatalf("after a failed write: %q", got)
	}
	if err := db.Update(func(tx *Tx) error { return tx.PutRaw("b", "1") }); err == nil ||
		!strings.Contains(err.Error(), "restart") {
		t.Fatalf("a write after one that could not be taken back: %v", err)
	}
	// Closing rewrites the file whole.
	db.Close()
	db, repairs := openFileT(t, path, FileOptions{})
	defer db.Close()
	if got := contents(t, db); got != "a=1 " || len(repairs) != 0 {
		t.Fatalf("reopened: %q, repairs %+v", got, repairs)
	}
}

func fileSizeT(t *testing.T, path string) int64 {
	t.Helper()
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return st.Size()
}
