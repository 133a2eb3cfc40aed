package control_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/client"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/apitest"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/deliveries"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/webhooks"
)

// TestClientKnowsEveryEventType tests that the client's list of event
// types, which the command line checks --events against, is the engine's.
func TestClientKnowsEveryEventType(t *testing.T) {
	if !slices.Equal(client.WebhookEventTypes, deliveries.EventTypes) {
		t.Fatalf("client.WebhookEventTypes = %v, want %v", client.WebhookEventTypes, deliveries.EventTypes)
	}
}

// triggeredJSON is the answer of POST /_sandbox/events/trigger.
type triggeredJSON struct {
	Event         string   `json:"event"`
	EventID       string   `json:"eventId"`
	EntityID      string   `json:"entityId"`
	LegalEntityID string   `json:"legalEntityId"`
	Actions       []string `json:"actions"`
	Events        []struct {
		EventID  string `json:"eventId"`
		Event    string `json:"event"`
		EntityID string `json:"entityId"`
	} `json:"events"`
	Deliveries []apitest.DeliveryJSON `json:"deliveries"`
}

func triggerEvent(t *testing.T, e *apitest.Env, body map[string]string) triggeredJSON {
	t.Helper()
	var out triggeredJSON
	e.Do(apitest.Req{Method: http.MethodPost, Path: "/_sandbox/events/trigger", Body: body}).
		Status(t, 201).
		Decode(t, &out)
	return out
}

// raised lists the event types an answer says were raised, in order.
func (tr triggeredJSON) raised() []string {
	var out []string
	for _, ev := range tr.Events {
		out = append(out, ev.Event)
	}
	return out
}

func TestEventTriggerReachesEndpoints(t *testing.T) {
	t.Parallel()
	e := apitest.NewHookEnv(t, webhooks.Options{})
	rc := apitest.NewHookReceiver(t, e)
	hook := apitest.CreateHook(t, e, rc.URL)
	cases := []struct {
		event  string
		raised []string
		// path reads the entity through the public API; want is a piece of
		// its body that shows the action happened.
		path, want string
	}{
		{"card_creation.event", []string{"card_creation.event"}, "/card/", `"name":"slash-sandbox trigger"`},
		{
			"card.update",
			[]string{"card_creation.event", "card.update"},
			"/card/",
			`"name":"slash-sandbox trigger (updated)"`,
		},
		{"card.delete", []string{"card_creation.event", "card.update", "card.delete"}, "/card/", `"status":"closed"`},
		{
			"aggregated_transaction.create",
			[]string{"card_creation.event", "aggregated_transaction.create"},
			"/transaction/",
			`"detailedStatus":"pending"`,
		},
		{
			"aggregated_transaction.update",
			[]string{"card_creation.event", "aggregated_transaction.create", "aggregated_transaction.update"},
			"/transaction/",
			`"detailedStatus":"settled"`,
		},
		{
			"expense_report.create",
			[]string{"expense_report.create"},
			"/expense-report/",
			`"memo":"Raised by slash-sandbox trigger"`,
		},
		{
			"expense_report.update",
			[]string{"expense_report.create", "expense_report.update"},
			"/expense-report/",
			`"memo":"Raised by slash-sandbox trigger (updated)"`,
		},
	}
	for _, c := range cases {
		t.Run(c.event, func(t *testing.T) {
			tr := triggerEvent(t, e, map[string]string{"event": c.event})
			if tr.Event != c.event || tr.LegalEntityID != "le_acme" || tr.EventID == "" || tr.EntityID == "" ||
				len(tr.Actions) == 0 {
				t.Fatalf("trigger = %+v", tr)
			}
			if got := tr.raised(); !slices.Equal(got, c.raised) {
				t.Fatalf("raised %v, want %v", got, c.raised)
			}
			last := tr.Events[len(tr.Events)-1]
			if last.EventID != tr.EventID || last.EntityID != tr.EntityID {
				t.Fatalf("last event %+v is not the one asked for (%s %s)", last, tr.EventID, tr.EntityID)
			}
			// Every event goes to the three endpoints of le_acme: the new
			// one, the demo's paused one, which keeps it queued, and its
			// failing one, which queues it behind the delivery it retries.
			if len(tr.Deliveries) != 3*len(c.raised) {
				t.Fatalf("%d deliveries queued, want %d: %+v", len(tr.Deliveries), 3*len(c.raised), tr.Deliveries)
			}
			for _, d := range tr.Deliveries {
				if d.Source != "event" ||
					!slices.Contains([]string{hook.ID, "webhook_acmelocal", "webhook_acmeerp"}, d.WebhookID) {
					t.Fatalf("delivery %+v", d)
				}
			}
			apitest.SettleHooks(t, e)
			var got []apitest.Delivered
			for _, d := range rc.Received() {
				if d.Payload.EventID == tr.EventID {
					got = append(got, d)
				}
			}
			if len(got) != 1 || got[0].Payload.Event != c.event || got[0].Payload.EntityID != tr.EntityID ||
				got[0].Header.Get("slash-webhook-event") != c.event {
				t.Fatalf("receiver got %+v for event %s", got, tr.EventID)
			}
			ds := apitest.Deliveries(t, e, "webhookId="+hook.ID+"&event="+c.event)
			if d := ds[len(ds)-1]; d.EventID != tr.EventID || d.EntityID != tr.EntityID || d.Status != "succeeded" {
				t.Fatalf("last %s delivery = %+v", c.event, d)
			}
			body := e.Get(c.path+tr.EntityID, "sk_sandbox_acme", "").Status(t, 200).Raw
			if !strings.Contains(string(body), c.want) {
				t.Fatalf("GET %s%s = %s, want %s", c.path, tr.EntityID, body, c.want)
			}
		})
	}
}

func TestEventTriggerOnNamedEntities(t *testing.T) {
	t.Parallel()
	e := apitest.NewHookEnv(t, webhooks.Options{})
	rc := apitest.NewHookReceiver(t, e)
	hook := apitest.CreateHook(t, e, rc.URL)
	t.Run("card.update saves a named card unchanged", func(t *testing.T) {
		before := e.Get("/card/card_acmeaws", "sk_sandbox_acme", "").Status(t, 200).JSON(t)
		tr := triggerEvent(t, e, map[string]string{"event": "card.update", "entityId": "card_acmeaws"})
		if tr.EntityID != "card_acmeaws" || !slices.Equal(tr.raised(), []string{"card.update"}) {
			t.Fatalf("trigger = %+v", tr)
		}
		after := e.Get("/card/card_acmeaws", "sk_sandbox_acme", "").Status(t, 200).JSON(t)
		if after["name"] != before["name"] || after["status"] != before["status"] {
			t.Fatalf("card changed: %v → %v", before, after)
		}
	})
	t.Run("a purchase on another legal entity's card reaches only its endpoints", func(t *testing.T) {
		tr := triggerEvent(
			t,
			e,
			map[string]string{"event": "aggregated_transaction.create", "entityId": "card_globexfuel1"},
		)
		if tr.LegalEntityID != "le_globex" || len(tr.Deliveries) != 0 ||
			!slices.Equal(tr.raised(), []string{"aggregated_transaction.create"}) {
			t.Fatalf("trigger = %+v", tr)
		}
		apitest.SettleHooks(t, e)
		for _, d := range rc.Received() {
			if d.Payload.EventID == tr.EventID {
				t.Fatalf("le_acme's endpoint %s got le_globex's event", hook.ID)
			}
		}
	})
	t.Run("aggregated_transaction.update clears a named pending purchase", func(t *testing.T) {
		made := triggerEvent(
			t,
			e,
			map[string]string{"event": "aggregated_transaction.create", "entityId": "card_acmeoffice"},
		)
		tr := triggerEvent(t, e, map[string]string{"event": "aggregated_transaction.update", "entityId": made.EntityID})
		if tr.EntityID != made.EntityID || !slices.Equal(tr.raised(), []string{"aggregated_transaction.update"}) {
			t.Fatalf("trigger = %+v", tr)
		}
		if m := e.Get("/transaction/"+made.EntityID, "sk_sandbox_acme", "").Status(t,
			200).JSON(t); m["detailedStatus"] != "settled" {
			t.Fatalf("transaction = %v", m)
		}
	})
	t.Run("card_creation.event on a named account", func(t *testing.T) {
		tr := triggerEvent(t, e, map[string]string{"event": "card_creation.event", "entityId": "sa_group_acmecharge"})
		if m := e.Get("/card/"+tr.EntityID, "sk_sandbox_acme", "").Status(t,
			200).JSON(t); m["accountId"] != "sa_group_acmecharge" {
			t.Fatalf("card = %v", m)
		}
	})
	t.Run("expense_report.create for a named member", func(t *testing.T) {
		tr := triggerEvent(t, e, map[string]string{"event": "expense_report.create", "entityId": "u_bob"})
		var got struct {
			ExpenseReport struct {
				SubmittedByUserID string `json:"submittedByUserId"`
			} `json:"expenseReport"`
		}
		if e.Get("/expense-report/"+tr.EntityID, "sk_sandbox_acme", "").Status(t, 200).Decode(t,
			&got); got.ExpenseReport.SubmittedByUserID != "u_bob" {
			t.Fatalf("expense report = %+v", got)
		}
	})
}

func TestEventTriggerRefusals(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	post := func(body map[string]string) *apitest.Resp {
		return e.Do(apitest.Req{Method: http.MethodPost, Path: "/_sandbox/events/trigger", Body: body})
	}
	refused := func(event string) (message, valid string) {
		t.Helper()
		r := post(map[string]string{"event": event})
		d := r.Gen2(t, 400, "invalid_request")
		return r.JSON(t)["message"].(string), d["/event"]
	}
	t.Run("a near miss is refused with a suggestion and the valid types", func(t *testing.T) {
		for typo, meant := range map[string]string{"card.updated": "card.update",
			"transaction.create":   "aggregated_transaction.create",
			"expense_report.creat": "expense_report.create", "card_creation": "card_creation.event"} {
			message, valid := refused(typo)
			if want := `"` + typo + `" is not a webhook event type; did you mean "` + meant + `"?`; message != want {
				t.Errorf("message = %q, want %q", message, want)
			}
			if valid != "must be one of card.update, card.delete, card_creation.event, aggregated_transaction.create,"+
				" aggregated_transaction.update, expense_report.create, expense_report.update" {
				t.Errorf("details /event = %q", valid)
			}
		}
	})
	t.Run("an unrelated name has no suggestion", func(t *testing.T) {
		if message, _ := refused("invoice.paid"); message != `"invoice.paid" is not a webhook event type` {
			t.Fatalf("message = %q", message)
		}
	})
	t.Run("a missing event", func(t *testing.T) {
		if d := post(map[string]string{}).Gen2(t, 400, "invalid_request"); !strings.HasPrefix(d["/event"], "required") {
			t.Fatalf("details = %v", d)
		}
	})
	t.Run("an unknown entity", func(t *testing.T) {
		if d := post(map[string]string{"event": "card.update", "entityId": "card_nope"}).Gen2(t, 404,
			"not_found"); d["field"] != "entityId" {
			t.Fatalf("details = %v", d)
		}
	})
	t.Run("an entity of another legal entity than the one named", func(t *testing.T) {
		d := post(
			map[string]string{"event": "card.update", "entityId": "card_globexfuel1", "legalEntityId": "le_acme"},
		).Gen2(t, 400, "invalid_request")
		if !strings.Contains(d["/legalEntityId"], "belongs to le_globex") {
			t.Fatalf("details = %v", d)
		}
	})
	t.Run("an unknown legal entity", func(t *testing.T) {
		post(map[string]string{"event": "card_creation.event", "legalEntityId": "le_nope"}).Gen2(t, 404, "not_found")
	})
	t.Run("closing a closed card", func(t *testing.T) {
		post(map[string]string{"event": "card.delete", "entityId": "card_acmeoldlaptop"}).Gen2(t, 409, "conflict")
	})
	t.Run("clearing what is not a card purchase", func(t *testing.T) {
		var list struct {
			Items []struct {
				ID       string `json:"id"`
				Category string `json:"category"`
			} `json:"items"`
		}
		e.Get("/transaction", "sk_sandbox_acme", "").Status(t, 200).Decode(t, &list)
		i := slices.IndexFunc(list.Items, func(x struct {
			ID       string `json:"id"`
			Category string `json:"category"`
		}) bool {
			return x.Category != "card"
		})
		if i < 0 {
			t.Fatal("no transaction other than a card purchase in the demo")
		}
		d := post(
			map[string]string{"event": "aggregated_transaction.update", "entityId": list.Items[i].ID},
		).Gen2(t, 400, "invalid_request")
		if !strings.Contains(d["/entityId"], "is not a card purchase") {
			t.Fatalf("details = %v", d)
		}
	})
}

// TestEventTriggerKeepsNothingWhenRefused tests that a trigger refused
// after its first action (the purchase to settle is declined for want of
// funds) leaves no trace: no card, no transaction, no event, no delivery.
func TestEventTriggerKeepsNothingWhenRefused(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{Scenario: "empty"})
	e.Do(apitest.Req{Method: http.MethodPost, Path: "/webhook", Key: "sk_test_empty_user", LE: "le_empty",
		Body: map[string]string{
			"url":           "http://127.0.0.1:9/hooks",
			"name":          "Receiver",
			"legalEntityId": "le_empty",
		}}).Status(t, 201)
	r := e.Do(
		apitest.Req{
			Method: http.MethodPost,
			Path:   "/_sandbox/events/trigger",
			Body:   map[string]string{"event": "aggregated_transaction.update"},
		},
	)
	r.Gen2(t, 409, "conflict")
	if msg := r.JSON(t)["message"].(string); !strings.Contains(msg, "declined") ||
		!strings.Contains(msg, "insufficient_funds") {
		t.Fatalf("message = %q", msg)
	}
	var cards struct {
		Items []map[string]any `json:"items"`
	}
	e.Get("/card", "sk_test_empty_user", "le_empty").Status(t, 200).Decode(t, &cards)
	if len(cards.Items) != 0 {
		t.Fatalf("a refused trigger left cards %v", cards.Items)
	}
	if ds := apitest.Deliveries(t, e, ""); len(ds) != 0 {
		t.Fatalf("a refused trigger left deliveries %+v", ds)
	}
	// The same world raises the event once it has the money.
	e.Do(apitest.Req{Method: http.MethodPost, Path: "/_sandbox/simulate/incoming-transfer",
		Body: map[string]any{"accountId": "sa_group_empty", "rail": "wire", "amountCents": 100000}}).Status(t, 201)
	e.Do(apitest.Req{Method: http.MethodPost, Path: "/_sandbox/clock/advance", Body: map[string]string{"by": "3d"}}).
		Status(t, 200)
	tr := triggerEvent(t, e, map[string]string{"event": "aggregated_transaction.update"})
	if tr.LegalEntityID != "le_empty" || len(tr.Deliveries) != 3 || len(tr.Events) != 3 {
		t.Fatalf("trigger = %+v", tr)
	}
}
