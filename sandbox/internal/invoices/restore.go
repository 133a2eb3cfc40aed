package invoices

import (
	"encoding/json"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
)

// CheckPaymentMethods checks a list of invoice payment methods as the API
// does.
func CheckPaymentMethods(raw json.RawMessage) error {
	d := map[string]string{}
	checkPaymentMethods(d, "", raw)
	if len(d) > 0 {
		return kernel.Invalid(d)
	}
	return nil
}

// SeriesState is what a series has done so far: the part of a restored
// series its terms do not say.
type SeriesState struct {
	ID, Status  string
	Occurrences int
	LastDate    string
	// NextScheduledDate is when an active series issues PendingInvoiceID.
	NextScheduledDate *time.Time
	PendingInvoiceID  string
	CreatedAt         time.Time
}

// RestoreSeries writes a series as it was, its terms from in and what it
// has done from st. It issues nothing: the invoices it issued are restored
// on their own. An active series' next issue is scheduled at its next
// date, as the series scheduled it. Its parties are not checked again:
// its customer may have been archived since it started.
func RestoreSeries(op *kernel.Op, legalEntityID string, in *SeriesInput, st SeriesState) (*Series, error) {
	if err := in.Validate(); err != nil {
		return nil, err
	}
	s := &Series{ID: st.ID, LegalEntityID: legalEntityID, Status: st.Status, Occurrences: st.Occurrences,
		LastDate: st.LastDate, CreatedAt: st.CreatedAt}
	if in.LegalEntityContactID != nil {
		s.ContactID = *in.LegalEntityContactID
	}
	in.apply(s)
	var err error
	if s.Seq, err = op.NextSeq(); err != nil {
		return nil, err
	}
	if s.Status == SeriesActive && st.NextScheduledDate != nil {
		return s, pendSeries(op, s, st.PendingInvoiceID, *st.NextScheduledDate)
	}
	return s, saveSeries(op, s)
}
