package api

import (
	"net/http"
	"strings"

	"github.com/gorilla/mux"
	"github.com/slash-sandbox/slash-sandbox/sandbox"
	"github.com/slash-sandbox/slash-sandbox/sandbox/web"
)

func (a *API) routesExpenseReports(r *mux.Router) {
	// The fixed paths come first: /expense-report/{expenseReportId} would
	// match them too.
	web.Route(r, web.Gen1, http.MethodPost, "/expense-report/receipt", "expense_report.receipt.upload", a.uploadReceipt)
	web.Route(r, web.Gen1, http.MethodPatch, "/expense-report/bulk-action", "expense_report.bulk_action", a.bulkExpense)
	web.Route(r, web.Gen1, http.MethodGet, "/expense-report/reimbursement-sources", "expense_report.reimbursement_source.list", a.reimbursementSources)
	web.Route(r, web.Gen1, http.MethodGet, "/expense-report", "expense_report.list", a.listExpenseReports)
	web.Route(r, web.Gen1, http.MethodPost, "/expense-report", "expense_report.create", a.createExpenseReport)
	web.Route(r, web.Gen1, http.MethodGet, "/expense-report/{expenseReportId}", "expense_report.get", a.getExpenseReport)
	web.Route(r, web.Gen1, http.MethodPatch, "/expense-report/{expenseReportId}", "expense_report.update", a.updateExpenseReport)
	web.Route(r, web.Gen1, http.MethodPost, "/expense-report/{expenseReportId}/approve", "expense_report.approve", a.approveExpenseReport)
	web.Route(r, web.Gen1, http.MethodPost, "/expense-report/{expenseReportId}/reject", "expense_report.reject", a.rejectExpenseReport)
}

func (a *API) listExpenseReports(r *http.Request) (any, error) {
	q := r.URL.Query()
	sort, asc, err := sortOf(q)
	if err != nil {
		return nil, err
	}
	f := sandbox.ExpenseFilter{Status: q.Get("filter:status"), SubmittedBy: q.Get("filter:submittedByUserId"), Sort: sort, Asc: asc}
	return listPage(a, r, func(op *sandbox.Op, c *call, req sandbox.PageRequest) (sandbox.Page[sandbox.ExpenseReport], error) {
		return op.ListExpenseReports(c.Actor, f, req)
	}, func(op *sandbox.Op, er *sandbox.ExpenseReport) (expenseReportView, error) {
		return expenseReportOf(op, r, er)
	})
}

func (a *API) getExpenseReport(r *http.Request) (any, error) {
	return a.readOp(r, func(op *sandbox.Op, c *call) (any, error) {
		er, err := op.ExpenseReportOf(c.Actor, mux.Vars(r)["expenseReportId"])
		if err != nil {
			return nil, err
		}
		return expenseBody(op, r, er)
	})
}

func expenseBody(op *sandbox.Op, r *http.Request, er *sandbox.ExpenseReport) (any, error) {
	v, err := expenseReportOf(op, r, er)
	return map[string]expenseReportView{"expenseReport": v}, err
}

// expenseWrite runs an expense report write: body decodes strictly and is
// checked by check; do returns the report to show.
func (a *API) expenseWrite(r *http.Request, body any, check func() error, do func(op *sandbox.Op, c *call) (*sandbox.ExpenseReport, error)) (any, error) {
	return a.doWrite(r, write{
		gen: web.Gen1,
		input: func(c *call, raw []byte) error {
			if err := checkLEFilter(r, c); err != nil {
				return err
			}
			if err := web.DecodeBytes(raw, body, true); err != nil {
				return err
			}
			return check()
		},
		run: func(op *sandbox.Op, c *call) (any, error) {
			er, err := do(op, c)
			if err != nil {
				return nil, err
			}
			return expenseBody(op, r, er)
		},
	})
}

func (a *API) createExpenseReport(r *http.Request) (any, error) {
	var body sandbox.ExpenseReportInput
	return a.expenseWrite(r, &body, body.Validate, func(op *sandbox.Op, c *call) (*sandbox.ExpenseReport, error) {
		return op.CreateExpenseReport(c.Actor, &body)
	})
}

func (a *API) updateExpenseReport(r *http.Request) (any, error) {
	var body sandbox.ExpenseReportPatch
	return a.expenseWrite(r, &body, body.Validate, func(op *sandbox.Op, c *call) (*sandbox.ExpenseReport, error) {
		return op.UpdateExpenseReport(c.Actor, mux.Vars(r)["expenseReportId"], &body)
	})
}

type reviewBody struct {
	ReviewedByUserID string  `json:"reviewedByUserId"`
	Reason           *string `json:"reason"`
}

// textOf is a string field's value, "" when absent.
func textOf(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func (b *reviewBody) check(reject bool) error {
	d := map[string]string{}
	if b.ReviewedByUserID == "" {
		d["/reviewedByUserId"] = "required"
	}
	switch {
	case reject && strings.TrimSpace(textOf(b.Reason)) == "":
		d["/reason"] = "required to reject"
	case !reject && b.Reason != nil:
		d["/reason"] = "is not a known property"
	}
	if len(d) > 0 {
		return sandbox.Invalid(d)
	}
	return nil
}

func (a *API) approveExpenseReport(r *http.Request) (any, error) {
	var body reviewBody
	return a.expenseWrite(r, &body, func() error { return body.check(false) }, func(op *sandbox.Op, c *call) (*sandbox.ExpenseReport, error) {
		return op.ApproveExpenseReport(c.Actor, mux.Vars(r)["expenseReportId"], body.ReviewedByUserID)
	})
}

func (a *API) rejectExpenseReport(r *http.Request) (any, error) {
	var body reviewBody
	return a.expenseWrite(r, &body, func() error { return body.check(true) }, func(op *sandbox.Op, c *call) (*sandbox.ExpenseReport, error) {
		return op.RejectExpenseReport(c.Actor, mux.Vars(r)["expenseReportId"], body.ReviewedByUserID, strings.TrimSpace(*body.Reason))
	})
}

func (a *API) bulkExpense(r *http.Request) (any, error) {
	var body sandbox.BulkExpenseAction
	return a.doWrite(r, write{
		gen: web.Gen1,
		input: func(c *call, raw []byte) error {
			if err := checkLEFilter(r, c); err != nil {
				return err
			}
			if err := web.DecodeBytes(raw, &body, true); err != nil {
				return err
			}
			return body.Validate()
		},
		run: func(op *sandbox.Op, c *call) (any, error) {
			n, failed, err := op.BulkExpenseReports(c.Actor, &body)
			if err != nil {
				return nil, err
			}
			return map[string]any{"successCount": n, "failedIds": failed}, nil
		},
	})
}

func (a *API) reimbursementSources(r *http.Request) (any, error) {
	user := r.URL.Query().Get("userId")
	if user == "" {
		return nil, sandbox.InvalidField("userId", "required")
	}
	return a.readOp(r, func(op *sandbox.Op, c *call) (any, error) {
		sources, err := op.ReimbursementSources(c.Actor, user)
		if err != nil {
			return nil, err
		}
		out := make([]reimbursementSource, len(sources))
		for i := range sources {
			out[i] = reimbursementSourceOf(&sources[i])
		}
		return map[string]any{"data": out}, nil
	})
}

func (a *API) uploadReceipt(r *http.Request) (any, error) {
	return a.doUpload(r, sandbox.CheckReceipt, func(op *sandbox.Op, c *call, f *uploaded) (any, error) {
		doc, parsed, err := op.UploadReceipt(c.Actor, f.data, f.name, f.contentType)
		if err != nil {
			return nil, err
		}
		return map[string]any{"documentId": doc.ID, "url": absURL(r, "/_sandbox/documents/"+doc.ID),
			"expiresAt": timestamp(op.Now.Add(receiptURLLifetime)), "parsedReceipt": parsedReceiptOf(parsed)}, nil
	})
}

type confidentValue struct {
	ValueCents   *int64          `json:"valueCents,omitempty"`
	Currency     string          `json:"currency,omitempty"`
	Value        string          `json:"value,omitempty"`
	Name         string          `json:"name,omitempty"`
	MerchantV2ID string          `json:"merchantV2Id,omitempty"`
	MerchantV2   *merchantV2View `json:"merchantV2,omitempty"`
	Confidence   string          `json:"confidence"`
	RawText      string          `json:"rawText,omitempty"`
}

func parsedReceiptOf(p sandbox.ParsedReceipt) map[string]confidentValue {
	m := merchantV2Of(p.Merchant)
	amount := p.AmountCents
	return map[string]confidentValue{
		"amount":   {ValueCents: &amount, Currency: p.Currency, Confidence: p.AmountConfidence, RawText: p.AmountRaw},
		"date":     {Value: p.Date, Confidence: p.DateConfidence, RawText: p.DateRaw},
		"merchant": {Name: p.Merchant.Name, MerchantV2ID: p.Merchant.ID, MerchantV2: &m, Confidence: p.MerchantConfidence, RawText: p.MerchantRaw},
	}
}
