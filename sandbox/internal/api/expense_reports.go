package api

import (
	"net/http"
	"strings"

	"github.com/gorilla/mux"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/expenses"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/openapi"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/web"
)

func (a *API) routesExpenseReports(r *mux.Router, docs *openapi.Registry) {
	describeExpenseReports(docs)
	// The fixed paths come first: /expense-report/{expenseReportId} would
	// match them too.
	web.Route(r, web.Gen1, http.MethodPost, "/expense-report/receipt", "expense_report.receipt.upload", a.uploadReceipt)
	web.Route(r, web.Gen1, http.MethodPatch, "/expense-report/bulk-action", "expense_report.bulk_action", a.bulkExpense)
	web.Route(r, web.Gen1, http.MethodGet, "/expense-report/reimbursement-sources",
		"expense_report.reimbursement_source.list", a.reimbursementSources)
	web.Route(r, web.Gen1, http.MethodGet, "/expense-report", "expense_report.list", a.listExpenseReports)
	web.Route(r, web.Gen1, http.MethodPost, "/expense-report", "expense_report.create", a.createExpenseReport)
	web.Route(r, web.Gen1, http.MethodGet, "/expense-report/{expenseReportId}", "expense_report.get", a.getExpenseReport)
	web.Route(r, web.Gen1, http.MethodPatch, "/expense-report/{expenseReportId}", "expense_report.update",
		a.updateExpenseReport)
	// A report shows inside an expenseReport envelope, whose property no
	// update names: its updates, like bulk actions, show no old values.
	a.shows("expense_report.bulk_action", noCurrent)
	a.shows("expense_report.update", noCurrent)
	web.Route(r, web.Gen1, http.MethodPost, "/expense-report/{expenseReportId}/approve", "expense_report.approve",
		a.approveExpenseReport)
	web.Route(r, web.Gen1, http.MethodPost, "/expense-report/{expenseReportId}/reject", "expense_report.reject",
		a.rejectExpenseReport)
}

// describeExpenseReports adds the descriptions of these routes, and
// the components they name, to docs.
func describeExpenseReports(docs *openapi.Registry) {
	docs.Component("ExpenseReport", expenseReportView{})
	docs.Component(
		"ExpenseReportStatus",
		oneOfStrings(expenses.StatusPending, expenses.StatusCancelled, expenses.StatusRejected,
			expenses.StatusProcessing, expenses.StatusCompleted, expenses.StatusFailed),
	)
	docs.Component("MerchantV2", merchantV2View{})
	docs.Component("ReimbursementSource", reimbursementSource{})
	le := []openapi.Param{legalEntityFilter}
	userID := openapi.Schema{"type": "string", "minLength": 1}
	instant := described(dateTime, "An RFC 3339 date-time.")
	merchant := object(openapi.Schema{"type": oneOfStrings("merchantV2", "customMerchant"), "id": userID}, "type", "id")
	currency := described(openapi.Schema{"type": "string", "pattern": "^[A-Z]{3}$"}, "An ISO 4217 code; USD by default.")
	ubID := described(openapi.Schema{"type": "string", "pattern": "^ub_"},
		"A user bank account from the reimbursement sources.")
	ids := openapi.Schema{"type": "array", "uniqueItems": true, "items": stringType}
	memo := openapi.Schema{"type": "string", "maxLength": 1000}
	docs.Describe("expense_report.list", openapi.Op{Summary: "List expense reports", Response: listOf(expenseReportView{}),
		Query: []openapi.Param{
			cursorParam,
			legalEntityFilter,
			{Name: "filter:status", Schema: openapi.Ref("ExpenseReportStatus")},
			{Name: "filter:submittedByUserId"},
			{
				Name:        "sort",
				Description: "submittedAt by default.",
				Schema:      oneOfStrings("submittedAt", "amountCents", "transactionDate"),
			},
			{Name: "sortDirection", Description: "DESC by default.", Schema: oneOfStrings("ASC", "DESC")},
		}})
	docs.Describe(
		"expense_report.create",
		keyed(openapi.Op{Summary: "Submit an expense report", Query: le, Response: expenseReportBody{},
			Description: "A currency other than USD needs fxRateToUsd; a report without documentIds needs noReceiptReason.",
			Body: object(
				openapi.Schema{"submittedByUserId": userID, "amountCents": openapi.Schema{"type": "integer", "exclusiveMinimum": 0},
					"currency": currency, "transactionDate": instant, "memo": openapi.Nullable(memo), "destinationId": ubID,
					"documentIds": described(ids, "Receipts uploaded with POST /expense-report/receipt."), "merchant": merchant,
					"fxRateToUsd": openapi.Nullable(
						described(stringType, "How many units of the currency one US dollar buys, as a decimal string."),
					),
					"fxRateUpdatedAt": openapi.Nullable(instant), "noReceiptReason": openapi.Nullable(stringType)},
				"submittedByUserId",
				"amountCents",
				"transactionDate",
				"destinationId",
				"merchant",
			)}),
	)
	docs.Describe("expense_report.get",
		openapi.Op{Summary: "Get an expense report", Query: le, Response: expenseReportBody{}})
	docs.Describe(
		"expense_report.update",
		openapi.Op{Summary: "Change or cancel a pending expense report", Query: le, Response: expenseReportBody{},
			Description: "Only while pending_review. Absent properties stay as they are; memo null removes the memo; status" +
				" cancelled cancels.",
			Body: object(
				openapi.Schema{"updatedByUserId": userID, "amountCents": openapi.Schema{"type": "integer", "exclusiveMinimum": 0},
					"currency": currency, "transactionDate": instant, "memo": openapi.Nullable(memo), "destinationId": ubID,
					"documentIds": ids,
					"merchant":    merchant, "status": oneOfStrings(expenses.StatusCancelled)},
				"updatedByUserId",
			)},
	)
	docs.Describe(
		"expense_report.approve",
		keyed(openapi.Op{Summary: "Approve an expense report and pay it out", Query: le, Response: expenseReportBody{},
			Body: object(openapi.Schema{"reviewedByUserId": userID}, "reviewedByUserId")}),
	)
	docs.Describe(
		"expense_report.reject",
		openapi.Op{Summary: "Reject an expense report", Query: le, Response: expenseReportBody{},
			Body: object(openapi.Schema{"reviewedByUserId": userID, "reason": openapi.Schema{"type": "string", "minLength": 1}},
				"reviewedByUserId", "reason")},
	)
	docs.Describe(
		"expense_report.bulk_action",
		openapi.Op{Summary: "Approve, reject or cancel many expense reports", Query: le,
			Description: "Each report succeeds or fails on its own. reviewedByUserId is needed to approve or reject, reason to" +
				" reject, cancelledByUserId to cancel.",
			Body: object(openapi.Schema{"action": oneOfStrings("approve", "reject", "cancel"),
				"expenseReportIds": openapi.Schema{
					"type":        "array",
					"minItems":    1,
					"maxItems":    100,
					"uniqueItems": true,
					"items":       stringType,
				},
				"reviewedByUserId": userID, "cancelledByUserId": userID, "reason": stringType}, "action", "expenseReportIds"),
			Response: bulkResult{}},
	)
	docs.Describe(
		"expense_report.reimbursement_source.list",
		openapi.Op{Summary: "A user's bank accounts expenses can be reimbursed to",
			Query: []openapi.Param{legalEntityFilter, {Name: "userId", Required: true}}, Response: reimbursementSources{}},
	)
	docs.Describe("expense_report.receipt.upload", openapi.Op{Summary: "Upload a receipt and read it",
		Description: "A PNG, JPEG, WebP or PDF file of at most 4 MB. The reading is deterministic: the same file always" +
			" reads the same.",
		Query: le, BodyType: multipartBody, Body: upload, Response: receiptUpload{}})
}

// expenseReportBody is the {expenseReport} body of the report operations.
type expenseReportBody struct {
	ExpenseReport expenseReportView `json:"expenseReport"`
}

// bulkResult is the body of PATCH /expense-report/bulk-action.
type bulkResult struct {
	SuccessCount int      `json:"successCount"`
	FailedIDs    []string `json:"failedIds"`
}

// reimbursementSources is the body of GET
// /expense-report/reimbursement-sources.
type reimbursementSources struct {
	Data []reimbursementSource `json:"data"`
}

// receiptUpload answers a receipt upload.
type receiptUpload struct {
	DocumentID    string        `json:"documentId"`
	URL           string        `json:"url"`
	ExpiresAt     string        `json:"expiresAt" format:"date-time"`
	ParsedReceipt parsedReceipt `json:"parsedReceipt"`
}

func (a *API) listExpenseReports(r *http.Request) (any, error) {
	q := r.URL.Query()
	sort, asc, err := sortOf(q)
	if err != nil {
		return nil, err
	}
	f := expenses.Filter{
		Status:      q.Get("filter:status"),
		SubmittedBy: q.Get("filter:submittedByUserId"),
		Sort:        sort,
		Asc:         asc,
	}
	return listPage(
		a,
		r,
		func(op *kernel.Op, c *call, req kernel.PageRequest) (kernel.Page[expenses.Report], error) {
			return expenses.List(op, c.Actor, f, req)
		},
		func(op *kernel.Op, er *expenses.Report) (expenseReportView, error) {
			return expenseReportOf(op, r, er)
		},
	)
}

func (a *API) getExpenseReport(r *http.Request) (any, error) {
	return a.readOp(r, func(op *kernel.Op, c *call) (any, error) {
		er, err := expenses.ExpenseReportOf(op, c.Actor, mux.Vars(r)["expenseReportId"])
		if err != nil {
			return nil, err
		}
		return expenseBody(op, r, er)
	})
}

func expenseBody(op *kernel.Op, r *http.Request, er *expenses.Report) (any, error) {
	v, err := expenseReportOf(op, r, er)
	return expenseReportBody{ExpenseReport: v}, err
}

// expenseWrite runs an expense report write: body decodes strictly and is
// checked by check; do returns the report to show.
func (a *API) expenseWrite(r *http.Request, idem idemMode, body any, check func() error,
	do func(op *kernel.Op, c *call) (*expenses.Report, error)) (any, error) {
	return a.doWrite(r, write{
		gen:  web.Gen1,
		idem: idem,
		input: func(c *call, raw []byte) error {
			if err := checkLEFilter(r, c); err != nil {
				return err
			}
			if err := web.DecodeBytes(raw, body, true); err != nil {
				return err
			}
			return check()
		},
		run: func(op *kernel.Op, c *call) (any, error) {
			er, err := do(op, c)
			if err != nil {
				return nil, err
			}
			return expenseBody(op, r, er)
		},
	})
}

func (a *API) createExpenseReport(r *http.Request) (any, error) {
	var body expenses.ReportInput
	return a.expenseWrite(
		r,
		idemOptional,
		&body,
		body.Validate,
		func(op *kernel.Op, c *call) (*expenses.Report, error) {
			return expenses.CreateExpenseReport(op, c.Actor, &body)
		},
	)
}

func (a *API) updateExpenseReport(r *http.Request) (any, error) {
	var body expenses.ReportPatch
	return a.expenseWrite(
		r,
		idemNone,
		&body,
		body.Validate,
		func(op *kernel.Op, c *call) (*expenses.Report, error) {
			return expenses.UpdateExpenseReport(op, c.Actor, mux.Vars(r)["expenseReportId"], &body)
		},
	)
}

// reviewBody approves or rejects a report; reason (reject only) may be
// absent, never null.
type reviewBody struct {
	ReviewedByUserID string  `json:"reviewedByUserId"`
	Reason           *string `json:"reason,omitempty"`
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
		return kernel.Invalid(d)
	}
	return nil
}

func (a *API) approveExpenseReport(r *http.Request) (any, error) {
	var body reviewBody
	return a.expenseWrite(
		r,
		idemOptional,
		&body,
		func() error { return body.check(false) },
		func(op *kernel.Op, c *call) (*expenses.Report, error) {
			return expenses.ApproveExpenseReport(op, c.Actor, mux.Vars(r)["expenseReportId"], body.ReviewedByUserID)
		},
	)
}

func (a *API) rejectExpenseReport(r *http.Request) (any, error) {
	var body reviewBody
	return a.expenseWrite(
		r,
		idemNone,
		&body,
		func() error { return body.check(true) },
		func(op *kernel.Op, c *call) (*expenses.Report, error) {
			return expenses.RejectExpenseReport(op, c.Actor, mux.Vars(r)["expenseReportId"], body.ReviewedByUserID,
				strings.TrimSpace(*body.Reason))
		},
	)
}

func (a *API) bulkExpense(r *http.Request) (any, error) {
	var body expenses.BulkAction
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
		run: func(op *kernel.Op, c *call) (any, error) {
			n, failed, err := expenses.Bulk(op, c.Actor, &body)
			if err != nil {
				return nil, err
			}
			return bulkResult{SuccessCount: n, FailedIDs: failed}, nil
		},
	})
}

func (a *API) reimbursementSources(r *http.Request) (any, error) {
	user := r.URL.Query().Get("userId")
	if user == "" {
		return nil, kernel.InvalidField("userId", "required")
	}
	return a.readOp(r, func(op *kernel.Op, c *call) (any, error) {
		sources, err := expenses.ReimbursementSources(op, c.Actor, user)
		if err != nil {
			return nil, err
		}
		out := make([]reimbursementSource, len(sources))
		for i := range sources {
			out[i] = reimbursementSourceOf(&sources[i])
		}
		return reimbursementSources{Data: out}, nil
	})
}

func (a *API) uploadReceipt(r *http.Request) (any, error) {
	return a.doUpload(r, expenses.CheckReceipt, func(op *kernel.Op, c *call, f *uploaded) (any, error) {
		doc, parsed, err := expenses.UploadReceipt(op, c.Actor, f.data, f.name, f.contentType)
		if err != nil {
			return nil, err
		}
		return receiptUpload{DocumentID: doc.ID, URL: absURL(r, kernel.SandboxPath(op.W.ID, "/documents/"+doc.ID)),
			ExpiresAt: timestamp(op.Now.Add(receiptURLLifetime)), ParsedReceipt: parsedReceiptOf(parsed)}, nil
	})
}

// parsedReceipt is ParsedReceipt: what was read, each part with how sure
// the reading is.
type parsedReceipt struct {
	Amount   receiptAmount   `json:"amount"`
	Date     receiptDate     `json:"date"`
	Merchant receiptMerchant `json:"merchant"`
}

type receiptAmount struct {
	ValueCents *int64 `json:"valueCents,omitempty"`
	Currency   string `json:"currency,omitempty"`
	Confidence string `json:"confidence" enum:"high,medium,low,none"`
	RawText    string `json:"rawText,omitempty"`
}

type receiptDate struct {
	Value      string `json:"value,omitempty" format:"date"`
	Confidence string `json:"confidence" enum:"high,medium,low,none"`
	RawText    string `json:"rawText,omitempty"`
}

type receiptMerchant struct {
	Name         string          `json:"name,omitempty"`
	MerchantV2ID string          `json:"merchantV2Id,omitempty"`
	MerchantV2   *merchantV2View `json:"merchantV2,omitempty"`
	Confidence   string          `json:"confidence" enum:"high,medium,low,none"`
	RawText      string          `json:"rawText,omitempty"`
}

func parsedReceiptOf(p expenses.ParsedReceipt) parsedReceipt {
	m := merchantV2Of(p.Merchant)
	amount := p.AmountCents
	return parsedReceipt{
		Amount: receiptAmount{
			ValueCents: &amount,
			Currency:   p.Currency,
			Confidence: p.AmountConfidence,
			RawText:    p.AmountRaw,
		},
		Date: receiptDate{Value: p.Date, Confidence: p.DateConfidence, RawText: p.DateRaw},
		Merchant: receiptMerchant{
			Name:         p.Merchant.Name,
			MerchantV2ID: p.Merchant.ID,
			MerchantV2:   &m,
			Confidence:   p.MerchantConfidence,
			RawText:      p.MerchantRaw,
		},
	}
}
