package web

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/iotest"
)

// ReadAll reads what io.ReadAll reads, whatever size it was told to
// expect, and stops at the same error.
func TestReadAllReadsTheWholeBody(t *testing.T) {
	for _, n := range []int{0, 1, 76, 511, 512, 513, 5000, 70000} {
		body := bytes.Repeat([]byte("abcdefghij"), n/10+1)[:n]
		for _, hint := range []int64{-1, 0, int64(n) / 2, int64(n), int64(n) + 1, int64(n) * 3, 1 << 40} {
			for name, r := range map[string]io.Reader{
				"whole":          bytes.NewReader(body),
				"a byte at once": iotest.OneByteReader(bytes.NewReader(body)),
			} {
				got, err := ReadAll(r, hint)
				if err != nil || !bytes.Equal(got, body) {
					t.Errorf("%d bytes, hint %d, %s: got %d bytes, %v", n, hint, name, len(got), err)
				}
			}
		}
	}
	broken := errors.New("broken")
	got, err := ReadAll(io.MultiReader(strings.NewReader("start"), iotest.ErrReader(broken)), 100)
	if string(got) != "start" || !errors.Is(err, broken) {
		t.Errorf("a failing body: got %q, %v; want \"start\", %v", got, err, broken)
	}
}

// A replayed body reads as the body it was, its error last, and ReadBody
// takes it as it is.
func TestReplayBodyReadsAsTheBodyRead(t *testing.T) {
	tooBig := &http.MaxBytesError{Limit: 4}
	got, err := io.ReadAll(ReplayBody([]byte("abcd"), tooBig))
	if string(got) != "abcd" || err != tooBig {
		t.Errorf("replayed with an error: %q, %v", got, err)
	}
	if got, err = io.ReadAll(ReplayBody([]byte(`{"a":1}`), nil)); string(got) != `{"a":1}` || err != nil {
		t.Errorf("replayed: %q, %v", got, err)
	}
	r := httptest.NewRequest("POST", "/card", nil)
	r.Header.Set("Content-Type", "application/json")
	r.Body = ReplayBody([]byte(`{"name":"x"}`), nil)
	if body, err := ReadBody(r); string(body) != `{"name":"x"}` || err != nil {
		t.Errorf("ReadBody of a replayed body: %q, %v", body, err)
	}
	r.Body = ReplayBody([]byte(`{"name":`), tooBig)
	if _, err := ReadBody(r); err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Errorf("ReadBody of a body over the limit: %v, want 413", err)
	}
}
