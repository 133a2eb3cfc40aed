package api

import (
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/gorilla/mux"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/devapps"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/openapi"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/web"
)

func (a *API) routesDeveloperApps(r *mux.Router, docs *openapi.Registry) {
	describeDeveloperApps(docs)
	web.Route(r, web.Gen1, http.MethodPost, "/developer-account/{developerAccountId}/application",
		"developer_application.create", a.createDeveloperApp)
	web.Route(r, web.Gen1, http.MethodGet, "/developer-application/{developerApplicationId}", "developer_application.get",
		a.getDeveloperApp)
	web.Route(r, web.Gen1, http.MethodPatch, "/developer-application/{developerApplicationId}",
		"developer_application.update", a.updateDeveloperApp)
	a.shows("developer_application.update", currentDeveloperApp)
	web.Route(r, web.Gen1, http.MethodPost, "/developer-application/{developerApplicationId}/secret",
		"developer_application.secret.rotate", a.rotateDeveloperAppSecret)
}

// permissionKeys are the scopes a developer application may request.
var permissionKeys = strings.Fields(`legal_entity.home.view legal_entity.view legal_entity.users.view
legal_entity.users.modify legal_entity.users.card_groups.view legal_entity.users.card_groups.modify
legal_entity.subscriptions.view legal_entity.subscriptions.modify legal_entity.accounting.view
legal_entity.accounting.modify legal_entity.contacts.view legal_entity.contacts.modify
legal_entity.third_party_credentials.view legal_entity.third_party_credentials.modify
legal_entity.authorized_third_parties.view legal_entity.authorized_third_parties.modify
legal_entity.api_key.view legal_entity.api_key.modify legal_entity.applications.view
legal_entity.applications.modify legal_entity.permission_roles.view legal_entity.automation_rules.view
legal_entity.automation_rules.modify legal_entity.developer_account.view legal_entity.developer_account.modify
legal_entity.cashback.view legal_entity.cashback.modify legal_entity.webhooks.view legal_entity.webhooks.modify
legal_entity.ticket_reconciliation.view legal_entity.analytics.view legal_entity.transactions.crypto_deposit.accelerate
slash_accounts.view slash_accounts.home.view slash_accounts.cards.physical.view slash_accounts.cards.physical.modify
slash_accounts.cards.virtual.view slash_accounts.cards.virtual.modify slash_accounts.incoming_transactions.view
slash_accounts.transactions.view slash_accounts.transactions.ach_pull.initiate` +
	` slash_accounts.transactions.ach_push.initiate
slash_accounts.transactions.wire.initiate slash_accounts.transactions.between_accounts.initiate
slash_accounts.transactions.rtp.initiate slash_accounts.balance.view slash_accounts.subaccounts.view
slash_accounts.subaccounts.modify slash_accounts.merchant_allowlist.view slash_accounts.merchant_allowlist.modify
slash_accounts.integrations.view slash_accounts.integrations.modify`)

// developerApp is DeveloperApplicationModel: the secret shows only when it
// is created or rotated.
type developerApp struct {
	ID                 string                   `json:"id"`
	DeveloperAccountID string                   `json:"developerAccountId"`
	Name               string                   `json:"name"`
	Status             string                   `json:"status" enum:"test,under_review,production"`
	Type               string                   `json:"type" enum:"service"`
	Data               devapps.DeveloperAppData `json:"data"`
	Timestamp          string                   `json:"timestamp"`
	OAuthClientID      string                   `json:"oauthClientId,omitempty"`
	OAuthClientSecret  string                   `json:"oauthClientSecret,omitempty"`
}

type developerAppCreate struct {
	Name string                   `json:"name"`
	Type string                   `json:"type" enum:"service"`
	Data devapps.DeveloperAppData `json:"data"`
}

type developerAppPatch struct {
	Name *string                   `json:"name,omitempty"`
	Data *devapps.DeveloperAppData `json:"data,omitempty"`
}

// describeDeveloperApps adds the descriptions of these routes, and
// the components they name, to docs.
func describeDeveloperApps(docs *openapi.Registry) {
	docs.Component("DeveloperApplicationData", devapps.DeveloperAppData{})
	docs.Component("DeveloperApplication", developerApp{})
	docs.Describe("developer_application.create", keyed(openapi.Op{Summary: "Create a developer application",
		Description: "In the sandbox a legal entity is its own developer account: developerAccountId is the legal entity" +
			" id. The response carries the client secret.",
		Security: openapi.APIKeyOnly, Body: developerAppCreate{}, Response: developerApp{}}))
	docs.Describe("developer_application.get",
		openapi.Op{Summary: "Get a developer application", Security: openapi.APIKeyOnly, Response: developerApp{}})
	docs.Describe("developer_application.update", openapi.Op{Summary: "Rename an application or replace its data",
		Security: openapi.APIKeyOnly, Body: developerAppPatch{}, Response: developerApp{}})
	docs.Describe("developer_application.secret.rotate", openapi.Op{Summary: "Rotate the client secret",
		Description: "The old secret stops working at once; the response carries the new one.", Security: openapi.APIKeyOnly,
		Response: developerApp{}})
}

func developerAppView(app *devapps.DeveloperApp, withSecret bool) developerApp {
	v := developerApp{ID: app.ID, DeveloperAccountID: app.DeveloperAccountID, Name: app.Name, Status: app.Status,
		Type: app.Type, Data: app.Data, Timestamp: timestamp(app.CreatedAt), OAuthClientID: app.ClientID}
	if withSecret {
		v.OAuthClientSecret = app.ClientSecret
	}
	if v.Data.Scopes == nil {
		v.Data.Scopes = []string{}
	}
	if v.Data.AllowedOrigins == nil {
		v.Data.AllowedOrigins = []string{}
	}
	return v
}

// checkAppData validates DeveloperApplicationData.
func checkAppData(d *devapps.DeveloperAppData, at string) map[string]string {
	bad := map[string]string{}
	if strings.TrimSpace(d.Description) == "" {
		bad[at+"/description"] = "required"
	}
	if d.Type != "service" {
		bad[at+"/type"] = "must be service"
	}
	if d.Scopes == nil {
		bad[at+"/scopes"] = "required"
	}
	for _, s := range d.Scopes {
		if !slices.Contains(permissionKeys, s) {
			bad[at+"/scopes"] = "unknown permission " + s
		}
	}
	if d.AllowedOrigins == nil {
		bad[at+"/allowedOrigins"] = "required"
	}
	for _, u := range d.RedirectURIs {
		if p, err := url.Parse(u); err != nil || p.Scheme == "" || p.Host == "" || p.Fragment != "" {
			bad[at+"/redirectUris"] = "must be absolute URLs without a fragment: " + u
		}
	}
	return bad
}

func (a *API) createDeveloperApp(r *http.Request) (any, error) {
	var body developerAppCreate
	return a.doWrite(r, write{gen: web.Gen1, idem: idemOptional, apiKeyOnly: true,
		input: func(c *call, raw []byte) error {
			if err := web.DecodeBytes(raw, &body, true); err != nil {
				return err
			}
			bad := checkAppData(&body.Data, "/data")
			if strings.TrimSpace(body.Name) == "" {
				bad["/name"] = "required"
			}
			if body.Type != "service" {
				bad["/type"] = "must be service"
			}
			if len(bad) > 0 {
				return kernel.Invalid(bad)
			}
			return nil
		},
		run: func(op *kernel.Op, c *call) (any, error) {
			app, err := devapps.CreateDeveloperApp(op, c.Actor, mux.Vars(r)["developerAccountId"], body.Name, body.Data)
			if err != nil {
				return nil, err
			}
			return developerAppView(app, true), nil
		}})
}

func (a *API) getDeveloperApp(r *http.Request) (any, error) {
	c, err := a.auth(r, authOpts{gen: web.Gen1, apiKeyOnly: true})
	if err != nil {
		return nil, err
	}
	var app *devapps.DeveloperApp
	err = c.view(func(op *kernel.Op) error {
		app, err = devapps.DeveloperAppOf(op, c.Actor, mux.Vars(r)["developerApplicationId"])
		return err
	})
	if err != nil {
		return nil, err
	}
	return developerAppView(app, false), nil
}

func (a *API) updateDeveloperApp(r *http.Request) (any, error) {
	var body developerAppPatch
	return a.doWrite(r, write{gen: web.Gen1, apiKeyOnly: true,
		input: func(c *call, raw []byte) error {
			var fields map[string]json.RawMessage
			if err := web.DecodeBytes(raw, &fields, false); err != nil {
				return err
			}
			if err := web.DecodeBytes(raw, &body, true); err != nil {
				return err
			}
			bad := map[string]string{}
			if body.Data != nil {
				bad = checkAppData(body.Data, "/data")
			} else if _, sent := fields["data"]; sent {
				bad["/data"] = "must be an object"
			}
			if _, sent := fields["name"]; sent && (body.Name == nil || strings.TrimSpace(*body.Name) == "") {
				bad["/name"] = "must be a non-empty string"
			}
			if len(bad) > 0 {
				return kernel.Invalid(bad)
			}
			return nil
		},
		run: func(op *kernel.Op, c *call) (any, error) {
			app, err := devapps.UpdateDeveloperApp(op, c.Actor, mux.Vars(r)["developerApplicationId"], body.Name, body.Data)
			if err != nil {
				return nil, err
			}
			return developerAppView(app, false), nil
		}})
}

func (a *API) rotateDeveloperAppSecret(r *http.Request) (any, error) {
	return a.doWrite(r, write{gen: web.Gen1, apiKeyOnly: true, noBody: true,
		run: func(op *kernel.Op, c *call) (any, error) {
			app, err := devapps.RotateDeveloperAppSecret(op, c.Actor, mux.Vars(r)["developerApplicationId"])
			if err != nil {
				return nil, err
			}
			return developerAppView(app, true), nil
		}})
}

// currentDeveloperApp is a developer application as GET shows it.
func currentDeveloperApp(op *kernel.Op, c *call, vars map[string]string) (any, error) {
	app, err := devapps.DeveloperAppOf(op, c.Actor, vars["developerApplicationId"])
	if err != nil {
		return nil, err
	}
	return developerAppView(app, false), nil
}
