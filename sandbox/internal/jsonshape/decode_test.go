package jsonshape_test

import (
	"encoding/json"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/jsonshape"
)

func TestDecodeKeepsEveryDigit(t *testing.T) {
	v, err := jsonshape.Decode([]byte(`{"amountCents": 9007199254740993, "rate": 1.10}`))
	if err != nil {
		t.Fatal(err)
	}
	m := v.(map[string]any)
	if m["amountCents"] != json.Number("9007199254740993") || m["rate"] != json.Number("1.10") {
		t.Errorf("Decode = %#v, want the numbers as written", m)
	}
}

func TestDecodeRefusesAnythingButOneValue(t *testing.T) {
	for _, body := range []string{``, `{"a":1} {"b":2}`, `[1,`, `{"a":1}]`} {
		if v, err := jsonshape.Decode([]byte(body)); err == nil {
			t.Errorf("Decode(%q) = %v, want an error", body, v)
		}
	}
	if _, err := jsonshape.Decode([]byte(" [1] \n")); err != nil {
		t.Errorf("one value with white space around it: %v", err)
	}
}
