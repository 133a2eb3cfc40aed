package store

import (
	"testing"
	"time"
)

// A StoredObject writes names compacted and values as json.Marshal does,
// and declines a string it would have to escape or a time JSON cannot
// hold.
func TestStoredObject(t *testing.T) {
	o := NewStoredObject([]byte("x"))
	if b, ok := o.End(); !ok || string(b) != "x{}" {
		t.Errorf("empty object: %q, %v", b, ok)
	}
	at := time.Date(2026, 6, 15, 14, 0, 0, 5, time.UTC)
	o = NewStoredObject(nil)
	o.String(NameOf("id"), "card_1")
	o.String(NameOf("notAStoredName"), "v")
	o.Bool(NameOf("isPhysical"), true)
	o.Int(NameOf("seq"), -7)
	o.Time(NameOf("createdAt"), at)
	o.JSON(NameOf("attempts"), "[]")
	b, ok := o.End()
	want := `{"id":"card_1","notAStoredName":"v","isPhysical":true,"seq":-7,"createdAt":"2026-06-15T14:00:` +
		`00.000000005Z","attempts":[]}`
	if !ok || ExpandNames(string(b)) != want || string(b) != CompactNames([]byte(want)) {
		t.Errorf("object: %q (%v), reads as %s; want %s", b, ok, ExpandNames(string(b)), want)
	}
	for _, s := range []string{"<b>", "é", `"`, "\\", "\n", "&"} {
		o := NewStoredObject(nil)
		o.String(NameOf("name"), s)
		if _, ok := o.End(); ok {
			t.Errorf("a StoredObject wrote %q as it is", s)
		}
	}
	o = NewStoredObject(nil)
	o.Time(NameOf("at"), time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC))
	if _, ok := o.End(); ok {
		t.Error("a StoredObject wrote the year 10000, which json.Marshal refuses")
	}
}
