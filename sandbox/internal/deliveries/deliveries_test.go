package deliveries_test

import (
	"slices"
	"testing"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/cards"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/deliveries"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/enginetest"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
)

func mustWebhook(t *testing.T, w *kernel.World, id string) *deliveries.Webhook {
	t.Helper()
	var hook *deliveries.Webhook
	err := w.View(func(op *kernel.Op) error {
		var ok bool
		var err error
		hook, ok, err = deliveries.LoadWebhook(op, id)
		if !ok {
			t.Fatalf("webhook %s missing", id)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return hook
}

// demoRefusing is the demo's endpoint that refuses every delivery: its
// retries come due as these tests advance the clock, and are not theirs.
const demoRefusing = "webhook_acmeerp"

// dueOwn lists the deliveries due, but for the demo's refusing endpoint's.
func dueOwn(t *testing.T, w *kernel.World) []deliveries.DueDelivery {
	t.Helper()
	due, err := deliveries.DueDeliveries(w, 10)
	if err != nil {
		t.Fatal(err)
	}
	return slices.DeleteFunc(due, func(d deliveries.DueDelivery) bool { return d.WebhookID == demoRefusing })
}

// attemptDue records one attempt for the single due delivery.
func attemptDue(t *testing.T, w *kernel.World, status int) *deliveries.WebhookDelivery {
	t.Helper()
	due := dueOwn(t, w)
	if len(due) != 1 {
		t.Fatalf("%d deliveries due, want 1: %+v", len(due), due)
	}
	d, err := deliveries.RecordDeliveryAttempt(w, due[0].ID,
		deliveries.AttemptResult{SentAt: w.Now(), URL: due[0].URL, ResponseStatus: status})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestRetryDelayIsTheDocumentedSchedule(t *testing.T) {
	// The intervals the real service published, in seconds.
	want := []float64{0.5, 2.5, 12.5, 62.5, 312.5, 1562.5, 7812.5, 39062.5, 195312.5, 976562.5, 4882812.5, 24414062.5}
	if deliveries.MaxAttempts != len(want)+1 {
		t.Fatalf("MaxDeliveryAttempts = %d, want %d (the first attempt and 12 retries)", deliveries.MaxAttempts,
			len(want)+1)
	}
	for i, secs := range want {
		if got := deliveries.RetryDelay(i + 1); got != time.Duration(secs*float64(time.Second)) {
			t.Errorf("RetryDelay(%d) = %s, want %gs", i+1, got, secs)
		}
	}
}

func TestEndpointBackoffDoubles(t *testing.T) {
	for i, want := range []time.Duration{time.Hour, 2 * time.Hour, 4 * time.Hour, 8 * time.Hour, 16 * time.Hour} {
		if got := deliveries.EndpointBackoff(i + 1); got != want {
			t.Errorf("EndpointBackoff(%d) = %s, want %s", i+1, got, want)
		}
	}
}

// failDelivery fails the due delivery on every attempt it has left,
// advancing the clock to each retry, and returns it failed.
func failDelivery(t *testing.T, w *kernel.World) *deliveries.WebhookDelivery {
	t.Helper()
	d := attemptDue(t, w, 500)
	for len(d.Attempts) < deliveries.MaxAttempts {
		if d.Status != deliveries.StatusRetrying || d.NextAttemptAt == nil {
			t.Fatalf("after %d attempts: %+v", len(d.Attempts), d)
		}
		if _, err := w.Advance(*d.NextAttemptAt); err != nil {
			t.Fatal(err)
		}
		d = attemptDue(t, w, 503)
	}
	return d
}

func TestDeliveryRetriesBackOffAndDisable(t *testing.T) {
	w := enginetest.MustWorld(t, enginetest.MustScenario(t, "demo"))
	hook := enginetest.NewEndpoint(t, w)
	for i := range deliveries.DisableAfterFailures + 1 {
		card := "card_" + string(rune('a'+i))
		if _, err := deliveries.TriggerWebhook(w, hook.ID, deliveries.EventCardUpdate, card); err != nil {
			t.Fatal(err)
		}
	}
	start := w.Now()
	d := attemptDue(t, w, 500)
	if d.Status != deliveries.StatusRetrying || d.NextAttemptAt == nil ||
		!d.NextAttemptAt.Equal(start.Add(500*time.Millisecond)) {
		t.Fatalf("after one failure: %+v", d)
	}
	if h := mustWebhook(t, w, hook.ID); h.Status != deliveries.WebhookActive || h.BackingOffUntil != nil {
		t.Fatalf("endpoint = %+v, want active while a notification is retried", h)
	}
	if due := dueOwn(t, w); len(due) != 0 {
		t.Fatalf("a retrying delivery is due before its time: %+v", due)
	}
	if _, err := w.Advance(*d.NextAttemptAt); err != nil {
		t.Fatal(err)
	}
	for failed := 1; failed <= deliveries.DisableAfterFailures; failed++ {
		d = failDelivery(t, w)
		if d.Status != deliveries.StatusFailed || len(d.Attempts) != deliveries.MaxAttempts {
			t.Fatalf("delivery %d after %d attempts: %s", failed, len(d.Attempts), d.Status)
		}
		h := mustWebhook(t, w, hook.ID)
		if h.ConsecutiveFailures != failed {
			t.Fatalf("consecutive failures = %d, want %d", h.ConsecutiveFailures, failed)
		}
		if failed == deliveries.DisableAfterFailures {
			break
		}
		if want := w.Now().Add(deliveries.EndpointBackoff(failed)); h.Status != deliveries.WebhookBackingOff ||
			h.BackingOffUntil == nil ||
			!h.BackingOffUntil.Equal(want) {
			t.Fatalf("after permanent failure %d: %+v, want backing-off until %s", failed, h, want)
		}
		if due := dueOwn(t, w); len(due) != 0 {
			t.Fatalf("a backing-off endpoint has due deliveries: %+v", due)
		}
		if _, err := w.Advance(*h.BackingOffUntil); err != nil {
			t.Fatal(err)
		}
		if h := mustWebhook(t, w, hook.ID); h.Status != deliveries.WebhookActive || h.BackingOffUntil != nil {
			t.Fatalf("after the backoff: %+v", h)
		}
	}
	h := mustWebhook(t, w, hook.ID)
	if h.Status != deliveries.WebhookDisabled || h.DisabledAt == nil || h.BackingOffUntil != nil {
		t.Fatalf("after six permanent failures: %+v", h)
	}
	page, err := deliveries.List(w, deliveries.Filter{WebhookID: hook.ID, Status: deliveries.StatusQueued},
		kernel.PageRequest{})
	if err != nil || len(page.Items) == 0 || page.Items[0].EntityID != "card_g" {
		t.Fatalf("queued after disable: %d, %v; want card_g (then the settlements of the days spent retrying) first",
			len(page.Items), err)
	}
	err = w.Update(func(op *kernel.Op) error {
		_, err := deliveries.SetWebhookStatus(op, enginetest.ActorInOp(t, op, "sk_sandbox_acme"), hook.ID,
			deliveries.WebhookActive, "fixed")
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if d := attemptDue(t, w, 204); d.EntityID != "card_g" || d.Status != deliveries.StatusSucceeded {
		t.Fatalf("replayed delivery = %+v", d)
	}
	if h := mustWebhook(t, w, hook.ID); h.Status != deliveries.WebhookActive || h.ConsecutiveFailures != 0 ||
		h.DisabledAt != nil {
		t.Fatalf("re-enabled endpoint = %+v", h)
	}
}

func TestPausedEndpointQueuesAndArchiveCancels(t *testing.T) {
	w := enginetest.MustWorld(t, enginetest.MustScenario(t, "demo"))
	hook := enginetest.NewEndpoint(t, w)
	setStatus := func(status string) {
		t.Helper()
		err := w.Update(func(op *kernel.Op) error {
			_, err := deliveries.SetWebhookStatus(op, enginetest.ActorInOp(t, op, "sk_sandbox_acme"), hook.ID, status, "")
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	setStatus(deliveries.WebhookPaused)
	if _, err := w.Advance(w.Now().Add(23 * time.Hour)); err != nil {
		t.Fatal(err)
	}
	page, err := deliveries.List(w, deliveries.Filter{WebhookID: hook.ID}, kernel.PageRequest{})
	if err != nil || len(page.Items) == 0 {
		t.Fatalf("settlements queued nothing: %v", err)
	}
	for _, d := range page.Items {
		if d.Status != deliveries.StatusQueued || d.Event != deliveries.EventTransactionUpdate {
			t.Fatalf("delivery for a paused endpoint = %+v", d)
		}
	}
	if due := dueOwn(t, w); len(due) != 0 {
		t.Fatalf("paused endpoint has due deliveries: %+v", due)
	}
	setStatus(deliveries.WebhookActive)
	if d := attemptDue(t, w, 200); d.ID != page.Items[0].ID {
		t.Fatalf("first replayed = %s, want the oldest %s", d.ID, page.Items[0].ID)
	}
	setStatus(deliveries.WebhookArchived)
	if due := dueOwn(t, w); len(due) != 0 {
		t.Fatalf("archived endpoint has due deliveries: %+v", due)
	}
	left, _ := deliveries.List(w, deliveries.Filter{WebhookID: hook.ID, Status: deliveries.StatusCanceled},
		kernel.PageRequest{})
	if len(left.Items) != len(page.Items)-1 {
		t.Fatalf("%d canceled, want %d", len(left.Items), len(page.Items)-1)
	}
	if _, err := deliveries.TriggerWebhook(w, hook.ID, deliveries.EventCardUpdate, "card_x"); err == nil {
		t.Fatal("triggering an archived endpoint succeeded")
	}
}

func TestFallbackRules(t *testing.T) {
	v := func(n int64) *int64 { return &n }
	big := &cards.AuthorizationCondition{Operator: "gt", Field: "amountCents", Value: v(10000)}
	us := &cards.AuthorizationCondition{Operator: "in", Field: "merchantCountry", Values: []string{"US", "CA"}}
	saas := &cards.AuthorizationCondition{Operator: "in", Field: "merchantCategoryCode", Values: []string{"5734"}}
	req := cards.AuthorizationEvent{AmountCents: -2500, MerchantCountry: "us", MerchantCategoryCode: "5734"}
	for _, c := range []struct {
		name string
		cfg  cards.AuthorizationConfig
		req  cards.AuthorizationEvent
		want bool
	}{
		{"reject always declines", cards.AuthorizationConfig{FallbackBehavior: cards.FallbackReject}, req, false},
		{"default without when continues", cards.AuthorizationConfig{FallbackBehavior: cards.FallbackDefault}, req, true},
		{"amount compares absolute cents", cards.AuthorizationConfig{FallbackBehavior: cards.FallbackDefault,
			When: &cards.AuthorizationCondition{Operator: "lte", Field: "amountCents", Value: v(2500)}}, req, true},
		{"not matching declines", cards.AuthorizationConfig{FallbackBehavior: cards.FallbackDefault, When: big}, req, false},
		{"and of two matches", cards.AuthorizationConfig{FallbackBehavior: cards.FallbackDefault,
			When: &cards.AuthorizationCondition{Operator: "and", Left: us, Right: saas}}, req, true},
		{"or with one match", cards.AuthorizationConfig{FallbackBehavior: cards.FallbackDefault,
			When: &cards.AuthorizationCondition{Operator: "or", Left: big, Right: us}}, req, true},
		{"missing field is false", cards.AuthorizationConfig{FallbackBehavior: cards.FallbackDefault, When: us},
			cards.AuthorizationEvent{AmountCents: 100}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := c.cfg.FallbackApproves(c.req); got != c.want {
				t.Fatalf("FallbackApproves = %v, want %v", got, c.want)
			}
		})
	}
}

func TestAuthorizationConfigProblems(t *testing.T) {
	v := int64(5)
	for _, c := range []struct {
		name string
		cfg  cards.AuthorizationConfig
		at   string
	}{
		{"missing behaviour", cards.AuthorizationConfig{}, "/config/fallbackBehavior"},
		{"when with reject", cards.AuthorizationConfig{FallbackBehavior: cards.FallbackReject,
			When: &cards.AuthorizationCondition{}}, "/config/when"},
		{"unknown operator", cards.AuthorizationConfig{FallbackBehavior: cards.FallbackDefault,
			When: &cards.AuthorizationCondition{Operator: "ne", Field: "amountCents", Value: &v}}, "/config/when/operator"},
		{"and without right", cards.AuthorizationConfig{FallbackBehavior: cards.FallbackDefault,
			When: &cards.AuthorizationCondition{Operator: "and", Left: &cards.AuthorizationCondition{Operator: "eq",
				Field: "amountCents", Value: &v}}},
			"/config/when/right"},
		{"in on amount", cards.AuthorizationConfig{FallbackBehavior: cards.FallbackDefault,
			When: &cards.AuthorizationCondition{Operator: "in", Field: "amountCents", Values: []string{"1"}}},
			"/config/when/field"},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := map[string]string{}
			c.cfg.Problems("/config", d)
			if _, ok := d[c.at]; !ok {
				t.Fatalf("problems = %v, want one at %s", d, c.at)
			}
		})
	}
}

func TestSuccessResetsTheBackoffCycle(t *testing.T) {
	w := enginetest.MustWorld(t, enginetest.MustScenario(t, "demo"))
	hook := enginetest.NewEndpoint(t, w)
	for _, card := range []string{"card_a", "card_b"} {
		if _, err := deliveries.TriggerWebhook(w, hook.ID, deliveries.EventCardUpdate, card); err != nil {
			t.Fatal(err)
		}
	}
	failDelivery(t, w)
	h := mustWebhook(t, w, hook.ID)
	if h.ConsecutiveFailures != 1 || h.Status != deliveries.WebhookBackingOff {
		t.Fatalf("after a permanent failure: %+v", h)
	}
	if _, err := w.Advance(*h.BackingOffUntil); err != nil {
		t.Fatal(err)
	}
	if d := attemptDue(t, w, 204); d.EntityID != "card_b" || d.Status != deliveries.StatusSucceeded {
		t.Fatalf("delivery after the backoff = %+v", d)
	}
	if h := mustWebhook(t, w, hook.ID); h.ConsecutiveFailures != 0 || h.Status != deliveries.WebhookActive ||
		h.ResumeEventID != "" {
		t.Fatalf("after a success: %+v", h)
	}
}

func TestSigningSecretsCarryABase64Key(t *testing.T) {
	w := enginetest.MustWorld(t, enginetest.MustScenario(t, "demo"))
	err := w.Update(func(op *kernel.Op) error {
		for range 3 {
			secret, err := cards.SigningSecret(op)
			if err != nil {
				return err
			}
			if key, err := cards.AuthorizationSigningKey(secret); err != nil || len(key) != 24 {
				t.Errorf("secret %q: key of %d bytes, %v", secret, len(key), err)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"", "whsec_", "whsec_not base64!", "c2VjcmV0", "whsec_c2VjcmV0===="} {
		if _, err := cards.AuthorizationSigningKey(bad); err == nil {
			t.Errorf("AuthorizationSigningKey(%q) has a key", bad)
		}
	}
}

// A new card's event reaches every endpoint of its legal entity: the
// paused one keeps it queued, the one whose head waits for a retry queues
// it behind that head, and an endpoint with nothing queued sends it at
// once, with the next event queued behind it.
func TestCardEventsQueueBehindTheHead(t *testing.T) {
	w := enginetest.MustWorld(t, enginetest.MustScenario(t, "demo"))
	fresh := enginetest.NewEndpoint(t, w)
	newCard := func() string {
		t.Helper()
		var id string
		err := w.Update(func(op *kernel.Op) error {
			c, err := cards.Create(op, enginetest.ActorInOp(t, op, "sk_sandbox_acme"), cards.NewCard{Name: "Queue test"})
			if c != nil {
				id = c.ID
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	statusOf := func(webhookID, cardID string) string {
		t.Helper()
		page, err := deliveries.List(w,
			deliveries.Filter{WebhookID: webhookID, Event: deliveries.EventCardCreation}, kernel.PageRequest{Size: 100})
		if err != nil {
			t.Fatal(err)
		}
		var found []string
		for _, d := range page.Items {
			if d.EntityID == cardID {
				found = append(found, d.Status)
			}
		}
		if len(found) != 1 {
			t.Fatalf("%s has %d deliveries for %s, want 1", webhookID, len(found), cardID)
		}
		return found[0]
	}
	first, second := newCard(), newCard()
	for _, c := range []struct{ webhook, card, want string }{
		{"webhook_acmelocal", first, deliveries.StatusQueued},
		{demoRefusing, first, deliveries.StatusQueued},
		{demoRefusing, second, deliveries.StatusQueued},
		{fresh.ID, first, deliveries.StatusPending},
		{fresh.ID, second, deliveries.StatusQueued},
	} {
		if got := statusOf(c.webhook, c.card); got != c.want {
			t.Errorf("%s, delivery of %s: status %s, want %s", c.webhook, c.card, got, c.want)
		}
	}
	// The head still waits for its retry, the same one.
	page, err := deliveries.List(w, deliveries.Filter{WebhookID: demoRefusing},
		kernel.PageRequest{Size: 100})
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(page.Items,
		func(d deliveries.WebhookDelivery) bool { return d.EntityID == "txn_acmebluefinwire" })
	if i < 0 {
		t.Fatal("the refusing endpoint's first delivery is gone")
	}
	if head := page.Items[i]; head.Status != deliveries.StatusRetrying || head.RetryEventID == "" {
		t.Errorf("the refusing endpoint's head = %s (retry %q), want retrying", head.Status, head.RetryEventID)
	}
}
