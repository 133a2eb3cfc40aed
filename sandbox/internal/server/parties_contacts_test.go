package server_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"
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
	e := newEnv(t, options{})
	c := arMap(arDo(e, http.MethodPost, "/contact", acmeKey, contactBody()).status(t, 200).json(t), "contact")
	id, _ := c["id"].(string)
	if !strings.HasPrefix(id, "le_c_") || c["recipientLegalName"] != "Gizmo Parts LLC" ||
		arMap(c, "address")["addressZip"] != "94607" {
		t.Fatalf("created contact = %v", c)
	}
	if got := arMap(e.get("/contact/"+id, acmeKey, "").status(t, 200).json(t), "contact"); got["name"] != "Gizmo Parts" {
		t.Fatalf("read back = %v", got)
	}
	found := arItems(e.get("/contact?filter:name=gizmo", acmeKey, "").status(t, 200).json(t))
	if len(found) != 1 || found[0]["id"] != id {
		t.Fatalf("filter:name=gizmo = %v", found)
	}
	all := arItems(e.get("/contact", acmeKey, "").status(t, 200).json(t))
	if len(all) != 8 || all[len(all)-1]["id"] != id {
		t.Fatalf("acme's contacts = %d, newest last", len(all))
	}
	walkin := arMap(e.get("/contact/le_c_walkincourier", acmeKey, "").status(t, 200).json(t), "contact")
	if _, has := walkin["recipientEmail"]; has {
		t.Fatalf("a contact without an email shows one: %v", walkin)
	}
	partial := map[string]any{"name": "Gizmo"}
	d := arDetails(t, arDo(e, http.MethodPatch, "/contact/"+id, acmeKey, partial).gen1(t, 400, "invalid_request"))
	for _, f := range []string{"/recipientType", "/recipientLegalName", "/recipientEmail", "/address"} {
		if d[f] == nil {
			t.Errorf("PATCH without %s was not refused: %v", f, d)
		}
	}
	full := contactBody()
	full["name"], full["recipientType"] = "Gizmo Parts & Co", "contact"
	got := arMap(arDo(e, http.MethodPatch, "/contact/"+id, acmeKey, full).status(t, 200).json(t), "contact")
	if got["name"] != "Gizmo Parts & Co" || got["recipientType"] != "contact" {
		t.Fatalf("replaced = %v", got)
	}
	if r := e.get("/contact/"+id+"/ach-debit-recurring", acmeKey, "").status(t,
		200).json(t); r["hasActiveRecurringAuth"] != false {
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
			arDo(e, http.MethodPost, "/contact", acmeKey, body).gen1(t, 400, "invalid_request")
		})
	}
}

func TestContactsStayInTheirEntity(t *testing.T) {
	e := newEnv(t, options{})
	e.get("/contact/le_c_northwindsupply", globexKey, "").gen1(t, 404, "not_found")
	e.get("/contact/le_c_northwindsupply/ach-debit-recurring", globexKey, "").gen1(t, 404, "not_found")
	arDo(e, http.MethodPatch, "/contact/le_c_northwindsupply", globexKey, contactBody()).gen1(t, 404, "not_found")
	if got := arItems(e.get("/contact", globexKey, "").status(t, 200).json(t)); len(got) != 1 ||
		got[0]["id"] != "le_c_tankerfuel" {
		t.Fatalf("globex's contacts = %v", got)
	}
	e.get("/contact?filter:legalEntityId=le_globex", acmeKey, "").gen1(t, 403, "forbidden")
	deferred(t, arDo(e, http.MethodPost, "/contact", acmeRO, contactBody()))
	if got := arItems(e.get("/contact?filter:name=gizmo", acmeKey, "").status(t, 200).json(t)); len(got) != 0 {
		t.Fatalf("a deferred create made %v", got)
	}
}

func TestContactDestinations(t *testing.T) {
	e := newEnv(t, options{})
	items := taskIDs(arItems(e.get("/contact/destination", acmeKey, "").status(t, 200).json(t)))
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
	dana := arItems(e.get("/contact/destination?filter:contactId=le_c_danaconsulting", acmeKey, "").status(t, 200).json(t))
	if len(dana) != 1 || dana[0]["id"] != "le_c_dest_danaach" {
		t.Fatalf("dana's destinations = %v", dana)
	}
	e.get("/contact/destination?filter:contactId=le_c_tankerfuel", acmeKey, "").gen1(t, 404, "not_found")

	path := "/contact/destination/le_c_dest_danaach"
	d := arDetails(
		t,
		arDo(
			e,
			http.MethodPatch,
			path,
			acmeKey,
			map[string]any{"routingNumber": "011000139"},
		).gen1(t, 400, "invalid_request"),
	)
	if !strings.Contains(d["/routingNumber"].(string), "checksum") {
		t.Fatalf("details = %v", d)
	}
	arDo(
		e,
		http.MethodPatch,
		path,
		acmeKey,
		map[string]any{"iban": "DE89370400440532013000"},
	).gen1(t, 400, "invalid_request")
	arDo(
		e,
		"PATCH",
		"/contact/destination/le_c_dest_bluefiniban",
		acmeKey,
		map[string]any{"iban": "DE89370400440532013001"},
	).gen1(t, 400, "invalid_request")
	arDo(e, "PATCH", "/contact/destination/le_c_dest_danacrypto", acmeKey,
		map[string]any{"name": "x"}).gen1(t, 404, "not_found")
	arDo(e, "PATCH", "/contact/destination/le_c_dest_tankerach", acmeKey,
		map[string]any{"name": "x"}).gen1(t, 404, "not_found")
	got := arMap(
		arDo(e, http.MethodPatch, path, acmeKey, map[string]any{"name": "Dana checking", "routingNumber": "021000021",
			"accountNumber": "11112222", "accountType": "checking"}).status(t, 200).json(t),
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
		acmeKey,
		map[string]any{
			"iban":        "GB82WEST12345698765432",
			"swift":       "NWBKGB2L",
			"bankCountry": "GB",
		},
	).status(t, 200).json(t), "destination")
	if w := arMap(intl, "internationalWire"); w["ibanLast4"] != "5432" || w["bankCountry"] != "GB" {
		t.Fatalf("updated international destination = %v", intl)
	}
}
