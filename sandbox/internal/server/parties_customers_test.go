package server_test

import (
	"net/http"
	"strings"
	"testing"
)

func TestCustomersCreateUpdateAndArchive(t *testing.T) {
	e := newEnv(t, options{})
	body := map[string]any{
		"name":           "Soylent Corp",
		"email":          "ap@soylent.test",
		"phone":          "+1 212 555 0199",
		"customMetadata": map[string]any{"tier": "gold"},
	}
	c := arMap(arDo(e, http.MethodPost, "/customer", acmeKey, body).status(t, 200).json(t), "customer")
	id, _ := c["id"].(string)
	if !strings.HasPrefix(id, "le_cust_") || c["status"] != "active" || arMap(c, "customMetadata")["tier"] != "gold" {
		t.Fatalf("created = %v", c)
	}
	if got := arItems(e.get("/customer?filter:name=soy", acmeKey, "").status(t, 200).json(t)); len(got) != 1 ||
		got[0]["id"] != id {
		t.Fatalf("filter:name = %v", got)
	}
	archived := arMap(
		arDo(e, http.MethodPatch, "/customer/"+id, acmeKey,
			map[string]any{"status": "archived", "phone": nil}).status(t, 200).
			json(t),
		"customer",
	)
	if archived["status"] != "archived" || archived["phone"] != nil || archived["email"] != "ap@soylent.test" {
		t.Fatalf("archived = %v", archived)
	}
	for _, it := range arItems(e.get("/customer?filter:status=archived", acmeKey, "").status(t, 200).json(t)) {
		if it["status"] != "archived" {
			t.Fatalf("filter:status=archived listed %v", it)
		}
	}
	invoice := arInvoice("SOY-1", "2026-06-15", "2026-07-15", 100)
	invoice["legalEntityCustomerId"] = id
	arDo(e, http.MethodPost, "/invoice", acmeKey, invoice).gen1(t, 400, "invalid_request")
	arDo(e, http.MethodPatch, "/customer/"+id, acmeKey, map[string]any{"status": "active"}).status(t, 200)
	arDo(e, http.MethodPost, "/invoice", acmeKey, invoice).status(t, 200)

	if r := e.get("/customer/le_cust_hooli/ach-debit-recurring", acmeKey, "").status(t,
		200).json(t); r["hasActiveRecurringAuth"] != true {
		t.Fatalf("hooli's recurring authorization = %v", r)
	}
	if r := e.get("/customer/"+id+"/ach-debit-recurring", acmeKey, "").status(t,
		200).json(t); r["hasActiveRecurringAuth"] != false {
		t.Fatalf("a new customer's recurring authorization = %v", r)
	}
	for name, b := range map[string]map[string]any{
		"missing email":  {"name": "X"},
		"bad email":      {"name": "X", "email": "x@"},
		"bad metadata":   {"name": "X", "email": "x@x.test", "customMetadata": []any{1}},
		"address fields": {"name": "X", "email": "x@x.test", "address": map[string]any{"addressLine": "1"}},
	} {
		t.Run(name, func(t *testing.T) {
			arDo(e, http.MethodPost, "/customer", acmeKey, b).gen1(t, 400, "invalid_request")
		})
	}
	arDo(
		e,
		http.MethodPatch,
		"/customer/"+id,
		acmeKey,
		map[string]any{"status": "deleted"},
	).gen1(t, 400, "invalid_request")
	e.get("/customer?filter:status=gone", acmeKey, "").gen1(t, 400, "invalid_request")
	e.get("/customer/le_cust_initech", globexKey, "").gen1(t, 404, "not_found")
	e.get("/customer/le_cust_initech/ach-debit-recurring", globexKey, "").gen1(t, 404, "not_found")
	deferred(t, arDo(e, http.MethodPatch, "/customer/le_cust_initech", acmeRO, map[string]any{"status": "archived"}))
	if got := arMap(e.get("/customer/le_cust_initech", acmeKey, "").status(t, 200).json(t),
		"customer"); got["status"] != "active" {
		t.Fatalf("a deferred archive changed the customer: %v", got)
	}
}
