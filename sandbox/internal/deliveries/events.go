package deliveries

// Webhook event types of the real service: what a domain emits
// (kernel.Op.Emit) and an endpoint subscribes to.
const (
	EventCardUpdate          = "card.update"
	EventCardDelete          = "card.delete"
	EventCardCreation        = "card_creation.event"
	EventTransactionCreate   = "aggregated_transaction.create"
	EventTransactionUpdate   = "aggregated_transaction.update"
	EventExpenseReportNew    = "expense_report.create"
	EventExpenseReportUpdate = "expense_report.update"
)

// EventTypes lists every webhook event type, in the real service's order.
var EventTypes = []string{EventCardUpdate, EventCardDelete, EventCardCreation, EventTransactionCreate,
	EventTransactionUpdate, EventExpenseReportNew, EventExpenseReportUpdate}
