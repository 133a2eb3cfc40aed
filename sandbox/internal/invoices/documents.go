package invoices

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
)

// Document types the sandbox stores.
const (
	DocumentReceipt     = "receipt"
	DocumentInvoiceLogo = "invoice_logo"
	DocumentInvoice     = "invoice"
)

// Document sources.
const (
	DocumentUploaded  = "uploaded"
	DocumentGenerated = "generated"
)

// PrefixDocument starts every document id.
const PrefixDocument = "doc_"

// KindDocument is the record kind of a document.
const KindDocument = "document"

// Document is a file a legal entity uploaded (receipts, invoice logos) or
// one the sandbox renders (an invoice). Uploaded files keep their bytes;
// generated ones are rendered from their record whenever they are read.
type Document struct {
	ID            string    `json:"id"`
	LegalEntityID string    `json:"legalEntityId"`
	Type          string    `json:"type"`
	Source        string    `json:"source"`
	ContentType   string    `json:"contentType"`
	Filename      string    `json:"filename,omitempty"`
	Size          int64     `json:"size"`
	Checksum      string    `json:"checksum,omitempty"`
	Data          []byte    `json:"data,omitempty"`
	RelatedID     string    `json:"relatedId,omitempty"`
	CreatedAt     time.Time `json:"createdAt"`
	Seq           int64     `json:"seq"`
}

// SaveDocument stores a new document, filling its id (unless it has one
// already: a restored document keeps its own), checksum, size and time.
func SaveDocument(op *kernel.Op, d *Document) error {
	id := d.ID
	if id == "" {
		var err error
		if id, err = op.NewID(PrefixDocument); err != nil {
			return err
		}
	}
	seq, err := op.NextSeq()
	if err != nil {
		return err
	}
	d.ID, d.Seq, d.CreatedAt = id, seq, op.Now
	if d.Data != nil {
		sum := sha256.Sum256(d.Data)
		d.Checksum, d.Size = hex.EncodeToString(sum[:]), int64(len(d.Data))
	}
	return op.Save(KindDocument, id, d)
}

// DocumentOf loads one of a legal entity's documents; any other is not
// found, naming the request field.
func DocumentOf(op *kernel.Op, legalEntityID, id, field string) (*Document, error) {
	var d Document
	ok, err := op.Get(KindDocument, id, &d)
	if err != nil {
		return nil, err
	}
	if !ok || d.LegalEntityID != legalEntityID {
		return nil, kernel.NotFound("document", field, id)
	}
	return &d, nil
}

// DocumentContent returns a document and its bytes: stored ones as they
// were uploaded, generated ones rendered from the current state.
func DocumentContent(w *kernel.World, id string) (*Document, []byte, error) {
	var d Document
	var body []byte
	err := w.View(func(op *kernel.Op) error {
		ok, err := op.Get(KindDocument, id, &d)
		if err != nil {
			return err
		}
		if !ok {
			return kernel.NotFound("document", "documentId", id)
		}
		if d.Source != DocumentGenerated {
			body = d.Data
			return nil
		}
		body, err = renderInvoice(op, d.RelatedID)
		return err
	})
	return &d, body, err
}

// SniffFileType names an upload's type from its first bytes: PNG, JPEG,
// WebP, PDF or SVG. It returns "" for anything else, whatever the upload
// claimed to be.
func SniffFileType(data []byte) string {
	switch {
	case bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")):
		return "image/png"
	case bytes.HasPrefix(data, []byte{0xFF, 0xD8, 0xFF}):
		return "image/jpeg"
	case len(data) >= 12 && bytes.Equal(data[:4], []byte("RIFF")) && bytes.Equal(data[8:12], []byte("WEBP")):
		return "image/webp"
	case bytes.HasPrefix(data, []byte("%PDF-")):
		return "application/pdf"
	case isSVG(data):
		return "image/svg+xml"
	}
	return ""
}

// isSVG accepts an XML document whose root element is svg.
func isSVG(data []byte) bool {
	head := data
	if len(head) > 4096 {
		head = head[:4096]
	}
	head = bytes.ToLower(bytes.TrimSpace(bytes.TrimPrefix(head, []byte("\xef\xbb\xbf"))))
	if bytes.HasPrefix(head, []byte("<svg")) {
		return true
	}
	return bytes.HasPrefix(head, []byte("<?xml")) && bytes.Contains(head, []byte("<svg"))
}
