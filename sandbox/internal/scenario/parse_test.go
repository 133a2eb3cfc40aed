package scenario

import (
	"strings"
	"testing"
	"time"
)

const base = `name: t
legalEntities:
  - id: le_one
    name: One
accounts:
  - id: sa_group_one
    legalEntityId: le_one
    name: Operating
`

func mustProblems(t *testing.T, src string) Problems {
	t.Helper()
	_, err := Parse("s.yaml", []byte(src))
	ps, ok := AsProblems(err)
	if !ok {
		t.Fatalf("Parse returned %v, want problems", err)
	}
	return ps
}

// spend adds two users and a pending expense report to base, from line 9.
const spend = base + `users:
  - {id: u_a, name: A, email: a@x.test, roles: [{legalEntityId: le_one}]}
  - {id: u_b, name: B, email: b@x.test, roles: [{legalEntityId: le_one}]}
expenseReports:
  - id: expense_report_a
    legalEntityId: le_one
    submittedByUserId: u_a
    amountCents: 5
    merchantId: merchant_v2_uber
`

func TestParseStrictErrors(t *testing.T) {
	tests := []struct {
		name     string
		src      string
		wantLine int
		wantText string
	}{
		{"unknown top-level key", base + "colour: blue\n", 9, "colour: unknown key; the keys here are name, description"},
		{
			"unknown nested key",
			base + "    balanceCent: 5\n",
			9,
			`accounts[0].balanceCent: unknown key; did you mean "balanceCents"?`,
		},
		{"wrong type", base + "    balanceCents: lots\n", 9, "accounts[0].balanceCents: expected a whole number, got text"},
		{
			"dangling account reference",
			base + "cards:\n  - accountId: sa_group_missing\n    name: C\n",
			10,
			`cards[0].accountId: no account "sa_group_missing"`,
		},
		{"bad relative time", base + "    createdAt: -3x\n", 9, "is not a time"},
		{
			"duplicate id",
			base + "  - id: sa_group_one\n    legalEntityId: le_one\n    name: Again\n",
			9,
			"already declared at line 6",
		},
		{"bad legal entity id", "legalEntities:\n  - id: acme\n    name: A\n", 2, "must match"},
		{"empty list item", "legalEntities:\n  -\n", 2, "legalEntities[0]: expected a mapping, got nothing"},
		{"unknown enum value", base + "    type: savings\n", 9, `"savings" is not one of debit, charge_card`},
		{"key without kind", base + "keys:\n  - key: k1\n    legalEntityId: le_one\n", 10, "kind: is required"},
		{
			"merchant not in catalogue",
			base + "transactions:\n  - accountId: sa_group_one\n    amountCents: -5\n    merchantId: merchant_v2_nope\n",
			12,
			`no merchant "merchant_v2_nope" in the fixtures catalogue`,
		},
		{
			"syntax error",
			"name: t\nlegalEntities: [\n",
			3,
			"YAML syntax: did not find expected node content while parsing a flow node",
		},
		{"no legal entity", "name: x\n", 1, "legalEntities: is required: give at least one"},
		{
			"expense submission task without its report",
			base + "tasks:\n  - {legalEntityId: le_one, type: expense_submission}\n",
			10,
			"tasks[0].expenseReportId: is required for an expense_submission task",
		},
		{
			"two tasks for one report",
			spend + "tasks:\n  - {legalEntityId: le_one, type: expense_submission, expenseReportId: expense_report_a}\n" +
				"  - {legalEntityId: le_one, type: expense_submission, expenseReportId: expense_report_a}\n",
			20,
			"expense report expense_report_a has its task at tasks[0] already",
		},
		{
			"another kind of task naming a report",
			spend + "tasks:\n  - {legalEntityId: le_one, type: other, expenseReportId: expense_report_a}\n",
			19,
			"only an expense_submission task names an expense report",
		},
		{
			"a pending report with a reimbursement",
			spend + "    transactionId: txn_a\ntransactions:\n  - {id: txn_a, accountId: sa_group_one, amountCents: -5}\n",
			18,
			"only an approved report (payment_processing, payment_completed or payment_failed) has a reimbursement",
		},
		{"a pending report with a review", spend + "    reviewId: expense_report_review_a\n", 18,
			"expenseReports[0].reviewId: a report pending_review has no review"},
		{"a finished payout still due", spend + "    status: payment_completed\n    reviewedByUserId: u_b\n" +
			"    payoutAt: +1d\n", 20, "only a payment_processing report waits for its reimbursement"},
		{
			"too much to generate in all",
			base + "generate:\n  - {kind: bank_transactions, count: 600000, accountId: sa_group_one}\n  - {kind:" +
				" bank_transactions, count: 600000, accountId: sa_group_one}\n",
			11,
			"at most 1000000 in all",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ps := mustProblems(t, tc.src)
			var found bool
			for _, p := range ps {
				if p.Line == tc.wantLine && strings.Contains(p.Message, tc.wantText) {
					found = true
				}
				if got := p.String(); !strings.HasPrefix(got, "s.yaml:") {
					t.Errorf("problem %q does not start with the file name", got)
				}
			}
			if !found {
				t.Fatalf("problems %v do not include line %d: %q", ps, tc.wantLine, tc.wantText)
			}
		})
	}
}

func TestParseValidScenario(t *testing.T) {
	sc, err := Parse("ok.yaml", []byte(base+"    balanceCents: 100\n    createdAt: -2w3d\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := sc.Accounts[0].BalanceCents, int64(100); got != want {
		t.Fatalf("balance = %d, want %d", got, want)
	}
	if got, want := sc.Line("accounts[0].name"), 8; got != want {
		t.Fatalf("Line(accounts[0].name) = %d, want %d", got, want)
	}
}

func TestEmbeddedScenariosAreValid(t *testing.T) {
	for _, name := range []string{"demo", "empty"} {
		t.Run(name, func(t *testing.T) {
			sc, err := Load(name)
			if err != nil {
				t.Fatal(err)
			}
			if sc.Name != name {
				t.Fatalf("name = %q, want %q", sc.Name, name)
			}
		})
	}
}

func TestParseTime(t *testing.T) {
	start := time.Date(2026, 6, 15, 14, 0, 0, 0, time.UTC)
	tests := []struct {
		spec string
		want time.Time
	}{
		{"", start},
		{"now", start},
		{"-3d", start.AddDate(0, 0, -3)},
		{"+2h", start.Add(2 * time.Hour)},
		{"-1w", start.AddDate(0, 0, -7)},
		{"+1d12h", start.Add(36 * time.Hour)},
		{"2026-01-02T03:04:05Z", time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)},
		{"2026-01-02", time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC)},
	}
	for _, tc := range tests {
		t.Run(tc.spec, func(t *testing.T) {
			got, err := ParseTime(tc.spec, start)
			if err != nil {
				t.Fatal(err)
			}
			if !got.Equal(tc.want) {
				t.Fatalf("ParseTime(%q) = %v, want %v", tc.spec, got, tc.want)
			}
		})
	}
	for _, bad := range []string{"3d", "-3", "yesterday", "+1y", "2026-13-01"} {
		if _, err := ParseTime(bad, start); err == nil {
			t.Errorf("ParseTime(%q) succeeded", bad)
		}
	}
}

func TestParseDuration(t *testing.T) {
	for spec, want := range map[string]time.Duration{"36h": 36 * time.Hour, "2d": 48 * time.Hour, "1w": 168 * time.Hour,
		"90m": 90 * time.Minute, "1d6h": 30 * time.Hour} {
		got, err := ParseDuration(spec)
		if err != nil || got != want {
			t.Errorf("ParseDuration(%q) = %v, %v; want %v", spec, got, err, want)
		}
	}
	for _, bad := range []string{"", "soon", "3x", "1d-2h", "999999w", "300000d", "106752d", "1000000d1000000d"} {
		if _, err := ParseDuration(bad); err == nil {
			t.Errorf("ParseDuration(%q) succeeded", bad)
		}
	}
}
