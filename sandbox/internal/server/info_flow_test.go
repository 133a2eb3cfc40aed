package server_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

func queueACH(e *env, idem, body string) *resp {
	return e.do(
		req{
			method: http.MethodPost,
			path:   "/transfers/ach",
			key:    "sk_sandbox_acme",
			body:   body,
			header: map[string]string{"X-Idempotency-Key": idem},
		},
	)
}

func txnStatus(t *testing.T, e *env, id string) (string, string) {
	t.Helper()
	tx := e.get("/transaction/"+id, "sk_sandbox_acme", "").status(t, 200).json(t)
	return tx["detailedStatus"].(string), tx["description"].(string)
}

// TestInformationRequestWholeFlow walks the demo the sandbox is built for:
// request bank details, pay the contact before they answer, the contact
// fills the emailed form, and the queued ACH goes out and settles.
func TestInformationRequestWholeFlow(t *testing.T) {
	e := newEnv(t, options{})
	ir := createIR(
		e,
		"sk_sandbox_alice",
		"le_acme",
		"flow-1",
		`{"contactId":"le_c_pixelforge","requestedInformation":{"destinationTypes":["bank_account"]},"requesterName":"Alice`+
			` Chen","note":"For the logo work"}`,
	).status(t, 200).
		json(t)
	irID := ir["id"].(string)
	avail0, posted0 := balance(t, e, "sa_group_acmeoperating")

	q := queueACH(
		e,
		"pay-1",
		`{"accountId":"sa_group_acmeoperating","informationRequestId":"`+irID+`","amountCents":125000,"memo":"Logo"}`,
	).status(t, 200).
		json(t)
	if q["queued"] != true || q["settlesAt"] != nil || q["informationRequestId"] != irID {
		t.Fatalf("queued ACH = %v", q)
	}
	txn := q["transactionId"].(string)
	if avail, posted := balance(t, e, "sa_group_acmeoperating"); avail != avail0-125000 || posted != posted0 {
		t.Fatalf("held ACH: available %v (was %v), posted %v (was %v)", avail, avail0, posted, posted0)
	}
	advance(t, e, `{"by":"5d"}`)
	if st, desc := txnStatus(t, e, txn); st != "pending" || !strings.Contains(desc, "awaiting bank details") {
		t.Fatalf("before the contact answered: %s %q", st, desc)
	}

	link, _ := outboxLink(t, e, "hello@pixelforge.test")
	form := e.do(req{path: link}).status(t, 200)
	if !strings.Contains(string(form.body), "For the logo work") {
		t.Fatal("the form does not show the requester's note")
	}
	postForm(e, link, url.Values{"bankAccount.holderName": {"Pixelforge Design"},
		"bankAccount.routingNumber": {"021000021"},
		"bankAccount.accountNumber": {"000555777999"}, "bankAccount.accountType": {"checking"},
		"bankAccount.bankName": {"Chase"}}).status(t, 200)

	dests := e.get("/contact/destination", "sk_sandbox_acme", "").status(t, 200).json(t)["items"].([]any)
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
	advance(t, e, `{"by":"4d"}`)
	if st, _ := txnStatus(t, e, txn); st != "settled" {
		t.Fatalf("after the ACH business days: %s", st)
	}
	if _, posted := balance(t, e, "sa_group_acmeoperating"); posted > posted0-125000 {
		t.Fatalf("posted %v: the ACH of 125000 was not debited from %v", posted, posted0)
	}
	t.Run("a later ACH goes straight to the collected account", func(t *testing.T) {
		r := queueACH(
			e,
			"pay-2",
			`{"accountId":"sa_group_acmeoperating","informationRequestId":"`+irID+`","amountCents":1000}`,
		).status(t, 200).
			json(t)
		if r["queued"] == true || r["settlesAt"] == nil {
			t.Fatalf("ACH on a submitted request = %v", r)
		}
	})
}

func TestCancelingARequestCancelsItsQueuedACH(t *testing.T) {
	e := newEnv(t, options{})
	ir := createIR(
		e,
		"sk_sandbox_alice",
		"le_acme",
		"cq",
		`{"contactId":"le_c_pixelforge","requestedInformation":{"destinationTypes":["bank_account"]},"requesterName":"A"}`,
	).status(t, 200).
		json(t)
	irID := ir["id"].(string)
	avail0, posted0 := balance(t, e, "sa_group_acmeoperating")
	q := queueACH(
		e,
		"cq-1",
		`{"accountId":"sa_group_acmeoperating","informationRequestId":"`+irID+`","amountCents":50000}`,
	).status(t, 200).
		json(t)
	e.do(req{method: http.MethodPost, path: "/_sandbox/information-requests/" + irID + "/cancel"}).status(t, 200)
	if st, _ := txnStatus(t, e, q["transactionId"].(string)); st != "canceled" {
		t.Fatalf("queued ACH after cancel: %s", st)
	}
	if avail, posted := balance(t, e, "sa_group_acmeoperating"); avail != avail0 || posted != posted0 {
		t.Fatalf("money moved: available %v/%v posted %v/%v", avail, avail0, posted, posted0)
	}
	t.Run("refusals", func(t *testing.T) {
		queueACH(
			e,
			"cq-2",
			`{"accountId":"sa_group_acmeoperating","informationRequestId":"`+irID+`","amountCents":100}`,
		).gen1(t, 400, "invalid_request")
		taxOnly := createIR(
			e,
			"sk_sandbox_alice",
			"le_acme",
			"cq-t",
			`{"contactId":"le_c_danaconsulting","requestedInformation":{"tax":true},"requesterName":"A"}`,
		).status(t, 200).
			json(t)
		queueACH(
			e,
			"cq-3",
			`{"accountId":"sa_group_acmeoperating","informationRequestId":"`+taxOnly["id"].(string)+`","amountCents":100}`,
		).gen1(t, 400, "invalid_request")
		queueACH(
			e,
			"cq-4",
			`{"accountId":"sa_group_acmeoperating","informationRequestId":"le_c_info_req_nope","amountCents":100}`,
		).gen1(t, 404, "not_found")
		queueACH(
			e,
			"cq-5",
			`{"accountId":"sa_group_acmeoperating","informationRequestId":"x","destinationId":"y","amountCents":100}`,
		).gen1(t, 400, "invalid_request")
		e.do(req{method: http.MethodPost, path: "/transfers/wire", key: "sk_sandbox_acme",
			body:   `{"accountId":"sa_group_acmeoperating","informationRequestId":"` + irID + `","amountCents":100}`,
			header: map[string]string{"X-Idempotency-Key": "cq-6"}}).
			gen1(t, 400, "invalid_request")
	})
}
