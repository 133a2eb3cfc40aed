package engine

import (
	"slices"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/agentrequests"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/cards"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/clock"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/deliveries"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/devapps"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/expenses"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/inforequests"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/invoices"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/ledger"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/parties"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/scenario"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/seed"
)

// New makes an engine with every domain wired in. wall is the wall
// clock used by real and scaled clock modes (nil for the machine's).
func New(wall clock.Wall) (*kernel.Engine, error) { return kernel.NewEngine(wall, Wiring()) }

// Wiring connects the domains to the engine: every domain's kinds of
// record and id prefixes (with the index keys derived from a record), every
// scheduled event kind, every reaction to an emitted event, and the
// scenario loader. Nothing registers itself anywhere else.
func Wiring() kernel.Wiring {
	return kernel.Wiring{
		Kinds: slices.Concat(parties.Kinds, agentrequests.Kinds, devapps.Kinds, deliveries.Kinds, ledger.Kinds,
			cards.Kinds, inforequests.Kinds, invoices.Kinds, expenses.Kinds),
		Events: map[string]kernel.EventHandler{
			"transaction.settle":           ledger.RunSettle,
			ledger.EventKindACHSettle:      ledger.RunACHSettle,
			ledger.EventKindACHReturn:      ledger.RunACHReturn,
			ledger.EventKindWireSettle:     ledger.RunSettle,
			ledger.EventKindIncomingSettle: ledger.RunSettle,
			ledger.TokenTickKind:           ledger.RunTokenTick,
			inforequests.SubmitEvent:       inforequests.RunScheduledSubmission,
			invoices.EventSend:             invoices.RunSend,
			invoices.EventOverdue:          invoices.RunDue,
			invoices.EventRemind:           invoices.RunDue,
			invoices.EventSeriesIssue:      invoices.RunSeriesIssue,
			expenses.EventPayout:           expenses.RunPayout,
			agentrequests.ExpireKind:       agentrequests.RunExpiry,
			deliveries.EventWebhookRetry:   deliveries.RunWebhookRetry,
			deliveries.EventWebhookResume:  deliveries.RunWebhookResume,
		},
		Retired:  []string{deliveries.RetiredDeliveryAll},
		Upgrades: []func(op *kernel.Op) error{deliveries.UpgradeIndexes},
		OnEmit:   []func(op *kernel.Op, e *kernel.Emitted) error{deliveries.FanOut},
		Seed:     loadScenario,
	}
}

// loadScenario writes a scenario into a new world.
func loadScenario(op *kernel.Op, sc *scenario.Scenario) error { return seed.NewLoader(op, sc).Run() }
