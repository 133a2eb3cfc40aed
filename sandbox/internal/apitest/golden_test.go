package apitest

import (
	"testing"
)

func TestCanonicalJSON(t *testing.T) {
	got, err := canonicalJSON(
		[]byte(`{"b":1.50,"a":{"d":"<x>","c":[]},"id":"req_00000042","url":"http://127.0.0.1:41234/oauth2/token"}`),
	)
	if err != nil {
		t.Fatal(err)
	}
	want := `{
  "a": {
    "c": [],
    "d": "<x>"
  },
  "b": 1.50,
  "id": "req_00000000",
  "url": "http://sandbox.test/oauth2/token"
}
`
	if string(got) != want {
		t.Fatalf("canonical form\n%s\nwant\n%s", got, want)
	}
	if _, err := canonicalJSON([]byte(`{} {}`)); err == nil {
		t.Fatal("two JSON values were taken as one")
	}
}

func TestLineDiff(t *testing.T) {
	got := lineDiff("{\n  \"a\": 1,\n  \"b\": 2\n}\n", "{\n  \"a\": 1,\n  \"c\": 2\n}\n")
	if want := "from line 3:\n-   \"b\": 2\n+   \"c\": 2\n"; got != want {
		t.Fatalf("lineDiff = %q, want %q", got, want)
	}
}
