package api_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/apitest"
)

func contactBody() map[string]any {
	return map[string]any{"name": "Gizmo Parts", "recipientType": "vendor", "recipientLegalName": "Gizmo Parts LLC",
		"recipientEmail": "ap@gizmo.test",
		"address": map[string]any{
			"addressLine":    "9 Dock Rd",
			"addressCity":    "Oakland",
			"addressState":   "CA",
			"addressZip":     "94607",
			"addressCountry": "US",
		}}
}

func TestContactsCreateReadReplace(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	c := arMap(arDo(e, http.MethodPost, "/contact", apitest.AcmeKey, contactBody()).Status(t, 200).JSON(t), "contact")
	id, _ := c["id"].(string)
	if !strings.HasPrefix(id, "le_c_") || c["recipientLegalName"] != "Gizmo Parts LLC" ||
		arMap(c, "address")["addressZip"] != "94607" {
		t.Fatalf("created contact = %v", c)
	}
	if got := arMap(e.Get("/contact/"+id, apitest.AcmeKey, "").Status(t, 200).JSON(t),
		"contact"); got["name"] != "Gizmo Parts" {
		t.Fatalf("read back = %v", got)
	}
	found := arItems(e.Get("/contact?filter:name=gizmo", apitest.AcmeKey, "").Status(t, 200).JSON(t))
	if len(found) != 1 || found[0]["id"] != id {
		t.Fatalf("filter:name=gizmo = %v", found)
	}
	all := arItems(e.Get("/contact", apitest.AcmeKey, "").Status(t, 200).JSON(t))
	if len(all) != 8 || all[len(all)-1]["id"] != id {
		t.Fatalf("acme's contacts = %d, newest last", len(all))
	}
	walkin := arMap(e.Get("/contact/le_c_walkincourier", apitest.AcmeKey, "").Status(t, 200).JSON(t), "contact")
	if _, has := walkin["recipientEmail"]; has {
		t.Fatalf("a contact without an email shows one: %v", walkin)
	}
	partial := map[string]any{"name": "Gizmo"}
	d := apitest.Details(
		t,
		arDo(e, http.MethodPatch, "/contact/"+id, apitest.AcmeKey, partial).Gen1(t, 400, "invalid_request"),
	)
	for _, f := range []string{"/recipientType", "/recipientLegalName", "/recipientEmail", "/address"} {
		if d[f] == nil {
			t.Errorf("PATCH without %s was not refused: %v", f, d)
		}
	}
	full := contactBody()
	full["name"], full["recipientType"] = "Gizmo Parts & Co", "contact"
	got := arMap(arDo(e, http.MethodPatch, "/contact/"+id, apitest.AcmeKey, full).Status(t, 200).JSON(t), "contact")
	if got["name"] != "Gizmo Parts & Co" || got["recipientType"] != "contact" {
		t.Fatalf("replaced = %v", got)
	}
	if r := e.Get("/contact/"+id+"/ach-debit-recurring", apitest.AcmeKey, "").Status(t,
		200).JSON(t); r["hasActiveRecurringAuth"] != false {
		t.Fatalf("ach-debit-recurring = %v", r)
	}
	for name, body := range map[string]map[string]any{
		"bad email": {"name": "X", "recipientType": "vendor", "recipientLegalName": "X",
			"recipientEmail": "not-an-email"},
		"bad type":     {"name": "X", "recipientType": "supplier", "recipientLegalName": "X"},
		"missing name": {"recipientType": "vendor", "recipientLegalName": "X"},
		"bad country": {"name": "X", "recipientType": "vendor", "recipientLegalName": "X",
			"address": map[string]any{"addressLine": "1", "addressCity": "c", "addressState": "s", "addressZip": "z",
				"addressCountry": "USA"}},
		"unknown field": {"name": "X", "recipientType": "vendor", "recipientLegalName": "X", "iban": "DE"},
	} {
		t.Run(name, func(t *testing.T) {
			arDo(e, http.MethodPost, "/contact", apitest.AcmeKey, body).Gen1(t, 400, "invalid_request")
		})
	}
}

func TestContactsStayInTheirEntity(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	e.Get("/contact/le_c_northwindsupply", apitest.GlobexKey, "").Gen1(t, 404, "not_found")
	e.Get("/contact/le_c_northwindsupply/ach-debit-recurring", apitest.GlobexKey, "").Gen1(t, 404, "not_found")
	arDo(
		e,
		http.MethodPatch,
		"/contact/le_c_northwindsupply",
		apitest.GlobexKey,
		contactBody(),
	).Gen1(t, 404, "not_found")
	if got := arItems(e.Get("/contact", apitest.GlobexKey, "").Status(t, 200).JSON(t)); len(got) != 1 ||
		got[0]["id"] != "le_c_tankerfuel" {
		t.Fatalf("globex's contacts = %v", got)
	}
	e.Get("/contact?filter:legalEntityId=le_globex", apitest.AcmeKey, "").Gen1(t, 403, "forbidden")
	apitest.Deferred(t, arDo(e, http.MethodPost, "/contact", apitest.AcmeRO, contactBody()))
	if got := arItems(e.Get("/contact?filter:name=gizmo", apitest.AcmeKey, "").Status(t, 200).JSON(t)); len(got) != 0 {
		t.Fatalf("a deferred create made %v", got)
	}
}

func TestContactDestinations(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	items := taskIDs(arItems(e.Get("/contact/destination", apitest.AcmeKey, "").Status(t, 200).JSON(t)))
	if items["le_c_dest_danacrypto"] != nil {
		t.Fatal("a crypto address is listed")
	}
	rails := func(id string) []string {
		var out []string
		for _, r := range items[id]["eligibleTransactionTypes"].([]any) {
			out = append(out, r.(string))
		}
		return out
	}
	for id, want := range map[string][]string{
		"le_c_dest_northwindach": {"ach", "wire", "rtp"},
		"le_c_dest_danaach":      {"ach", "wire"},
		"le_c_dest_bluefiniban":  {"international_wire"},
	} {
		if got := rails(id); !slices.Equal(got, want) {
			t.Errorf("%s eligible for %v, want %v", id, got, want)
		}
	}
	if b := arMap(items["le_c_dest_northwindach"], "bankAccount"); b["accountNumberLast4"] != "6789" ||
		b["routingNumber"] != "021000021" {
		t.Fatalf("bank account = %v", b)
	}
	if items["le_c_dest_tankerach"] != nil {
		t.Fatal("globex's destination is listed for acme")
	}
	dana := arItems(
		e.Get("/contact/destination?filter:contactId=le_c_danaconsulting", apitest.AcmeKey, "").Status(t, 200).JSON(t),
	)
	if len(dana) != 1 || dana[0]["id"] != "le_c_dest_danaach" {
		t.Fatalf("dana's destinations = %v", dana)
	}
	e.Get("/contact/destination?filter:contactId=le_c_tankerfuel", apitest.AcmeKey, "").Gen1(t, 404, "not_found")

	path := "/contact/destination/le_c_dest_danaach"
	d := apitest.Details(
		t,
		arDo(
			e,
			http.MethodPatch,
			path,
			apitest.AcmeKey,
			map[string]any{"routingNumber": "011000139"},
		).Gen1(t, 400, "invalid_request"),
	)
	if !strings.Contains(d["/routingNumber"].(string), "checksum") {
		t.Fatalf("details = %v", d)
	}
	arDo(
		e,
		http.MethodPatch,
		path,
		apitest.AcmeKey,
		map[string]any{"iban": "DE89370400440532013000"},
	).Gen1(t, 400, "invalid_request")
	arDo(
		e,
		"PATCH",
		"/contact/destination/le_c_dest_bluefiniban",
		apitest.AcmeKey,
		map[string]any{"iban": "DE89370400440532013001"},
	).Gen1(t, 400, "invalid_request")
	arDo(e, "PATCH", "/contact/destination/le_c_dest_danacrypto", apitest.AcmeKey,
		map[string]any{"name": "x"}).Gen1(t, 404, "not_found")
	arDo(e, "PATCH", "/contact/destination/le_c_dest_tankerach", apitest.AcmeKey,
		map[string]any{"name": "x"}).Gen1(t, 404, "not_found")
	got := arMap(
		arDo(
			e,
			http.MethodPatch,
			path,
			apitest.AcmeKey,
			map[string]any{"name": "Dana checking", "routingNumber": "021000021",
				"accountNumber": "11112222", "accountType": "checking"},
		).Status(t, 200).
			JSON(t),
		"destination",
	)
	if got["name"] != "Dana checking" || arMap(got, "bankAccount")["accountNumberLast4"] != "2222" ||
		len(got["eligibleTransactionTypes"].([]any)) != 3 {
		t.Fatalf("updated destination = %v", got)
	}
	intl := arMap(arDo(
		e,
		http.MethodPatch,
		"/contact/destination/le_c_dest_bluefiniban",
		apitest.AcmeKey,
		map[string]any{
			"iban":        "GB82WEST12345698765432",
			"swift":       "NWBKGB2L",
			"bankCountry": "GB",
		},
	).Status(t, 200).JSON(t), "destination")
	if w := arMap(intl, "internationalWire"); w["ibanLast4"] != "5432" || w["bankCountry"] != "GB" {
		t.Fatalf("updated international destination = %v", intl)
	}
}
