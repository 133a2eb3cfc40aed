package checker

import (
	"fmt"
	"sort"
	"strings"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/ledger"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/store"
)

// checkBalances reports balances that are not the sum of their entries:
// stored totals of an account or virtual account that differ from its
// transactions', a declared balance its entries do not reach, and a debit
// account's virtual account whose history takes it below zero (a movement
// the funds check would have refused).
func checkBalances(c *check, op *kernel.Op) error {
	txns, err := kernel.All[ledger.Transaction](op, ledger.KindTransaction, kernel.IndexPrefix(ledger.IndexTxnLE))
	if err != nil {
		return err
	}
	summed := map[string]ledger.Totals{}
	for i := range txns {
		t := &txns[i]
		e := ledger.Effect(t, t.DetailedStatus)
		for _, k := range []string{ledger.TotalsKey(t.AccountID, t.AccountSubtype), ledger.TotalsKey(t.VirtualAccountID,
			"virtual")} {
			s := summed[k]
			s.Add(e, 1)
			summed[k] = s
		}
	}
	if err := c.storedTotals(op, summed); err != nil {
		return err
	}
	if err := c.declaredBalances(op, summed); err != nil {
		return err
	}
	return c.overdrawn(op, txns)
}

// buckets are the totals records of an account (cash and credit) or a
// virtual account.
func buckets(kind, id string) []string {
	if kind == ledger.KindVirtualAccount {
		return []string{ledger.TotalsKey(id, "virtual")}
	}
	return []string{ledger.TotalsKey(id, "cash"), ledger.TotalsKey(id, "credit")}
}

// storedTotals compares the totals the ledger keeps with the sums of the
// transactions, for every account and virtual account of the file.
func (c *check) storedTotals(op *kernel.Op, summed map[string]ledger.Totals) error {
	for _, kind := range []string{ledger.KindAccount, ledger.KindVirtualAccount} {
		for _, m := range c.madeOf(kind) {
			for _, key := range buckets(kind, m.id) {
				var stored ledger.Totals
				if _, err := op.Get(ledger.KindTotals, key, &stored); err != nil {
					return err
				}
				if sum := summed[key]; stored != sum {
					owner, bucket, _ := strings.Cut(key, store.Sep)
					c.report(m.path, "balance.entries", "%s's %s totals are %s, but its transactions sum to %s", owner,
						bucket, totalsText(stored), totalsText(sum))
				}
			}
		}
	}
	return nil
}

func totalsText(t ledger.Totals) string {
	return fmt.Sprintf("posted %s, pending %s/%s, spend %s", ledger.FormatCents(t.Posted),
		ledger.FormatCents(t.PendingDebits), ledger.FormatCents(t.PendingCredits), ledger.FormatCents(t.Spend))
}

// declaredBalances compares each declared balance (balanceCents) with the
// posted sum of its entries: a virtual account's own, the primary one's the
// account's less its virtual accounts' (a charge card's, its cash).
func (c *check) declaredBalances(op *kernel.Op, summed map[string]ledger.Totals) error {
	for i, s := range c.sc.Accounts {
		path := fmt.Sprintf("accounts[%d]", i)
		acc, err := c.madeAt(op, ledger.KindAccount, path)
		if err != nil || acc == nil {
			return err
		}
		rest := s.BalanceCents
		for j, vs := range s.VirtualAccounts {
			rest -= vs.BalanceCents
			vpath := fmt.Sprintf("%s.virtualAccounts[%d]", path, j)
			for _, m := range c.madeOf(ledger.KindVirtualAccount) {
				if m.path == vpath {
					c.declared(vpath+".balanceCents", "virtual account "+m.id, vs.BalanceCents,
						summed[ledger.TotalsKey(m.id, "virtual")].Posted)
				}
			}
		}
		key := ledger.TotalsKey(acc.PrimaryVirtualAccountID, "virtual")
		if acc.Type == "charge_card" {
			key = ledger.TotalsKey(acc.ID, "cash")
		}
		c.declared(path+".balanceCents", "account "+acc.ID+"'s primary virtual account", rest, summed[key].Posted)
	}
	return nil
}

func (c *check) declared(path, what string, want, got int64) {
	if want != got {
		c.report(path, "balance.declared", "%s is declared to hold %s, but its entries post %s", what,
			ledger.FormatCents(want), ledger.FormatCents(got))
	}
}

// madeAt loads the account the load created at path.
func (c *check) madeAt(op *kernel.Op, kind, path string) (*ledger.Account, error) {
	for _, m := range c.madeOf(kind) {
		if m.path == path {
			return get[ledger.Account](c, op, kind, m.id)
		}
	}
	return nil, nil
}

// overdrawn walks each debit account's virtual accounts through their
// history, oldest first, and reports the first entry that leaves one below
// zero: at that entry's line, or at the virtual account's when no line made
// it (the opening balance its declared balance needs).
func (c *check) overdrawn(op *kernel.Op, txns []ledger.Transaction) error {
	byVA := map[string][]*ledger.Transaction{}
	for i := range txns {
		byVA[txns[i].VirtualAccountID] = append(byVA[txns[i].VirtualAccountID], &txns[i])
	}
	for _, m := range c.madeOf(ledger.KindVirtualAccount) {
		va, err := get[ledger.VirtualAccount](c, op, ledger.KindVirtualAccount, m.id)
		if err != nil || va == nil {
			return err
		}
		acc, err := get[ledger.Account](c, op, ledger.KindAccount, va.AccountID)
		if err != nil {
			return err
		}
		if acc == nil || acc.Type == "charge_card" {
			continue
		}
		history := byVA[va.ID]
		sort.SliceStable(history, func(i, j int) bool {
			if !history[i].CreatedAt.Equal(history[j].CreatedAt) {
				return history[i].CreatedAt.Before(history[j].CreatedAt)
			}
			return history[i].AmountCents > history[j].AmountCents
		})
		var balance int64
		for _, t := range history {
			e := ledger.Effect(t, t.DetailedStatus)
			balance += e.Posted + e.PendingDebits
			if t.AmountCents >= 0 || balance >= 0 || e.Posted+e.PendingDebits >= 0 {
				continue
			}
			path := c.origins.Of(ledger.KindTransaction, t.ID)
			what := "transaction " + t.ID
			if path == "" {
				path, what = m.path, "its opening balance ("+t.Description+")"
			}
			c.report(path, "balance.overdrawn", "%s on %s leaves virtual account %s (%s) at %s: a debit beyond the "+
				"funds available is refused", what, day(t.CreatedAt), va.ID, va.Name, ledger.FormatCents(balance))
			break
		}
	}
	return nil
}
