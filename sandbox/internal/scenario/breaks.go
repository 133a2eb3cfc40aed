package scenario

import (
	"fmt"
	"strings"
)

// Breaks returns the rules the record at path (such as "transactions[3]" or
// "accounts[0].virtualAccounts[1]") says it breaks on purpose: its breaks
// key. A path of a section without that key, or of no record, has none.
func (sc *Scenario) Breaks(path string) []string {
	var i, j int
	section, _, _ := strings.Cut(path, "[")
	switch section {
	case "transactions":
		if at(path, "transactions[%d]", &i) && i < len(sc.Transactions) {
			return sc.Transactions[i].Breaks
		}
	case "cards":
		if at(path, "cards[%d]", &i) && i < len(sc.Cards) {
			return sc.Cards[i].Breaks
		}
	case "invoices":
		if at(path, "invoices[%d]", &i) && i < len(sc.Invoices) {
			return sc.Invoices[i].Breaks
		}
	case "informationRequests":
		if at(path, "informationRequests[%d]", &i) && i < len(sc.InformationRequests) {
			return sc.InformationRequests[i].Breaks
		}
	case "accounts":
		if at(path, "accounts[%d].virtualAccounts[%d]", &i, &j) {
			if i < len(sc.Accounts) && j < len(sc.Accounts[i].VirtualAccounts) {
				return sc.Accounts[i].VirtualAccounts[j].Breaks
			}
		} else if at(path, "accounts[%d]", &i) && i < len(sc.Accounts) {
			return sc.Accounts[i].Breaks
		}
	}
	return nil
}

// BreakPaths lists the paths of the records of sc whose section takes a
// breaks key, in Breaks' terms.
func BreakPaths(sc *Scenario) []string {
	var out []string
	add := func(format string, n int) {
		for i := range n {
			out = append(out, fmt.Sprintf(format, i))
		}
	}
	add("transactions[%d]", len(sc.Transactions))
	add("cards[%d]", len(sc.Cards))
	add("invoices[%d]", len(sc.Invoices))
	add("informationRequests[%d]", len(sc.InformationRequests))
	add("accounts[%d]", len(sc.Accounts))
	for i, a := range sc.Accounts {
		for j := range a.VirtualAccounts {
			out = append(out, fmt.Sprintf("accounts[%d].virtualAccounts[%d]", i, j))
		}
	}
	return out
}

// at reports whether path is exactly format with its indexes filled.
func at(path, format string, idx ...*int) bool {
	args := make([]any, len(idx))
	for k, p := range idx {
		args[k] = p
	}
	if n, err := fmt.Sscanf(path, format, args...); err != nil || n != len(idx) {
		return false
	}
	for _, p := range idx {
		if *p < 0 {
			return false
		}
	}
	vals := make([]any, len(idx))
	for k, p := range idx {
		vals[k] = *p
	}
	return fmt.Sprintf(format, vals...) == path
}
