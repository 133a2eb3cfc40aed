package api_test

import (
	"bytes"
	"net/http"
	"strings"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/apitest"
)

// pngBytes is a PNG signature followed by n bytes of padding: enough for
// the sandbox, which checks content by its first bytes.
func pngBytes(n int) []byte {
	return append([]byte("\x89PNG\r\n\x1a\n"), bytes.Repeat([]byte{0x42}, n)...)
}

func settings(t *testing.T, e *apitest.Env, key string) map[string]any {
	t.Helper()
	return arMap(e.Get("/invoice/settings", key, "").Status(t, 200).JSON(t), "invoiceSettings")
}

func TestInvoiceSettingsReadAndReplace(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	s := settings(t, e, apitest.AcmeKey)
	if s["$entity"] != "invoice_settings" || s["legalEntityId"] != "le_acme" ||
		arMap(s, "settings")["email"] != "billing@acme.test" {
		t.Fatalf("acme settings = %v", s)
	}
	g := arMap(settings(t, e, apitest.GlobexKey), "settings")
	if g["companyName"] != "Globex Logistics LLC" || g["email"] != "alice@acme.test" ||
		arMap(g, "address")["addressLine"] == "" {
		t.Fatalf("derived globex settings = %v", g)
	}
	good := map[string]any{"companyName": "Acme Robotics", "email": "ar@acme.test", "defaultPaymentTermsDays": 15,
		"address": map[string]any{
			"addressLine":  "1 Main St",
			"addressCity":  "San Jose",
			"addressState": "CA",
			"addressZip":   "95113",
		},
		"branding": map[string]any{"backgroundColor": "#112233"}, "unitPriceDecimalPlaces": 4}
	bad := map[string]any{
		"companyName":            "",
		"email":                  "nope",
		"branding":               map[string]any{"titleColor": "red"},
		"unitPriceDecimalPlaces": 9,
	}
	d := apitest.Details(
		t,
		arDo(e, http.MethodPut, "/invoice/settings", apitest.AcmeKey, bad).Gen1(t, 400, "invalid_request"),
	)
	for _, f := range []string{"/companyName", "/email", "/address", "/branding/titleColor", "/unitPriceDecimalPlaces"} {
		if d[f] == nil {
			t.Errorf("details lack %s: %v", f, d)
		}
	}
	put := arMap(
		arDo(e, http.MethodPut, "/invoice/settings", apitest.AcmeKey, good).Status(t, 200).JSON(t),
		"invoiceSettings",
		"settings",
	)
	if put["companyName"] != "Acme Robotics" || put["defaultMemo"] != nil ||
		arMap(put, "branding")["backgroundColor"] != "#112233" {
		t.Fatalf("replaced settings = %v", put)
	}
	if got := arMap(settings(t, e, apitest.AcmeKey), "settings"); got["email"] != "ar@acme.test" ||
		got["unitPriceDecimalPlaces"] != float64(4) {
		t.Fatalf("settings read back = %v", got)
	}
	good["logoDocumentId"] = "doc_nope"
	arDo(e, http.MethodPut, "/invoice/settings", apitest.AcmeKey, good).Gen1(t, 404, "not_found")
	e.Get("/invoice/settings?filter:legalEntityId=le_globex", apitest.AliceKey, "le_acme").
		Gen1(t, 400, "invalid_request")
}

func TestInvoiceLogoUpload(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	logo := pngBytes(1000)
	r := apitest.Upload(e, "/invoice/settings/logo", apitest.AcmeKey, "file", "logo.png", logo).Status(t, 200).JSON(t)
	id, _ := r["documentId"].(string)
	url, _ := r["url"].(string)
	if !strings.HasPrefix(id, "doc_") || url != e.Server.URL+"/_sandbox/documents/"+id {
		t.Fatalf("upload = %v", r)
	}
	served := e.Get(strings.TrimPrefix(url, e.Server.URL), "", "").Status(t, 200)
	if ct := served.Header.Get("Content-Type"); ct != "image/png" || !bytes.Equal(served.Raw, logo) {
		t.Fatalf("served %s, %d bytes", ct, len(served.Raw))
	}
	if got := arMap(settings(t, e, apitest.AcmeKey), "settings")["logoDocumentId"]; got != id {
		t.Fatalf("logoDocumentId = %v, want %s", got, id)
	}
	svg := apitest.Upload(
		e,
		"/invoice/settings/logo",
		apitest.AcmeKey,
		"file",
		"logo.svg",
		[]byte(`<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"/>`),
	).Status(t, 200).
		JSON(t)
	doc := e.Get("/_sandbox/documents/"+svg["documentId"].(string), "", "").Status(t, 200)
	if ct := doc.Header.Get("Content-Type"); ct != "image/svg+xml" {
		t.Fatalf("svg served as %s", ct)
	}
	t.Run("refusals", func(t *testing.T) {
		d := apitest.Details(
			t,
			apitest.Upload(
				e,
				"/invoice/settings/logo",
				apitest.AcmeKey,
				"file",
				"logo.png",
				[]byte("just text, named .png"),
			).Gen1(t, 400, "invalid_request"),
		)
		if !strings.Contains(d["file"].(string), "PNG, JPEG, SVG or WebP") {
			t.Fatalf("wrong type details = %v", d)
		}
		apitest.Upload(
			e,
			"/invoice/settings/logo",
			apitest.AcmeKey,
			"file",
			"doc.pdf",
			[]byte("%PDF-1.7 ..."),
		).Gen1(t, 400, "invalid_request")
		r := apitest.Upload(
			e,
			"/invoice/settings/logo",
			apitest.AcmeKey,
			"file",
			"big.png",
			pngBytes(2<<20),
		).Gen1(t, 413, "payload_too_large")
		if !strings.Contains(r["message"].(string), "2 MiB") {
			t.Fatalf("too large: %v", r)
		}
		apitest.Upload(e, "/invoice/settings/logo", apitest.AcmeKey, "file", "huge.png", pngBytes(6<<20)).
			Gen1(t, 413, "payload_too_large")
		apitest.Upload(e, "/invoice/settings/logo", apitest.AcmeKey, "logo", "logo.png", logo).
			Gen1(t, 400, "invalid_request")
		arDo(
			e,
			http.MethodPost,
			"/invoice/settings/logo",
			apitest.AcmeKey,
			`{"file":"x"}`,
		).Gen1(t, 415, "unsupported_media_type")
		e.Get("/_sandbox/documents/doc_nope", "", "").Gen2(t, 404, "not_found")
		if got := arMap(settings(t, e, apitest.AcmeKey), "settings")["logoDocumentId"]; got != svg["documentId"] {
			t.Fatalf("a refused upload changed the logo to %v", got)
		}
	})
	t.Run("a read-only upload waits for approval, then runs", func(t *testing.T) {
		before := arMap(settings(t, e, apitest.AcmeKey), "settings")["logoDocumentId"]
		ar := apitest.Deferred(t, apitest.Upload(e, "/invoice/settings/logo", apitest.AcmeRO, "file", "ro.png", logo))
		if now := arMap(settings(t, e, apitest.AcmeKey), "settings")["logoDocumentId"]; now != before {
			t.Fatalf("deferred upload: id %q, logo %v (was %v)", ar, now, before)
		}
		done := e.Do(apitest.Req{Method: http.MethodPost, Path: "/_sandbox/agent-requests/" + ar + "/approve"}).
			Status(t, 200).
			JSON(t)
		if done["status"] != "executed" {
			t.Fatalf("approved upload = %v", done)
		}
		if now := arMap(settings(t, e, apitest.AcmeKey), "settings")["logoDocumentId"]; now == before ||
			now != arMap(done, "result")["documentId"] {
			t.Fatalf("after approval logo = %v, result %v", now, done["result"])
		}
	})
}

// A document uploaded in a spawned world is served at that world's path,
// and the default world does not have it.
func TestUploadedDocumentURLNamesItsWorld(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	e.Do(apitest.Req{Method: http.MethodPost, Path: "/_sandbox/worlds", Body: `{"scenario":"demo","id":"w7"}`}).
		Status(t, http.StatusCreated)
	logo := pngBytes(500)
	r := apitest.Upload(e, "/invoice/settings/logo", apitest.AcmeKey+"_w7", "file", "logo.png", logo).
		Status(t, 200).
		JSON(t)
	id, _ := r["documentId"].(string)
	url, _ := r["url"].(string)
	if url != e.Server.URL+"/_sandbox/worlds/w7/documents/"+id {
		t.Fatalf("upload in w7 = %v", r)
	}
	served := e.Get(strings.TrimPrefix(url, e.Server.URL), "", "").Status(t, 200)
	if !bytes.Equal(served.Raw, logo) {
		t.Fatalf("w7 served %d bytes, not the logo", len(served.Raw))
	}
	e.Get("/_sandbox/documents/"+id, "", "").Gen2(t, 404, "not_found")
}
