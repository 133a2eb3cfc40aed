package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/scenarios"
)

// overMaximum is a world whose office card has a settled purchase above
// its per-purchase maximum, on line 11.
const overMaximum = `clockStart: 2026-06-15T14:00:00Z
legalEntities: [{id: le_x, name: X, createdAt: -400d}]
accounts: [{id: sa_x, legalEntityId: le_x, name: A, balanceCents: 1000000, createdAt: -300d}]
cards:
  - id: card_office
    accountId: sa_x
    name: Office
    createdAt: -30d
    spendingConstraint: {spendingRule: {transactionSizeLimit: {maximum: {amountCents: 50000}}}}
transactions:
  - {cardId: card_office, merchantId: merchant_v2_staples, amountCents: -60000, date: -1d}
`

// writeScenario writes a scenario file and returns its path.
func writeScenario(t *testing.T, yaml string) string {
	t.Helper()
	file := filepath.Join(t.TempDir(), "s.yaml")
	if err := os.WriteFile(file, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}

// TestValidateDeep runs validate --deep as a user does: a file with a
// record that breaks a rule prints the finding at its line and exits 1; the
// same record marked as breaking it on purpose passes (exit 0); a file that
// cannot load exits 2; --json prints the findings as JSON.
func TestValidateDeep(t *testing.T) {
	file := writeScenario(t, overMaximum)
	r := runProgram(t, nil, "validate", "--deep", file)
	want := file + ":11: warning: spendingRule.transactionSizeLimit.maximum: the purchase of $600.00 at Staples on card " +
		"card_office on 2026-06-14T14:00:00Z is settled, but the rules then decline it (transaction_size_exceeded): " +
		"$600.00 is above the card's maximum of $500.00\n"
	if r.code != 1 || r.stderr != want || r.stdout != "" {
		t.Fatalf("validate --deep = %d %q %q, want 1 and %q", r.code, r.stdout, r.stderr, want)
	}
	if r := runProgram(t, nil, "validate", file); r.code != 0 || r.stdout != file+": ok\n" {
		t.Fatalf("validate without --deep = %d %q %q, want 0 and ok", r.code, r.stdout, r.stderr)
	}

	r = runProgram(t, nil, "validate", "--deep", "--json", file)
	var found []struct{ File, Rule, Path string }
	if err := json.Unmarshal([]byte(r.stdout), &found); err != nil || r.code != 1 {
		t.Fatalf("validate --deep --json = %d %q: %v", r.code, r.stdout, err)
	}
	if len(found) != 1 || found[0].File != file || found[0].Rule != "spendingRule.transactionSizeLimit.maximum" ||
		found[0].Path != "transactions[0]" {
		t.Fatalf("validate --deep --json = %+v", found)
	}

	onPurpose := writeScenario(t, strings.Replace(overMaximum, "date: -1d}",
		"date: -1d, breaks: [spendingRule.transactionSizeLimit.maximum]}", 1))
	if r := runProgram(t, nil, "validate", "--deep", onPurpose); r.code != 0 || r.stdout != onPurpose+": ok\n" ||
		r.stderr != "" {
		t.Fatalf("validate --deep of a purchase marked as breaking its rule = %d %q %q", r.code, r.stdout, r.stderr)
	}

	for name, args := range map[string][]string{
		"a file that does not parse": {"validate", "--deep", writeScenario(t, "legalEntities: [")},
		"a file that cannot load":    {"validate", "--deep", writeScenario(t, unpayable)},
		"no such file":               {"validate", "--deep", filepath.Join(t.TempDir(), "missing.yaml")},
	} {
		if r := runProgram(t, nil, args...); r.code != 2 || r.stderr == "" || r.stdout != "" {
			t.Errorf("%s: validate --deep = %d %q %q, want 2 and the reason", name, r.code, r.stdout, r.stderr)
		}
	}
}

// TestValidateDeepEmbedded: every embedded scenario passes validate --deep
// at a seed and clock start of its own.
func TestValidateDeepEmbedded(t *testing.T) {
	for _, name := range scenarios.Names() {
		r := runProgram(t, nil, "validate", "--deep", "--seed", "7", "--clock-start", "2027-01-10T09:00:00Z", name)
		if r.code != 0 || r.stdout != name+": ok\n" || r.stderr != "" {
			t.Errorf("validate --deep %s = %d %q %q", name, r.code, r.stdout, r.stderr)
		}
	}
}

// TestServeCheck: serve --check logs each finding as a warning with its
// file:line and rule, and serves all the same.
func TestServeCheck(t *testing.T) {
	file := writeScenario(t, overMaximum)
	r := runProgram(t, nil, "serve", "--check", "--log-format", "json", "--scenario", file, "--addr", "127.0.0.1:0")
	if r.code != 0 {
		t.Fatalf("serve --check = %d %q", r.code, r.stderr)
	}
	var warned bool
	for _, line := range strings.Split(r.stderr, "\n") {
		var entry struct{ Level, At, Rule, Message string }
		if json.Unmarshal([]byte(line), &entry) == nil && entry.Level == "warn" && entry.At == file+":11" &&
			entry.Rule == "spendingRule.transactionSizeLimit.maximum" && strings.Contains(entry.Message, "$600.00") {
			warned = true
		}
	}
	if !warned || !strings.Contains(r.stderr, "listening") {
		t.Fatalf("serve --check logged no warning for line 11, or did not serve:\n%s", r.stderr)
	}
	if r := runProgram(t, map[string]string{"SANDBOX_CHECK": "maybe"}, "--addr", "127.0.0.1:0"); r.code != 2 ||
		!strings.Contains(r.stderr, "SANDBOX_CHECK") {
		t.Fatalf("SANDBOX_CHECK=maybe = %d %q, want 2 and the variable named", r.code, r.stderr)
	}
}

// TestValidateReadsSeedAndClockStartAsServeDoes: validate refuses the
// seeds and clock starts serve refuses, with serve's words, before
// loading anything.
func TestValidateReadsSeedAndClockStartAsServeDoes(t *testing.T) {
	for _, c := range []struct{ flag, value, says string }{
		{"--seed", "x", `--seed: "x" is not an integer`},
		{"--clock-start", "tomorrow", `--clock-start: "tomorrow" is not an RFC 3339 instant`},
		{"--clock-start", "1899-12-31T00:00:00Z", "--clock-start: must be from"},
		{"--clock-start", "9999-01-01T00:00:00Z", "--clock-start: must be from"},
	} {
		v := runProgram(t, nil, "validate", "--deep", c.flag, c.value, "demo")
		s := runProgram(t, nil, "serve", "--addr", "127.0.0.1:0", c.flag, c.value)
		if v.code != 2 || !strings.Contains(v.stderr, c.says) || v.stdout != "" {
			t.Errorf("validate %s %s = %d %q %q, want 2 and %q", c.flag, c.value, v.code, v.stdout, v.stderr, c.says)
		}
		if s.code == 0 || !strings.Contains(s.stderr, c.says) {
			t.Errorf("serve %s %s = %d %q, want a refusal saying %q", c.flag, c.value, s.code, s.stderr, c.says)
		}
	}
}
