package api_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/apitest"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/scenario"
)

// freshVirtualAccount opens a virtual account in Acme's operating account
// and funds it from the primary one: its balance then moves only with the
// test's own transfers.
func freshVirtualAccount(t *testing.T, e *apitest.Env, name string, fund int64) string {
	t.Helper()
	va := e.Post("/virtual-account", "sk_sandbox_acme", "", "", map[string]any{"accountId": "sa_group_acmeoperating",
		"name": name}).
		Status(t, 201).JSON(t)["virtualAccount"].(map[string]any)["id"].(string)
	e.Post("/virtual-account/transfer", "sk_sandbox_acme", "", "fund-"+va,
		map[string]any{"source": "sa_group_acmeoperating",
			"destination": va, "amountCents": fund}).
		Status(t, 200)
	return va
}

// returnedFor finds the returned transaction of a transfer.
func returnedFor(t *testing.T, e *apitest.Env, key, transferID string) *txn {
	t.Helper()
	for _, it := range apitest.WalkItems(t, e, key, "", "/transaction?filter:detailed_status=returned") {
		if it["transferId"] == transferID {
			tx := getTxn(t, e, key, "", it["id"].(string))
			return &tx
		}
	}
	return nil
}

func TestACHSettlesAfterBusinessDaysAcrossAWeekend(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	const acme = "sk_sandbox_acme"
	if now := apitest.Advance(t, e, `{"by":"4d"}`)["clock"].(map[string]any)["now"]; now != "2026-06-19T14:00:00Z" {
		t.Fatalf("clock %v, want Friday 2026-06-19T14:00:00Z", now)
	}
	va := freshVirtualAccount(t, e, "Vendor payments", 300000)
	avail0, posted0 := balanceOf(t, e, acme, "", "sa_group_acmeoperating")
	body := e.Post("/transfers/ach", acme, "", "ach-friday", map[string]any{"virtualAccountId": va,
		"destinationId": "le_c_dest_northwindach", "amountCents": 100000, "memo": "INV 42"}).Status(t, 200).JSON(t)
	if body["settlesAt"] != "2026-06-23T14:00:00.000Z" || !strings.HasPrefix(body["transferId"].(string), "transfer_") {
		t.Fatalf("body %v, want settlement on Tuesday", body)
	}
	id := body["transactionId"].(string)
	tx := getTxn(t, e, acme, "", id)
	if tx.DetailedStatus != "pending" || tx.AmountCents != -100000 || tx.Memo != "INV 42" ||
		tx.Description != "ACH to Northwind Supply" ||
		tx.ACHInfo["traceNumber"] == "" ||
		tx.ACHInfo["counterpartyBank"] != "JPMorgan Chase" ||
		tx.TransferID != body["transferId"] {
		t.Fatalf("pending ACH %+v", tx)
	}
	if avail, posted := balanceOf(t, e, acme, "", "sa_group_acmeoperating"); avail != avail0-100000 || posted != posted0 {
		t.Fatalf("pending ACH: available %d posted %d, want %d and %d", avail, posted, avail0-100000, posted0)
	}
	apitest.Advance(t, e, `{"to":"2026-06-22T23:59:00Z"}`)
	if got := getTxn(t, e, acme, "", id).DetailedStatus; got != "pending" {
		t.Fatalf("on Monday night the ACH is %s, want pending", got)
	}
	ran := apitest.Advance(t, e, `{"to":"2026-06-23T14:00:00Z"}`)
	kinds := ""
	for _, ev := range ran["events"].([]any) {
		kinds += ev.(map[string]any)["kind"].(string) + " "
	}
	if !strings.Contains(kinds, "ach.settle") {
		t.Fatalf("events %s, want ach.settle", kinds)
	}
	if got := getTxn(t, e, acme, "", id); got.DetailedStatus != "settled" || got.Status != "posted" {
		t.Fatalf("on Tuesday the ACH is %+v", got)
	}
	if bal, _ := vaBalance(t, e, acme, "", va); bal != 200000 {
		t.Fatalf("virtual account balance %d after settling, want 200000", bal)
	}
	t.Run("a repeated key replays without a second ACH", func(t *testing.T) {
		again := e.Post("/transfers/ach", acme, "", "ach-friday", map[string]any{"virtualAccountId": va,
			"destinationId": "le_c_dest_northwindach", "amountCents": 100000, "memo": "INV 42"}).Status(t, 200).JSON(t)
		if again["transactionId"] != id {
			t.Fatalf("replay %v", again)
		}
		e.Post("/transfers/ach", acme, "", "ach-friday", map[string]any{"virtualAccountId": va,
			"destinationId": "le_c_dest_northwindach", "amountCents": 100001}).Gen1(t, 409, "conflict")
		if bal, _ := vaBalance(t, e, acme, "", va); bal != 200000 {
			t.Fatalf("virtual account balance %d after a replay and a conflict, want 200000", bal)
		}
	})
}

func TestACHToAReturningDestinationComesBack(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	const acme = "sk_sandbox_acme"
	va := freshVirtualAccount(t, e, "Northwind payments", 80000)
	body := e.Post("/transfers/ach", acme, "", "ach-old", map[string]any{"virtualAccountId": va,
		"destinationId": "le_c_dest_northwindold", "amountCents": 50000}).Status(t, 200).JSON(t)
	id, transfer := body["transactionId"].(string), body["transferId"].(string)
	apitest.Advance(t, e, `{"to":"2026-06-17T14:00:00Z"}`)
	if got := getTxn(t, e, acme, "", id).DetailedStatus; got != "settled" {
		t.Fatalf("on Wednesday the ACH is %s", got)
	}
	if returnedFor(t, e, acme, transfer) != nil {
		t.Fatal("returned before a business day passed")
	}
	if bal, _ := vaBalance(t, e, acme, "", va); bal != 30000 {
		t.Fatalf("balance %d after settling, want 30000", bal)
	}
	apitest.Advance(t, e, `{"to":"2026-06-18T14:00:00Z"}`)
	ret := returnedFor(t, e, acme, transfer)
	if ret == nil {
		t.Fatal("no returned transaction one business day after settling")
	}
	if ret.AmountCents != 50000 || ret.Status != "posted" || ret.VirtualAccountID != va ||
		ret.ACHInfo["companyDiscretionaryData"] != "R02" || ret.ACHInfo["paymentRelatedInfo"] != "R02 Account closed" {
		t.Fatalf("returned transaction %+v", ret)
	}
	if got := getTxn(t, e, acme, "", id).DetailedStatus; got != "settled" {
		t.Fatalf("the original became %s, want it to stay settled", got)
	}
	if bal, _ := vaBalance(t, e, acme, "", va); bal != 80000 {
		t.Fatalf("balance %d after the return, want all 80000 back", bal)
	}
	t.Run("a return to a closed virtual account lands in the primary one", func(t *testing.T) {
		short := freshVirtualAccount(t, e, "Short-lived", 20000)
		body := e.Post("/transfers/ach", acme, "", "ach-old-2", map[string]any{"virtualAccountId": short,
			"destinationId": "le_c_dest_northwindold", "amountCents": 20000}).Status(t, 200).JSON(t)
		if body["settlesAt"] != "2026-06-22T14:00:00.000Z" {
			t.Fatalf("a Thursday ACH settles %v, want Monday", body["settlesAt"])
		}
		apitest.Advance(t, e, `{"to":"2026-06-22T14:00:00Z"}`)
		e.Patch("/virtual-account/"+short, acme, "", map[string]any{"action": "close"}).Status(t, 200)
		apitest.Advance(t, e, `{"to":"2026-06-23T14:00:00Z"}`)
		ret := returnedFor(t, e, acme, body["transferId"].(string))
		if ret == nil || ret.AmountCents != 20000 {
			t.Fatalf("returned %+v", ret)
		}
		m := e.Get("/virtual-account/"+ret.VirtualAccountID, acme, "").Status(t,
			200).JSON(t)["virtualAccount"].(map[string]any)
		if m["accountType"] != "primary" || m["accountId"] != "sa_group_acmeoperating" {
			t.Fatalf("the return landed in %v", m)
		}
	})
}

func TestWires(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	const acme = "sk_sandbox_acme"
	t.Run("a domestic wire settles 30 minutes later, the same day", func(t *testing.T) {
		body := e.Post("/transfers/wire", acme, "", "wire-1", map[string]any{"accountId": "sa_group_acmeoperating",
			"destinationId": "le_c_dest_danaach", "amountCents": 75000}).Status(t, 200).JSON(t)
		if body["settlesAt"] != "2026-06-15T14:30:00.000Z" {
			t.Fatalf("body %v", body)
		}
		id := body["transactionId"].(string)
		tx := getTxn(t, e, acme, "", id)
		if tx.DetailedStatus != "pending" || tx.WireInfo["imad"] == "" || tx.Memo == "" ||
			tx.Description != "Wire to Dana Reyes Consulting" {
			t.Fatalf("pending wire %+v", tx)
		}
		apitest.Advance(t, e, `{"by":"30m"}`)
		if got := getTxn(t, e, acme, "", id).DetailedStatus; got != "settled" {
			t.Fatalf("wire %s after 30 minutes", got)
		}
		fees := e.Get("/transaction/"+id+"/fee-details", acme, "").Status(t, 200).JSON(t)["items"].([]any)
		if len(fees) != 0 {
			t.Fatalf("a domestic wire has fees %v", fees)
		}
	})
	t.Run("an international wire carries its fee", func(t *testing.T) {
		avail0, _ := balanceOf(t, e, acme, "", "sa_group_acmeoperating")
		body := e.Post("/transfers/wire", acme, "", "wire-2", map[string]any{"accountId": "sa_group_acmeoperating",
			"destinationId": "le_c_dest_bluefiniban", "amountCents": 1000000, "memo": "PO 7"}).Status(t, 200).JSON(t)
		id := body["transactionId"].(string)
		if avail, _ := balanceOf(t, e, acme, "", "sa_group_acmeoperating"); avail != avail0-1000000-2500 {
			t.Fatalf("available %d, want %d", avail, avail0-1002500)
		}
		fees := e.Get("/transaction/"+id+"/fee-details", acme, "").Status(t, 200).JSON(t)["items"].([]any)
		if len(fees) != 1 {
			t.Fatalf("fees %v", fees)
		}
		f := fees[0].(map[string]any)
		orig, _ := f["originalTransaction"].(map[string]any)
		if f["feeAmountCents"] != float64(2500) || f["feeType"] != "international_wire_fee" ||
			f["accountId"] != "sa_group_acmeoperating" ||
			f["dateCharged"] == "" ||
			orig["id"] != id {
			t.Fatalf("fee %v", f)
		}
		fee := getTxn(t, e, acme, "", f["id"].(string))
		if fee.AmountCents != -2500 || fee.FeeInfo == nil ||
			(*fee.FeeInfo)["relatedTransaction"].(map[string]any)["id"] != id {
			t.Fatalf("fee transaction %+v", fee)
		}
		self := e.Get("/transaction/"+fee.ID+"/fee-details", acme, "").Status(t, 200).JSON(t)["items"].([]any)
		if len(self) != 1 || self[0].(map[string]any)["id"] != fee.ID {
			t.Fatalf("fee-details of the fee itself %v", self)
		}
		e.Get("/transaction/"+id+"/fee-details", "sk_sandbox_globex", "").Gen1(t, 404, "not_found")
	})
	t.Run("bad requests", func(t *testing.T) {
		cases := []struct {
			name, path, idem string
			key              string
			body             map[string]any
			status           int
			code, field      string
		}{
			{
				"crypto destination",
				"/transfers/wire",
				"w3",
				acme,
				map[string]any{"accountId": "sa_group_acmeoperating", "destinationId": "le_c_dest_danacrypto", "amountCents": 100},
				400,
				"invalid_request",
				"/destinationId",
			},
			{
				"ACH to an IBAN",
				"/transfers/ach",
				"w4",
				acme,
				map[string]any{"accountId": "sa_group_acmeoperating", "destinationId": "le_c_dest_bluefiniban", "amountCents": 100},
				400,
				"invalid_request",
				"/destinationId",
			},
			{
				"both sources",
				"/transfers/ach",
				"w5",
				acme,
				map[string]any{
					"accountId":        "sa_group_acmeoperating",
					"virtualAccountId": "subaccount_acmepayroll",
					"destinationId":    "le_c_dest_danaach",
					"amountCents":      100,
				},
				400,
				"invalid_request",
				"/virtualAccountId",
			},
			{
				"no source",
				"/transfers/ach",
				"w6",
				acme,
				map[string]any{"destinationId": "le_c_dest_danaach", "amountCents": 100},
				400,
				"invalid_request",
				"/accountId",
			},
			{
				"no key",
				"/transfers/ach",
				"",
				acme,
				map[string]any{"accountId": "sa_group_acmeoperating", "destinationId": "le_c_dest_danaach", "amountCents": 100},
				400,
				"invalid_request",
				"X-Idempotency-Key",
			},
			{
				"another entity's destination",
				"/transfers/ach",
				"w7",
				acme,
				map[string]any{"accountId": "sa_group_acmeoperating", "destinationId": "le_c_dest_tankerach", "amountCents": 100},
				404,
				"not_found",
				"field",
			},
			{
				"another entity's account",
				"/transfers/wire",
				"w8",
				"sk_sandbox_globex",
				map[string]any{"accountId": "sa_group_acmeoperating", "destinationId": "le_c_dest_tankerach", "amountCents": 100},
				404,
				"not_found",
				"field",
			},
			{
				"closed virtual account",
				"/transfers/ach",
				"w9",
				acme,
				map[string]any{
					"virtualAccountId": "subaccount_acmeoldproject",
					"destinationId":    "le_c_dest_danaach",
					"amountCents":      100,
				},
				400,
				"invalid_request",
				"/virtualAccountId",
			},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				d := details(t, e.Post(tc.path, tc.key, "", tc.idem, tc.body).Gen1(t, tc.status, tc.code))
				if d[tc.field] == nil {
					t.Fatalf("details %v, want %s", d, tc.field)
				}
			})
		}
	})
}

func TestIncomingTransfers(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	incoming := func(body any) *apitest.Resp {
		return e.Do(apitest.Req{Method: "POST", Path: "/_sandbox/simulate/incoming-transfer", Body: body})
	}
	_, posted0 := balanceOf(t, e, "sk_sandbox_globex", "", "sa_group_globexmain")
	infoOf := map[string]string{
		"sepa": "sepaInfo",
		"pix":  "pixInfo",
		"spei": "speiInfo",
		"fps":  "fpsInfo",
		"ach":  "achInfo",
		"wire": "wireInfo",
		"rtp":  "rtpInfo",
	}
	ids := map[string]string{}
	for i, rail := range []string{"sepa", "pix", "spei", "fps", "ach", "wire", "rtp"} {
		amount := int64(10000 * (i + 1))
		body := incoming(map[string]any{"accountId": "sa_group_globexmain", "rail": rail, "amountCents": amount,
			"senderName": "Umbrella Freight", "reference": "REF-" + rail}).Status(t, 201).JSON(t)
		ids[rail] = body["id"].(string)
		public := e.Get("/transaction/"+ids[rail], "sk_sandbox_globex", "").Status(t, 200).JSON(t)
		info, _ := public[infoOf[rail]].(map[string]any)
		if info == nil || public["amountCents"] != float64(amount) ||
			!strings.Contains(public["description"].(string), "Umbrella Freight") {
			t.Fatalf("%s deposit %v", rail, public)
		}
		if sender, ok := info["senderName"]; ok && sender != "Umbrella Freight" {
			t.Fatalf("%s senderName %v", rail, sender)
		}
		want := map[bool]string{true: "settled", false: "pending"}[rail == "rtp"]
		if public["detailedStatus"] != want {
			t.Fatalf("%s deposit is %v, want %s", rail, public["detailedStatus"], want)
		}
	}
	avail, posted := balanceOf(t, e, "sk_sandbox_globex", "", "sa_group_globexmain")
	if posted != posted0+70000 || avail > posted {
		t.Fatalf("after deposits posted %d (want %d), available %d", posted, posted0+70000, avail)
	}
	apitest.Advance(t, e, `{"by":"30m"}`)
	if got := getTxn(t, e, "sk_sandbox_globex", "", ids["wire"]).DetailedStatus; got != "settled" {
		t.Fatalf("wire deposit %s after 30 minutes", got)
	}
	if got := getTxn(t, e, "sk_sandbox_globex", "", ids["ach"]).DetailedStatus; got != "pending" {
		t.Fatalf("ACH deposit %s after 30 minutes", got)
	}
	apitest.Advance(t, e, `{"by":"1d"}`)
	for rail, id := range ids {
		if got := getTxn(t, e, "sk_sandbox_globex", "", id).DetailedStatus; got != "settled" {
			t.Fatalf("%s deposit %s after a business day", rail, got)
		}
	}
	t.Run("into a virtual account", func(t *testing.T) {
		fleet0, _ := vaBalance(t, e, "sk_sandbox_globex", "", "subaccount_globexfleet")
		incoming(
			map[string]any{"virtualAccountId": "subaccount_globexfleet", "rail": "rtp", "amountCents": 999},
		).Status(t, 201)
		if fleet, _ := vaBalance(t, e, "sk_sandbox_globex", "", "subaccount_globexfleet"); fleet != fleet0+999 {
			t.Fatalf("fleet %d, want %d", fleet, fleet0+999)
		}
	})
	t.Run("bad requests", func(t *testing.T) {
		d := incoming(
			map[string]any{"accountId": "sa_group_globexmain", "rail": "swift", "amountCents": 0},
		).Gen2(t, 400, "invalid_request")
		if d["/rail"] == "" || d["/amountCents"] == "" {
			t.Fatalf("details %v", d)
		}
		d = incoming(
			map[string]any{"accountId": "sa_group_nowhere", "rail": "ach", "amountCents": 5},
		).Gen2(t, 404, "not_found")
		if d["field"] != "accountId" || d["id"] != "sa_group_nowhere" {
			t.Fatalf("details %v", d)
		}
		incoming(
			map[string]any{"virtualAccountId": "subaccount_acmeoldproject", "rail": "ach", "amountCents": 5},
		).Gen2(t, 400, "invalid_request")
		incoming(map[string]any{"rail": "ach", "amountCents": 5}).Gen2(t, 400, "invalid_request")
	})
}

const railsScenario = `name: rails
clockStart: 2026-06-19T10:00:00Z
money: {achSettlementBusinessDays: 1}
legalEntities:
  - {id: le_rails, name: Rails Test Corp}
keys:
  - {key: sk_rails, kind: legal_entity, legalEntityId: le_rails}
accounts:
  - {id: sa_group_rails, legalEntityId: le_rails, name: Main, balanceCents: 1000000}
contacts:
  - id: le_c_payee
    legalEntityId: le_rails
    name: Payee
    destinations:
      - {id: le_c_dest_bounce, type: bank_account, accountNumber: "123", routingNumber: "021000021", returnCode: R01}
`

func TestScenarioConfiguresTheRails(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "rails.yaml")
	if err := os.WriteFile(path, []byte(railsScenario), 0o600); err != nil {
		t.Fatal(err)
	}
	e := apitest.New(t, apitest.Options{Scenario: path})
	body := e.Post("/transfers/ach", "sk_rails", "", "a1", map[string]any{"accountId": "sa_group_rails",
		"destinationId": "le_c_dest_bounce", "amountCents": 1000}).Status(t, 200).JSON(t)
	if body["settlesAt"] != "2026-06-22T10:00:00.000Z" {
		t.Fatalf("with one business day a Friday ACH settles %v, want Monday", body["settlesAt"])
	}
	apitest.Advance(t, e, `{"to":"2026-06-23T10:00:00Z"}`)
	ret := returnedFor(t, e, "sk_rails", body["transferId"].(string))
	if ret == nil || ret.ACHInfo["companyDiscretionaryData"] != "R01" {
		t.Fatalf("returned %+v", ret)
	}
	handle := e.Get("/pay", "sk_rails", "").Status(t, 200).JSON(t)
	if handle["slashHandle"] != "rails-test" || handle["accountId"] != "sa_group_rails" {
		t.Fatalf("handle %v", handle)
	}
	t.Run("bad settings are scenario problems", func(t *testing.T) {
		bad := strings.Replace(railsScenario, "achSettlementBusinessDays: 1", "achSettlementBusinessDays: 11", 1)
		bad = strings.Replace(bad, "returnCode: R01", "returnCode: X1", 1)
		_, err := scenario.Parse("bad.yaml", []byte(bad))
		if err == nil || !strings.Contains(err.Error(), "achSettlementBusinessDays") ||
			!strings.Contains(err.Error(), "returnCode") {
			t.Fatalf("err = %v", err)
		}
	})
}
