package invoices

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/jsonshape"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/parties"
)

// RecurrenceInput is a recurrence rule as the API takes it; nth is 1 to 4
// or "last".
type RecurrenceInput struct {
	Type       string          `json:"type"`
	DayOfWeek  *int            `json:"dayOfWeek,omitempty"`
	DayOfMonth *int            `json:"dayOfMonth,omitempty"`
	Nth        json.RawMessage `json:"nth"`
}

func (r *RecurrenceInput) parse(d map[string]string, path string) RecurrenceRule {
	if r == nil {
		d[path] = "required"
		return RecurrenceRule{}
	}
	rule := RecurrenceRule{Type: r.Type}
	weekday := func() {
		if r.DayOfWeek == nil || *r.DayOfWeek < 0 || *r.DayOfWeek > 6 {
			d[path+"/dayOfWeek"] = "required: 0 (Sunday) to 6 (Saturday)"
		} else {
			rule.DayOfWeek = *r.DayOfWeek
		}
	}
	extra := func(field string, given bool) {
		if given {
			d[path+"/"+field] = "does not apply to a " + r.Type + " rule"
		}
	}
	switch r.Type {
	case RecurWeekly:
		weekday()
		extra("dayOfMonth", r.DayOfMonth != nil)
		extra("nth", r.Nth != nil)
	case RecurDayOfMonth:
		if r.DayOfMonth == nil || *r.DayOfMonth < 1 || *r.DayOfMonth > 31 {
			d[path+"/dayOfMonth"] = "required: 1 to 31 (clamped to the month's last day)"
		} else {
			rule.DayOfMonth = *r.DayOfMonth
		}
		extra("dayOfWeek", r.DayOfWeek != nil)
		extra("nth", r.Nth != nil)
	case RecurNthWeekday:
		weekday()
		extra("dayOfMonth", r.DayOfMonth != nil)
		var n int
		var last string
		switch {
		case json.Unmarshal(r.Nth, &n) == nil && n >= 1 && n <= 4:
			rule.Nth = n
		case json.Unmarshal(r.Nth, &last) == nil && last == "last":
			rule.Nth = NthLast
		default:
			d[path+"/nth"] = `required: 1 to 4 or "last"`
		}
	default:
		d[path+"/type"] = "must be weekly, monthly_day_of_month or monthly_nth_weekday"
	}
	return rule
}

// EndInput is an end condition as the API takes it.
type EndInput struct {
	Type  string  `json:"type"`
	Count *int    `json:"count,omitempty"`
	Date  *string `json:"date,omitempty"`
}

func (e *EndInput) parse(d map[string]string, path string) EndCondition {
	if e == nil {
		d[path] = "required"
		return EndCondition{}
	}
	end := EndCondition{Type: e.Type}
	switch e.Type {
	case EndNever:
	case EndAfterCount:
		if e.Count == nil || *e.Count < 1 {
			d[path+"/count"] = "required: at least 1"
		} else {
			end.Count = *e.Count
		}
	case EndOnDate:
		if _, ok := ParseCalDate(jsonshape.Value(e.Date)); !ok {
			d[path+"/date"] = "required: a YYYY-MM-DD date"
		} else {
			end.Date = *e.Date
		}
	default:
		d[path+"/type"] = "must be never, after_count or on_date"
	}
	if e.Count != nil && e.Type != EndAfterCount {
		d[path+"/count"] = "applies only to after_count"
	}
	if e.Date != nil && e.Type != EndOnDate {
		d[path+"/date"] = "applies only to on_date"
	}
	return end
}

// TemplateInput is a series template as the API takes it.
type TemplateInput struct {
	LineItemsAndTotals *LineItemsInput `json:"lineItemsAndTotals,omitempty"`
	Memo               *string         `json:"memo,omitempty"`
	CCEmails           []string        `json:"ccEmails"`
}

// SeriesInput is the body of POST /invoice/series and, whole, of PATCH.
type SeriesInput struct {
	AccountID             string           `json:"accountId"`
	LegalEntityContactID  *string          `json:"legalEntityContactId,omitempty"`
	LegalEntityCustomerID *string          `json:"legalEntityCustomerId,omitempty"`
	RecurrenceRule        *RecurrenceInput `json:"recurrenceRule,omitempty"`
	PaymentTermsDays      *int             `json:"paymentTermsDays,omitempty"`
	InvoiceTz             string           `json:"invoiceTz"`
	StartDate             string           `json:"startDate"`
	EndCondition          *EndInput        `json:"endCondition,omitempty"`
	Template              *TemplateInput   `json:"template,omitempty"`
	PaymentMethods        json.RawMessage  `json:"paymentMethods,omitempty" ref:"InvoicePaymentMethods"`

	rule RecurrenceRule
	end  EndCondition
}

// Validate checks a series body.
func (in *SeriesInput) Validate() error {
	d := map[string]string{}
	if strings.TrimSpace(in.AccountID) == "" {
		d["/accountId"] = "required"
	}
	if jsonshape.Value(in.LegalEntityCustomerID) == "" && jsonshape.Value(in.LegalEntityContactID) == "" {
		d["/legalEntityCustomerId"] = "required (or, during the transition, legalEntityContactId)"
	}
	in.rule = in.RecurrenceRule.parse(d, "/recurrenceRule")
	if in.PaymentTermsDays == nil || *in.PaymentTermsDays < 0 || *in.PaymentTermsDays > 3650 {
		d["/paymentTermsDays"] = "required: 0 (due on receipt) or more days"
	}
	if _, err := Zone(in.InvoiceTz); err != nil {
		d["/invoiceTz"] = err.Error()
	}
	start, ok := ParseCalDate(in.StartDate)
	if !ok {
		d["/startDate"] = "required: a YYYY-MM-DD date"
	}
	in.end = in.EndCondition.parse(d, "/endCondition")
	if end, ok2 := ParseCalDate(in.end.Date); ok && ok2 && end.Before(start) {
		d["/endCondition/date"] = "must not be before startDate"
	}
	if in.Template == nil {
		d["/template"] = "required"
	} else {
		in.Template.LineItemsAndTotals.check(d, "/template/lineItemsAndTotals")
		if m := in.Template.Memo; m != nil && len([]rune(*m)) > 500 {
			d["/template/memo"] = "must be at most 500 characters"
		}
		checkEmails(d, "/template/ccEmails", in.Template.CCEmails, 10)
	}
	checkPaymentMethods(d, "/paymentMethods", in.PaymentMethods)
	if len(d) > 0 {
		return kernel.Invalid(d)
	}
	return nil
}

// apply writes the body's terms onto a series.
func (in *SeriesInput) apply(s *Series) {
	s.AccountID, s.Rule, s.PaymentTermsDays, s.Timezone = in.AccountID, in.rule, *in.PaymentTermsDays, in.InvoiceTz
	s.StartDate, s.End = in.StartDate, in.end
	l := in.Template.LineItemsAndTotals
	s.Template = SeriesTemplate{
		LineItems: l.lines(),
		Discount:  l.Discount,
		Tax:       l.Tax,
		Memo:      jsonshape.Value(in.Template.Memo),
		CCEmails:  in.Template.CCEmails,
	}
	s.PaymentMethods = nil
	if parties.Present(in.PaymentMethods) {
		s.PaymentMethods = compactJSON(in.PaymentMethods)
	}
	if id := jsonshape.Value(in.LegalEntityCustomerID); id != "" {
		s.CustomerID = id
	}
}

// checkParties checks the series' account, customer and contact within
// its legal entity.
func checkParties(op *kernel.Op, s *Series) error {
	if _, _, err := invoiceTarget(op, s.LegalEntityID, s.AccountID, "/accountId"); err != nil {
		return err
	}
	if s.CustomerID != "" {
		c, err := parties.CustomerOfEntity(op, s.LegalEntityID, s.CustomerID, "/legalEntityCustomerId")
		if err != nil {
			return err
		}
		if c.Status != parties.CustomerActive {
			return kernel.InvalidField("/legalEntityCustomerId", "customer "+c.ID+" is archived")
		}
		return nil
	}
	var c parties.Contact
	ok, err := op.Get(parties.KindContact, s.ContactID, &c)
	if err != nil {
		return err
	}
	if !ok || c.LegalEntityID != s.LegalEntityID {
		return kernel.NotFound("contact", "/legalEntityContactId", s.ContactID)
	}
	if c.RecipientEmail == "" {
		return kernel.InvalidField("/legalEntityContactId",
			"contact "+c.ID+" has no email to send invoices to; bill a customer instead")
	}
	return nil
}

// CreateSeries starts a series for the actor's legal entity and returns it
// with its first invoice.
func CreateSeries(op *kernel.Op, a *kernel.Actor, in *SeriesInput) (*Series, *Invoice, error) {
	return CreateSeriesFor(op, a.LegalEntityID(), in, "", false)
}

// createSeries starts a series. A scenario may start one in the past: the
// dates already passed are issued at once.
func CreateSeriesFor(
	op *kernel.Op,
	legalEntityID string,
	in *SeriesInput,
	declaredID string,
	allowPast bool,
) (*Series, *Invoice, error) {
	if err := in.Validate(); err != nil {
		return nil, nil, err
	}
	s := &Series{
		LegalEntityID: legalEntityID,
		Status:        SeriesActive,
		ContactID:     jsonshape.Value(in.LegalEntityContactID),
		CreatedAt:     op.Now,
	}
	in.apply(s)
	today := CalDateOf(op.Now, s.location())
	if start, _ := ParseCalDate(s.StartDate); !allowPast && start.Before(today) {
		return nil, nil, kernel.InvalidField("/startDate", "must be today ("+today.String()+" in "+s.Timezone+") or later")
	}
	if _, ok := s.nextDate(); !ok {
		return nil, nil, kernel.InvalidField("/endCondition", "leaves no date to issue an invoice on")
	}
	if err := checkParties(op, s); err != nil {
		return nil, nil, err
	}
	var err error
	if s.ID = declaredID; s.ID == "" {
		if s.ID, err = op.NewID(PrefixSeries); err != nil {
			return nil, nil, err
		}
	}
	if s.Seq, err = op.NextSeq(); err != nil {
		return nil, nil, err
	}
	first, err := advanceSeries(op, s)
	return s, first, err
}

// SeriesFilter narrows and orders the series list.
type SeriesFilter struct {
	Status, CustomerID, ContactID, AccountID string
	// Sort is startDate (the default) or nextScheduledDate.
	Sort string
	Asc  bool
}

// ListSeries lists the actor's invoice series.
func ListSeries(
	op *kernel.Op,
	a *kernel.Actor,
	f SeriesFilter,
	req kernel.PageRequest,
) (kernel.Page[Series], error) {
	d := map[string]string{}
	if f.Status != "" && !slices.Contains([]string{SeriesActive, SeriesEnded, SeriesCancelled}, f.Status) {
		d["filter:status"] = "must be active, ended or cancelled"
	}
	if f.Sort != "" && f.Sort != "startDate" && f.Sort != "nextScheduledDate" {
		d["sort"] = "must be startDate or nextScheduledDate"
	}
	if len(d) > 0 {
		return kernel.Page[Series]{}, kernel.Invalid(d)
	}
	index := indexSeriesStart
	if f.Sort == "nextScheduledDate" {
		index = indexSeriesNext
	}
	req.Desc = !f.Asc
	eq := func(want, got string) bool { return want == "" || want == got }
	return kernel.List(
		op,
		KindSeries,
		kernel.IndexPrefix(index, a.LegalEntityID()),
		req,
		func(s *Series) bool {
			return eq(f.Status, s.Status) && eq(f.CustomerID, s.CustomerID) && eq(f.ContactID, s.ContactID) &&
				eq(f.AccountID, s.AccountID)
		},
	)
}

// SeriesOf loads one of the actor's invoice series.
func SeriesOf(op *kernel.Op, a *kernel.Actor, id string) (*Series, error) {
	var s Series
	ok, err := op.Get(KindSeries, id, &s)
	if err != nil {
		return nil, err
	}
	if !ok || s.LegalEntityID != a.LegalEntityID() {
		return nil, kernel.NotFound("invoice series", "", id)
	}
	return &s, nil
}

func requireActive(s *Series) error {
	if s.Status != SeriesActive {
		return kernel.Errorf(kernel.CodeConflict, "invoice series %s is %s", s.ID, s.Status).With("status", s.Status)
	}
	return nil
}

// pending loads the series' scheduled next invoice (nil when none).
func pending(op *kernel.Op, s *Series) (*Invoice, error) {
	if s.PendingInvoiceID == "" {
		return nil, nil
	}
	var inv Invoice
	ok, err := op.Get(Kind, s.PendingInvoiceID, &inv)
	if err != nil || !ok || inv.Status != StatusScheduled {
		return nil, err
	}
	return &inv, nil
}

// CancelSeries stops a series: invoices already sent stay; the scheduled
// next one is voided and returned.
func CancelSeries(op *kernel.Op, a *kernel.Actor, id string) (*Series, *Invoice, error) {
	s, err := SeriesOf(op, a, id)
	if err != nil {
		return nil, nil, err
	}
	if err := requireActive(s); err != nil {
		return nil, nil, err
	}
	voided, err := dropPending(op, s)
	if err != nil {
		return nil, nil, err
	}
	s.Status = SeriesCancelled
	return s, voided, saveSeries(op, s)
}

// dropPending voids the series' scheduled invoice and cancels its issue
// event.
func dropPending(op *kernel.Op, s *Series) (*Invoice, error) {
	inv, err := pending(op, s)
	if err != nil {
		return nil, err
	}
	if inv != nil {
		if err := markVoid(op, inv); err != nil {
			return nil, err
		}
	}
	if err := op.CancelEvent(s.EventID); err != nil {
		return nil, err
	}
	s.EventID, s.PendingInvoiceID, s.NextScheduledDate = "", "", nil
	return inv, nil
}

// SkipNextInvoice voids the series' scheduled invoice, counts its date as
// used and prepares the following one.
func SkipNextInvoice(op *kernel.Op, a *kernel.Actor, id string) (*Series, *Invoice, error) {
	s, err := SeriesOf(op, a, id)
	if err != nil {
		return nil, nil, err
	}
	if err := requireActive(s); err != nil {
		return nil, nil, err
	}
	voided, err := skipPending(op, s)
	if err == nil && voided == nil {
		err = kernel.Errorf(kernel.CodeConflict, "invoice series %s has no scheduled invoice to skip", s.ID)
	}
	return s, voided, err
}

func skipPending(op *kernel.Op, s *Series) (*Invoice, error) {
	if s.NextScheduledDate == nil {
		return nil, nil
	}
	d := CalDateOf(*s.NextScheduledDate, s.location())
	voided, err := dropPending(op, s)
	if err != nil {
		return nil, err
	}
	s.consume(d)
	_, err = advanceSeries(op, s)
	return voided, err
}

// seriesInvoiceVoided treats voiding a series' scheduled invoice as
// skipping it.
func seriesInvoiceVoided(op *kernel.Op, inv *Invoice) error {
	if inv.SeriesID == "" {
		return nil
	}
	var s Series
	if ok, err := op.Get(KindSeries, inv.SeriesID, &s); err != nil || !ok {
		return err
	}
	if s.Status != SeriesActive || s.PendingInvoiceID != inv.ID {
		return nil
	}
	s.PendingInvoiceID = "" // already void
	_, err := skipPending(op, &s)
	return err
}

// UpdateSeries replaces a series' terms (its contact stays). The scheduled
// invoice is rewritten to the new terms and moved to the new next date.
func UpdateSeries(op *kernel.Op, a *kernel.Actor, id string, in *SeriesInput) (*Series, *Invoice, error) {
	if err := in.Validate(); err != nil {
		return nil, nil, err
	}
	s, err := SeriesOf(op, a, id)
	if err != nil {
		return nil, nil, err
	}
	if err := requireActive(s); err != nil {
		return nil, nil, err
	}
	if c := jsonshape.Value(in.LegalEntityContactID); c != "" && c != s.ContactID {
		return nil, nil, kernel.InvalidField("/legalEntityContactId",
			"the contact of a series cannot change after it is created")
	}
	in.apply(s)
	if err := checkParties(op, s); err != nil {
		return nil, nil, err
	}
	inv, err := pending(op, s)
	if err != nil {
		return nil, nil, err
	}
	if err := op.CancelEvent(s.EventID); err != nil {
		return nil, nil, err
	}
	s.EventID, s.PendingInvoiceID, s.NextScheduledDate = "", "", nil
	if inv == nil {
		first, err := advanceSeries(op, s)
		return s, first, err
	}
	return s, inv, reschedule(op, s, inv)
}

// reschedule rewrites the series' scheduled invoice for its next date, or
// voids it when the series has no date left.
func reschedule(op *kernel.Op, s *Series, inv *Invoice) error {
	d, ok := s.nextDate()
	if !ok {
		if err := markVoid(op, inv); err != nil {
			return err
		}
		s.Status = SeriesEnded
		return saveSeries(op, s)
	}
	if err := fillSeriesInvoice(op, s, inv, d); err != nil {
		return err
	}
	at := d.Start(s.location())
	inv.ScheduledSendDate = &at
	inv.Version++
	if at.After(op.Now) {
		if err := Store(op, inv); err != nil {
			return err
		}
		return pendSeries(op, s, inv.ID, at)
	}
	refreshInvoice(op, inv)
	if err := deliverInvoice(op, inv); err != nil {
		return err
	}
	if err := Store(op, inv); err != nil {
		return err
	}
	s.consume(d)
	_, err := advanceSeries(op, s)
	return err
}
