package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// source is a sandbox standing in for production, behind a proxy that
// fails the test for any request other than GET or HEAD and keeps every
// request it saw.
type source struct {
	direct string // the sandbox itself, for the test's own reads
	proxy  *httptest.Server
	mu     sync.Mutex
	seen   []string
	// answer, when set, may answer a request in the sandbox's place.
	answer func(w http.ResponseWriter, r *http.Request, n int) bool
	n      atomic.Int64
}

func startSource(t *testing.T) *source {
	t.Helper()
	s := startProgram(t, nil, "--addr", "127.0.0.1:0", "--log-level", "error")
	t.Cleanup(func() { s.stop(t) })
	src := &source{direct: "http://" + s.addr}
	target, _ := url.Parse(src.direct)
	rp := httputil.NewSingleHostReverseProxy(target)
	src.proxy = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		src.mu.Lock()
		src.seen = append(src.seen, r.Method+" "+r.URL.RequestURI()+" x-legal-entity="+r.Header.Get("x-legal-entity"))
		src.mu.Unlock()
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			t.Errorf("the recording sent %s %s", r.Method, r.URL)
			http.Error(w, "read only", http.StatusMethodNotAllowed)
			return
		}
		if a := src.answer; a != nil && a(w, r, int(src.n.Add(1))) {
			return
		}
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(src.proxy.Close)
	return src
}

// requests are the requests the proxy saw.
func (s *source) requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.seen)
}

// readAPI reads a public GET of a sandbox.
func readAPI(t *testing.T, base, path, key, le string, v any) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, base+path, nil)
	req.Header.Set("X-API-Key", key)
	if le != "" {
		req.Header.Set("x-legal-entity", le)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d %s", path, res.StatusCode, body)
	}
	if err := json.Unmarshal(body, v); err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
}

// listAll reads every page of a list.
func listAll(t *testing.T, base, path, key, le string) []map[string]any {
	t.Helper()
	var out []map[string]any
	q := ""
	for {
		var p struct {
			Items    []map[string]any
			Metadata struct{ NextCursor string }
		}
		sep := "?"
		if strings.Contains(path, "?") {
			sep = "&"
		}
		readAPI(t, base, path+q, key, le, &p)
		out = append(out, p.Items...)
		if p.Metadata.NextCursor == "" {
			return out
		}
		q = sep + "cursor=" + url.QueryEscape(p.Metadata.NextCursor)
	}
}

// project keeps the named fields of each item, keyed by its id, as text;
// a name with dots goes down into objects (virtualAccount.id).
func project(items []map[string]any, id string, fields ...string) map[string]string {
	out := map[string]string{}
	for _, it := range items {
		var parts []string
		for _, f := range fields {
			parts = append(parts, fmt.Sprintf("%s=%v", f, field(it, f)))
		}
		out[fmt.Sprint(field(it, id))] = strings.Join(parts, " ")
	}
	return out
}

// field is the value at a dotted path of an item.
func field(it map[string]any, path string) any {
	var v any = it
	for _, k := range strings.Split(path, ".") {
		m, _ := v.(map[string]any)
		v = m[k]
	}
	return v
}

// sameMaps fails the test where two projections differ.
func sameMaps(t *testing.T, what string, want, got map[string]string) {
	t.Helper()
	for id, w := range want {
		if g, ok := got[id]; !ok {
			t.Errorf("%s %s: missing from the loaded world", what, id)
		} else if g != w {
			t.Errorf("%s %s:\n source %s\n loaded %s", what, id, w, g)
		}
	}
	if len(got) != len(want) {
		t.Errorf("%s: source has %d, loaded world %d", what, len(want), len(got))
	}
}

// recordTo runs record against the source and returns its result.
func recordTo(t *testing.T, src *source, out string, args ...string) run {
	t.Helper()
	return runProgram(t, nil, append([]string{"record", "--from", src.proxy.URL, "--out", out}, args...)...)
}

func TestRecordLoadsIntoTheSameWorld(t *testing.T) {
	src := startSource(t)
	out := filepath.Join(t.TempDir(), "recorded.yaml")
	r := recordTo(t, src, out, "--api-key", "sk_sandbox_alice")
	if r.code != 0 {
		t.Fatalf("record = %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	if !regexp.MustCompile(`(?m)^ +[1-9][0-9]*  transactions$`).MatchString(r.stdout) {
		t.Errorf("the summary counts no transactions:\n%s", r.stdout)
	}
	for _, want := range []string{"sk_recorded_acme", "sk_recorded_user",
		"webhook signing secrets", "effects scheduled on the source's clock"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("the summary lacks %q:\n%s", want, r.stdout)
		}
	}
	for _, req := range src.requests() {
		if strings.Contains(req, "include_pan") || strings.Contains(req, "include_cvv") {
			t.Errorf("the recording asked for a card's number: %s", req)
		}
	}
	loaded := startProgram(t, nil, "--addr", "127.0.0.1:0", "--log-level", "error", "--scenario", out)
	defer loaded.stop(t)
	dst := "http://" + loaded.addr

	for _, e := range []struct{ le, srcKey, dstKey string }{
		{"le_acme", "sk_sandbox_acme", "sk_recorded_acme"},
		{"le_globex", "sk_sandbox_globex", "sk_recorded_globex"},
	} {
		t.Run(e.le, func(t *testing.T) {
			// An expense report's payout keeps its id: the loaded world pays
			// out nothing again.
			payouts := func(base, key string) map[string]string {
				byReport := map[string]string{}
				for _, r := range listAll(t, base, "/expense-report", key, "") {
					if p, ok := r["aggregatedTransaction"].(map[string]any); ok {
						byReport[r["id"].(string)] = fmt.Sprint(p["id"], p["amount"], p["status"], p["date"])
					}
				}
				return byReport
			}
			sameMaps(t, "payout of expense report", payouts(src.direct, e.srcKey), payouts(dst, e.dstKey))
			same := func(what, path, id string, fields ...string) {
				t.Helper()
				want := project(listAll(t, src.direct, path, e.srcKey, ""), id, fields...)
				got := project(listAll(t, dst, path, e.dstKey, ""), id, fields...)
				if len(want) == 0 && e.le == "le_acme" {
					t.Errorf("%s: the source has none to compare", what)
				}
				sameMaps(t, what, want, got)
			}
			same("account", "/account", "id", "status", "type", "createdAt")
			same("card", "/card", "id", "accountId", "cardGroupId", "status", "createdAt", "spendingConstraint",
				"last4", "expiryMonth", "expiryYear", "isPhysical")
			same("virtual account", "/virtual-account?filter:includeClosedAccounts=true", "virtualAccount.id",
				"balance", "virtualAccount.accountType", "virtualAccount.closedAt", "virtualAccount.accountId")
			same("card group", "/card-group", "id", "virtualAccountId", "spendingConstraint")
			same("transaction", "/transaction", "id", "amountCents", "detailedStatus", "status", "date", "cardId",
				"accountId", "virtualAccountId", "declineReason", "merchantData", "referenceNumber", "approvalReason",
				"authorizedAt", "providerAuthorizationId")
			same("contact", "/contact", "id", "recipientType")
			same("customer", "/customer", "id", "status", "customMetadata")
			same("webhook", "/webhook", "id", "status", "createdAt", "url")
			same("expense report", "/expense-report", "id", "amountCents", "status", "submittedByUserId",
				"transactionDate")

			var accounts struct{ Items []struct{ ID string } }
			readAPI(t, src.direct, "/account", e.srcKey, "", &accounts)
			for _, a := range accounts.Items {
				var want, got map[string]any
				readAPI(t, src.direct, "/account/"+a.ID+"/balance", e.srcKey, "", &want)
				readAPI(t, dst, "/account/"+a.ID+"/balance", e.dstKey, "", &got)
				if fmt.Sprint(want) != fmt.Sprint(got) {
					t.Errorf("balance of %s:\n source %v\n loaded %v", a.ID, want, got)
				}
			}
		})
	}

	t.Run("names are replaced", func(t *testing.T) {
		var les struct{ Items []struct{ ID, Name string } }
		readAPI(t, dst, "/legal-entity", "sk_recorded_user", "", &les)
		if len(les.Items) != 2 {
			t.Fatalf("the user key reads %v", les.Items)
		}
		data, _ := os.ReadFile(out)
		for _, real := range []string{"Acme Robotics", "Globex Logistics", "Alice Chen", "Northwind Supply",
			"ap@northwind.test", "500 Market St", "Initech", "+1 415 555 0100", "Business and Legal Resources",
			"DE89370400440532013000", "Bob travel"} {
			if strings.Contains(string(data), real) {
				t.Errorf("the recording holds %q", real)
			}
		}
	})

	t.Run("no card number or CVV", func(t *testing.T) {
		data, _ := os.ReadFile(out)
		for _, c := range listAll(t, src.direct, "/card", "sk_sandbox_acme", "") {
			var full map[string]any
			readAPI(t, src.direct, "/vault/card/"+c["id"].(string)+"?include_pan=true&include_cvv=true", "sk_sandbox_acme",
				"", &full)
			pan, _ := full["pan"].(string)
			if len(pan) < 12 {
				t.Fatalf("card %s has no PAN to look for: %v", c["id"], full)
			}
			if strings.Contains(string(data), pan) {
				t.Errorf("the recording holds card %s's number", c["id"])
			}
		}
		if k := regexp.MustCompile(`(?im)^[\s-]*(pan|cvv|cardNumber)\s*:`).Find(data); k != nil {
			t.Errorf("the recording has a key %q", k)
		}
	})
}

func TestRecordIsDeterministicAndKeepsNamesWhenAsked(t *testing.T) {
	src := startSource(t)
	dir := t.TempDir()
	read := func(name string, args ...string) string {
		t.Helper()
		out := filepath.Join(dir, name)
		if r := recordTo(t, src, out, append([]string{"--api-key", "sk_sandbox_acme"}, args...)...); r.code != 0 {
			t.Fatalf("record %v = %d %s", args, r.code, r.stderr)
		}
		data, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	a, b, c := read("a.yaml", "--seed", "7"), read("b.yaml", "--seed", "7"), read("c.yaml", "--seed", "8")
	if a != b {
		t.Error("the same seed made two different files")
	}
	if a == c {
		t.Error("another seed made the same file")
	}
	kept := read("kept.yaml", "--keep-names")
	for _, real := range []string{"name: Acme Robotics Inc.", "Northwind Supply", "ap@northwind.test",
		"500 Market St", "+1 415 555 0100", "name: Alice Chen", "name: Alice travel"} {
		if !strings.Contains(kept, real) {
			t.Errorf("--keep-names lost %q", real)
		}
	}
	if strings.Contains(a, "le_globex") || !strings.Contains(a, "le_acme") {
		t.Error("a legal entity's key recorded another legal entity")
	}
	for _, req := range src.requests() {
		if !strings.HasSuffix(req, " x-legal-entity=") {
			t.Errorf("a legal entity's key sent x-legal-entity: %s", req)
		}
	}
}

func TestRecordChoosesLegalEntities(t *testing.T) {
	src := startSource(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "globex.yaml")
	r := recordTo(t, src, out, "--api-key", "sk_sandbox_alice", "--legal-entity", "le_globex")
	if r.code != 0 {
		t.Fatalf("record = %d %s", r.code, r.stderr)
	}
	data, _ := os.ReadFile(out)
	if strings.Contains(string(data), "le_acme") || !strings.Contains(string(data), "id: le_globex") {
		t.Errorf("--legal-entity le_globex recorded:\n%.400s", data)
	}
	for _, req := range src.requests() {
		if strings.Contains(req, "sa_group_acme") {
			t.Errorf("read Acme's %s", req)
		}
		if !strings.HasPrefix(req, "GET /legal-entity ") && !strings.HasSuffix(req, " x-legal-entity=le_globex") {
			t.Errorf("a user key's request for Globex: %s", req)
		}
	}
	r = recordTo(t, src, filepath.Join(dir, "none.yaml"), "--api-key", "sk_sandbox_alice", "--legal-entity", "le_nope")
	if r.code != 1 ||
		!strings.Contains(r.stderr, "le_nope: the key reads no such legal entity (it reads le_acme, le_globex)") {
		t.Errorf("unknown legal entity = %d %q", r.code, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "none.yaml")); !os.IsNotExist(err) {
		t.Errorf("a failed recording left a file: %v", err)
	}
}

func TestRecordWaitsForTheRateLimit(t *testing.T) {
	src := startSource(t)
	var limited atomic.Int64
	src.answer = func(w http.ResponseWriter, r *http.Request, n int) bool {
		if n == 3 || n == 4 {
			limited.Add(1)
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(http.StatusTooManyRequests)
			return true
		}
		return false
	}
	out := filepath.Join(t.TempDir(), "r.yaml")
	r := recordTo(t, src, out, "--api-key", "sk_sandbox_acme")
	if r.code != 0 || limited.Load() != 2 || !strings.Contains(r.stderr, "rate limited: waiting 1s as the source asks") {
		t.Fatalf("record = %d after %d 429s: %s", r.code, limited.Load(), r.stderr)
	}
	if _, err := os.Stat(out); err != nil {
		t.Error(err)
	}
}

func TestRecordThatFailsMidwayWritesNothing(t *testing.T) {
	src := startSource(t)
	src.answer = func(w http.ResponseWriter, r *http.Request, n int) bool {
		if strings.HasPrefix(r.URL.Path, "/transaction") && r.URL.Query().Get("cursor") != "" {
			http.Error(w, "upstream unavailable", http.StatusBadGateway)
			return true
		}
		return false
	}
	dir := t.TempDir()
	out := filepath.Join(dir, "r.yaml")
	r := recordTo(t, src, out, "--api-key", "sk_sandbox_acme")
	if r.code != 1 || !strings.Contains(r.stderr, "gave up after 4 attempts") ||
		!strings.Contains(r.stderr, "nothing written") {
		t.Fatalf("record = %d %q", r.code, r.stderr)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("a failed recording left %v", entries)
	}
}

func TestRecordUsage(t *testing.T) {
	for _, args := range [][]string{
		{"record", "--api-key", "k", "--out", "x.yaml"},
		{"record", "--from", "http://127.0.0.1:1", "--out", "x.yaml"},
		{"record", "--from", "http://127.0.0.1:1", "--api-key", "k"},
		{"record", "--from", "ftp://x", "--api-key", "k", "--out", "x.yaml"},
		{"record", "--from", "http://127.0.0.1:1", "--api-key", "k", "--out", "x.yaml", "--seed", "many"},
	} {
		if r := runProgram(t, nil, args...); r.code != 2 || !strings.Contains(r.stderr, "Run 'slash-sandbox record --help'") {
			t.Errorf("%v = %d %q", args, r.code, r.stderr)
		}
	}
	r := runProgram(t, map[string]string{"SLASH_API_KEY": "k"}, "record", "--from", "http://127.0.0.1:1", "--out",
		filepath.Join(t.TempDir(), "x.yaml"))
	if r.code != 1 || !strings.Contains(r.stderr, "connection refused") {
		t.Errorf("nothing listening = %d %q", r.code, r.stderr)
	}
}

// TestRecordKeepingNamesAnswersAlike compares whole answers of a recording
// made with --keep-names: every field the lists show, but for those the
// API does not let a recording read, which docs/production.md lists.
func TestRecordKeepingNamesAnswersAlike(t *testing.T) {
	src := startSource(t)
	// Card-network events: an approved purchase and a declined one.
	for _, body := range []string{`{"cardId":"card_acmeaws","amountCents":1200,"merchantId":"merchant_v2_aws"}`,
		`{"cardId":"card_acmeoffice","amountCents":990000,"merchantId":"merchant_v2_aws"}`} {
		res, err := http.Post(src.direct+"/_sandbox/simulate/card-authorization", "application/json",
			strings.NewReader(body))
		if err != nil || res.StatusCode != http.StatusOK {
			t.Fatalf("simulate: %v %v", err, res)
		}
		res.Body.Close()
	}
	out := filepath.Join(t.TempDir(), "kept.yaml")
	if r := recordTo(t, src, out, "--api-key", "sk_sandbox_acme", "--keep-names"); r.code != 0 {
		t.Fatalf("record = %d %s", r.code, r.stderr)
	}
	loaded := startProgram(t, nil, "--addr", "127.0.0.1:0", "--log-level", "error", "--scenario", out)
	defer loaded.stop(t)
	dst := "http://" + loaded.addr
	for _, path := range []string{"/legal-entity", "/card-group", "/card", "/contact", "/customer", "/webhook",
		"/transaction", "/virtual-account?filter:includeClosedAccounts=true", "/expense-report", "/invoice/series",
		"/invoice", "/task", "/card/card_acmeaws/events", "/card/card_acmeoffice/events"} {
		want := listAll(t, src.direct, path, "sk_sandbox_acme", "")
		got := listAll(t, dst, path, "sk_recorded_acme", "")
		byID := func(items []map[string]any, payouts map[string]bool) map[string]string {
			m := map[string]string{}
			for _, it := range items {
				if remade(it, payouts) {
					continue
				}
				id := field(it, "id")
				if id == nil {
					id = field(it, "virtualAccount.id")
				}
				if id == nil {
					id = field(it, "invoice.id")
				}
				b, _ := json.Marshal(it)
				m[fmt.Sprint(id)] = string(b)
			}
			return m
		}
		w, g := byID(want, payoutsOf(t, src.direct, "sk_sandbox_acme")), byID(got, payoutsOf(t, dst, "sk_recorded_acme"))
		if len(w) == 0 || len(w) != len(g) {
			t.Errorf("%s: the source shows %d, the loaded world %d", path, len(w), len(g))
		}
		for id, wb := range w {
			if gb, ok := g[id]; !ok {
				t.Errorf("%s: %s missing", path, id)
			} else if gb != wb {
				t.Errorf("%s: %s differs:\n source %s\n loaded %s", path, id, wb, gb)
			}
		}
	}
}

// payoutsOf are the ids of the expense reports' payout transactions.
func payoutsOf(t *testing.T, base, key string) map[string]bool {
	ids := map[string]bool{}
	for _, r := range listAll(t, base, "/expense-report", key, "") {
		if p, ok := r["aggregatedTransaction"].(map[string]any); ok {
			ids[p["id"].(string)] = true
		}
	}
	return ids
}

// remade reports whether a loaded world makes an item again, under new
// ids, from what it loads (a payout, an expense submission task), and
// leaves out of the others the ids it makes again (an expense report's
// review and payout): what docs/production.md says a recording does not
// keep.
func remade(it map[string]any, payouts map[string]bool) bool {
	if payouts[fmt.Sprint(it["id"])] || it["type"] == "expense_submission" {
		return true
	}
	for _, path := range []string{"review.id", "aggregatedTransaction.id"} {
		parent, key := it, path
		if i := strings.LastIndex(path, "."); i > 0 {
			parent, _ = field(it, path[:i]).(map[string]any)
			key = path[i+1:]
		}
		delete(parent, key)
	}
	return false
}

// TestRecordKeepsInvoicesAndSeries: a recording keeps every invoice, a
// series' ones included, under its own ids (invoice, details, document),
// with its payments, and every series with what it has done, whatever its
// status: the loaded world's series go on issuing the same invoices.
func TestRecordKeepsInvoicesAndSeries(t *testing.T) {
	src := startSource(t)
	post := func(path, key, body string) {
		t.Helper()
		req, _ := http.NewRequest(http.MethodPost, src.direct+path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		if key != "" {
			req.Header.Set("X-API-Key", key)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		if b, _ := io.ReadAll(res.Body); res.StatusCode >= 300 {
			t.Fatalf("POST %s: %d %s", path, res.StatusCode, b)
		}
	}
	series := func(party, start string) string {
		return `{"accountId":"sa_group_acmeoperating",` + party + `,"paymentTermsDays":10,` +
			`"invoiceTz":"America/Chicago","startDate":"` + start + `","recurrenceRule":{"type":"weekly","dayOfWeek":2},` +
			`"endCondition":{"type":"after_count","count":5},"template":{"ccEmails":["books@client.test"],` +
			`"lineItemsAndTotals":{"lineItems":[{"name":"Retainer","quantity":1,"priceCents":25000}],` +
			`"tax":{"type":"percentage","percent":8}}},` +
			`"paymentMethods":[{"method":"ach_debit","config":{"passFeeToPayer":false}}]}`
	}
	var clock struct{ Now time.Time }
	readAPI(t, src.direct, "/_sandbox/clock", "", "", &clock)
	today := clock.Now.Format(time.DateOnly)
	post("/invoice/series", "sk_sandbox_acme", series(`"legalEntityContactId":"le_c_northwindsupply"`, today))
	post("/invoice/series", "sk_sandbox_acme", series(`"legalEntityCustomerId":"le_cust_hooli"`, today))
	post("/_sandbox/clock/advance", "", `{"by":"9d"}`)
	post("/_sandbox/simulate/invoice-payment", "", `{"invoiceId":"invoice_acme1004","amountCents":1000}`)
	post("/invoice/invoice_acme1002/reconcile", "sk_sandbox_acme", `[{"transactionType":"external",`+
		`"transaction":{"paymentMethod":"other","paidAt":"`+today+`","amountCents":500}}]`)
	var list struct {
		Items []struct{ ID, LegalEntityCustomerID string }
	}
	readAPI(t, src.direct, "/invoice/series", "sk_sandbox_acme", "", &list)
	for _, s := range list.Items {
		if s.LegalEntityCustomerID == "le_cust_hooli" && s.ID != "invoice_series_acmehooliweekly" {
			post("/invoice/series/"+s.ID+"/cancel", "sk_sandbox_acme", "")
		}
	}

	out := filepath.Join(t.TempDir(), "recorded.yaml")
	if r := recordTo(t, src, out, "--api-key", "sk_sandbox_acme"); r.code != 0 {
		t.Fatalf("record = %d %s", r.code, r.stderr)
	}
	loaded := startProgram(t, nil, "--addr", "127.0.0.1:0", "--log-level", "error", "--scenario", out)
	defer loaded.stop(t)
	dst := "http://" + loaded.addr
	invoiceFields := []string{"invoice.status", "invoice.invoiceDetailsId", "invoice.invoiceSeriesId",
		"invoice.collectedAmountCents", "invoice.invoiceTransactions", "invoice.scheduledSendDate", "invoice.closedAt",
		"invoice.invoicePaymentMethods", "invoiceDetails.documentId", "invoiceDetails.version",
		"invoiceDetails.issuedAt", "invoiceDetails.dueAt", "invoiceDetails.invoiceNumber",
		"invoiceDetails.lineItemsAndTotals"}
	seriesFields := []string{"status", "nextScheduledDate", "recurrenceRule", "endCondition",
		"template.lineItemsAndTotals", "paymentMethods", "legalEntityContactId", "legalEntityCustomerId"}
	compare := func(when string, invoiceKey string) {
		t.Helper()
		want := project(listAll(t, src.direct, "/invoice", "sk_sandbox_acme", ""), invoiceKey, invoiceFields...)
		got := project(listAll(t, dst, "/invoice", "sk_recorded_acme", ""), invoiceKey, invoiceFields...)
		series := 0
		for _, w := range want {
			if !strings.Contains(w, "invoiceSeriesId=<nil>") {
				series++
			}
		}
		if series < 4 {
			t.Fatalf("%s: the source has %d invoices of series, want several", when, series)
		}
		sameMaps(t, when+": invoice", want, got)
		sameMaps(t, when+": series", project(listAll(t, src.direct, "/invoice/series", "sk_sandbox_acme", ""), "id",
			seriesFields...), project(listAll(t, dst, "/invoice/series", "sk_recorded_acme", ""), "id", seriesFields...))
	}
	compare("recorded", "invoice.id")
	// The clocks move on alike: the series issue the same invoices (a
	// recording cannot read the source's id counters, so they are compared
	// by number), send, make overdue and end alike.
	for _, base := range []string{src.direct, dst} {
		req, _ := http.NewRequest(http.MethodPost, base+"/_sandbox/clock/advance", strings.NewReader(
			`{"to":"`+clock.Now.AddDate(0, 0, 50).Format(time.RFC3339)+`"}`))
		req.Header.Set("Content-Type", "application/json")
		res, err := http.DefaultClient.Do(req)
		if err != nil || res.StatusCode != http.StatusOK {
			t.Fatalf("advance %s: %v %v", base, err, res)
		}
		res.Body.Close()
	}
	invoiceFields = slices.DeleteFunc(invoiceFields, func(f string) bool {
		return f == "invoice.invoiceDetailsId" || f == "invoiceDetails.documentId"
	})
	compare("50 days on", "invoiceDetails.invoiceNumber")
}
