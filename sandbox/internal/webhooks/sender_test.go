package webhooks_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/deliveries"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/engine"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/enginetest"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/webhooks"
)

// demoWorld is the demo scenario's world in an engine of its own.
func demoWorld(t *testing.T) (*kernel.Engine, *kernel.World) {
	t.Helper()
	sc := enginetest.MustScenario(t, "demo")
	eng, err := engine.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	w, err := eng.CreateWorld(kernel.WorldSpec{Scenario: sc})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { eng.Close() })
	return eng, w
}

// received is one request a receiver got.
type received struct {
	header http.Header
	body   []byte
}

// receiver is a loopback endpoint answering each request with the next
// planned status; 0 means never answer (the client times out).
type receiver struct {
	*httptest.Server
	mu   sync.Mutex
	got  []received
	plan []int
}

func newReceiver(t *testing.T, plan ...int) *receiver {
	t.Helper()
	rc := &receiver{plan: plan}
	rc.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		rc.mu.Lock()
		rc.got = append(rc.got, received{header: r.Header.Clone(), body: body})
		status := http.StatusNoContent
		if n := len(rc.got); n <= len(rc.plan) {
			status = rc.plan[n-1]
		}
		rc.mu.Unlock()
		if status == 0 {
			<-r.Context().Done()
			return
		}
		w.WriteHeader(status)
		io.WriteString(w, "answer "+strconv.Itoa(status))
	}))
	t.Cleanup(rc.Close)
	return rc
}

func (rc *receiver) requests() []received {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]received(nil), rc.got...)
}

func endpoint(t *testing.T, w *kernel.World, url string) *deliveries.Webhook {
	t.Helper()
	var hook *deliveries.Webhook
	err := w.Update(func(op *kernel.Op) error {
		var err error
		hook, err = deliveries.CreateWebhook(op, enginetest.ActorInOp(t, op, "sk_sandbox_acme"),
			deliveries.WebhookInput{URL: url, Name: "Receiver"})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return hook
}

func settle(t *testing.T, s *webhooks.Sender, w *kernel.World) webhooks.Settled {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	out := s.Settle(ctx, w)
	if !out.Settled {
		t.Fatal("the sender did not settle")
	}
	return out
}

func TestSenderSignsRetriesOnTheVirtualClockAndTimesOut(t *testing.T) {
	eng, w := demoWorld(t)
	s := webhooks.Attach(eng, webhooks.Options{Timeout: 300 * time.Millisecond})
	rc := newReceiver(t, 500, 0, 204)
	hook := endpoint(t, w, rc.URL+"/hooks")
	start := w.Now()
	d, err := deliveries.TriggerWebhook(w, hook.ID, deliveries.EventCardUpdate, "card_x")
	if err != nil {
		t.Fatal(err)
	}
	settle(t, s, w)
	if _, err := w.Advance(start.Add(500 * time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	settle(t, s, w)
	if _, err := w.Advance(start.Add(3 * time.Second)); err != nil {
		t.Fatal(err)
	}
	out := settle(t, s, w)
	if len(out.Delivered) != 1 || out.Delivered[0].Status != deliveries.StatusSucceeded {
		t.Fatalf("last settle delivered %+v", out.Delivered)
	}
	pub, err := webhooks.PublicKey()
	if err != nil {
		t.Fatal(err)
	}
	got := rc.requests()
	if len(got) != 3 {
		t.Fatalf("receiver got %d requests, want 3", len(got))
	}
	for i, r := range got {
		if err := webhooks.Verify(pub, r.body, r.header.Get("slash-webhook-signature")); err != nil {
			t.Fatalf("request %d: signature does not verify: %v", i, err)
		}
		if r.header.Get("slash-webhook-attempt") != strconv.Itoa(i+1) || r.header.Get("slash-webhook-delivery-id") != d.ID {
			t.Fatalf("request %d headers = %v", i, r.header)
		}
	}
	final, err := deliveries.Delivery(w, d.ID)
	if err != nil {
		t.Fatal(err)
	}
	wantAt := []time.Time{start, start.Add(500 * time.Millisecond), start.Add(3 * time.Second)}
	for i, a := range final.Attempts {
		if !a.At.Equal(wantAt[i]) {
			t.Errorf("attempt %d at %s, want %s", i+1, a.At, wantAt[i])
		}
	}
	if a := final.Attempts[1]; a.ResponseStatus != 0 || a.Error == "" {
		t.Fatalf("timed-out attempt = %+v", a)
	}
	if final.Attempts[0].ResponseStatus != 500 || final.Attempts[0].ResponseBody != "answer 500" ||
		final.Status != deliveries.StatusSucceeded {
		t.Fatalf("delivery = %+v", final)
	}
}

func TestSettleWaitsForEveryDeliveryDueInOrder(t *testing.T) {
	eng, w := demoWorld(t)
	s := webhooks.Attach(eng, webhooks.Options{})
	rc := newReceiver(t)
	hook := endpoint(t, w, rc.URL)
	var ids []string
	for _, entity := range []string{"card_1", "card_2", "card_3"} {
		d, err := deliveries.TriggerWebhook(w, hook.ID, deliveries.EventCardUpdate, entity)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, d.ID)
	}
	out := settle(t, s, w)
	if len(out.Delivered) != 3 {
		t.Fatalf("settle delivered %d, want 3", len(out.Delivered))
	}
	for i, r := range rc.requests() {
		if got := r.header.Get("slash-webhook-delivery-id"); got != ids[i] {
			t.Fatalf("request %d carried %s, want %s (event order)", i, got, ids[i])
		}
	}
	if again := settle(t, s, w); len(again.Delivered) != 0 {
		t.Fatalf("a settle with nothing due delivered %+v", again.Delivered)
	}
}
