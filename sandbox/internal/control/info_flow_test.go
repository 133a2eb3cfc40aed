package control_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/apitest"
)

func queueACH(e *apitest.Env, idem, body string) *apitest.Resp {
	return e.Do(
		apitest.Req{
			Method: http.MethodPost,
			Path:   "/transfers/ach",
			Key:    "sk_sandbox_acme",
			Body:   body,
			Header: map[string]string{"X-Idempotency-Key": idem},
		},
	)
}

func txnStatus(t *testing.T, e *apitest.Env, id string) (string, string) {
	t.Helper()
	tx := e.Get("/transaction/"+id, "sk_sandbox_acme", "").Status(t, 200).JSON(t)
	return tx["detailedStatus"].(string), tx["description"].(string)
}

// TestInformationRequestWholeFlow walks the demo the sandbox is built for:
// request bank details, pay the contact before they answer, the contact
// fills the emailed form, and the queued ACH goes out and settles.
func TestInformationRequestWholeFlow(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	ir := apitest.CreateIR(
		e,
		"sk_sandbox_alice",
		"le_acme",
		"flow-1",
		`{"contactId":"le_c_pixelforge","requestedInformation":{"destinationTypes":["bank_account"]},"requesterName":"Alice`+
			` Chen","note":"For the logo work"}`,
	).Status(t, 200).
		JSON(t)
	irID := ir["id"].(string)
	avail0, posted0 := apitest.Balance(t, e, "sa_group_acmeoperating")

	q := queueACH(
		e,
		"pay-1",
		`{"accountId":"sa_group_acmeoperating","informationRequestId":"`+irID+`","amountCents":125000,"memo":"Logo"}`,
	).Status(t, 200).
		JSON(t)
	if q["queued"] != true || q["settlesAt"] != nil || q["informationRequestId"] != irID {
		t.Fatalf("queued ACH = %v", q)
	}
	txn := q["transactionId"].(string)
	if avail, posted := apitest.Balance(t, e, "sa_group_acmeoperating"); avail != avail0-125000 || posted != posted0 {
		t.Fatalf("held ACH: available %v (was %v), posted %v (was %v)", avail, avail0, posted, posted0)
	}
	apitest.Advance(t, e, `{"by":"5d"}`)
	if st, desc := txnStatus(t, e, txn); st != "pending" || !strings.Contains(desc, "awaiting bank details") {
		t.Fatalf("before the contact answered: %s %q", st, desc)
	}

	link, _ := apitest.OutboxLink(t, e, "hello@pixelforge.test")
	form := e.Do(apitest.Req{Path: link}).Status(t, 200)
	if !strings.Contains(string(form.Raw), "For the logo work") {
		t.Fatal("the form does not show the requester's note")
	}
	apitest.PostForm(e, link, url.Values{"bankAccount.holderName": {"Pixelforge Design"},
		"bankAccount.routingNumber": {"021000021"},
		"bankAccount.accountNumber": {"000555777999"}, "bankAccount.accountType": {"checking"},
		"bankAccount.bankName": {"Chase"}}).Status(t, 200)

	dests := e.Get("/contact/destination", "sk_sandbox_acme", "").Status(t, 200).JSON(t)["items"].([]any)
	var found bool
	for _, d := range dests {
		m := d.(map[string]any)
		if m["contactId"] == "le_c_pixelforge" && m["type"] == "bank_account" {
			found = true
		}
	}
	if !found {
		t.Fatalf("the submitted bank account is not listed: %v", dests)
	}
	if st, desc := txnStatus(t, e, txn); st != "pending" || desc != "ACH to Pixelforge Design" {
		t.Fatalf("released ACH: %s %q", st, desc)
	}
	apitest.Advance(t, e, `{"by":"4d"}`)
	if st, _ := txnStatus(t, e, txn); st != "settled" {
		t.Fatalf("after the ACH business days: %s", st)
	}
	if _, posted := apitest.Balance(t, e, "sa_group_acmeoperating"); posted > posted0-125000 {
		t.Fatalf("posted %v: the ACH of 125000 was not debited from %v", posted, posted0)
	}
	t.Run("a later ACH goes straight to the collected account", func(t *testing.T) {
		r := queueACH(
			e,
			"pay-2",
			`{"accountId":"sa_group_acmeoperating","informationRequestId":"`+irID+`","amountCents":1000}`,
		).Status(t, 200).
			JSON(t)
		if r["queued"] == true || r["settlesAt"] == nil {
			t.Fatalf("ACH on a submitted request = %v", r)
		}
	})
}

func TestCancelingARequestCancelsItsQueuedACH(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	ir := apitest.CreateIR(
		e,
		"sk_sandbox_alice",
		"le_acme",
		"cq",
		`{"contactId":"le_c_pixelforge","requestedInformation":{"destinationTypes":["bank_account"]},"requesterName":"A"}`,
	).Status(t, 200).
		JSON(t)
	irID := ir["id"].(string)
	avail0, posted0 := apitest.Balance(t, e, "sa_group_acmeoperating")
	q := queueACH(
		e,
		"cq-1",
		`{"accountId":"sa_group_acmeoperating","informationRequestId":"`+irID+`","amountCents":50000}`,
	).Status(t, 200).
		JSON(t)
	e.Do(apitest.Req{Method: http.MethodPost, Path: "/_sandbox/information-requests/" + irID + "/cancel"}).Status(t, 200)
	if st, _ := txnStatus(t, e, q["transactionId"].(string)); st != "canceled" {
		t.Fatalf("queued ACH after cancel: %s", st)
	}
	if avail, posted := apitest.Balance(t, e, "sa_group_acmeoperating"); avail != avail0 || posted != posted0 {
		t.Fatalf("money moved: available %v/%v posted %v/%v", avail, avail0, posted, posted0)
	}
	t.Run("refusals", func(t *testing.T) {
		queueACH(
			e,
			"cq-2",
			`{"accountId":"sa_group_acmeoperating","informationRequestId":"`+irID+`","amountCents":100}`,
		).Gen1(t, 400, "invalid_request")
		taxOnly := apitest.CreateIR(
			e,
			"sk_sandbox_alice",
			"le_acme",
			"cq-t",
			`{"contactId":"le_c_danaconsulting","requestedInformation":{"tax":true},"requesterName":"A"}`,
		).Status(t, 200).
			JSON(t)
		queueACH(
			e,
			"cq-3",
			`{"accountId":"sa_group_acmeoperating","informationRequestId":"`+taxOnly["id"].(string)+`","amountCents":100}`,
		).Gen1(t, 400, "invalid_request")
		queueACH(
			e,
			"cq-4",
			`{"accountId":"sa_group_acmeoperating","informationRequestId":"le_c_info_req_nope","amountCents":100}`,
		).Gen1(t, 404, "not_found")
		queueACH(
			e,
			"cq-5",
			`{"accountId":"sa_group_acmeoperating","informationRequestId":"x","destinationId":"y","amountCents":100}`,
		).Gen1(t, 400, "invalid_request")
		e.Do(apitest.Req{Method: http.MethodPost, Path: "/transfers/wire", Key: "sk_sandbox_acme",
			Body:   `{"accountId":"sa_group_acmeoperating","informationRequestId":"` + irID + `","amountCents":100}`,
			Header: map[string]string{"X-Idempotency-Key": "cq-6"}}).
			Gen1(t, 400, "invalid_request")
	})
}
