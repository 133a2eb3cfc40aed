package seed

import (
	"cmp"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/expenses"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/invoices"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/ledger"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/scenario"
)

// receivables loads invoice settings and series, user bank accounts,
// custom merchants, expense reports and tasks.
func (l *loader) receivables() error {
	steps := []func() error{
		l.invoiceSettings,
		l.userBankAccounts,
		l.customMerchants,
		l.invoiceSeries,
		l.expenseReports,
		l.tasks,
	}
	for _, step := range steps {
		if err := step(); err != nil {
			return err
		}
	}
	return nil
}

func (l *loader) invoiceSettings() error {
	for _, s := range l.sc.InvoiceSettings {
		st := &invoices.Settings{
			ID:                      "invoice_settings_" + strings.TrimPrefix(s.LegalEntityID, kernel.LegalEntities.Prefix),
			LegalEntityID:           s.LegalEntityID,
			CompanyName:             s.CompanyName,
			Email:                   s.Email,
			Address:                 *address(s.Address),
			DefaultMemo:             s.DefaultMemo,
			InvoiceTerms:            s.InvoiceTerms,
			DefaultPaymentTermsDays: s.DefaultPaymentTermsDays,
			Timestamp:               l.createdAt(s.UpdatedAt, l.op.Now),
		}
		if err := l.op.Save(invoices.KindSettings, st.LegalEntityID, st); err != nil {
			return err
		}
	}
	return nil
}

var banks = []string{"Chase", "Bank of America", "Wells Fargo", "Citibank", "Capital One", "US Bank"}

// userBankAccounts loads the declared accounts and gives every user
// without one an active checking account.
func (l *loader) userBankAccounts() error {
	has := map[string]bool{}
	for _, s := range l.sc.UserBankAccounts {
		b := &expenses.UserBankAccount{
			ID:              s.ID,
			UserID:          s.UserID,
			Status:          s.Status,
			AccountName:     s.AccountName,
			Subtype:         s.Subtype,
			Mask:            s.Mask,
			InstitutionName: s.InstitutionName,
			CreatedAt:       l.createdAt(s.CreatedAt, time.Time{}),
		}
		if err := l.bankAccount(b); err != nil {
			return err
		}
		has[s.UserID] = true
	}
	for i, u := range l.sc.Users {
		if has[u.ID] {
			continue
		}
		f := l.op.W.Faker("user-bank-account", int64(i))
		b := &expenses.UserBankAccount{UserID: u.ID, InstitutionName: banks[f.IntN(len(banks))], Mask: f.DigitN(4)}
		if err := l.bankAccount(b); err != nil {
			return err
		}
	}
	return nil
}

func (l *loader) bankAccount(b *expenses.UserBankAccount) error {
	var u kernel.User
	if _, err := l.op.Get(kernel.Users.Name, b.UserID, &u); err != nil {
		return err
	}
	if b.Status == "" {
		b.Status = "active"
	}
	if b.Subtype == "" {
		b.Subtype = "checking"
	}
	if b.InstitutionName == "" {
		b.InstitutionName = banks[0]
	}
	if b.AccountName == "" {
		b.AccountName = "Personal " + strings.ToUpper(b.Subtype[:1]) + b.Subtype[1:]
	}
	if b.Mask == "" {
		b.Mask = "0000"
	}
	b.Type, b.AccountOwnerName = "depository", u.Name
	if b.CreatedAt.IsZero() {
		b.CreatedAt = l.op.Now.AddDate(0, -6, 0)
	}
	b.InstitutionID = "ins_" + strings.ReplaceAll(strings.ToLower(b.InstitutionName), " ", "_")
	b.BalanceCents = int64(kernel.Derive(l.op.W.Seed, "user-bank-balance:"+b.UserID+":"+b.Mask, 0)%500000) + 50000
	return expenses.SaveUserBankAccount(l.op, b)
}

func (l *loader) customMerchants() error {
	for _, s := range l.sc.CustomMerchants {
		m := &expenses.CustomMerchant{
			ID:            s.ID,
			LegalEntityID: s.LegalEntityID,
			AddedByUserID: s.AddedByUserID,
			MerchantName:  s.MerchantName,
			CreatedAt:     l.createdAt(s.CreatedAt, l.op.Now.AddDate(0, -1, 0)),
		}
		if err := l.op.Save(expenses.KindCustomMerchant, m.ID, m); err != nil {
			return err
		}
	}
	return nil
}

// invoiceSeries starts each declared series through the engine, so a
// series started in the past has issued its past invoices already. A
// series declared with its status is written as it is instead: its
// invoices are declared on their own.
func (l *loader) invoiceSeries() error {
	for i, s := range l.sc.InvoiceSeries {
		path := fmt.Sprintf("invoiceSeries[%d]", i)
		l.op.SetOrigin(path)
		in, err := l.seriesInput(path, s)
		if err != nil {
			return err
		}
		le := l.accs[s.AccountID].LegalEntityID
		if s.Status != "" {
			st := invoices.SeriesState{ID: s.ID, Status: s.Status, Occurrences: s.Occurrences, LastDate: s.LastDate,
				PendingInvoiceID: s.PendingInvoiceID, CreatedAt: l.createdAt(s.CreatedAt, l.op.Now)}
			if s.NextScheduledAt != "" {
				next := l.time(s.NextScheduledAt)
				st.NextScheduledDate = &next
			}
			if st.ID == "" {
				if st.ID, err = l.op.NewID(invoices.PrefixSeries); err != nil {
					return err
				}
			}
			_, err = invoices.RestoreSeries(l.op, le, in, st)
		} else {
			_, _, err = invoices.CreateSeriesFor(l.op, le, in, s.ID, true)
		}
		if err != nil {
			return l.problem(path, "%v", err)
		}
	}
	return nil
}

// seriesInput is a declared series' terms as the API takes them.
func (l *loader) seriesInput(path string, s scenario.InvoiceSeries) (*invoices.SeriesInput, error) {
	tz := s.Timezone
	if tz == "" {
		tz = "America/New_York"
	}
	loc, _ := time.LoadLocation(tz)
	terms := s.PaymentTermsDays
	nth, _ := json.Marshal(s.Recurrence.Nth)
	start := invoices.CalDateOf(l.time(s.StartDate), loc)
	if day, ok := invoices.ParseCalDate(s.StartDate); ok {
		start = day
	}
	in := &invoices.SeriesInput{
		AccountID:        s.AccountID,
		PaymentTermsDays: &terms,
		InvoiceTz:        tz,
		StartDate:        start.String(),
		RecurrenceRule: &invoices.RecurrenceInput{
			Type:       s.Recurrence.Type,
			DayOfWeek:  s.Recurrence.DayOfWeek,
			DayOfMonth: s.Recurrence.DayOfMonth,
		},
		EndCondition: &invoices.EndInput{Type: invoices.EndNever},
		Template: &invoices.TemplateInput{CCEmails: s.CCEmails, LineItemsAndTotals: &invoices.LineItemsInput{
			Discount: adjustment(s.Discount), Tax: adjustment(s.Tax)}},
	}
	if s.Recurrence.Nth != nil {
		in.RecurrenceRule.Nth = nth
	}
	if s.CustomerID != "" {
		in.LegalEntityCustomerID = &s.CustomerID
	}
	if s.ContactID != "" {
		in.LegalEntityContactID = &s.ContactID
	}
	l.seriesEnd(in, s.End)
	for _, li := range s.LineItems {
		in.Template.LineItemsAndTotals.LineItems = append(in.Template.LineItemsAndTotals.LineItems,
			invoices.LineItemInput{Name: li.Name, Quantity: li.Quantity, PriceCents: &li.PriceCents,
				CatalogID: li.CatalogID})
	}
	if s.Memo != "" {
		in.Template.Memo = &s.Memo
	}
	if s.PaymentMethods != nil {
		methods, err := l.paymentMethods(path+".paymentMethods", s.PaymentMethods)
		if err != nil {
			return nil, err
		}
		in.PaymentMethods = methods
	}
	return in, nil
}

func (l *loader) seriesEnd(in *invoices.SeriesInput, e *scenario.SeriesEnd) {
	if e == nil {
		return
	}
	in.EndCondition = &invoices.EndInput{Type: e.Type}
	if e.Type == invoices.EndAfterCount {
		in.EndCondition.Count = &e.Count
	}
	if e.Type == invoices.EndOnDate {
		in.EndCondition.Date = &e.Date
	}
}

// tasks loads declared tasks as they are; a payment_approval task takes
// the data it does not declare from its transaction, an expense_submission
// task from its report.
func (l *loader) tasks() error {
	for i, s := range l.sc.Tasks {
		t := &expenses.Task{ID: cmp.Or(l.taskIDs[i], s.ID), LegalEntityID: s.LegalEntityID, Type: s.Type,
			Status: s.Status, Data: map[string]any{}, AssigneeUserIDs: s.Assignees, OriginatorUserID: s.OriginatorUserID,
			CreatedAt: l.createdAt(s.CreatedAt, l.op.Now.AddDate(0, 0, -1)),
			UpdatedAt: l.createdAt(s.UpdatedAt, l.op.Now)}
		for k, v := range s.Data {
			t.Data[k] = v
		}
		if t.Status == "" {
			t.Status = expenses.TaskActionRequired
		}
		if err := l.taskSubject(t, s); err != nil {
			return err
		}
		if len(t.AssigneeUserIDs) == 0 {
			admins, err := expenses.Reviewers(l.op, t.LegalEntityID, t.OriginatorUserID)
			if err != nil {
				return err
			}
			t.AssigneeUserIDs = admins
		}
		if err := expenses.RestoreTask(l.op, t); err != nil {
			return err
		}
	}
	return nil
}

// taskSubject ties a task to the transaction or expense report it names,
// filling the data it does not declare from it.
func (l *loader) taskSubject(t *expenses.Task, s scenario.Task) error {
	fill := func(data map[string]any) {
		for k, v := range data {
			if _, declared := t.Data[k]; !declared {
				t.Data[k] = v
			}
		}
	}
	if s.TransactionID != "" {
		txn, _, err := ledger.FindTransaction(l.op, s.TransactionID)
		if err != nil {
			return err
		}
		t.RelatedID = txn.ID
		fill(map[string]any{"transactionId": txn.ID, "accountId": txn.AccountID, "amountCents": txn.AmountCents,
			"description": txn.Description, "status": txn.DetailedStatus})
	}
	if s.ExpenseReportID == "" {
		return nil
	}
	var r expenses.Report
	if _, err := l.op.Get(expenses.KindReport, s.ExpenseReportID, &r); err != nil {
		return err
	}
	data, err := expenses.ExpenseTaskData(l.op, &r)
	if err != nil {
		return err
	}
	fill(data)
	t.RelatedID = r.ID
	t.OriginatorUserID = cmp.Or(t.OriginatorUserID, r.SubmittedByUserID)
	if s.Status == "" {
		t.Status = expenses.ExpenseTaskStatus(r.Status)
	}
	return nil
}
