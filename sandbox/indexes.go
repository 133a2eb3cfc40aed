package sandbox

import "github.com/slash-sandbox/slash-sandbox/sandbox/store"

// Index names and the entries each record kind keeps. Every list the API
// offers walks one of these in order.
const (
	indexCardLE      = "card.le"
	indexCardName    = "card.name"
	indexCardAccount = "card.account"
	indexCardGroup   = "card.group"
	indexGroupLE     = "group.le"
	indexContactLE   = "contact.le"
	indexDestContact = "dest.contact"
	indexDestLE      = "dest.le"
	indexCustomerLE  = "customer.le"
	indexInvoiceLE   = "invoice.le"
	// Invoices by due date, by number (unique per legal entity) and by
	// the transactions reconciled to them.
	indexInvoiceDue    = "invoice.due"
	indexInvoiceNumber = "invoice.number"
	indexInvoiceTxn    = "invoice.txn"
	indexWebhookLE     = "webhook.le"
)

func cardIndexes(c *Card) []string {
	at, seq := store.Millis(c.CreatedAt), store.Seq(c.Seq)
	keys := []string{
		IndexKey(indexCardLE, c.LegalEntityID, at, seq, c.ID),
		IndexKey(indexCardName, c.LegalEntityID, sortName(c.Name), c.Name, seq, c.ID),
		IndexKey(indexCardAccount, c.AccountID, at, seq, c.ID),
	}
	if c.CardGroupID != "" {
		keys = append(keys, IndexKey(indexCardGroup, c.CardGroupID, at, seq, c.ID))
	}
	return keys
}

func groupIndexes(g *CardGroup) []string {
	return []string{IndexKey(indexGroupLE, g.LegalEntityID, store.Millis(g.CreatedAt), store.Seq(g.Seq), g.ID)}
}

func contactIndexes(c *Contact) []string {
	return []string{IndexKey(indexContactLE, c.LegalEntityID, store.Millis(c.CreatedAt), store.Seq(c.Seq), c.ID)}
}

func destinationIndexes(d *Destination) []string {
	at, seq := store.Millis(d.CreatedAt), store.Seq(d.Seq)
	return []string{
		IndexKey(indexDestContact, d.ContactID, at, seq, d.ID),
		IndexKey(indexDestLE, d.LegalEntityID, at, seq, d.ID),
	}
}

func customerIndexes(c *Customer) []string {
	return []string{IndexKey(indexCustomerLE, c.LegalEntityID, store.Millis(c.CreatedAt), store.Seq(c.Seq), c.ID)}
}

func invoiceIndexes(inv *Invoice) []string {
	seq := store.Seq(inv.Seq)
	keys := []string{
		IndexKey(indexInvoiceLE, inv.LegalEntityID, store.Millis(inv.IssuedAt), seq, inv.ID),
		IndexKey(indexInvoiceDue, inv.LegalEntityID, store.Millis(inv.DueAt), seq, inv.ID),
		IndexKey(indexInvoiceNumber, inv.LegalEntityID, inv.Number, inv.ID),
	}
	for _, p := range inv.Transactions {
		if p.TransactionID != "" {
			keys = append(keys, IndexKey(indexInvoiceTxn, p.TransactionID, inv.ID))
		}
	}
	return keys
}

func webhookIndexes(w *Webhook) []string {
	return []string{IndexKey(indexWebhookLE, w.LegalEntityID, store.Millis(w.CreatedAt), store.Seq(w.Seq), w.ID)}
}
