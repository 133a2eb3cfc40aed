package store

import (
	"encoding/json"
	"strings"
	"testing"
)

// Values Put writes keep their bytes through the stored form: what is read
// back is exactly the JSON the encoder wrote, with names in and out of the
// list, names that also occur inside strings, escapes and nesting.
func TestStoredFormReadsAsWritten(t *testing.T) {
	values := []any{
		map[string]any{
			"id":            "txn_1",
			"legalEntityId": "le_1",
			"amountCents":   -12,
			"merchantData":  map[string]any{"description": "x", "location": map[string]any{"city": "Ω"}},
		},
		map[string]any{"description": `"id":"le" \"status\": \\`, "notAName": []any{"status", map[string]any{"status": nil}}},
		map[string]any{`quo"te`: 1, `back\slash`: `\`, "": "", "\u0001": "\n\t<&>"},
		[]any{"description", "id:", 1.5, true, nil},
		"status",
		42,
	}
	for _, v := range values {
		want, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		stored, err := encode("k", v, keepString)
		if err != nil {
			t.Fatal(err)
		}
		if got := string(expandNames(nil, stored)); got != string(want) {
			t.Errorf("read back %s\nwrote     %s", got, want)
		}
		var a, b any
		if err := DecodeValue(stored, &a); err != nil {
			t.Fatalf("decode %q: %v", stored, err)
		}
		if err := json.Unmarshal(want, &b); err != nil {
			t.Fatal(err)
		}
		if x, y := mustJSON(t, a), mustJSON(t, b); x != y {
			t.Errorf("decoded %s, want %s", x, y)
		}
	}
}

// The names are compacted, and only where they are object keys: after a
// string that ends in an escaped quote too.
func TestStoredFormCompactsNames(t *testing.T) {
	code := nameCodes["legalEntityId"]
	mark := string([]byte{byte(code>>8) + 1, byte(code)})
	for _, c := range []struct {
		v    map[string]string
		want string
	}{
		{map[string]string{"legalEntityId": "legalEntityId", "zz_unlisted": "id"},
			"{" + mark + `"legalEntityId","zz_unlisted":"id"}`},
		{map[string]string{"a": `x"`, "legalEntityId": `\`}, `{"a":"x\"",` + mark + `"\\"}`},
	} {
		stored, err := encode("k", c.v, keepString)
		if err != nil {
			t.Fatal(err)
		}
		if stored != c.want {
			t.Errorf("stored %q, want %q", stored, c.want)
		}
	}
}

// A value stored before names were compacted (plain JSON) reads as it did,
// and so does one with a mark the list does not name.
func TestPlainJSONReadsAsItIs(t *testing.T) {
	for _, raw := range []string{`{"id":"txn_1","legalEntityId":"le_1"}`, "{\"a\":\n1}", "\x08\xff"} {
		if got := string(expandNames(nil, raw)); got != raw {
			t.Errorf("read %q as %q", raw, got)
		}
	}
}

// Data files hold the names' indexes: the list may only grow. These are
// the first names and the count when the list was made.
func TestStoredNamesOnlyGrow(t *testing.T) {
	first := []string{"description", "providerAuthorizationId", "virtualAccountId", "detailedStatus", "accountSubtype"}
	for i, n := range first {
		if storedNames[i] != n {
			t.Errorf("storedNames[%d] = %q, want %q: a name moved", i, storedNames[i], n)
		}
	}
	if len(storedNames) < 279 {
		t.Errorf("%d stored names, fewer than the 279 the list began with", len(storedNames))
	}
	for _, n := range storedNames {
		if strings.ContainsAny(n, `"\`) || strings.IndexFunc(n, func(r rune) bool { return r < 0x20 }) >= 0 {
			t.Errorf("name %q could not be written by the encoder as it is", n)
		}
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
