package api_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/apitest"
)

func TestCustomersCreateUpdateAndArchive(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	body := map[string]any{
		"name":           "Soylent Corp",
		"email":          "ap@soylent.test",
		"phone":          "+1 212 555 0199",
		"customMetadata": map[string]any{"tier": "gold"},
	}
	c := arMap(arDo(e, http.MethodPost, "/customer", apitest.AcmeKey, body).Status(t, 200).JSON(t), "customer")
	id, _ := c["id"].(string)
	if !strings.HasPrefix(id, "le_cust_") || c["status"] != "active" || arMap(c, "customMetadata")["tier"] != "gold" {
		t.Fatalf("created = %v", c)
	}
	if got := arItems(e.Get("/customer?filter:name=soy", apitest.AcmeKey, "").Status(t, 200).JSON(t)); len(got) != 1 ||
		got[0]["id"] != id {
		t.Fatalf("filter:name = %v", got)
	}
	archived := arMap(
		arDo(e, http.MethodPatch, "/customer/"+id, apitest.AcmeKey,
			map[string]any{"status": "archived", "phone": nil}).Status(t, 200).
			JSON(t),
		"customer",
	)
	if archived["status"] != "archived" || archived["phone"] != nil || archived["email"] != "ap@soylent.test" {
		t.Fatalf("archived = %v", archived)
	}
	for _, it := range arItems(e.Get("/customer?filter:status=archived", apitest.AcmeKey, "").Status(t, 200).JSON(t)) {
		if it["status"] != "archived" {
			t.Fatalf("filter:status=archived listed %v", it)
		}
	}
	invoice := apitest.InvoiceBody("SOY-1", "2026-06-15", "2026-07-15", 100)
	invoice["legalEntityCustomerId"] = id
	arDo(e, http.MethodPost, "/invoice", apitest.AcmeKey, invoice).Gen1(t, 400, "invalid_request")
	arDo(e, http.MethodPatch, "/customer/"+id, apitest.AcmeKey, map[string]any{"status": "active"}).Status(t, 200)
	arDo(e, http.MethodPost, "/invoice", apitest.AcmeKey, invoice).Status(t, 200)

	if r := e.Get("/customer/le_cust_hooli/ach-debit-recurring", apitest.AcmeKey, "").Status(t,
		200).JSON(t); r["hasActiveRecurringAuth"] != true {
		t.Fatalf("hooli's recurring authorization = %v", r)
	}
	if r := e.Get("/customer/"+id+"/ach-debit-recurring", apitest.AcmeKey, "").Status(t,
		200).JSON(t); r["hasActiveRecurringAuth"] != false {
		t.Fatalf("a new customer's recurring authorization = %v", r)
	}
	for name, b := range map[string]map[string]any{
		"missing email":  {"name": "X"},
		"bad email":      {"name": "X", "email": "x@"},
		"bad metadata":   {"name": "X", "email": "x@x.test", "customMetadata": []any{1}},
		"address fields": {"name": "X", "email": "x@x.test", "address": map[string]any{"addressLine": "1"}},
	} {
		t.Run(name, func(t *testing.T) {
			arDo(e, http.MethodPost, "/customer", apitest.AcmeKey, b).Gen1(t, 400, "invalid_request")
		})
	}
	arDo(
		e,
		http.MethodPatch,
		"/customer/"+id,
		apitest.AcmeKey,
		map[string]any{"status": "deleted"},
	).Gen1(t, 400, "invalid_request")
	e.Get("/customer?filter:status=gone", apitest.AcmeKey, "").Gen1(t, 400, "invalid_request")
	e.Get("/customer/le_cust_initech", apitest.GlobexKey, "").Gen1(t, 404, "not_found")
	e.Get("/customer/le_cust_initech/ach-debit-recurring", apitest.GlobexKey, "").Gen1(t, 404, "not_found")
	apitest.Deferred(
		t,
		arDo(e, http.MethodPatch, "/customer/le_cust_initech", apitest.AcmeRO, map[string]any{"status": "archived"}),
	)
	if got := arMap(e.Get("/customer/le_cust_initech", apitest.AcmeKey, "").Status(t, 200).JSON(t),
		"customer"); got["status"] != "active" {
		t.Fatalf("a deferred archive changed the customer: %v", got)
	}
}
