package seed

import (
	"encoding/base64"
	"fmt"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/expenses"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/invoices"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/scenario"
)

// documents loads the uploaded files, each checked by content as its
// upload would be: a receipt as POST /expense-report/receipt checks one, a
// logo as POST /invoice/settings/logo does.
func (l *loader) documents() error {
	for i, s := range l.sc.Documents {
		path := fmt.Sprintf("documents[%d]", i)
		data, err := base64.StdEncoding.DecodeString(s.Data)
		if err != nil {
			return l.problem(path+".data", "is not standard base64: %v", err)
		}
		check := expenses.CheckReceipt
		if s.Type == invoices.DocumentInvoiceLogo {
			check = invoices.CheckLogo
		}
		contentType, err := check(data)
		if err != nil {
			return l.problem(path+".data", "is no %s the API would take: %v", s.Type, err)
		}
		d := &invoices.Document{ID: s.ID, LegalEntityID: s.LegalEntityID, Type: s.Type,
			Source: invoices.DocumentUploaded, ContentType: contentType, Filename: s.Filename, Data: data,
			CreatedAt: l.createdAt(s.CreatedAt, l.op.Now)}
		if err := invoices.SaveDocument(l.op, d); err != nil {
			return err
		}
	}
	return nil
}

// documents writes the files legal entities uploaded, their bytes in
// base64; the documents the sandbox renders (an invoice's) are made again
// from their records.
func (x *exporter) documents() error {
	all, err := records[invoices.Document](x.op, invoices.KindDocument)
	if err != nil {
		return err
	}
	for _, d := range all {
		if d.Source != invoices.DocumentUploaded {
			continue
		}
		x.sc.Documents = append(x.sc.Documents, scenario.Document{ID: d.ID, LegalEntityID: d.LegalEntityID,
			Type: d.Type, Filename: d.Filename, Data: base64.StdEncoding.EncodeToString(d.Data),
			CreatedAt: stamp(d.CreatedAt)})
	}
	return nil
}
