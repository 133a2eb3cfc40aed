package server_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// post sends a JSON body; idem, when not empty, is the X-Idempotency-Key.
func (e *env) post(path, key, le, idem string, body any) *resp {
	e.t.Helper()
	r := req{method: http.MethodPost, path: path, key: key, le: le, body: body}
	if idem != "" {
		r.header = map[string]string{"X-Idempotency-Key": idem}
	}
	return e.do(r)
}

// patch sends a JSON PATCH.
func (e *env) patch(path, key, le string, body any) *resp {
	e.t.Helper()
	return e.do(req{method: http.MethodPatch, path: path, key: key, le: le, body: body})
}

// details returns a first-generation error's meta.details.
func details(t *testing.T, body map[string]any) map[string]any {
	t.Helper()
	d, _ := body["meta"].(map[string]any)["details"].(map[string]any)
	if d == nil {
		t.Fatalf("error without meta.details: %v", body)
	}
	return d
}

// walkItems follows nextCursor to the end as key (acting on le), returning
// every item.
func walkItems(t *testing.T, e *env, key, le, path string) []map[string]any {
	t.Helper()
	var out []map[string]any
	cursor := ""
	for {
		p := path
		if cursor != "" {
			sep := "?"
			if strings.Contains(path, "?") {
				sep = "&"
			}
			p += sep + "cursor=" + url.QueryEscape(cursor)
		}
		var pg struct {
			Items    []map[string]any `json:"items"`
			Metadata struct {
				Count      int    `json:"count"`
				NextCursor string `json:"nextCursor"`
			} `json:"metadata"`
		}
		e.get(p, key, le).status(t, 200).decode(t, &pg)
		if pg.Metadata.Count != len(pg.Items) {
			t.Fatalf("metadata.count = %d for %d items", pg.Metadata.Count, len(pg.Items))
		}
		out = append(out, pg.Items...)
		if pg.Metadata.NextCursor == "" {
			return out
		}
		cursor = pg.Metadata.NextCursor
	}
}

// balanceOf returns an account's first balance (cash or debit).
func balanceOf(t *testing.T, e *env, key, le, account string) (available, posted int64) {
	t.Helper()
	var body struct {
		Balances []struct {
			Type      string
			Available struct{ AmountCents int64 } `json:"available"`
			Posted    struct{ AmountCents int64 } `json:"posted"`
		} `json:"balances"`
	}
	e.get("/account/"+account+"/balance", key, le).status(t, 200).decode(t, &body)
	return body.Balances[0].Available.AmountCents, body.Balances[0].Posted.AmountCents
}

// vaBalance returns a virtual account's balance and spend.
func vaBalance(t *testing.T, e *env, key, le, id string) (balance, spend int64) {
	t.Helper()
	var body struct {
		Balance struct{ AmountCents int64 } `json:"balance"`
		Spend   struct{ AmountCents int64 } `json:"spend"`
	}
	e.get("/virtual-account/"+id, key, le).status(t, 200).decode(t, &body)
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

func getTxn(t *testing.T, e *env, key, le, id string) txn {
	t.Helper()
	var out txn
	e.get("/transaction/"+id, key, le).status(t, 200).decode(t, &out)
	return out
}

// transferLegs lists a legal entity's transactions of one transfer.
func transferLegs(t *testing.T, e *env, key, le, transferID string) []txn {
	t.Helper()
	var out []txn
	for _, it := range walkItems(t, e, key, le, "/transaction?filter:category=internal") {
		if it["transferId"] == transferID {
			out = append(out, getTxn(t, e, key, le, it["id"].(string)))
		}
	}
	return out
}
