package record

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/slash-sandbox/slash-sandbox/fixtures"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/scenario"
)

// recordedUser is the user whose key reads every recorded legal entity.
const recordedUser = "u_recorded"

// unreadAlways are what no recording reads through the API.
var unreadAlways = []string{
	"effects scheduled on the source's clock (settlements, sends and retries to come): a loaded world schedules its own",
	"users and roles the records do not name (the API lists no users); each named user is an admin of their entity",
	"legal entities' creation dates, API v2 access and card group model (defaults used)",
	"API keys (the recording declares its own), agent requests, information requests and the email outbox",
}

// finish declares the users and keys, checks references against the
// catalogue, replaces names in free text and sets the clock.
func (rc *recording) finish() {
	sc := rc.sc
	sc.Name = "recorded"
	sc.Description = fmt.Sprintf("Recorded through the API: %d legal entities.", len(sc.LegalEntities))
	if rc.anon.keep {
		sc.Description = fmt.Sprintf("Recorded through the API, names kept: %d legal entities.",
			len(sc.LegalEntities))
	}
	if rc.now.IsZero() {
		rc.now = time.Now()
	}
	sc.ClockStart = rc.now.UTC().Truncate(time.Second).Format(time.RFC3339)
	rc.catalogue()
	rc.dangling()
	rc.keys(rc.sc.LegalEntities)
	for i := range rc.sc.Transactions {
		rc.railDetails(&rc.sc.Transactions[i], false)
	}
	rc.freeText()
	rc.res.Unread = append(slices.Clone(rc.notes), unreadAlways...)
}

// keys declares a key per legal entity and a user key over all of them.
func (rc *recording) keys(les []scenario.LegalEntity) {
	ids := make([]string, 0, len(rc.users))
	for id := range rc.users {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	all := scenario.User{ID: recordedUser, Name: "Recorded account user"}
	for _, id := range ids {
		rc.sc.Users = append(rc.sc.Users, *rc.users[id])
	}
	for _, le := range les {
		rc.sc.Keys = append(rc.sc.Keys, scenario.Key{Key: "sk_recorded_" + keyName(le.ID),
			Name: le.Name + " (recorded)", Kind: "legal_entity", LegalEntityID: le.ID})
		all.Roles = append(all.Roles, scenario.Role{LegalEntityID: le.ID, Role: "admin"})
	}
	if _, taken := rc.users[recordedUser]; !taken {
		rc.sc.Users = append(rc.sc.Users, all)
		rc.sc.Keys = append(rc.sc.Keys, scenario.Key{Key: "sk_recorded_user", Name: "Every recorded legal entity",
			Kind: "user", UserID: recordedUser})
	}
	rc.count("users", len(rc.sc.Users))
	rc.count("keys", len(rc.sc.Keys))
}

// keyName is a legal entity id as a key's tail: le_acme → acme.
func keyName(id string) string {
	return strings.TrimPrefix(id, "le_")
}

// catalogue drops the card products the sandbox's catalogue does not hold,
// and makes the expense reports' unknown merchants custom ones.
func (rc *recording) catalogue() {
	cat := fixtures.MustLoad()
	for i := range rc.sc.Cards {
		c := &rc.sc.Cards[i]
		if _, ok := cat.CardProduct(c.CardProductID); c.CardProductID != "" && !ok {
			rc.note("card products the sandbox's catalogue does not hold (the default product used)")
			c.CardProductID = ""
		}
	}
	for i := range rc.sc.ExpenseReports {
		r := &rc.sc.ExpenseReports[i]
		_, known := cat.Merchant(r.MerchantID)
		custom := slices.ContainsFunc(rc.sc.CustomMerchants, func(m scenario.CustomMerchant) bool {
			return m.ID == r.MerchantID
		})
		if known || custom {
			continue
		}
		rc.note("merchants the sandbox's catalogue does not hold (recorded as custom merchants)")
		id := "custom_merchant_" + strings.TrimPrefix(r.MerchantID, "merchant_v2_")
		if !slices.ContainsFunc(rc.sc.CustomMerchants, func(m scenario.CustomMerchant) bool { return m.ID == id }) {
			rc.sc.CustomMerchants = append(rc.sc.CustomMerchants, scenario.CustomMerchant{ID: id,
				LegalEntityID: r.LegalEntityID, MerchantName: r.MerchantID})
		}
		r.MerchantID = id
	}
}

// freeText replaces the names already replaced where free text repeats
// them: descriptions, memos and the names people give things.
func (rc *recording) freeText() {
	for _, p := range freeTexts(rc.sc) {
		*p = rc.anon.text(*p)
	}
	for i := range rc.sc.Transactions {
		rc.railDetails(&rc.sc.Transactions[i], true)
	}
	// A task's data repeats its report's or transaction's text.
	for _, task := range rc.sc.Tasks {
		for _, k := range []string{"memo", "description", "merchantName"} {
			if s, ok := task.Data[k].(string); ok {
				task.Data[k] = rc.anon.text(s)
			}
		}
	}
}

// freeTexts are the fields of a recording that hold free text.
func freeTexts(sc *scenario.Scenario) []*string {
	var out []*string
	for i := range sc.Accounts {
		acc := &sc.Accounts[i]
		out = append(out, &acc.Name)
		for j := range acc.VirtualAccounts {
			out = append(out, &acc.VirtualAccounts[j].Name)
		}
	}
	for i := range sc.CardGroups {
		out = append(out, &sc.CardGroups[i].Name)
	}
	for i := range sc.Cards {
		out = append(out, &sc.Cards[i].Name)
	}
	for i := range sc.CardEvents {
		out = append(out, &sc.CardEvents[i].CardName)
	}
	for i := range sc.Transactions {
		t := &sc.Transactions[i]
		out = append(out, &t.Description, &t.Memo, &t.Note)
	}
	for i := range sc.Invoices {
		out = append(out, &sc.Invoices[i].Memo)
	}
	for i := range sc.ExpenseReports {
		out = append(out, &sc.ExpenseReports[i].Memo)
	}
	for i := range sc.Webhooks {
		out = append(out, &sc.Webhooks[i].Name)
	}
	for i := range sc.Contacts {
		for j := range sc.Contacts[i].Destinations {
			out = append(out, &sc.Contacts[i].Destinations[j].Name)
		}
	}
	return out
}

// dangling forgets the reimbursement of a report whose transaction the
// recording does not hold (the loaded report pays it out again, under a new
// id), and leaves out an expense submission task whose report it does not
// hold.
func (rc *recording) dangling() {
	for i := range rc.sc.ExpenseReports {
		r := &rc.sc.ExpenseReports[i]
		if r.TransactionID != "" && !slices.ContainsFunc(rc.sc.Transactions, func(t scenario.Transaction) bool {
			return t.ID == r.TransactionID
		}) {
			r.TransactionID = ""
			rc.note("reimbursements whose transactions are not listed (a loaded expense report pays out again)")
		}
	}
	rc.sc.Tasks = slices.DeleteFunc(rc.sc.Tasks, func(t scenario.Task) bool {
		gone := t.Type == "expense_submission" && !slices.ContainsFunc(rc.sc.ExpenseReports,
			func(r scenario.ExpenseReport) bool { return r.ID == t.ExpenseReportID })
		if gone {
			rc.note("expense submission tasks whose reports are not listed")
		}
		return gone
	})
}

// railDetails anonymizes a transaction's rail details: the names and
// numbers, or the text.
func (rc *recording) railDetails(t *scenario.Transaction, text bool) {
	for _, d := range t.Details {
		if m, ok := d.(map[string]any); ok {
			rc.anon.railDetails(m, text)
		}
	}
}
