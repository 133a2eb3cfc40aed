package api_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/apitest"
)

// An older version of the help center's "Issue and control cards" article
// names paths that neither the API reference, the SDKs nor the OpenAPI
// document has; the newer version uses the reference's. The sandbox serves
// the reference's paths only, so code written from the older article
// fails here as it would in production, and the answer names the route
// most likely meant.
func TestOlderCardArticlePathsAreNotServed(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	cases := []struct {
		method, path, body string
		status             int
		hint               string
	}{
		{http.MethodPost, "/slash-account/sa_group_acmeoperating/cards",
			`{"type":"virtual","count":2,"name":"Bulk"}`, 404, ""},
		{http.MethodPost, "/subaccount/subaccount_acmemarketing/cards",
			`{"type":"virtual","count":1,"name":"Bulk"}`, 404, ""},
		{http.MethodGet, "/cards/card_acmeaws", "", 404, "GET /card/{cardId}"},
		{http.MethodGet, "/cards/card_acmeaws/details", "", 404, ""},
		{http.MethodPatch, "/cards/card_acmeaws", `{"name":"x"}`, 404, "PATCH /card/{cardId}"},
		{http.MethodPost, "/cards/card_acmeaws/update", `{"action":"pause"}`, 404, ""},
		{http.MethodPatch, "/card-group/card_group_acmesaas/cards", `{"cardIds":["card_acmeaws"]}`, 404, ""},
		{http.MethodPut, "/card-group/card_group_acmesaas", `{"name":"x"}`, 405, ""},
	}
	for _, c := range cases {
		t.Run(c.method+" "+c.path, func(t *testing.T) {
			r := e.Do(apitest.Req{Method: c.method, Path: c.path, Key: apitest.AcmeKey, Body: c.body})
			if r.StatusCode != c.status {
				t.Fatalf("status %d, want %d: %s", r.StatusCode, c.status, r.Raw)
			}
			if msg, _ := r.JSON(t)["message"].(string); c.hint != "" && !strings.Contains(msg, "did you mean "+c.hint+"?") {
				t.Fatalf("message %q does not name %s", msg, c.hint)
			}
		})
	}
	if c := apitest.ReadCard(t, e, "card_acmeaws", ""); c.Name != "AWS production" || c.Status != "active" {
		t.Fatalf("card_acmeaws changed: %+v", c)
	}
}
