package ledger

import "github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"

// Record kinds of the ledger.
const (
	KindAccount        = "account"
	KindVirtualAccount = "virtual_account"
	KindTotals         = "totals"
	KindTransaction    = "transaction"
)

// ID prefixes of the ledger, following the real service where it shows one.
const (
	PrefixAccount        = "sa_group_"
	PrefixVirtualAccount = "subaccount_"
	PrefixTransaction    = "txn_"
	PrefixTransfer       = "transfer_"
	PrefixHandle         = "handle_"
)

// Kinds are the ledger's kinds of record and id prefixes, as the engine is
// wired with them: totals are keyed by their owner and bucket (TotalsKey),
// a transfer's id names the transactions of its legs.
var Kinds = []kernel.Kind{
	{Name: KindAccount, Prefix: PrefixAccount},
	{Name: KindVirtualAccount, Prefix: PrefixVirtualAccount},
	{Name: KindTotals},
	{Name: KindTransaction, Prefix: PrefixTransaction, Derive: kernel.Derived(TxnIndexes)},
	{Prefix: PrefixTransfer},
	{Name: kindHandle, Prefix: PrefixHandle},
	{Prefix: PrefixCommissionRule},
}
