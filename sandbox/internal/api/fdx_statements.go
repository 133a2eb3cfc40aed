package api

import (
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/gorilla/mux"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/ledger"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/web"
)

// A statement covers one calendar month (UTC) of an account, for every
// month that ended after the account was opened. Its id is stmt_YYYYMM.

type statementMonth struct {
	ID    string
	Start time.Time
	End   time.Time // exclusive
}

// statementMonths lists an account's statements, newest first.
func statementMonths(opened, now time.Time) []statementMonth {
	var out []statementMonth
	first := time.Date(opened.Year(), opened.Month(), 1, 0, 0, 0, 0, time.UTC)
	for end := time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, time.UTC); end.After(first); end = end.AddDate(0, -1, 0) {
		start := end.AddDate(0, -1, 0)
		out = append(out, statementMonth{ID: "stmt_" + start.Format("200601"), Start: start, End: end})
	}
	return out
}

func (m statementMonth) date() string { return m.End.Add(-time.Hour).Format("2006-01-02") }

func (a *API) fdxStatements(r *http.Request) (any, error) {
	c, err := a.auth(r, authOpts{gen: web.Gen1})
	if err != nil {
		return nil, err
	}
	q := r.URL.Query()
	limit, err := fdxLimit(q)
	if err != nil {
		return nil, err
	}
	from, to, err := fdxTimes(q)
	if err != nil {
		return nil, err
	}
	var acc *ledger.Account
	var now time.Time
	err = c.view(func(op *kernel.Op) error {
		now = op.Now
		acc, err = ledger.AccountOf(op, c.Actor, mux.Vars(r)["accountId"], "")
		return err
	})
	if err != nil {
		return nil, err
	}
	var months []statementMonth
	for _, m := range statementMonths(acc.CreatedAt, now) {
		day := m.End.Add(-time.Hour)
		if (from == nil || !day.Before(from.Truncate(24*time.Hour))) && (to == nil || !day.After(*to)) {
			months = append(months, m)
		}
	}
	start := 0
	if off := q.Get("offset"); off != "" {
		start = -1
		for i, m := range months {
			if m.ID == off {
				start = i + 1
			}
		}
		if start < 0 {
			return nil, kernel.InvalidField("offset", "is not the statementId of a statement of this account in this period")
		}
	}
	end := min(start+limit, len(months))
	items := []fdxStatement{}
	for _, m := range months[start:end] {
		items = append(items, fdxStatement{AccountID: acc.ID, StatementID: m.ID, StatementDate: m.date(),
			Description: acc.Name + " statement, " + m.Start.Format("January 2006"), Status: "available",
			Links: []fdxLink{
				{
					Href:   "/fdx/accounts/" + acc.ID + "/statements/" + m.ID,
					Rel:    "self",
					Action: "GET",
					Types:  []string{"application/pdf"},
				},
			}})
	}
	out := map[string]any{"statements": items}
	if end < len(months) {
		out["page"] = fdxPage{NextOffset: months[end-1].ID}
	}
	return out, nil
}

func (a *API) fdxStatementPDF(r *http.Request) (any, error) {
	c, err := a.auth(r, authOpts{gen: web.Gen1})
	if err != nil {
		return nil, err
	}
	v := mux.Vars(r)
	var acc *ledger.Account
	var entries []ledger.Transaction
	var now time.Time
	err = c.view(func(op *kernel.Op) error {
		now = op.Now
		if acc, err = ledger.AccountOf(op, c.Actor, v["accountId"], ""); err != nil {
			return err
		}
		entries, err = ledger.AccountLedger(op, c.Actor, acc.ID)
		return err
	})
	if err != nil {
		return nil, err
	}
	for _, m := range statementMonths(acc.CreatedAt, now) {
		if m.ID == v["statementId"] {
			pdf := statementPDF(c.Actor.LegalEntity.Name, acc, m, entries)
			resp := &web.Response{Status: http.StatusOK, Raw: pdf, ContentType: "application/pdf"}
			resp.Header = http.Header{"Content-Disposition": {`inline; filename="` + acc.ID + "-" + m.ID + `.pdf"`}}
			return resp, nil
		}
	}
	return nil, kernel.NotFound("statement", "", v["statementId"])
}

// statementLines is the text of a statement: the opening balance (every
// posted transaction before the month), the month's posted transactions
// and the closing balance.
func statementLines(entity string, acc *ledger.Account, m statementMonth, entries []ledger.Transaction) []string {
	var opening, total int64
	var rows []string
	for _, t := range entries {
		if t.Status != ledger.StatusPosted || !t.Date.Before(m.End) {
			continue
		}
		if t.Date.Before(m.Start) {
			opening += t.AmountCents
			continue
		}
		total += t.AmountCents
		rows = append(rows, fmt.Sprintf("%s  %-48.48s %14s", t.Date.Format("2006-01-02"), t.Description, usd(t.AmountCents)))
	}
	lines := []string{"Slash - account statement", entity, acc.Name + " (" + acc.ID + ")",
		"Period: " + m.Start.Format("January 2, 2006") + " to " + m.End.Add(-time.Hour).Format("January 2, 2006"), "",
		"Opening balance: " + usd(opening), ""}
	const maxRows = 50
	for i, row := range rows {
		if i == maxRows {
			lines = append(lines, fmt.Sprintf("... and %d more transactions", len(rows)-maxRows))
			break
		}
		lines = append(lines, row)
	}
	return append(lines, "", fmt.Sprintf("%d posted transactions, net %s", len(rows), usd(total)),
		"Closing balance: "+usd(opening+total), "", "Generated by slash-sandbox. Not a real bank statement.")
}

// usd formats cents as dollars: -$1,234.56.
func usd(cents int64) string {
	sign := ""
	if cents < 0 {
		sign, cents = "-", -cents
	}
	whole := fmt.Sprint(cents / 100)
	for i := len(whole) - 3; i > 0; i -= 3 {
		whole = whole[:i] + "," + whole[i:]
	}
	return fmt.Sprintf("%s$%s.%02d", sign, whole, cents%100)
}

// statementPDF renders a statement as a one-page PDF.
func statementPDF(entity string, acc *ledger.Account, m statementMonth, entries []ledger.Transaction) []byte {
	return onePagePDF(statementLines(entity, acc, m, entries))
}

// onePagePDF writes a minimal, valid PDF 1.4 file: one US Letter page of
// Courier text, with a correct cross-reference table.
func onePagePDF(lines []string) []byte {
	var content strings.Builder
	content.WriteString("BT\n/F1 9 Tf\n11 TL\n50 750 Td\n")
	for _, l := range lines {
		content.WriteString("(" + pdfEscape(l) + ") Tj T*\n")
	}
	content.WriteString("ET\n")
	objects := []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>",
		"<< /Type /Font /Subtype /Type1 /BaseFont /Courier /Encoding /WinAnsiEncoding >>",
		fmt.Sprintf("<< /Length %d >>\nstream\n%sendstream", content.Len(), content.String()),
	}
	var b strings.Builder
	b.WriteString("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
	offsets := make([]int, len(objects))
	for i, o := range objects {
		offsets[i] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", i+1, o)
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(objects)+1)
	for _, off := range offsets {
		fmt.Fprintf(&b, "%010d 00000 n \n", off)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(objects)+1, xref)
	return []byte(b.String())
}

// pdfEscape makes text safe inside a PDF string: printable ASCII only,
// with backslash and parentheses escaped.
func pdfEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\\' || r == '(' || r == ')':
			b.WriteRune('\\')
			b.WriteRune(r)
		case r >= 32 && r < 127:
			b.WriteRune(r)
		default:
			b.WriteRune('?')
		}
	}
	return b.String()
}
