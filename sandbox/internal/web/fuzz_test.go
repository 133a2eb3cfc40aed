package web

import (
	"encoding/json"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
)

// FuzzDecodeBytes: any input decodes or fails with a 400 naming where;
// nothing panics.
func FuzzDecodeBytes(f *testing.F) {
	for _, seed := range []string{`{"name":"x","count":1,"tags":["a"],"nested":{"on":true}}`, `{}`, `[]`, `{"count":"x"}`,
		`{"name":1e400}`, `{"unknown":1}`, `{"a":`, `{} {}`, `null`, "\xff", `{"nested":{"on":"yes"}}`,
		`"` + string(make([]byte, 300)) + `"`} {
		f.Add([]byte(seed), true)
		f.Add([]byte(seed), false)
	}
	f.Fuzz(func(t *testing.T, body []byte, strict bool) {
		var v struct {
			Name   string             `json:"name"`
			Count  int                `json:"count"`
			Tags   []string           `json:"tags"`
			Nested *struct{ On bool } `json:"nested"`
			Raw    json.RawMessage    `json:"raw"`
			Map    map[string]any     `json:"map"`
		}
		err := DecodeBytes(body, &v, strict)
		if err == nil {
			return
		}
		e, ok := kernel.AsError(err)
		if !ok || e.Code != kernel.CodeInvalidRequest || len(e.Details) != 1 {
			t.Fatalf("DecodeBytes(%q) = %v, want one invalid_request detail", body, err)
		}
	})
}
