package control_test

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rs/zerolog"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/apitest"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/server"
	"gopkg.in/yaml.v3"
)

// randomDocuments uploads, seeded, receipts (JPEG and PDF) and an invoice
// logo, submits reports that carry the receipts, adds a receipt to one,
// and leaves one receipt uploaded but unused. It returns the ids of the
// files it uploaded.
func randomDocuments(t *testing.T, e *apitest.Env, seed int64) []string {
	t.Helper()
	r := rand.New(rand.NewPCG(uint64(seed), 36))
	const acme = apitest.AcmeKey
	var uploaded []string
	upload := func(i int) string {
		name := fmt.Sprintf("receipt-%d-%d.jpg", seed, i)
		data := []byte(fmt.Sprintf("\xff\xd8\xff\xe0 receipt %d %d", seed, i))
		if r.IntN(2) == 0 {
			name, data = fmt.Sprintf("receipt-%d-%d.pdf", seed, i), []byte(fmt.Sprintf("%%PDF-1.4 receipt %d %d", seed, i))
		}
		var out struct {
			DocumentID string `json:"documentId"`
		}
		apitest.Upload(e, "/expense-report/receipt", acme, "file", name, data).Status(t, 200).Decode(t, &out)
		uploaded = append(uploaded, out.DocumentID)
		return out.DocumentID
	}
	logo := []byte(fmt.Sprintf("\x89PNG\r\n\x1a\n logo %d", seed))
	var out struct {
		DocumentID string `json:"documentId"`
	}
	apitest.Upload(e, "/invoice/settings/logo", acme, "file", "logo.png", logo).Status(t, 200).Decode(t, &out)
	uploaded = append(uploaded, out.DocumentID)
	var reports []string
	for i := range 2 + r.IntN(3) {
		receipts := []string{upload(2 * i)}
		if r.IntN(2) == 0 {
			receipts = append(receipts, upload(2*i+1))
		}
		var out struct {
			ExpenseReport struct{ ID string } `json:"expenseReport"`
		}
		e.Post("/expense-report", acme, "", "", map[string]any{"submittedByUserId": "u_bob",
			"amountCents": 100 + r.IntN(20000), "transactionDate": "2026-06-11T12:00:00Z",
			"destinationId": "ub_bobchecking", "merchant": map[string]any{"type": "merchantV2", "id": "merchant_v2_uber"},
			"documentIds": receipts}).Status(t, 200).Decode(t, &out)
		reports = append(reports, out.ExpenseReport.ID)
	}
	var report struct {
		DocumentIDs []string `json:"documentIds"`
	}
	id := reports[r.IntN(len(reports))]
	e.Get("/expense-report/"+id, acme, "").Status(t, 200).Decode(t, &report)
	e.Patch("/expense-report/"+id, acme, "", map[string]any{"updatedByUserId": "u_bob",
		"documentIds": append(report.DocumentIDs, upload(99))}).Status(t, 200)
	upload(100)
	return uploaded
}

// TestExportedDocumentsKeepTheirBytes: the receipts and the logo a world
// was given are, in its export, the same files under the same ids, and a
// file the API would refuse is refused by the load too.
func TestExportedDocumentsKeepTheirBytes(t *testing.T) {
	e := apitest.New(t, apitest.Options{})
	docs := randomDocuments(t, e, 7)
	copy, raw := exported(t, e)
	if len(docs) < 4 || slices.Contains(docs, "") {
		t.Fatalf("uploaded %v: too little to compare", docs)
	}
	for _, id := range docs {
		a := e.Do(apitest.Req{Method: http.MethodGet, Path: "/_sandbox/documents/" + id}).Status(t, 200)
		b := copy.Do(apitest.Req{Method: http.MethodGet, Path: "/_sandbox/documents/" + id}).Status(t, 200)
		if !bytes.Equal(a.Raw, b.Raw) || a.Header.Get("Content-Type") != b.Header.Get("Content-Type") {
			t.Errorf("document %s: %q (%s) in the world, %q (%s) in its export", id, a.Raw, a.Header.Get("Content-Type"),
				b.Raw, b.Header.Get("Content-Type"))
		}
	}
	// The export with a receipt's bytes swapped for text no upload takes.
	var sc map[string]any
	if err := yaml.Unmarshal(raw, &sc); err != nil {
		t.Fatal(err)
	}
	at := -1
	for i, d := range sc["documents"].([]any) {
		if d := d.(map[string]any); d["type"] == "receipt" && at < 0 {
			at, d["data"] = i, base64.StdEncoding.EncodeToString([]byte("plain text"))
		}
	}
	bad, err := yaml.Marshal(sc)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "bad.yaml")
	if err := os.WriteFile(file, bad, 0o600); err != nil {
		t.Fatal(err)
	}
	_, err = server.New(server.Config{Scenario: file, Log: zerolog.Nop()})
	if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("documents[%d].data: is no receipt", at)) ||
		!strings.Contains(err.Error(), "PNG, JPEG, WebP or PDF") {
		t.Fatalf("loading a receipt of plain text: %v", err)
	}
}
