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
		rt.record(r, &web.Info{Route: "card.create", RequestID: fmt.Sprint(i)}, []byte(`{"pan":"4111111111111111"}`), rec, time.Now(), time.Now())
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
	if e.Key == "sk_sandbox_secretkey" || !strings.Contains(string(e.Request), "…") || strings.Contains(string(e.Request), "4111111111111111") {
		t.Fatalf("secrets not masked: key %q, request %s", e.Key, e.Request)
	}
	rt.clearJournal()
	recordN(rt, 0, 3, []byte(`{}`))
	if len(rt.journal) != 3 || rt.newest(0).response == nil || rt.bodyBytes != 3*(2+len(`{"pan":"4111111111111111"}`)) {
		t.Fatalf("after a clear: %d entries, %d body bytes", len(rt.journal), rt.bodyBytes)
	}
}
