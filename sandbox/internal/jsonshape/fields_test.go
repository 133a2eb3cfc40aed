package jsonshape

import (
	"encoding/json"
	"testing"
)

// TestCheckAtRecordsTheProblemUnderTheProperty checks that a null inside a
// property is reported at the property's pointer followed by its own.
func TestCheckAtRecordsTheProblemUnderTheProperty(t *testing.T) {
	var v struct {
		City string `json:"addressCity"`
	}
	raw := json.RawMessage(`{"addressCity":null}`)
	d := map[string]string{}
	if CheckAt(d, "/address", raw, &v) {
		t.Fatal("a null city passed")
	}
	if _, ok := d["/address/addressCity"]; !ok || len(d) != 1 {
		t.Fatalf("problems %v, want one at /address/addressCity", d)
	}
	d = map[string]string{}
	if !CheckAt(d, "/address", json.RawMessage(`{"addressCity":"Austin"}`), &v) || len(d) != 0 {
		t.Fatalf("a well-shaped property: problems %v", d)
	}
}

// TestValueOfAnAbsentProperty checks that an absent optional property reads
// as its type's zero value, a present one as itself.
func TestValueOfAnAbsentProperty(t *testing.T) {
	s, n := "x", int64(7)
	if Value[string](nil) != "" || Value(&s) != "x" || Value[int64](nil) != 0 || Value(&n) != 7 {
		t.Fatal("Value does not read an optional property")
	}
}
