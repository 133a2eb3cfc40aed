package invoices

import "github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"

// Record kind and id prefixes of invoices.
const (
	Kind   = "invoice"
	Prefix = "invoice_"
	// PrefixDetails starts the id of an invoice's details.
	PrefixDetails = "invoice_details_"
)

// Kinds of the outbox's messages the invoices send.
const (
	MessageInvoice  = "invoice"
	MessageReminder = "invoice_reminder"
)

// Kinds are the invoices' kinds of record and id prefixes, as the engine
// is wired with them: settings are keyed by their legal entity.
var Kinds = []kernel.Kind{
	{Name: Kind, Prefix: Prefix},
	{Prefix: PrefixDetails},
	{Name: KindSeries, Prefix: PrefixSeries},
	{Name: KindDocument, Prefix: PrefixDocument},
	{Name: KindSettings},
}
