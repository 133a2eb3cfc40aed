package store

import (
	"reflect"
	"testing"
)

type recursive struct {
	Name     string       `json:"name"`
	Children []*recursive `json:"children"`
}

// Copiers are built once per type, by whichever read needs one first: many
// first reads at once must all get a complete copier (run with -race).
func TestCopiersBuiltConcurrently(t *testing.T) {
	db := mustOpen(t)
	want := recursive{Name: "a", Children: []*recursive{{Name: "b", Children: []*recursive{{Name: "c"}}}}}
	if err := db.Update(func(tx *Tx) error { return tx.Put("r", want) }); err != nil {
		t.Fatal(err)
	}
	done := make(chan recursive)
	for range 8 {
		go func() {
			var v recursive
			db.View(func(tx *Tx) error { _, err := tx.Get("r", &v); return err })
			done <- v
		}()
	}
	for range 8 {
		if got := <-done; !reflect.DeepEqual(got, want) {
			t.Fatalf("read %+v, want %+v", got, want)
		}
	}
}
