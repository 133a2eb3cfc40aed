package traffic

import (
	"bytes"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/web"
)

func recordN(rt *worldRuntime, from, n int, body []byte) {
	for i := from; i < from+n; i++ {
		r := httptest.NewRequest("POST", fmt.Sprintf("/card?n=%d", i), nil)
		r.Header.Set("X-API-Key", "sk_sandbox_secretkey")
		rec := &recorder{status: 201, body: body}
		rt.record(
			r,
			&web.Info{Route: "card.create", RequestID: fmt.Sprint(i)},
			[]byte(`{"pan":"4111111111111111"}`),
			rec,
			time.Now(),
			time.Now(),
		)
	}
}

func TestJournalIsARingWithABodyBudget(t *testing.T) {
	rt := &worldRuntime{}
	big := bytes.Repeat([]byte("x"), journalBodyCap)
	recordN(rt, 0, JournalCap+250, big)
	if len(rt.journal) != JournalCap {
		t.Fatalf("%d entries kept, want %d", len(rt.journal), JournalCap)
	}
	for i := range JournalCap {
		if got, want := rt.newest(i).requestID, fmt.Sprint(JournalCap+250-1-i); got != want {
			t.Fatalf("newest(%d) is request %s, want %s", i, got, want)
		}
	}
	total := 0
	for i := range rt.journal {
		total += rt.journal[i].bodySize()
	}
	if total != rt.bodyBytes || total > journalBodyBudget {
		t.Fatalf("bodies kept: %d bytes (counted %d), budget %d", total, rt.bodyBytes, journalBodyBudget)
	}
	if rt.newest(0).response == nil || rt.newest(JournalCap-1).response != nil {
		t.Fatal("the newest entries must keep their bodies and the oldest lose theirs")
	}
	e := rt.newest(0).entry()
	if e.Key == "sk_sandbox_secretkey" || !strings.Contains(string(e.Request), "…") ||
		strings.Contains(string(e.Request), "4111111111111111") {
		t.Fatalf("secrets not masked: key %q, request %s", e.Key, e.Request)
	}
	rt.clearJournal()
	recordN(rt, 0, 3, []byte(`{}`))
	if len(rt.journal) != 3 || rt.newest(0).response == nil || rt.bodyBytes != 3*(2+len(`{"pan":"4111111111111111"}`)) {
		t.Fatalf("after a clear: %d entries, %d body bytes", len(rt.journal), rt.bodyBytes)
	}
}

// TestJournalKeepsOnlyTheStartOfALargeBody: the journal keeps a copy of
// the start of a body longer than it keeps, not the body itself, which it
// would otherwise hold whole for as long as the entry lives.
func TestJournalKeepsOnlyTheStartOfALargeBody(t *testing.T) {
	rt := &worldRuntime{}
	body := bytes.Repeat([]byte("x"), 1<<20)
	r := httptest.NewRequest("POST", "/_sandbox/worlds", nil)
	rt.record(r, &web.Info{Route: "sandbox.worlds.create"}, body, &recorder{status: 400}, time.Now(), time.Now())
	if kept := rt.newest(0).request; len(kept) != journalBodyCap || cap(kept) > journalBodyCap {
		t.Fatalf("kept %d bytes of a buffer of %d, want %d of their own", len(kept), cap(kept), journalBodyCap)
	}
}

// TestLargeBodyIsNotReadAhead: a body larger than a JSON request (a
// snapshot file) is left for the handler to read, or to refuse unread;
// the journal keeps the start of what the handler read.
func TestLargeBodyIsNotReadAhead(t *testing.T) {
	body := &countingReader{r: strings.NewReader(strings.Repeat("y", 2<<20))}
	r := httptest.NewRequest("POST", "/_sandbox/snapshots/import", body)
	r.ContentLength = 2 << 20
	got, tee := peekBody(r)
	if got != nil || tee == nil || body.n != 0 {
		t.Fatalf("peekBody read %d bytes ahead of the handler", body.n)
	}
	buf := make([]byte, 100)
	if _, err := r.Body.Read(buf); err != nil {
		t.Fatal(err)
	}
	if string(tee.kept) != strings.Repeat("y", 100) {
		t.Fatalf("the journal kept %q of what the handler read", tee.kept)
	}
}

type countingReader struct {
	r *strings.Reader
	n int
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}
