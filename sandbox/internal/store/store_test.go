package store

import (
	"bytes"
	"fmt"
	"testing"
	"time"
)

func mustOpen(t *testing.T) *DB {
	t.Helper()
	db, err := Open("", Never)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func scanAll(t *testing.T, db *DB, prefix, after string, desc bool) []string {
	t.Helper()
	var keys []string
	err := db.View(func(tx *Tx) error {
		return tx.Scan(prefix, after, desc, func(k, _ string) bool {
			keys = append(keys, k)
			return true
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	return keys
}

func TestScanRanges(t *testing.T) {
	db := mustOpen(t)
	keys := []string{Key("i", "a", "1"), Key("i", "a", "2"), Key("i", "a", "3"), Key("i", "ab", "1"), Key("i", "b", "1")}
	err := db.Update(func(tx *Tx) error {
		for _, k := range keys {
			if err := tx.PutRaw(k, ""); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		after string
		desc  bool
		want  []string
	}{
		{"ascending from the start", "", false, keys[:3]},
		{"ascending after a key", keys[0], false, keys[1:3]},
		{"descending from the end", "", true, []string{keys[2], keys[1], keys[0]}},
		{"descending after a key", keys[2], true, []string{keys[1], keys[0]}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := scanAll(t, db, Prefix("i", "a"), tc.after, tc.desc)
			if len(got) != len(tc.want) {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Fatalf("got %q, want %q", got, tc.want)
				}
			}
		})
	}
}

func TestSortableEncodings(t *testing.T) {
	a, b := time.UnixMilli(999), time.UnixMilli(1000)
	if !(Millis(a) < Millis(b)) {
		t.Fatal("Millis does not sort by time")
	}
	if !(Int(-5) < Int(-1) && Int(-1) < Int(0) && Int(0) < Int(7)) {
		t.Fatal("Int does not sort numerically")
	}
	if !(Seq(9) < Seq(10)) {
		t.Fatal("Seq does not sort numerically")
	}
}

func TestSaveReplace(t *testing.T) {
	src, dst := mustOpen(t), mustOpen(t)
	if err := src.Update(func(tx *Tx) error { return tx.Put("k", map[string]int{"a": 1}) }); err != nil {
		t.Fatal(err)
	}
	if err := dst.Update(func(tx *Tx) error { return tx.PutRaw("stale", "x") }); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := src.Save(&buf); err != nil {
		t.Fatal(err)
	}
	if err := dst.Replace(&buf); err != nil {
		t.Fatal(err)
	}
	err := dst.View(func(tx *Tx) error {
		var v map[string]int
		ok, err := tx.Get("k", &v)
		if err != nil || !ok || v["a"] != 1 {
			t.Fatalf("k = %v, %v, %v", v, ok, err)
		}
		if _, ok, _ := tx.GetRaw("stale"); ok {
			t.Fatal("stale key survived Replace")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestReplaceOnAFile(t *testing.T) {
	path := t.TempDir() + "/w.db"
	db, err := Open(path, Always)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Update(func(tx *Tx) error { return tx.PutRaw("old", "1") }); err != nil {
		t.Fatal(err)
	}
	src := mustOpen(t)
	src.Update(func(tx *Tx) error { return tx.PutRaw("new", "2") })
	var buf bytes.Buffer
	src.Save(&buf)
	if err := db.Replace(&buf); err != nil {
		t.Fatal(err)
	}
	db.Close()
	db, err = Open(path, Always)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.View(func(tx *Tx) error {
		if _, ok, _ := tx.GetRaw("old"); ok {
			t.Error("old key survived Replace and reopen")
		}
		if v, ok, _ := tx.GetRaw("new"); !ok || v != "2" {
			t.Errorf("new = %q, %v after reopen", v, ok)
		}
		return nil
	})
}

func TestPaddedIsSprintf(t *testing.T) {
	for _, n := range []int64{0, 1, 9, 10, 123456789012, 1234567890123, 999999999999999, 1 << 62, -1, -12345} {
		for _, w := range []int{12, 15} {
			if got, want := padded(n, w), fmt.Sprintf("%0*d", w, n); got != want {
				t.Errorf("padded(%d, %d) = %q, want %q", n, w, got, want)
			}
		}
	}
}
