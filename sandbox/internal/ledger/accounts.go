package ledger

import (
	"sort"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/store"
)

// IndexLE holds every legal entity in scenario order, IndexAccount a legal
// entity's accounts and indexVA an account's virtual accounts, both in
// creation order.
const (
	IndexLE      = "le.all"
	IndexAccount = "account.le"
	indexVA      = "va.account"
)

// AccountIndex is the index key of an account under its legal entity.
func AccountIndex(a *Account) string {
	return kernel.IndexKey(IndexAccount, a.LegalEntityID, store.Millis(a.CreatedAt), store.Seq(a.Seq), a.ID)
}

// VaIndex is the index key of a virtual account under its account.
func VaIndex(v *VirtualAccount) string {
	return kernel.IndexKey(indexVA, v.AccountID, store.Millis(v.CreatedAt), store.Seq(v.Seq), v.ID)
}

// LegalEntities lists the entities a principal may act on, in scenario order.
func LegalEntities(op *kernel.Op, p *kernel.Principal) ([]kernel.LegalEntity, error) {
	all, err := kernel.All[kernel.LegalEntity](op, kernel.LegalEntities.Name, kernel.IndexPrefix(IndexLE))
	if err != nil {
		return nil, err
	}
	out := []kernel.LegalEntity{}
	for _, le := range all {
		if p.MayActOn(le.ID) {
			out = append(out, le)
		}
	}
	return out, nil
}

// Accounts lists the actor's accounts in creation order.
func Accounts(op *kernel.Op, a *kernel.Actor) ([]Account, error) {
	return kernel.All[Account](op, KindAccount, kernel.IndexPrefix(IndexAccount, a.LegalEntityID()))
}

// AccountOf loads one of the actor's accounts; another entity's is not found.
func AccountOf(op *kernel.Op, a *kernel.Actor, id, field string) (*Account, error) {
	var acc Account
	ok, err := op.Get(KindAccount, id, &acc)
	if err != nil {
		return nil, err
	}
	if !ok || acc.LegalEntityID != a.LegalEntityID() {
		return nil, kernel.NotFound("account", field, id)
	}
	return &acc, nil
}

// Balance is one balance of an account.
type Balance struct {
	AccountID string
	Type      string
	Totals    Totals
}

// BalanceTypes lists the balance types of an account type.
func BalanceTypes(accountType string) []string {
	if accountType == "charge_card" {
		return []string{"cash", "credit"}
	}
	return []string{"debit"}
}

// subtypeOf maps a balance type to the ledger bucket it reads.
func subtypeOf(balanceType string) string {
	if balanceType == "credit" {
		return "credit"
	}
	return "cash"
}

// Balances returns an account's balances.
func Balances(op *kernel.Op, acc *Account) ([]Balance, error) {
	var out []Balance
	for _, bt := range BalanceTypes(acc.Type) {
		t, err := TotalsOf(op, acc.ID, subtypeOf(bt))
		if err != nil {
			return nil, err
		}
		out = append(out, Balance{AccountID: acc.ID, Type: bt, Totals: t})
	}
	return out, nil
}

// VirtualAccounts lists an account's virtual accounts, primary first.
func VirtualAccounts(op *kernel.Op, accountID string) ([]VirtualAccount, error) {
	vas, err := kernel.All[VirtualAccount](op, KindVirtualAccount, kernel.IndexPrefix(indexVA, accountID))
	sort.SliceStable(vas, func(i, j int) bool { return vas[i].Primary && !vas[j].Primary })
	return vas, err
}

// VirtualAccountTotals returns a virtual account's running totals.
func VirtualAccountTotals(op *kernel.Op, id string) (Totals, error) {
	return TotalsOf(op, id, "virtual")
}

// AccountTotals returns the running totals of an account subtype.
func AccountTotals(op *kernel.Op, id, subtype string) (Totals, error) {
	return TotalsOf(op, id, subtype)
}
