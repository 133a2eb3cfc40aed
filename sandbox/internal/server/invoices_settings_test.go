package server_test

import (
	"bytes"
	"net/http"
	"strings"
	"testing"
)

// pngBytes is a PNG signature followed by n bytes of padding: enough for
// the sandbox, which checks content by its first bytes.
func pngBytes(n int) []byte {
	return append([]byte("\x89PNG\r\n\x1a\n"), bytes.Repeat([]byte{0x42}, n)...)
}

func settings(t *testing.T, e *env, key string) map[string]any {
	t.Helper()
	return arMap(e.get("/invoice/settings", key, "").status(t, 200).json(t), "invoiceSettings")
}

func TestInvoiceSettingsReadAndReplace(t *testing.T) {
	e := newEnv(t, options{})
	s := settings(t, e, acmeKey)
	if s["$entity"] != "invoice_settings" || s["legalEntityId"] != "le_acme" ||
		arMap(s, "settings")["email"] != "billing@acme.test" {
		t.Fatalf("acme settings = %v", s)
	}
	g := arMap(settings(t, e, globexKey), "settings")
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
	d := arDetails(t, arDo(e, http.MethodPut, "/invoice/settings", acmeKey, bad).gen1(t, 400, "invalid_request"))
	for _, f := range []string{"/companyName", "/email", "/address", "/branding/titleColor", "/unitPriceDecimalPlaces"} {
		if d[f] == nil {
			t.Errorf("details lack %s: %v", f, d)
		}
	}
	put := arMap(arDo(e, http.MethodPut, "/invoice/settings", acmeKey, good).status(t, 200).json(t), "invoiceSettings",
		"settings")
	if put["companyName"] != "Acme Robotics" || put["defaultMemo"] != nil ||
		arMap(put, "branding")["backgroundColor"] != "#112233" {
		t.Fatalf("replaced settings = %v", put)
	}
	if got := arMap(settings(t, e, acmeKey), "settings"); got["email"] != "ar@acme.test" ||
		got["unitPriceDecimalPlaces"] != float64(4) {
		t.Fatalf("settings read back = %v", got)
	}
	good["logoDocumentId"] = "doc_nope"
	arDo(e, http.MethodPut, "/invoice/settings", acmeKey, good).gen1(t, 404, "not_found")
	e.get("/invoice/settings?filter:legalEntityId=le_globex", aliceKey, "le_acme").gen1(t, 400, "invalid_request")
}

func TestInvoiceLogoUpload(t *testing.T) {
	e := newEnv(t, options{})
	logo := pngBytes(1000)
	r := arUpload(e, "/invoice/settings/logo", acmeKey, "file", "logo.png", logo).status(t, 200).json(t)
	id, _ := r["documentId"].(string)
	url, _ := r["url"].(string)
	if !strings.HasPrefix(id, "doc_") || url != e.srv.URL+"/_sandbox/documents/"+id {
		t.Fatalf("upload = %v", r)
	}
	served := e.get(strings.TrimPrefix(url, e.srv.URL), "", "").status(t, 200)
	if ct := served.Header.Get("Content-Type"); ct != "image/png" || !bytes.Equal(served.body, logo) {
		t.Fatalf("served %s, %d bytes", ct, len(served.body))
	}
	if got := arMap(settings(t, e, acmeKey), "settings")["logoDocumentId"]; got != id {
		t.Fatalf("logoDocumentId = %v, want %s", got, id)
	}
	svg := arUpload(
		e,
		"/invoice/settings/logo",
		acmeKey,
		"file",
		"logo.svg",
		[]byte(`<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"/>`),
	).status(t, 200).
		json(t)
	doc := e.get("/_sandbox/documents/"+svg["documentId"].(string), "", "").status(t, 200)
	if ct := doc.Header.Get("Content-Type"); ct != "image/svg+xml" {
		t.Fatalf("svg served as %s", ct)
	}
	t.Run("refusals", func(t *testing.T) {
		d := arDetails(
			t,
			arUpload(
				e,
				"/invoice/settings/logo",
				acmeKey,
				"file",
				"logo.png",
				[]byte("just text, named .png"),
			).gen1(t, 400, "invalid_request"),
		)
		if !strings.Contains(d["file"].(string), "PNG, JPEG, SVG or WebP") {
			t.Fatalf("wrong type details = %v", d)
		}
		arUpload(
			e,
			"/invoice/settings/logo",
			acmeKey,
			"file",
			"doc.pdf",
			[]byte("%PDF-1.7 ..."),
		).gen1(t, 400, "invalid_request")
		r := arUpload(
			e,
			"/invoice/settings/logo",
			acmeKey,
			"file",
			"big.png",
			pngBytes(2<<20),
		).gen1(t, 413, "payload_too_large")
		if !strings.Contains(r["message"].(string), "2 MiB") {
			t.Fatalf("too large: %v", r)
		}
		arUpload(e, "/invoice/settings/logo", acmeKey, "file", "huge.png", pngBytes(6<<20)).gen1(t, 413, "payload_too_large")
		arUpload(e, "/invoice/settings/logo", acmeKey, "logo", "logo.png", logo).gen1(t, 400, "invalid_request")
		arDo(e, http.MethodPost, "/invoice/settings/logo", acmeKey, `{"file":"x"}`).gen1(t, 415, "unsupported_media_type")
		e.get("/_sandbox/documents/doc_nope", "", "").gen2(t, 404, "not_found")
		if got := arMap(settings(t, e, acmeKey), "settings")["logoDocumentId"]; got != svg["documentId"] {
			t.Fatalf("a refused upload changed the logo to %v", got)
		}
	})
	t.Run("a read-only upload waits for approval, then runs", func(t *testing.T) {
		before := arMap(settings(t, e, acmeKey), "settings")["logoDocumentId"]
		ar := deferred(t, arUpload(e, "/invoice/settings/logo", acmeRO, "file", "ro.png", logo))
		if now := arMap(settings(t, e, acmeKey), "settings")["logoDocumentId"]; now != before {
			t.Fatalf("deferred upload: id %q, logo %v (was %v)", ar, now, before)
		}
		done := e.do(req{method: http.MethodPost, path: "/_sandbox/agent-requests/" + ar + "/approve"}).status(t, 200).json(t)
		if done["status"] != "executed" {
			t.Fatalf("approved upload = %v", done)
		}
		if now := arMap(settings(t, e, acmeKey), "settings")["logoDocumentId"]; now == before ||
			now != arMap(done, "result")["documentId"] {
			t.Fatalf("after approval logo = %v, result %v", now, done["result"])
		}
	})
}

// A document uploaded in a spawned world is served at that world's path,
// and the default world does not have it.
func TestUploadedDocumentURLNamesItsWorld(t *testing.T) {
	e := newEnv(t, options{})
	e.do(req{method: http.MethodPost, path: "/_sandbox/worlds", body: `{"scenario":"demo","id":"w7"}`}).
		status(t, http.StatusCreated)
	logo := pngBytes(500)
	r := arUpload(e, "/invoice/settings/logo", acmeKey+"_w7", "file", "logo.png", logo).status(t, 200).json(t)
	id, _ := r["documentId"].(string)
	url, _ := r["url"].(string)
	if url != e.srv.URL+"/_sandbox/worlds/w7/documents/"+id {
		t.Fatalf("upload in w7 = %v", r)
	}
	served := e.get(strings.TrimPrefix(url, e.srv.URL), "", "").status(t, 200)
	if !bytes.Equal(served.body, logo) {
		t.Fatalf("w7 served %d bytes, not the logo", len(served.body))
	}
	e.get("/_sandbox/documents/"+id, "", "").gen2(t, 404, "not_found")
}
