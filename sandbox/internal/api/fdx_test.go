package api_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/apitest"
)

type fdxAccounts struct {
	Page *struct {
		NextOffset string `json:"nextOffset"`
	} `json:"page"`
	Accounts []map[string]map[string]any `json:"accounts"`
}

func TestFDXAccounts(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	t.Run("current customer", func(t *testing.T) {
		if m := e.Get("/fdx/customers/current", "sk_sandbox_alice", "le_globex").Status(t,
			200).JSON(t); m["customerId"] != "le_globex" {
			t.Fatalf("customer = %v", m)
		}
	})
	t.Run("accounts page by count", func(t *testing.T) {
		var all, first, second fdxAccounts
		e.Get("/fdx/accounts", "sk_sandbox_acme", "").Status(t, 200).Decode(t, &all)
		if len(all.Accounts) != 2 || all.Page != nil {
			t.Fatalf("accounts = %+v", all)
		}
		dep := all.Accounts[0]["depositAccount"]
		if dep["accountId"] != "sa_group_acmeoperating" || dep["accountType"] != "CHECKING" || dep["status"] != "OPEN" ||
			!strings.HasPrefix(dep["accountNumberDisplay"].(string), "*****") {
			t.Fatalf("deposit account = %v", dep)
		}
		if loc := all.Accounts[1]["locAccount"]; loc["accountType"] != "CHARGE" {
			t.Fatalf("charge account = %v", all.Accounts[1])
		}
		e.Get("/fdx/accounts?limit=1", "sk_sandbox_acme", "").Status(t, 200).Decode(t, &first)
		if len(first.Accounts) != 1 || first.Page == nil || first.Page.NextOffset != "1" {
			t.Fatalf("first page = %+v", first)
		}
		e.Get("/fdx/accounts?limit=1&offset="+first.Page.NextOffset, "sk_sandbox_acme", "").Status(t, 200).Decode(t, &second)
		if len(second.Accounts) != 1 || second.Page != nil || second.Accounts[0]["locAccount"] == nil {
			t.Fatalf("second page = %+v", second)
		}
		for _, bad := range []string{"limit=0", "limit=1001", "limit=x", "offset=-1"} {
			e.Get("/fdx/accounts?"+bad, "sk_sandbox_acme", "").Gen1(t, 400, "invalid_request")
		}
	})
	t.Run("balances in dollars", func(t *testing.T) {
		var acc map[string]map[string]any
		e.Get("/fdx/accounts/sa_group_acmeoperating", "sk_sandbox_acme", "").Status(t, 200).Decode(t, &acc)
		var bal struct {
			Balances []struct {
				Available struct{ AmountCents int64 }
			}
		}
		e.Get("/account/sa_group_acmeoperating/balance", "sk_sandbox_acme", "").Status(t, 200).Decode(t, &bal)
		if got, want := acc["depositAccount"]["availableBalance"],
			float64(bal.Balances[0].Available.AmountCents)/100; got != want {
			t.Fatalf("availableBalance = %v, want %v dollars", got, want)
		}
		var loc map[string]map[string]any
		e.Get("/fdx/accounts/sa_group_acmecharge", "sk_sandbox_acme", "").Status(t, 200).Decode(t, &loc)
		if _, ok := loc["locAccount"]["availableCredit"].(float64); !ok {
			t.Fatalf("charge account = %v", loc)
		}
		e.Get("/fdx/accounts/sa_group_globexmain", "sk_sandbox_acme", "").Gen1(t, 404, "not_found")
	})
	t.Run("contact and payment networks", func(t *testing.T) {
		c := e.Get("/fdx/accounts/sa_group_acmeoperating/contact", "sk_sandbox_alice", "le_acme").Status(t, 200).JSON(t)
		holder := c["holders"].([]any)[0].(map[string]any)["name"].(map[string]any)
		if holder["first"] != "Acme Robotics Inc." || c["emails"].([]any)[0] != "alice@acme.test" {
			t.Fatalf("contact = %v", c)
		}
		var pn struct {
			Page            *struct{ NextOffset string } `json:"page"`
			PaymentNetworks []struct {
				BankID, Identifier, Type string
				TransferIn, TransferOut  bool
			} `json:"paymentNetworks"`
		}
		e.Get("/fdx/accounts/sa_group_acmeoperating/payment-networks?limit=2", "sk_sandbox_acme", "").
			Status(t, 200).
			Decode(t, &pn)
		if len(pn.PaymentNetworks) != 2 || pn.PaymentNetworks[0].Type != "US_ACH" || pn.Page == nil ||
			pn.Page.NextOffset != "US_FEDWIRE" {
			t.Fatalf("payment networks = %+v", pn)
		}
		e.Get("/fdx/accounts/sa_group_acmeoperating/payment-networks?offset=US_FEDWIRE", "sk_sandbox_acme", "").
			Status(t, 200).
			Decode(t, &pn)
		if len(pn.PaymentNetworks) != 1 || pn.PaymentNetworks[0].Type != "US_RTP" || pn.PaymentNetworks[0].TransferOut {
			t.Fatalf("last page = %+v", pn)
		}
		e.Get("/fdx/accounts/sa_group_acmeoperating/payment-networks?offset=US_CHIPS", "sk_sandbox_acme", "").
			Gen1(t, 400, "invalid_request")
	})
}

func TestFDXTransactions(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	type txns struct {
		Page         *struct{ NextOffset string } `json:"page"`
		Transactions []map[string]map[string]any  `json:"transactions"`
	}
	path := "/fdx/accounts/sa_group_acmeoperating/transactions"
	var seen []string
	offset := ""
	for pages := 0; pages < 100; pages++ {
		var pg txns
		e.Get(path+"?limit=100&offset="+offset, "sk_sandbox_acme", "").Status(t, 200).Decode(t, &pg)
		for _, it := range pg.Transactions {
			d := it["depositTransaction"]
			if amount := d["amount"].(float64); amount < 0 {
				t.Fatalf("amount %v is negative; FDX gives DEBIT or CREDIT with a positive amount", amount)
			}
			seen = append(seen, d["transactionId"].(string))
		}
		if pg.Page == nil {
			break
		}
		if offset = pg.Page.NextOffset; offset != seen[len(seen)-1] {
			t.Fatalf("nextOffset %s is not the last transaction's id", offset)
		}
	}
	api := apitest.Walk(t, e, "/transaction?filter:accountId=sa_group_acmeoperating", nil)
	if strings.Join(seen, ",") != strings.Join(api, ",") {
		t.Fatalf("FDX paged %d transactions, the API lists %d, in another order or set", len(seen), len(api))
	}
	t.Run("one transaction in dollars", func(t *testing.T) {
		var tx struct {
			AmountCents int64
			Status      string
		}
		e.Get("/transaction/"+seen[0], "sk_sandbox_acme", "").Status(t, 200).Decode(t, &tx)
		var pg txns
		e.Get(path+"?limit=1", "sk_sandbox_acme", "").Status(t, 200).Decode(t, &pg)
		d := pg.Transactions[0]["depositTransaction"]
		want := float64(tx.AmountCents) / 100
		if tx.AmountCents < 0 {
			want = -want
		}
		if d["amount"] != want {
			t.Fatalf("amount = %v, want %v", d["amount"], want)
		}
	})
	t.Run("time window", func(t *testing.T) {
		var pg txns
		e.Get(path+"?startTime=2026-06-10&endTime=2026-06-12", "sk_sandbox_acme", "").Status(t, 200).Decode(t, &pg)
		for _, it := range pg.Transactions {
			// The window is on the posting date: a purchase posts when it
			// settles, days after it was made.
			ts, _ := it["depositTransaction"]["postedTimestamp"].(string)
			if ts == "" {
				ts = it["depositTransaction"]["transactionTimestamp"].(string)
			}
			if ts < "2026-06-09" || ts > "2026-06-13" {
				t.Fatalf("transaction posted at %s is outside the window", ts)
			}
		}
		if len(pg.Transactions) == 0 {
			t.Fatal("no transaction in the window")
		}
		e.Get(path+"?startTime=yesterday", "sk_sandbox_acme", "").Gen1(t, 400, "invalid_request")
		e.Get(path+"?offset=txn_unknown", "sk_sandbox_acme", "").Gen1(t, 400, "invalid_request")
	})
	t.Run("charge card transactions are line of credit ones", func(t *testing.T) {
		var pg txns
		e.Get("/fdx/accounts/sa_group_acmecharge/transactions?limit=5", "sk_sandbox_acme", "").Status(t, 200).Decode(t, &pg)
		if len(pg.Transactions) == 0 || pg.Transactions[0]["locTransaction"] == nil {
			t.Fatalf("transactions = %v", pg.Transactions)
		}
	})
}

func TestFDXStatements(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	type stmts struct {
		Page       *struct{ NextOffset string } `json:"page"`
		Statements []struct {
			AccountID, StatementID, StatementDate, Description, Status string
			Links                                                      []struct{ Href string }
		} `json:"statements"`
	}
	var all stmts
	e.Get("/fdx/accounts/sa_group_acmeoperating/statements", "sk_sandbox_acme", "").Status(t, 200).Decode(t, &all)
	if len(all.Statements) < 12 || all.Statements[0].StatementID != "stmt_202605" ||
		all.Statements[0].StatementDate != "2026-05-31" {
		t.Fatalf("statements = %+v", all.Statements[:min(2, len(all.Statements))])
	}
	t.Run("paging by the last statement id", func(t *testing.T) {
		var first, next stmts
		e.Get("/fdx/accounts/sa_group_acmeoperating/statements?limit=2", "sk_sandbox_acme", "").
			Status(t, 200).
			Decode(t, &first)
		if first.Page == nil || first.Page.NextOffset != "stmt_202604" {
			t.Fatalf("first page = %+v", first)
		}
		e.Get("/fdx/accounts/sa_group_acmeoperating/statements?limit=2&offset=stmt_202604", "sk_sandbox_acme", "").
			Status(t, 200).
			Decode(t, &next)
		if next.Statements[0].StatementID != "stmt_202603" {
			t.Fatalf("next page = %+v", next)
		}
		var window stmts
		e.Get("/fdx/accounts/sa_group_acmeoperating/statements?startTime=2026-01-01&endTime=2026-03-31", "sk_sandbox_acme",
			"").
			Status(t, 200).
			Decode(t, &window)
		if len(window.Statements) != 3 {
			t.Fatalf("Q1 statements = %+v", window.Statements)
		}
	})
	t.Run("a statement is a PDF that opens", func(t *testing.T) {
		r := e.Get(all.Statements[0].Links[0].Href, "sk_sandbox_acme", "").Status(t, 200)
		if ct := r.Header.Get("Content-Type"); ct != "application/pdf" {
			t.Fatalf("Content-Type %q", ct)
		}
		checkPDF(t, r.Raw)
		if !bytes.Contains(r.Raw, []byte("Opening balance: $")) || !bytes.Contains(r.Raw, []byte("Acme Operating")) {
			t.Fatal("the statement lacks its balances or account")
		}
		if path, err := exec.LookPath("pdftotext"); err == nil {
			file := filepath.Join(t.TempDir(), "s.pdf")
			os.WriteFile(file, r.Raw, 0o600)
			out, err := exec.Command(path, file, "-").Output()
			if err != nil || !strings.Contains(string(out), "Closing balance") {
				t.Fatalf("pdftotext: %v: %s", err, out)
			}
		}
		e.Get("/fdx/accounts/sa_group_acmeoperating/statements/stmt_209901", "sk_sandbox_acme", "").Gen1(t, 404, "not_found")
		e.Get("/fdx/accounts/sa_group_acmeoperating/statements/stmt_202605", "sk_sandbox_globex", "").
			Gen1(t, 404, "not_found")
	})
}

// checkPDF checks a PDF's structure: header, every cross-reference offset
// pointing at its object, startxref at the table and stream lengths.
func checkPDF(t *testing.T, pdf []byte) {
	t.Helper()
	if !bytes.HasPrefix(pdf, []byte("%PDF-1.")) || !bytes.HasSuffix(pdf, []byte("%%EOF\n")) {
		t.Fatal("not a PDF file")
	}
	m := regexp.MustCompile(`startxref\n(\d+)\n`).FindSubmatch(pdf)
	if m == nil {
		t.Fatal("no startxref")
	}
	xref, _ := strconv.Atoi(string(m[1]))
	if !bytes.HasPrefix(pdf[xref:], []byte("xref\n")) {
		t.Fatal("startxref does not point at the cross-reference table")
	}
	entries := regexp.MustCompile(`(\d{10}) 00000 n `).FindAllSubmatch(pdf[xref:], -1)
	for i, en := range entries {
		off, _ := strconv.Atoi(string(en[1]))
		if !bytes.HasPrefix(pdf[off:], []byte(fmt.Sprintf("%d 0 obj", i+1))) {
			t.Fatalf("object %d is not at offset %d", i+1, off)
		}
	}
	s := regexp.MustCompile(`/Length (\d+) >>\nstream\n`).FindSubmatchIndex(pdf)
	n, _ := strconv.Atoi(string(pdf[s[2]:s[3]]))
	if !bytes.HasPrefix(pdf[s[1]+n:], []byte("endstream")) {
		t.Fatal("the stream length is wrong")
	}
}
