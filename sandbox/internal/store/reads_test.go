package store

import (
	"testing"
)

func mustPut(t *testing.T, db *DB, keys ...string) {
	t.Helper()
	err := db.Update(func(tx *Tx) error {
		for _, k := range keys {
			if err := tx.PutRaw(k, "v"); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// readPage records a lookup of one key and a scan of the first two keys
// under prefix i/a (or the last two, desc).
func readPage(t *testing.T, db *DB, desc bool) *Reads {
	t.Helper()
	r := &Reads{}
	err := db.ViewReads(r, func(tx *Tx) error {
		if _, _, err := tx.GetRaw(Key("r", "one")); err != nil {
			return err
		}
		n := 0
		return tx.Scan(Prefix("i", "a"), "", desc, func(string, string) bool {
			n++
			return n < 2
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	r.Seal()
	return r
}

func TestChangedSince(t *testing.T) {
	for _, tc := range []struct {
		name    string
		desc    bool
		write   []string
		changed bool
	}{
		{"a key read", false, []string{Key("r", "one")}, true},
		{"a key read that was missing", false, []string{Key("r", "one")}, true},
		{"another key", false, []string{Key("r", "two")}, false},
		{"a key inside the walked range", false, []string{Key("i", "a", "1a")}, true},
		{"a key past where the scan stopped", false, []string{Key("i", "a", "3")}, false},
		{"a key under another prefix", false, []string{Key("i", "b", "1")}, false},
		{"desc: a key inside the walked range", true, []string{Key("i", "a", "2a")}, true},
		{"desc: a key before where the scan stopped", true, []string{Key("i", "a", "0")}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db := mustOpen(t)
			mustPut(t, db, Key("i", "a", "1"), Key("i", "a", "2"), Key("i", "a", "25"), Key("i", "b", "0"))
			if tc.name != "a key read that was missing" {
				mustPut(t, db, Key("r", "one"))
			}
			since := db.Version()
			reads := readPage(t, db, tc.desc)
			mustPut(t, db, Key("x", "unrelated"))
			mustPut(t, db, tc.write...)
			changed, checked := db.ChangedSince(since, db.Version(), reads)
			if changed != tc.changed {
				t.Fatalf("changed = %v, want %v", changed, tc.changed)
			}
			if !changed && checked != db.Version() {
				t.Fatalf("checked up to %d, want %d", checked, db.Version())
			}
		})
	}
}

func TestChangedSinceWholeChanges(t *testing.T) {
	db := mustOpen(t)
	mustPut(t, db, Key("r", "one"), Key("i", "a", "1"))
	items, err := db.Items()
	if err != nil {
		t.Fatal(err)
	}
	since := db.Version()
	reads := readPage(t, db, false)
	if err := db.ReplaceItems(items); err != nil {
		t.Fatal(err)
	}
	if changed, _ := db.ChangedSince(since, db.Version(), reads); !changed {
		t.Fatal("a replacement of every key did not count as a change")
	}

	since = db.Version()
	reads = readPage(t, db, false)
	for range changeLogSize + 1 {
		mustPut(t, db, Key("x", "unrelated"))
	}
	if changed, _ := db.ChangedSince(since, db.Version(), reads); !changed {
		t.Fatal("writes the log no longer remembers did not count as a change")
	}
}

func TestChangedSinceStopsBeforeARunningWrite(t *testing.T) {
	db := mustOpen(t)
	mustPut(t, db, Key("r", "one"))
	since := db.Version()
	reads := readPage(t, db, false)
	mustPut(t, db, Key("x", "unrelated"))
	logged := db.Version()
	err := db.Update(func(tx *Tx) error {
		// Inside the write: it has its version but is not logged yet.
		changed, checked := db.ChangedSince(since, db.Version(), reads)
		if changed || checked != logged {
			t.Errorf("during a write: changed %v, checked %d; want false, %d", changed, checked, logged)
		}
		return tx.PutRaw(Key("r", "one"), "new")
	})
	if err != nil {
		t.Fatal(err)
	}
	if changed, _ := db.ChangedSince(since, db.Version(), reads); !changed {
		t.Fatal("the write, once logged, did not count as a change")
	}
}

func TestReadsUnsealedCountAsChanged(t *testing.T) {
	db := mustOpen(t)
	if changed, _ := db.ChangedSince(db.Version(), db.Version(), &Reads{}); !changed {
		t.Fatal("unsealed reads were trusted")
	}
}
