package scenario

import (
	"os"
	"strings"
	"testing"
)

// TestPlantedMistakes: a file with many mistakes reports every one, in
// file order, with its line, column and a suggestion where one is near.
func TestPlantedMistakes(t *testing.T) {
	tests := []struct {
		file string
		want []string
	}{
		{"testdata/mistakes.yaml", []string{
			`testdata/mistakes.yaml:7:16: legalEntities[0].structure: "llcc" is not one of person, llc, lp, llp, gp,` +
				` partnership, cooperative, ccorp, scorp, other; did you mean "llc"?`,
			`testdata/mistakes.yaml:12:40: users[0].roles[0].role: "admn" is not one of admin, member, viewer, bookkeeper; did` +
				` you mean "admin"?`,
			`testdata/mistakes.yaml:14:39: keys[0].userId: no user "u_anne"; did you mean "u_ann"?`,
			`testdata/mistakes.yaml:19:19: accounts[0].balanceCents: expected a whole number, got text`,
			`testdata/mistakes.yaml:20:9: accounts[1].id: id "sa_ops" is already declared at line 16`,
			`testdata/mistakes.yaml:23:22: accounts[1].virtualAccounts: expected a list, got a mapping`,
			`testdata/mistakes.yaml:28:16: cards[0].accountId: no account "sa_opps"; did you mean "sa_ops"?`,
			`testdata/mistakes.yaml:29:18: cards[0].cardGroupId: no card group "card_group_sass"; did you mean` +
				` "card_group_saas"?`,
			`testdata/mistakes.yaml:31:5: cards[0].statuss: unknown key; did you mean "status"?`,
			`testdata/mistakes.yaml:32:18: cards[0].isSingleUse: expected true or false, got text`,
			`testdata/mistakes.yaml:33:5: cards[1].name: is required`,
			`testdata/mistakes.yaml:33:54: cards[1].cardProductId: no card product "card_product_nope" in the fixtures` +
				` catalogue`,
			`testdata/mistakes.yaml:40:37: invoices[0].customerId: no customer "le_cust_client"`,
			`testdata/mistakes.yaml:44:27: events[0].with.transactionId: no transaction "txn_payrol"; did you mean` +
				` "txn_payroll"?`,
			`testdata/mistakes.yaml:46:11: events[1].kind: "invoice.sendd" is not one of transaction.settle, wire.settle,` +
				` incoming_transfer.settle, ach.settle, ach.return, invoice.send, invoice.overdue, invoice.remind,` +
				` expense_report.payout, information_request.submit, token_prices.tick,` +
				` webhook.retry, webhook.resume, agent_request.expire; did you mean "invoice.send"?`,
			`testdata/mistakes.yaml:47:9: events[2].at: a scheduled event must not be before the clock start`,
			`testdata/mistakes.yaml:49:5: events[2].with.transactionId: is required`,
			`testdata/mistakes.yaml:49:27: events[2].with.transactionID: unknown key for transaction.settle; did you mean` +
				` "transactionId"?`,
		}},
		{"testdata/syntax.yaml", []string{
			`testdata/syntax.yaml:4:4: YAML syntax: did not find expected '-' indicator while parsing a block collection` +
				` started at line 3, column 3`,
		}},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			data, err := os.ReadFile(tc.file)
			if err != nil {
				t.Fatal(err)
			}
			_, err = Parse(tc.file, data)
			ps, ok := AsProblems(err)
			if !ok {
				t.Fatalf("Parse = %v, want problems", err)
			}
			got := make([]string, len(ps))
			for i, p := range ps {
				got[i] = p.String()
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Fatalf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
			for _, word := range []string{"scenario.", "[]scenario", "!!", "unmarshal", "int64", "string"} {
				if strings.Contains(err.Error(), word) {
					t.Errorf("problems speak of Go or YAML types (%q): %v", word, err)
				}
			}
		})
	}
}
