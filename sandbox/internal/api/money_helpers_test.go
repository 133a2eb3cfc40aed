package api_test

import (
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/apitest"
)

// details returns a first-generation error's meta.details.
func details(t *testing.T, body map[string]any) map[string]any {
	t.Helper()
	d, _ := body["meta"].(map[string]any)["details"].(map[string]any)
	if d == nil {
		t.Fatalf("error without meta.details: %v", body)
	}
	return d
}

// balanceOf returns an account's first balance (cash or debit).
func balanceOf(t *testing.T, e *apitest.Env, key, le, account string) (available, posted int64) {
	t.Helper()
	var body struct {
		Balances []struct {
			Type      string
			Available struct{ AmountCents int64 } `json:"available"`
			Posted    struct{ AmountCents int64 } `json:"posted"`
		} `json:"balances"`
	}
	e.Get("/account/"+account+"/balance", key, le).Status(t, 200).Decode(t, &body)
	return body.Balances[0].Available.AmountCents, body.Balances[0].Posted.AmountCents
}

// vaBalance returns a virtual account's balance and spend.
func vaBalance(t *testing.T, e *apitest.Env, key, le, id string) (balance, spend int64) {
	t.Helper()
	var body struct {
		Balance struct{ AmountCents int64 } `json:"balance"`
		Spend   struct{ AmountCents int64 } `json:"spend"`
	}
	e.Get("/virtual-account/"+id, key, le).Status(t, 200).Decode(t, &body)
	return body.Balance.AmountCents, body.Spend.AmountCents
}

// txn is the part of a transaction the money tests read.
type txn struct {
	ID               string          `json:"id"`
	Description      string          `json:"description"`
	Memo             string          `json:"memo"`
	AmountCents      int64           `json:"amountCents"`
	Status           string          `json:"status"`
	DetailedStatus   string          `json:"detailedStatus"`
	AccountID        string          `json:"accountId"`
	VirtualAccountID string          `json:"virtualAccountId"`
	TransferID       string          `json:"transferId"`
	ReferenceNumber  string          `json:"referenceNumber"`
	Date             string          `json:"date"`
	ACHInfo          map[string]any  `json:"achInfo"`
	WireInfo         map[string]any  `json:"wireInfo"`
	FeeInfo          *map[string]any `json:"feeInfo"`
}

func getTxn(t *testing.T, e *apitest.Env, key, le, id string) txn {
	t.Helper()
	var out txn
	e.Get("/transaction/"+id, key, le).Status(t, 200).Decode(t, &out)
	return out
}

// transferLegs lists a legal entity's transactions of one transfer.
func transferLegs(t *testing.T, e *apitest.Env, key, le, transferID string) []txn {
	t.Helper()
	var out []txn
	for _, it := range apitest.WalkItems(t, e, key, le, "/transaction?filter:category=internal") {
		if it["transferId"] == transferID {
			out = append(out, getTxn(t, e, key, le, it["id"].(string)))
		}
	}
	return out
}
