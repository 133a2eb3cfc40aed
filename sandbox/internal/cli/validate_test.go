package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// unpayable reads well but cannot load: its queued ACH asks more than the
// account holds.
const unpayable = `legalEntities: [{id: le_x, name: X}]
users: [{id: u_x, name: U, email: u@x.test, roles: [{legalEntityId: le_x, role: admin}]}]
accounts: [{id: sa_x, legalEntityId: le_x, name: A, balanceCents: 1000}]
contacts: [{id: le_c_v, legalEntityId: le_x, name: V, recipientEmail: ap@v.test}]
informationRequests:
  - contactId: le_c_v
    requesterName: U
    requestedInformation: {destinationTypes: [bank_account]}
    queuedAch: {from: sa_x, amountCents: 500000}
`

// bulky reads well but generates more than a small memory budget holds.
const bulky = `legalEntities: [{id: le_x, name: X}]
accounts: [{id: sa_x, legalEntityId: le_x, name: A, balanceCents: 100000000}]
generate: [{kind: bank_transactions, count: 20000, accountId: sa_x}]
`

// TestValidateRefusesWhatStartUpRefuses: a file that reads well but that
// start-up cannot load fails validate with start-up's own message, and
// validate leaves nothing on disk.
func TestValidateRefusesWhatStartUpRefuses(t *testing.T) {
	for _, c := range []struct {
		name, yaml string
		env        map[string]string
		want       string
	}{
		{"an ACH the account cannot pay", unpayable, nil, "informationRequests[0].queuedAch: insufficient_funds"},
		{"past the memory budget", bulky, map[string]string{"SANDBOX_MEMORY_BUDGET": "1MiB"}, "insufficient_storage"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			file := filepath.Join(dir, "s.yaml")
			if err := os.WriteFile(file, []byte(c.yaml), 0o644); err != nil {
				t.Fatal(err)
			}
			v := runProgram(t, c.env, "validate", file)
			s := runProgram(t, c.env, "--scenario", file, "--addr", "127.0.0.1:0")
			if s.code != 1 || !strings.Contains(s.stderr, c.want) {
				t.Fatalf("serve = %d %q, want 1 and %q", s.code, s.stderr, c.want)
			}
			_, startUp, _ := strings.Cut(s.stderr, ": ")
			if v.code != 1 || v.stderr != startUp || v.stdout != "" {
				t.Fatalf("validate = %d %q %q, want 1 and start-up's %q", v.code, v.stdout, v.stderr, startUp)
			}
			if entries, _ := os.ReadDir(dir); len(entries) != 1 {
				t.Fatalf("the file's directory holds %d entries after validate, want the file alone", len(entries))
			}
		})
	}
}

// TestValidateLoadsWhatStartUpLoads: the same file under the default budget
// loads, and validate says so.
func TestValidateLoadsWhatStartUpLoads(t *testing.T) {
	file := filepath.Join(t.TempDir(), "s.yaml")
	if err := os.WriteFile(file, []byte(bulky), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := runProgram(t, nil, "validate", file); r.code != 0 || r.stdout != file+": ok\n" || r.stderr != "" {
		t.Fatalf("validate = %d %q %q", r.code, r.stdout, r.stderr)
	}
}
