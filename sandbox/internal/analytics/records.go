package analytics

import (
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/cards"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/deliveries"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/invoices"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/ledger"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/parties"
)

// The analytics tables of the records the engine holds. Amounts are in
// cents; instants are ISO 8601 text in UTC.

// ledgerTables are the tables of accounts and money.
func ledgerTables() (out []AnalyticsTable) {
	add := func(t AnalyticsTable) { out = append(out, t) }
	add(AnalyticsTable{Name: "transactions", Doc: "Every transaction of the legal entity.",
		Columns: []AnalyticsColumn{
			col("id", "TEXT", ""),
			col("account_id", "TEXT", ""),
			col("virtual_account_id", "TEXT", ""),
			col("account_subtype", "TEXT", "cash or credit"),
			col("card_id", "TEXT", ""),
			col("card_group_id", "TEXT", ""),
			col("category", "TEXT", "card, ach, wire, international_wire, rtp, fee or internal"),
			col("date", "TEXT", "posting date, else creation date"),
			col("created_at", "TEXT", ""),
			col("authorized_at", "TEXT", ""),
			col("description", "TEXT", ""),
			col("memo", "TEXT", ""),
			col("note", "TEXT", ""),
			col("amount_cents", "INTEGER", "negative for money out"),
			col("status", "TEXT", "pending, posted or failed"),
			col("detailed_status", "TEXT", ""),
			col("merchant_name", "TEXT", ""),
			col("merchant_category_code", "TEXT", ""),
			col("merchant_country", "TEXT", ""),
			col("decline_reason", "TEXT", ""),
			col("transfer_id", "TEXT", ""),
		},
		Rows: func(op *kernel.Op, le string) ([][]any, error) {
			return rowsOf(op, ledger.KindTransaction, ledger.IndexTxnLE, le, func(t *ledger.Transaction) []any {
				var name, mcc, country any
				if m := t.Merchant; m != nil {
					name, mcc = sqlText(m.Description), sqlText(m.CategoryCode)
					if m.Location != nil {
						country = sqlText(m.Location.Country)
					}
				}
				return []any{
					t.ID,
					t.AccountID,
					sqlText(t.VirtualAccountID),
					t.AccountSubtype,
					sqlText(t.CardID),
					sqlText(t.CardGroupID),
					t.Category,
					sqlTime(t.Date),
					sqlTime(t.CreatedAt),
					sqlTimePtr(t.AuthorizedAt),
					t.Description,
					sqlText(t.Memo),
					sqlText(t.Note),
					t.AmountCents,
					t.Status,
					t.DetailedStatus,
					name,
					mcc,
					country,
					sqlText(t.DeclineReason),
					sqlText(t.TransferID),
				}
			})
		}})
	add(AnalyticsTable{Name: "accounts", Doc: "The legal entity's accounts.",
		Columns: []AnalyticsColumn{
			col("id", "TEXT", ""),
			col("name", "TEXT", ""),
			col("type", "TEXT", "debit or charge_card"),
			col("status", "TEXT", "open or closed"),
			col("account_number", "TEXT", ""),
			col("routing_number", "TEXT", ""),
			col("created_at", "TEXT", ""),
		},
		Rows: func(op *kernel.Op, le string) ([][]any, error) {
			return rowsOf(op, ledger.KindAccount, ledger.IndexAccount, le, func(a *ledger.Account) []any {
				return []any{a.ID, a.Name, a.Type, a.Status, a.AccountNumber, a.RoutingNumber, sqlTime(a.CreatedAt)}
			})
		}})
	add(AnalyticsTable{Name: "virtual_accounts", Doc: "Virtual accounts of every account, primary ones included.",
		Columns: []AnalyticsColumn{col("id", "TEXT", ""), col("account_id", "TEXT", ""), col("name", "TEXT", ""),
			col("is_primary", "BOOLEAN", ""), col("closed_at", "TEXT", ""), col("created_at", "TEXT", ""),
			col("balance_cents", "INTEGER", "posted balance")},
		Rows: virtualAccountRows})
	return
}

func virtualAccountRows(op *kernel.Op, le string) ([][]any, error) {
	accs, err := kernel.All[ledger.Account](op, ledger.KindAccount, kernel.IndexPrefix(ledger.IndexAccount, le))
	if err != nil {
		return nil, err
	}
	var out [][]any
	for _, acc := range accs {
		vas, err := ledger.VirtualAccounts(op, acc.ID)
		if err != nil {
			return nil, err
		}
		for _, va := range vas {
			t, err := ledger.VirtualAccountTotals(op, va.ID)
			if err != nil {
				return nil, err
			}
			out = append(out,
				[]any{va.ID, va.AccountID, va.Name, va.Primary, sqlTimePtr(va.ClosedAt), sqlTime(va.CreatedAt), t.Posted})
		}
	}
	return out, nil
}

// cardTables are the tables of cards.
func cardTables() (out []AnalyticsTable) {
	add := func(t AnalyticsTable) { out = append(out, t) }
	add(AnalyticsTable{Name: "cards", Doc: "The legal entity's cards (no card numbers).",
		Columns: []AnalyticsColumn{col("id", "TEXT", ""), col("name", "TEXT", ""), col("status", "TEXT", ""),
			col("account_id", "TEXT", ""), col("virtual_account_id", "TEXT", ""), col("card_group_id", "TEXT", ""),
			col("card_product_id", "TEXT", ""), col("last4", "TEXT", ""), col("is_single_use", "BOOLEAN", ""),
			col("created_at", "TEXT", "")},
		Rows: func(op *kernel.Op, le string) ([][]any, error) {
			return rowsOf(op, cards.Kind, cards.IndexCardLE, le, func(c *cards.Card) []any {
				return []any{c.ID, c.Name, c.Status, c.AccountID, sqlText(c.VirtualAccountID), sqlText(c.CardGroupID),
					sqlText(c.CardProductID), c.Last4(), c.IsSingleUse, sqlTime(c.CreatedAt)}
			})
		}})
	add(AnalyticsTable{Name: "card_groups", Doc: "The legal entity's card groups.",
		Columns: []AnalyticsColumn{col("id", "TEXT", ""), col("name", "TEXT", ""), col("status", "TEXT", ""),
			col("virtual_account_id", "TEXT", ""), col("created_at", "TEXT", "")},
		Rows: func(op *kernel.Op, le string) ([][]any, error) {
			return rowsOf(op, cards.KindGroup, cards.IndexGroupLE, le, func(g *cards.Group) []any {
				return []any{g.ID, g.Name, sqlText(g.Status), sqlText(g.VirtualAccountID), sqlTime(g.CreatedAt)}
			})
		}})
	return
}

// partyTables are the tables of contacts, customers, invoices and webhooks.
func partyTables() (out []AnalyticsTable) {
	add := func(t AnalyticsTable) { out = append(out, t) }
	add(AnalyticsTable{Name: "contacts", Doc: "The legal entity's contacts (payees).",
		Columns: []AnalyticsColumn{
			col("id", "TEXT", ""),
			col("name", "TEXT", ""),
			col("recipient_type", "TEXT", "contact or vendor"),
			col("recipient_legal_name", "TEXT", ""),
			col("recipient_email", "TEXT", ""),
			col("archived_at", "TEXT", ""),
			col("created_at", "TEXT", ""),
		},
		Rows: func(op *kernel.Op, le string) ([][]any, error) {
			return rowsOf(op, parties.KindContact, parties.IndexContactLE, le, func(c *parties.Contact) []any {
				return []any{c.ID, c.Name, c.RecipientType, sqlText(c.RecipientLegalName), sqlText(c.RecipientEmail),
					sqlTimePtr(c.ArchivedAt), sqlTime(c.CreatedAt)}
			})
		}})
	add(AnalyticsTable{Name: "customers", Doc: "The legal entity's customers (whom it invoices).",
		Columns: []AnalyticsColumn{col("id", "TEXT", ""), col("name", "TEXT", ""), col("email", "TEXT", ""),
			col("phone", "TEXT", ""), col("status", "TEXT", "active or archived"), col("created_at", "TEXT", "")},
		Rows: func(op *kernel.Op, le string) ([][]any, error) {
			return rowsOf(op, parties.KindCustomer, parties.IndexCustomerLE, le, func(c *parties.Customer) []any {
				return []any{c.ID, c.Name, c.Email, sqlText(c.Phone), c.Status, sqlTime(c.CreatedAt)}
			})
		}})
	add(AnalyticsTable{Name: "invoices", Doc: "The legal entity's invoices.",
		Columns: []AnalyticsColumn{col("id", "TEXT", ""), col("number", "TEXT", ""), col("customer_id", "TEXT", ""),
			col("account_id", "TEXT", ""), col("status", "TEXT", ""), col("currency", "TEXT", ""),
			col("total_cents", "INTEGER", ""), col("collected_cents", "INTEGER", ""), col("issued_at", "TEXT", ""),
			col("due_at", "TEXT", ""), col("closed_at", "TEXT", "")},
		Rows: func(op *kernel.Op, le string) ([][]any, error) {
			return rowsOf(op, invoices.Kind, invoices.IndexLE, le, func(inv *invoices.Invoice) []any {
				return []any{inv.ID, inv.Number, inv.CustomerID, inv.AccountID, inv.Status, sqlText(inv.Currency), inv.TotalCents(),
					inv.CollectedCents, sqlTime(inv.IssuedAt), sqlTime(inv.DueAt), sqlTimePtr(inv.ClosedAt)}
			})
		}})
	add(AnalyticsTable{Name: "webhooks", Doc: "The legal entity's webhook endpoints.",
		Columns: []AnalyticsColumn{col("id", "TEXT", ""), col("name", "TEXT", ""), col("url", "TEXT", ""),
			col("status", "TEXT", ""), col("created_at", "TEXT", "")},
		Rows: func(op *kernel.Op, le string) ([][]any, error) {
			return rowsOf(op, deliveries.KindWebhook, deliveries.IndexWebhookLE, le, func(w *deliveries.Webhook) []any {
				return []any{w.ID, w.Name, w.URL, w.Status, sqlTime(w.CreatedAt)}
			})
		}})
	return
}
