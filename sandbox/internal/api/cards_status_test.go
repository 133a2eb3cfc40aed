package api_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/apitest"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/cards"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
)

// The card statuses as Slash's help center describes them:
// https://www.slash.com/help-center/corporate-cards/understanding-card-statuses
// (paused cards "can be unpaused at any time"; "Closed cards cannot be
// reopened"; "Only cards with an Active status can authorize transactions")
// and https://help.joinslash.com/en/articles/6380348-card-statuses
// ("Deleted cards cannot be reactivated"; inactive cards "can be
// reactivated"; every status "Can receive refunds" and stays "Visible").

// patchStatus sends PATCH /card/{id} {"status": to} with acme's key.
func patchStatus(e *apitest.Env, id, to string) *apitest.Resp {
	return e.Do(apitest.Req{Method: http.MethodPatch, Path: "/card/" + id, Key: apitest.AcmeKey,
		Body: `{"status":"` + to + `"}`})
}

// deactivate makes a card inactive as Slash does (a plan with fewer cards,
// a frozen account): no request of the API does it.
func deactivate(t *testing.T, e *apitest.Env, id string) {
	t.Helper()
	err := e.Engine.Default().Update(func(op *kernel.Op) error {
		c, _, err := cards.ByID(op, id)
		if err != nil {
			return err
		}
		c.Status = cards.StatusInactive
		return op.Save(cards.Kind, c.ID, c, cards.Indexes(c)...)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// cardIn makes a new card of acme in a status.
func cardIn(t *testing.T, e *apitest.Env, status string) string {
	t.Helper()
	id := apitest.CreateTestCard(t, e, `{"type":"virtual","name":"Status `+status+`"}`).ID
	switch status {
	case cards.StatusPaused, cards.StatusClosed:
		patchStatus(e, id, status).Status(t, 200)
	case cards.StatusInactive:
		deactivate(t, e, id)
	}
	return id
}

func TestCardStatusTransitions(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	allowed := map[[2]string]bool{
		// Pause and unpause at will; setting the same status changes nothing.
		{"active", "active"}: true, {"active", "paused"}: true, {"paused", "active"}: true, {"paused", "paused"}: true,
		// Close (delete) a card that is not closed.
		{"active", "closed"}: true, {"paused", "closed"}: true, {"inactive", "closed"}: true,
		// An inactive card can be reactivated.
		{"inactive", "active"}: true, {"inactive", "inactive"}: true,
		{"closed", "closed"}: true,
	}
	for _, from := range cards.Statuses {
		for _, to := range cards.Statuses {
			t.Run(from+" to "+to, func(t *testing.T) {
				id := cardIn(t, e, from)
				r := patchStatus(e, id, to)
				if allowed[[2]string{from, to}] {
					var got apitest.CardJSON
					r.Status(t, 200).Decode(t, &got)
					if got.Status != to {
						t.Fatalf("status = %s, want %s", got.Status, to)
					}
					return
				}
				m := r.Gen1(t, 400, "invalid_request")
				msg, _ := m["message"].(string)
				if !strings.Contains(msg, "from "+from+" to "+to) || !strings.Contains(msg, id) {
					t.Fatalf("message %q does not name the card and the transition", msg)
				}
				if d, _ := m["meta"].(map[string]any)["details"].(map[string]any); d["/status"] == nil {
					t.Fatalf("details %v lack /status", d)
				}
				if got := apitest.ReadCard(t, e, id, "").Status; got != from {
					t.Fatalf("refused transition left the card %s, want %s", got, from)
				}
			})
		}
	}
}

func TestClosedCardCannotBeReopened(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	id := cardIn(t, e, cards.StatusClosed)
	m := patchStatus(e, id, "active").Gen1(t, 400, "invalid_request")
	if msg, _ := m["message"].(string); !strings.Contains(msg, "a closed card cannot be reopened") {
		t.Fatalf("message %q does not say why", msg)
	}
	// The refusal holds beside other changes, which are not made either.
	e.Do(apitest.Req{Method: http.MethodPatch, Path: "/card/" + id, Key: apitest.AcmeKey,
		Body: `{"name":"Reopened","status":"active"}`}).Gen1(t, 400, "invalid_request")
	if c := apitest.ReadCard(t, e, id, ""); c.Status != "closed" || c.Name == "Reopened" {
		t.Fatalf("card after refused reopening: %+v", c)
	}
	apitest.WantDecision(t, apitest.Authorize(t, e, id, 1000, "merchant_v2_aws"), false, "card.status", "card_closed")
	// A closed card stays visible: in the list (its status filter too) and by id.
	for _, q := range []string{"/card", "/card?filter:status=closed"} {
		var page struct {
			Items []apitest.CardJSON `json:"items"`
		}
		e.Get(q, apitest.AcmeKey, "").Status(t, 200).Decode(t, &page)
		found := false
		for _, c := range page.Items {
			found = found || c.ID == id
		}
		if !found {
			t.Fatalf("GET %s does not list closed card %s", q, id)
		}
	}
}

func TestOnlyActiveCardsAuthorize(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	for _, status := range cards.Statuses {
		t.Run(status, func(t *testing.T) {
			s := apitest.Authorize(t, e, cardIn(t, e, status), 1000, "merchant_v2_aws")
			if status == cards.StatusActive {
				apitest.WantDecision(t, s, true, "standardAuthorization", "approved")
				return
			}
			apitest.WantDecision(t, s, false, "card.status", "card_"+status)
		})
	}
	t.Run("unpaused and reactivated cards authorize again", func(t *testing.T) {
		paused, inactive := cardIn(t, e, cards.StatusPaused), cardIn(t, e, cards.StatusInactive)
		for _, id := range []string{paused, inactive} {
			patchStatus(e, id, "active").Status(t, 200)
			apitest.WantDecision(t, apitest.Authorize(t, e, id, 1000, "merchant_v2_aws"), true, "standardAuthorization",
				"approved")
		}
	})
}

func TestPausedAndClosedCardsReceiveRefunds(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	for _, status := range []string{cards.StatusPaused, cards.StatusInactive, cards.StatusClosed} {
		t.Run(status, func(t *testing.T) {
			id := cardIn(t, e, cards.StatusActive)
			s := apitest.Authorize(t, e, id, 2500, "merchant_v2_aws")
			apitest.WantDecision(t, s, true, "standardAuthorization", "approved")
			apitest.NetworkEvent(e, `{"type":"clearing","transactionId":"`+s.Transaction.ID+`"}`).Status(t, 200)
			switch status {
			case cards.StatusInactive:
				deactivate(t, e, id)
			default:
				patchStatus(e, id, status).Status(t, 200)
			}
			var r apitest.SimJSON
			apitest.NetworkEvent(e, `{"type":"refund","transactionId":"`+s.Transaction.ID+`","amountCents":1000}`).
				Status(t, 200).
				Decode(t, &r)
			if r.Transaction.DetailedStatus != "refund" || r.Transaction.AmountCents != 1000 || r.Transaction.CardID != id {
				t.Fatalf("refund on a %s card: %+v", status, r.Transaction)
			}
			if got := apitest.ReadCard(t, e, id, "").Status; got != status {
				t.Fatalf("the refund changed the card's status to %s", got)
			}
		})
	}
}
