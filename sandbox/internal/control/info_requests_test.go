package control_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/apitest"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/inforequests"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/parties"
)

func TestInformationRequestValidation(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	tests := []struct {
		name string
		body string
		want map[string]string
	}{
		{"not an object", `[1]`, map[string]string{"": ""}},
		{
			"missing everything",
			`{}`,
			map[string]string{
				"/contactId":            "required",
				"/requestedInformation": "required",
				"/requesterName":        "required",
			},
		},
		{
			"extra top-level property",
			`{"contactId":"le_c_pixelforge","requestedInformation":{"tax":true},"requesterName":"A","amount":5}`,
			map[string]string{"/amount": ""},
		},
		{
			"contact id prefix",
			`{"contactId":"c_123","requestedInformation":{"tax":true},"requesterName":"A"}`,
			map[string]string{"/contactId": ""},
		},
		{
			"empty requested information",
			`{"contactId":"le_c_pixelforge","requestedInformation":{},"requesterName":"A"}`,
			map[string]string{"/requestedInformation": ""},
		},
		{
			"unknown requested property",
			`{"contactId":"le_c_pixelforge","requestedInformation":{"tax":true,"phone":true},"requesterName":"A"}`,
			map[string]string{"/requestedInformation/phone": ""},
		},
		{
			"empty destination types",
			`{"contactId":"le_c_pixelforge","requestedInformation":{"destinationTypes":[]},"requesterName":"A"}`,
			map[string]string{"/requestedInformation/destinationTypes": ""},
		},
		{
			"duplicate and unknown destination types",
			`{"contactId":"le_c_pixelforge","requestedInformation":{"destinationTypes":["bank_account","bank_account",` +
				`"paypal"]},"requesterName":"A"}`,
			map[string]string{
				"/requestedInformation/destinationTypes/1": "",
				"/requestedInformation/destinationTypes/2": "",
			},
		},
		{
			"address false",
			`{"contactId":"le_c_pixelforge","requestedInformation":{"address":false},"requesterName":"A"}`,
			map[string]string{"/requestedInformation/address": ""},
		},
		{
			"tax not a boolean",
			`{"contactId":"le_c_pixelforge","requestedInformation":{"tax":"yes"},"requesterName":"A"}`,
			map[string]string{"/requestedInformation/tax": ""},
		},
		{
			"empty requester name",
			`{"contactId":"le_c_pixelforge","requestedInformation":{"tax":true},"requesterName":""}`,
			map[string]string{"/requesterName": ""},
		},
		{
			"bad and duplicate cc emails",
			`{"contactId":"le_c_pixelforge","requestedInformation":{"tax":true},"requesterName":"A","ccEmails":["a@b.test",` +
				`"nope","A@b.test"]}`,
			map[string]string{"/ccEmails/1": "", "/ccEmails/2": ""},
		},
		{
			"note not a string",
			`{"contactId":"le_c_pixelforge","requestedInformation":{"tax":true},"requesterName":"A","note":7}`,
			map[string]string{"/note": ""},
		},
	}
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := apitest.CreateIR(e, "sk_sandbox_alice", "le_acme", "validation-"+tc.name, tc.body).
				Gen2(t, 400, "invalid_request")
			if len(d) != len(tc.want) {
				t.Fatalf("details = %v, want keys %v", d, tc.want)
			}
			for k, v := range tc.want {
				if got, ok := d[k]; !ok || (v != "" && got != v) || got == "" {
					t.Fatalf("details[%q] = %q (all %v)", k, got, d)
				}
			}
			// An invalid body does not consume its key.
			if i == 0 {
				apitest.CreateIR(e, "sk_sandbox_alice", "le_acme", "validation-"+tc.name, apitest.ValidIR).
					Status(t, 200)
			}
		})
	}
	t.Run("headers and body fail together", func(t *testing.T) {
		r := e.Do(
			apitest.Req{
				Method: http.MethodPost,
				Path:   "/v2/information-requests",
				Key:    "sk_sandbox_alice",
				LE:     "le_acme",
				Header: map[string]string{"Content-Type": "text/plain"},
				Body:   apitest.ValidIR,
			},
		)
		d := r.Gen2(t, 400, "invalid_request")
		if d["Content-Type"] == "" || d["X-Idempotency-Key"] == "" {
			t.Fatalf("details = %v", d)
		}
		long := strings.Repeat("k", 256)
		if d := apitest.CreateIR(e, "sk_sandbox_alice", "le_acme", long, `{}`).Gen2(t, 400,
			"invalid_request"); d["X-Idempotency-Key"] == "" ||
			d["/contactId"] == "" {
			t.Fatalf("details = %v", d)
		}
	})
}

func TestInformationRequestAuth(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	for _, tc := range []struct {
		name, key, le string
		status        int
		code          string
	}{
		{"no key", "", "le_acme", 401, "unauthorized"},
		{"legal-entity key", "sk_sandbox_acme", "le_acme", 403, "user_api_key_required"},
		{"missing header", "sk_sandbox_alice", "", 400, "invalid_request"},
		{"header pattern", "sk_sandbox_alice", "le-acme", 400, "invalid_request"},
		{"no role", "sk_sandbox_carol_readonly", "le_globex", 403, "forbidden"},
		{"v2 not enabled", "sk_sandbox_alice", "le_globex", 404, "not_found"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			apitest.CreateIR(e, tc.key, tc.le, "auth-"+tc.name, apitest.ValidIR).Gen2(t, tc.status, tc.code)
		})
	}
	t.Run("auth failures do not consume the key", func(t *testing.T) {
		apitest.CreateIR(e, "sk_sandbox_alice", "le_acme", "auth-legal-entity key", apitest.ValidIR).Status(t, 200)
	})
}

func TestInformationRequestCreated(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	body := `{"contactId":"le_c_danaconsulting","requestedInformation":{"destinationTypes":["bank_account",` +
		`"crypto_address"],"address":true},"requesterName":"Alice Chen","ccEmails":["ap@acme.test"],"note":"For the June` +
		` invoice"}`
	created := apitest.CreateIR(e, "sk_sandbox_alice", "le_acme", "k1", body).Status(t, 200)
	apitest.Golden(t, "v2.information_request.create", created.Raw)
	got := created.JSON(t)
	if !strings.HasPrefix(got["id"].(string), "le_c_info_req_") || got["status"] != "pending" ||
		got["sentToEmail"] != "dana@reyes.test" {
		t.Fatalf("request = %v", got)
	}
	ri := got["requestedInformation"].(map[string]any)
	if len(ri) != 2 || ri["address"] != true {
		t.Fatalf("requestedInformation = %v", ri)
	}
	t.Run("success consumed the key; nothing is replayed", func(t *testing.T) {
		d := apitest.CreateIR(e, "sk_sandbox_alice", "le_acme", "k1", body).Gen2(t, 409, "conflict")
		if len(d) != 0 {
			t.Fatalf("details = %v", d)
		}
	})
	t.Run("a second pending request for the contact", func(t *testing.T) {
		d := apitest.CreateIR(e, "sk_sandbox_alice", "le_acme", "k2", body).Gen2(t, 409, "conflict")
		if d["pendingInformationRequestId"] != got["id"] || d["id"] != "le_c_danaconsulting" {
			t.Fatalf("details = %v", d)
		}
	})
	t.Run("unknown and foreign contacts are 404 and consume the key", func(t *testing.T) {
		for i, c := range []string{"le_c_nobody", "le_c_tankerfuel"} {
			k := "nf" + string(rune('a'+i))
			d := apitest.CreateIR(e, "sk_sandbox_alice", "le_acme", k,
				strings.Replace(apitest.ValidIR, "le_c_pixelforge", c, 1)).Gen2(t, 404, "not_found")
			if d["field"] != "contactId" || d["id"] != c {
				t.Fatalf("details = %v", d)
			}
			apitest.CreateIR(e, "sk_sandbox_alice", "le_acme", k, apitest.ValidIR).Gen2(t, 409, "conflict")
		}
	})
	t.Run("a contact without an email", func(t *testing.T) {
		apitest.CreateIR(
			e,
			"sk_sandbox_alice",
			"le_acme",
			"k3",
			strings.Replace(apitest.ValidIR, "le_c_pixelforge", "le_c_walkincourier", 1),
		).Gen2(t, 400, "invalid_request")
	})
}

func TestIdempotencyKeysArePerLegalEntity(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	yaml := `legalEntities:
  - {id: le_one, name: One}
  - {id: le_two, name: Two}
users:
  - {id: u_x, name: X, roles: [{legalEntityId: le_one}, {legalEntityId: le_two}]}
keys:
  - {key: sk_x, kind: user, userId: u_x}
contacts:
  - {id: le_c_a, legalEntityId: le_one, name: A, recipientEmail: a@a.test}
  - {id: le_c_b, legalEntityId: le_two, name: B, recipientEmail: b@b.test}
`
	w := apitest.CreateWorld(t, e, `{"id":"two","yaml":`+apitest.Quote(yaml)+`}`)
	key := "sk_x_" + w.ID
	apitest.CreateIR(e, key, "le_one", "same", strings.Replace(apitest.ValidIR, "le_c_pixelforge", "le_c_a", 1)).
		Status(t, 200)
	apitest.CreateIR(e, key, "le_two", "same", strings.Replace(apitest.ValidIR, "le_c_pixelforge", "le_c_b", 1)).
		Status(t, 200)
	apitest.CreateIR(e, key, "le_two", "same", strings.Replace(apitest.ValidIR, "le_c_pixelforge", "le_c_b", 1)).
		Gen2(t, 409, "conflict")
}

func TestSecureFormFlow(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	body := `{"contactId":"le_c_pixelforge","requestedInformation":{"destinationTypes":["bank_account",` +
		`"international_wire"],"tax":true},"requesterName":"Alice Chen","ccEmails":["books@acme.test"]}`
	ir := apitest.CreateIR(e, "sk_sandbox_alice", "le_acme", "flow", body).Status(t, 200).JSON(t)
	link, msg := apitest.OutboxLink(t, e, "hello@pixelforge.test")
	if len(msg.CC) != 1 || msg.CC[0] != "books@acme.test" || !strings.Contains(msg.Subject, "Acme Robotics") ||
		msg.RelatedID != ir["id"] {
		t.Fatalf("email = %+v", msg)
	}
	page := e.Do(apitest.Req{Path: link}).Status(t, 200)
	for _, id := range []string{`id="bankAccount.routingNumber"`, `id="internationalWire.iban"`, `id="tax.number"`} {
		if !strings.Contains(string(page.Raw), id) {
			t.Fatalf("form lacks %s", id)
		}
	}
	if strings.Contains(string(page.Raw), `id="cryptoAddress.address"`) {
		t.Fatal("form asks for a crypto address nobody requested")
	}
	// The company's name ends with "Inc.": the sentence it ends takes no
	// second full stop.
	if want := "sent securely to Acme Robotics Inc.</p>"; !strings.Contains(string(page.Raw), want) ||
		strings.Contains(string(page.Raw), "Inc..") {
		t.Fatalf("the form does not say %q once: %s", want, page.Raw)
	}
	fields := url.Values{
		"bankAccount.holderName": {"Pixelforge Design"}, "bankAccount.routingNumber": {"021000022"},
		"bankAccount.accountNumber": {"12345678"},
		"bankAccount.accountType":   {"checking"}, "internationalWire.beneficiaryName": {"Pixelforge"},
		"internationalWire.iban":  {"DE89370400440532013001"},
		"internationalWire.swift": {"COBADEFFXXX"}, "internationalWire.bankName": {"Commerzbank"},
		"internationalWire.bankCountry": {"DE"},
		"tax.type":                      {"ein"}, "tax.number": {"12-3456789"},
	}
	bad := apitest.PostForm(e, link, fields).Status(t, 400)
	for _, want := range []string{`id="bankAccount.routingNumber.error"`, `id="internationalWire.iban.error"`,
		"12345678"} {
		if !strings.Contains(string(bad.Raw), want) {
			t.Fatalf("error page lacks %s", want)
		}
	}
	fields.Set("bankAccount.routingNumber", "021000021")
	fields.Set("internationalWire.iban", "DE89370400440532013000")
	done := apitest.PostForm(e, link, fields).Status(t, 200)
	if !strings.Contains(string(done.Raw), "Thank you") ||
		!strings.Contains(string(done.Raw), "sent securely to Acme Robotics Inc. You can close this page.") {
		t.Fatalf("thank-you page = %s", done.Raw)
	}
	view := e.Get("/_sandbox/information-requests/"+ir["id"].(string), "", "").Status(t,
		200).JSON(t)["informationRequest"].(map[string]any)
	if view["status"] != "submitted" || view["firstSubmittedAt"] == nil || view["lastSubmittedAt"] == nil {
		t.Fatalf("after submission = %v", view)
	}
	var dests []parties.Destination
	e.Engine.Default().View(func(op *kernel.Op) error {
		var err error
		dests, err = inforequests.DestinationsOf(op, "le_c_pixelforge")
		return err
	})
	if len(dests) != 2 || dests[0].RoutingNumber != "021000021" || dests[1].IBAN != "DE89370400440532013000" {
		t.Fatalf("destinations = %+v", dests)
	}
}

func TestCancelAndUnknownLinks(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	ir := apitest.CreateIR(e, "sk_sandbox_alice", "le_acme", "c1", apitest.ValidIR).Status(t, 200).JSON(t)
	link, _ := apitest.OutboxLink(t, e, "hello@pixelforge.test")
	got := e.Do(apitest.Req{Method: http.MethodPost,
		Path: "/_sandbox/information-requests/" + ir["id"].(string) + "/cancel"}).
		Status(t, 200).
		JSON(t)
	view := got["informationRequest"].(map[string]any)
	if view["status"] != "canceled" || view["canceledAt"] == nil {
		t.Fatalf("canceled = %v", view)
	}
	if page := e.Do(apitest.Req{Path: link}).Status(t, 410); !strings.Contains(string(page.Raw),
		"canceled by Acme Robotics Inc. There is nothing to fill in.") {
		t.Fatalf("canceled form page = %s", page.Raw)
	}
	apitest.PostForm(e, link, url.Values{}).Status(t, 410)
	if page := e.Do(apitest.Req{Path: "/_sandbox/forms/information-requests/ifr_nope"}).Status(t,
		404); !strings.Contains(
		string(page.Raw),
		"not valid",
	) {
		t.Fatalf("unknown link page = %s", page.Raw)
	}
	e.Do(apitest.Req{Method: http.MethodPost, Path: "/_sandbox/information-requests/" + ir["id"].(string) + "/cancel"}).
		Gen2(t, 409, "conflict")
	apitest.CreateIR(e, "sk_sandbox_alice", "le_acme", "c2", apitest.ValidIR).Status(t, 200)
}

func TestSimulatedSubmissions(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	ir := apitest.CreateIR(
		e,
		"sk_sandbox_alice",
		"le_acme",
		"s1",
		`{"contactId":"le_c_pixelforge","requestedInformation":{"destinationTypes":["bank_account","international_wire",`+
			`"crypto_address"],"address":true,"tax":true},"requesterName":"A"}`,
	).Status(t, 200).
		JSON(t)
	sim := func(body string) *apitest.Resp {
		return e.Do(
			apitest.Req{Method: http.MethodPost, Path: "/_sandbox/simulate/information-request-submission", Body: body},
		)
	}
	d := sim(
		`{"informationRequestId":"`+ir["id"].(string)+`","details":{"bankAccount":{"holderName":"P","routingNumber":`+
			`"123456789","accountNumber":"1","accountType":"loan"}}}`,
	).Gen2(t, 400, "invalid_request")
	for _, k := range []string{"bankAccount.routingNumber", "bankAccount.accountNumber", "bankAccount.accountType",
		"internationalWire", "cryptoAddress", "address", "tax"} {
		if d[k] == "" {
			t.Fatalf("details lack %s: %v", k, d)
		}
	}
	got := sim(`{"informationRequestId":"`+ir["id"].(string)+`"}`).Status(t,
		200).JSON(t)["informationRequest"].(map[string]any)
	if got["status"] != "submitted" {
		t.Fatalf("generated submission = %v", got)
	}
	types := map[string]int{}
	for _, d := range e.Get("/contact/destination", "sk_sandbox_acme", "").Status(t, 200).JSON(t)["items"].([]any) {
		if m := d.(map[string]any); m["contactId"] == "le_c_pixelforge" {
			types[m["type"].(string)]++
		}
	}
	if types["bank_account"] != 1 || types["international_wire"] != 1 || types["crypto_address"] != 0 {
		t.Fatalf(
			"listed destinations by type = %v: bank and wire listed, the crypto address stored but not listed",
			types,
		)
	}
	sim(`{"informationRequestId":"le_c_info_req_nope"}`).Gen2(t, 404, "not_found")
	never := apitest.CreateIR(e, "sk_sandbox_alice", "le_acme", "s2",
		strings.Replace(apitest.ValidIR, "le_c_pixelforge", "le_c_neverreplies", 1)).Status(t, 200).
		JSON(t)
	sim(`{"informationRequestId":"`+never["id"].(string)+`"}`).Gen2(t, 409, "conflict")
}

func TestScheduledSubmission(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	yaml := `legalEntities:
  - {id: le_s, name: S}
users:
  - {id: u_s, name: S, roles: [{legalEntityId: le_s}]}
keys:
  - {key: sk_s, kind: user, userId: u_s}
contacts:
  - {id: le_c_s, legalEntityId: le_s, name: Supplier, recipientEmail: s@s.test}
events:
  - {at: +2h, kind: information_request.submit, with: {contactId: le_c_s}}
`
	w := apitest.CreateWorld(t, e, `{"id":"sched","yaml":`+apitest.Quote(yaml)+`}`)
	ir := apitest.CreateIR(e, "sk_s_"+w.ID, "le_s", "x", strings.Replace(apitest.ValidIR, "le_c_pixelforge", "le_c_s",
		1)).
		Status(t, 200).
		JSON(t)
	path := "/_sandbox/worlds/sched/information-requests/" + ir["id"].(string)
	e.Do(apitest.Req{Method: http.MethodPost, Path: "/_sandbox/worlds/sched/clock/advance", Body: `{"by":"119m"}`}).
		Status(t, 200)
	if got := e.Get(path, "", "").JSON(t)["informationRequest"].(map[string]any); got["status"] != "pending" {
		t.Fatalf("before +2h: %v", got)
	}
	e.Do(apitest.Req{Method: http.MethodPost, Path: "/_sandbox/worlds/sched/clock/advance", Body: `{"by":"1m"}`}).
		Status(t, 200)
	if got := e.Get(path, "", "").JSON(t)["informationRequest"].(map[string]any); got["status"] != "submitted" {
		t.Fatalf("at +2h: %v", got)
	}
	if got := e.Get("/_sandbox/worlds/sched/information-requests", "", "").JSON(t)["items"].([]any); len(got) != 1 {
		t.Fatalf("list = %v", got)
	}
	link := e.Get(path, "", "").JSON(t)["formUrl"].(string)
	if !strings.HasPrefix(link, "/_sandbox/worlds/sched/forms/") {
		t.Fatalf("form link %s does not name the world", link)
	}
	if page := e.Do(apitest.Req{Path: link}).Status(t, 200); !strings.Contains(
		string(page.Raw),
		"Update your details",
	) {
		t.Fatalf("submitted form page = %s", page.Raw)
	}
}
