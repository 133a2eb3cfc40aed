package sandbox

import (
	"sort"

	"github.com/slash-sandbox/slash-sandbox/sandbox/store"
)

const (
	indexLE      = "le.all"
	indexAccount = "account.le"
	indexVA      = "va.account"
)

func accountIndex(a *Account) string {
	return IndexKey(indexAccount, a.LegalEntityID, store.Millis(a.CreatedAt), store.Seq(a.Seq), a.ID)
}

func vaIndex(v *VirtualAccount) string {
	return IndexKey(indexVA, v.AccountID, store.Millis(v.CreatedAt), store.Seq(v.Seq), v.ID)
}

// LegalEntities lists the entities a principal may act on, in scenario order.
func (op *Op) LegalEntities(p *Principal) ([]LegalEntity, error) {
	all, err := all[LegalEntity](op, kindLegalEntity, IndexPrefix(indexLE))
	if err != nil {
		return nil, err
	}
	out := []LegalEntity{}
	for _, le := range all {
		if p.MayActOn(le.ID) {
			out = append(out, le)
		}
	}
	return out, nil
}

// Accounts lists the actor's accounts in creation order.
func (op *Op) Accounts(a *Actor) ([]Account, error) {
	return all[Account](op, kindAccount, IndexPrefix(indexAccount, a.LegalEntityID()))
}

// Account loads one of the actor's accounts; another entity's is not found.
func (op *Op) Account(a *Actor, id, field string) (*Account, error) {
	var acc Account
	ok, err := op.get(kindAccount, id, &acc)
	if err != nil {
		return nil, err
	}
	if !ok || acc.LegalEntityID != a.LegalEntityID() {
		return nil, NotFound("account", field, id)
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
func (op *Op) Balances(acc *Account) ([]Balance, error) {
	var out []Balance
	for _, bt := range BalanceTypes(acc.Type) {
		t, err := op.totals(acc.ID, subtypeOf(bt))
		if err != nil {
			return nil, err
		}
		out = append(out, Balance{AccountID: acc.ID, Type: bt, Totals: t})
	}
	return out, nil
}

// VirtualAccounts lists an account's virtual accounts, primary first.
func (op *Op) VirtualAccounts(accountID string) ([]VirtualAccount, error) {
	vas, err := all[VirtualAccount](op, kindVirtualAccount, IndexPrefix(indexVA, accountID))
	sort.SliceStable(vas, func(i, j int) bool { return vas[i].Primary && !vas[j].Primary })
	return vas, err
}

// VirtualAccountTotals returns a virtual account's running totals.
func (op *Op) VirtualAccountTotals(id string) (Totals, error) { return op.totals(id, "virtual") }

// AccountTotals returns the running totals of an account subtype.
func (op *Op) AccountTotals(id, subtype string) (Totals, error) { return op.totals(id, subtype) }
