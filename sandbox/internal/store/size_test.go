package store

import (
	"bytes"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// held is what a database truly holds, counted key by key.
func held(t *testing.T, db *DB) (items, n int64) {
	t.Helper()
	kvs, err := db.Items()
	if err != nil {
		t.Fatal(err)
	}
	for _, kv := range kvs {
		n += int64(len(kv.Key) + len(kv.Value))
	}
	return int64(len(kvs)), n
}

// TestSizeFollowsWrites: Size is what the database holds after every kind
// of change, a write that rolls back leaving it as it was.
func TestSizeFollowsWrites(t *testing.T) {
	db := mustOpen(t)
	check := func(step string) {
		t.Helper()
		gotItems, gotBytes := db.Size()
		wantItems, wantBytes := held(t, db)
		if gotItems != wantItems || gotBytes != wantBytes {
			t.Fatalf("after %s: Size = %d keys, %d bytes; the database holds %d keys, %d bytes", step, gotItems, gotBytes,
				wantItems, wantBytes)
		}
	}
	write := func(fn func(*Tx) error) error { return db.Update(fn) }
	check("opening")
	write(func(tx *Tx) error {
		tx.PutRaw("a", "1")
		tx.PutRaw("b", strings.Repeat("x", 100))
		return tx.Put("c", map[string]int{"n": 1})
	})
	check("puts")
	write(func(tx *Tx) error {
		tx.PutRaw("b", "short")
		tx.Swap("c", map[string]int{"n": 22})
		tx.Delete("a")
		return tx.Delete("missing")
	})
	check("replacing and deleting")
	write(func(tx *Tx) error {
		tx.PutRaw("d", strings.Repeat("y", 1000))
		return errors.New("roll back")
	})
	check("a write rolled back")
	err := db.Bulk([]string{Prefix("r")}, func(tx *Tx) error {
		for i := range 100 {
			tx.PutRaw(Key("r", fmt.Sprint(i)), strings.Repeat("v", i))
			tx.PutRaw(Key("m", fmt.Sprint(i)), "m")
		}
		if items, _ := tx.Grown(); items != 200 {
			t.Errorf("Grown inside Bulk = %d keys, want the 200 put", items)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	check("a bulk fill")
	var saved bytes.Buffer
	if err := db.Save(&saved); err != nil {
		t.Fatal(err)
	}
	if err := db.ReplaceItems([]KV{{"k", "v"}}); err != nil {
		t.Fatal(err)
	}
	check("replacing every key")
	if err := db.Replace(bytes.NewReader(saved.Bytes())); err != nil {
		t.Fatal(err)
	}
	check("restoring what was saved")
	loaded := mustOpen(t)
	if err := loaded.Load(bytes.NewReader(saved.Bytes())); err != nil {
		t.Fatal(err)
	}
	if a, b := loaded.Size(); a != 200 || b <= 0 {
		t.Fatalf("a loaded database's Size = %d keys, %d bytes", a, b)
	}
}

// BenchmarkItemOverhead measures what buntdb holds for a key beyond its
// key's and value's bytes, with keys and values shaped like a world's
// (a 40-byte key; half index entries with a short value, half records of
// 400 bytes), written one by one and in a Bulk fill. It reports the
// overhead in bytes a key (ItemOverhead rounds it up).
func BenchmarkItemOverhead(b *testing.B) {
	const n = 200_000
	value := strings.Repeat("v", 400)
	keyOf := func(i int) string { return fmt.Sprintf("r\x1fcard\x1fcard_%029d", i) }
	// Each value a string of its own, as a world's are.
	valueOf := func(i int) string {
		if i%2 == 0 {
			return fmt.Sprintf("card_%04d", i%10_000)
		}
		return fmt.Sprintf("%09d", i) + value
	}
	for _, mode := range []string{"writes", "bulk"} {
		b.Run(mode, func(b *testing.B) {
			for b.Loop() {
				before := liveHeap()
				db, err := Open("", Never)
				if err != nil {
					b.Fatal(err)
				}
				put := func(tx *Tx, from, to int) error {
					for i := from; i < to; i++ {
						if err := tx.PutRaw(keyOf(i), valueOf(i)); err != nil {
							return err
						}
					}
					return nil
				}
				if mode == "bulk" {
					err = db.Bulk([]string{Prefix("r")}, func(tx *Tx) error { return put(tx, 0, n) })
				} else {
					for i := 0; i < n && err == nil; i += 100 {
						err = db.Update(func(tx *Tx) error { return put(tx, i, i+100) })
					}
				}
				if err != nil {
					b.Fatal(err)
				}
				items, size := db.Size()
				overhead := (float64(liveHeap()) - float64(before) - float64(size)) / float64(items)
				b.ReportMetric(overhead, "B-overhead/key")
				db.Close()
			}
		})
	}
}

func liveHeap() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}
